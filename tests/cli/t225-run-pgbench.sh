#!/bin/bash
# parallel-safe: a cluster of its own on a free port; strace (ptrace) only; the one timing it
#   compares is strace's -65 to -95% on tps, far beyond what load on the other tests moves;
#   8 runs a side, as the interval must exclude 0 (with 3, t is 4.30 and one slow plain run
#   under CI's parallel load stretched it to [-87%, +96%]; with 5, t 2.78, the ASan pass
#   read [-85%, +0.2%] once)
# long: a PostgreSQL cluster of its own and 18 pgbench runs (13 s)
# PostgreSQL and pgbench (a throwaway cluster): the postmaster as a --service (setpriv to
# run as postgres, so its pid is the service's), pgbench -S as the load generator, the
# pgbench preset's tps and latency as figures; strace -f -p on the server (its service
# form follows the backends it forks per connection) costs tps and latency; every
# process of the cluster is gone after probecost.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pg.bash"
plan 6
have jq || skip_rest "jq is not installed (apt-get install jq)"
tmpdir
pg_cluster skip_rest
run_pc run --no-store --runs 8 --warmup 1 --seed 4 --cpu 0 --format json --service "$PG_SERVICE" \
	--ready 'database system is ready to accept connections' --metric pgbench \
	-m strace -m "$F/argv-rec $T/pid.argv {pid}" -- "${PGBENCH[@]}" -n -S -c 1 -t 2000 bench
is "$rc" 0 "exit 0 ($(tail -1 <<< "$err"))"
j() { jq -r "$1" <<< "$out"; }
fig() { j ".statistics[$1].metrics[] | select(.name == \"$2\") | .$3"; }
assert "tps measured under none ($(fig 0 tps mean)), with an interval" \
	'ratio_in "$(fig 0 tps mean)" 1 1 1e9 && [ "$(fig 0 tps mean_lo)" != null ]'
assert "strace -f -p on the postmaster: tps down ($(fig 1 tps change_lo) .. $(fig 1 tps change_hi)), latency up ($(fig 1 latency_avg change))" \
	'ratio_in "$(fig 1 tps change_hi)" -1 0 1 && ratio_in "$(fig 1 latency_avg change)" 0.0001 0 1e9'
pm=$(head -1 "$PGD/data/postmaster.pid" 2> /dev/null)
is "$(sort -u "$T/pid.argv" | wc -l)" 1 "{pid}: one pid for the session (the service started once)"
assert "the service's CPU (the backends') is measured ($(j '.statistics[0].service_cpu_ns.mean') ns)" \
	'ratio_in "$(j ".statistics[0].service_cpu_ns.mean")" 1e6 1 1e9'
is "$(pgrep -f "$PGD/data" | wc -l)" 0 "no process of the cluster left (postmaster.pid: ${pm:-gone})"
done_testing
