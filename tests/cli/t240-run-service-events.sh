#!/bin/bash
# PostgreSQL as a --service, pgbench -S as its load: the load's counting run counts the
# events of every process of the service, the backend pgbench's connection starts during the run
# included (JSON options.service_events).  pgbench -S's transaction is one
# query: its backend receives it and sends the answer, two syscalls at the least, so
# service_events.syscall >= 2 x the transactions (what the backend does besides only adds).
# strace -f -p on the postmaster is priced per service syscall, with an interval; the
# service forms of perf-stat (its context switches, >= 1 a transaction: the backend sleeps
# in its receive between queries) and bpftrace-syscalls (its syscalls) count the backend
# they never saw listed at start.  With pgbench -T (a fixed time) and --metric pgbench,
# strace is priced from the rate, within 3x of the -t form's figure and above 0.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pg.bash"
plan 11
have jq || skip_rest "jq is not installed (apt-get install jq)"
tmpdir
pg_cluster skip_rest
TX=2000
mons=(-m strace -m perf-stat)
have bpftrace && mons+=(-m bpftrace-syscalls)
# 3 runs: its checks are counts, and strace's interval, which 3 blocks give (about +-20%).
run_pc run --no-store --runs 3 --seed 4 --cpu 0 --format json --service "$PG_SERVICE" \
	--ready 'database system is ready to accept connections' "${mons[@]}" \
	-- "${PGBENCH[@]}" -n -S -c 1 -t $TX bench
is "$rc" 0 "exit 0 ($(tail -1 <<< "$err"))"
j() { jq -r "$1" <<< "$out"; }
sv=$(j '.options.service_events.syscall.count')
assert "the service's syscalls ($sv) >= 2 a transaction (2 x $TX: the backend's receive and send)" \
	'ratio_in "$sv" $((2 * TX)) 1 1e6'
cl=$(j '.options.counted.syscall.count')
assert "the client's syscalls counted beside them ($cl)" 'ratio_in "$cl" $TX 1 1e6'
st() { j ".statistics[] | select(.monitor == \"$1\") | .$2"; }
assert "strace: per service syscall ($(st strace per_event_ns) [$(st strace per_event_ns_lo), $(st strace per_event_ns_hi)] ns), with an interval" \
	'ratio_in "$(st strace per_event_ns)" 1 0 1e9 && [ "$(st strace per_event_ns_lo)" != null ] && [ "$(st strace per_event_ns_hi)" != null ]'
is "$(st strace unit)" "service syscall" "strace's row counts service syscalls"
ps=$(st perf-stat monitor_events)
assert "perf-stat counts the backend's context switches: $ps >= 1 a transaction (it sleeps in its receive between them)" \
	'ratio_in "$ps" $TX 1 1e6'
if have bpftrace; then
	bs=$(st bpftrace-syscalls monitor_events)
	assert "bpftrace-syscalls counts the backend forked after it attached: $bs syscalls >= 2 x $TX" \
		'ratio_in "$bs" $((2 * TX)) 1 1e6'
else
	skip "bpftrace is not installed (apt-get install bpftrace)"
fi
# pgbench -T: the run lasts 1 s under strace too, and strace's cost shows as fewer
# transactions.  Priced from the rate (--metric pgbench's tps): per transaction,
# 1/tps(strace) - 1/tps(plain), over the service's syscalls per transaction in the
# counting run.  Known answer: the -t form's figure above, from its wall time.
pt=$(st strace per_event_ns)
run_pc run --no-store --runs 4 --seed 4 --cpu 0 --format json --service "$PG_SERVICE" \
	--ready 'database system is ready to accept connections' -m strace --metric pgbench \
	-- "${PGBENCH[@]}" -n -S -c 1 -T 1 bench
is "$rc $(j '.options.counted_run.fixed_time')" "0 pgbench -T" \
	"pgbench -T: exit 0, the load known to run for a fixed time ($(tail -1 <<< "$err"))"
is "$(st strace per_event_source)" "extra per service event, from the rate" \
	"strace on the -T load is priced per service syscall from the rate"
pT=$(st strace per_event_ns)
assert "-T: $pT [$(st strace per_event_ns_lo), $(st strace per_event_ns_hi)] ns a service syscall, above 0, within 3x of -t's $pt ns" \
	'[ "$(awk -v x="$(st strace per_event_ns_lo)" "BEGIN { print (x > 0) }")" = 1 ] && ratio_in "$pT" "$pt" 0.33 3'
pm=$(head -1 "$PGD/data/postmaster.pid" 2> /dev/null)
is "$(pgrep -f "$PGD/data" | wc -l)" 0 "no process of the cluster left (postmaster.pid: ${pm:-gone})"
done_testing
