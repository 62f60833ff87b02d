#!/bin/bash
# bench/openloop: how much a closed loop understates a monitor's effect on p99.  The same
# monitors on the same service, measured with the closed loop and with the open loop
# (latency from each request's due time) at 50% and 80% of the service's plain capacity:
# the built-in server (-w server, closed; -w server:rate=R, open) and nginx (wrk, closed,
# through --metric wrk; -w http:rate=R, open).  Prints a Markdown table for
# bench/results/openloop.md: each monitor's p99 change with its 95% interval per loop,
# and the open loop's change over the closed loop's.  Run it on a quiet machine, as root
# (the monitors watch the service: strace -p, perf record -p, bpftrace).
#   RUNS=10 MONITORS='strace perf-record bpftrace-syscalls' NGINX=1 bash bench/openloop.sh
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
RUNS=${RUNS:-10}
MONITORS=${MONITORS:-strace perf-record bpftrace-syscalls}
NGINX=${NGINX:-1}
SECS=${SECS:-2}
command -v jq > /dev/null || { echo "skip: jq is not installed"; exit 0; }
T=$(mktemp -d)
ngx=
cleanup() {
	[ -z "$ngx" ] || kill "$ngx" 2> /dev/null
	rm -rf "$T"
}
trap cleanup EXIT
# shellcheck source=../tests/cli/nginx.bash
. tests/cli/nginx.bash
mons=()
for m in $MONITORS; do mons+=(-m "$m"); done
free_port() { echo $((20000 + RANDOM % 40000)); }

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# rows SERVICE LOOP-LABELS... < JSON: a table row per monitored configuration, its p99 change
# (the figure named p99_us, or wrk's latency_p99), in the order of the session's -w.
rows() {
	local svc=$1
	shift
	jq -r --arg svc "$svc" --argjson labels "$(printf '%s\n' "$@" | jq -R . | jq -s .)" '
		def pct: if . == null then "n/a" else (. * 1000 | round / 10 | tostring) + "%" end;
		[.statistics[] | select(.monitor != "none")] as $m
		| (($m | length) / ($labels | length)) as $per
		| range(0; $m | length) as $i | $m[$i] as $r
		| ($r.metrics[] | select(.name == "p99_us" or .name == "latency_p99")) as $f
		| "| \($svc) | \($labels[($i / $per | floor)]) | \($r.monitor) | \($f.mean * 1000 | round / 1000) \($f.unit) | \($f.change | pct) [\($f.change_lo | pct), \($f.change_hi | pct)] |"'
}

echo "# bench/openloop: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg) at the start, $RUNS blocks a session, monitors: $MONITORS"
echo
echo "| service | loop | monitor | p99 under it (mean) | p99 change [95%] |"
echo "|---|---|---|---|---|"

# The built-in server, as a service; its capacity: the closed loop's median throughput.
port=$(free_port)
svc="$PC workload server role=serve port=$port"
"$PC" workload server role=serve port="$port" > /dev/null 2>&1 &
srv=$!
sleep 0.5
cap=$(for _ in 1 2 3; do
	PROBECOST_REPORT_FD=3 "$PC" workload server role=load port="$port" requests=20000 3>&1 > /dev/null |
		tr ' ' '\n' | sed -n 's/^throughput=//p'
done | median)
kill "$srv"
wait "$srv" 2> /dev/null
r50=$(awk -v c="$cap" 'BEGIN { printf "%d", c * 0.5 }')
r80=$(awk -v c="$cap" 'BEGIN { printf "%d", c * 0.8 }')
js=$("$PC" run --no-store --runs "$RUNS" --warmup 1 --format json --service "$svc" \
	--ready 'listening on' "${mons[@]}" \
	-w "server:role=load,port=$port,requests=$((r80 * SECS))" \
	-w "server:role=load,port=$port,rate=$r50,requests=$((r50 * SECS))" \
	-w "server:role=load,port=$port,rate=$r80,requests=$((r80 * SECS))")
rows "built-in server (capacity $cap/s)" closed "open at $r50/s (50%)" "open at $r80/s (80%)" <<< "$js"

# nginx: wrk's closed loop (its capacity too), then -w http at 50% and 80% of it.
if [ "$NGINX" = 1 ] && command -v nginx > /dev/null && command -v wrk > /dev/null; then
	port=$(free_port)
	nginx_site "$T" "$port" on 100000
	url=http://127.0.0.1:$port/index.html
	read -ra ngx_argv <<< "$NGINX_SERVICE"
	"${ngx_argv[@]}" 2> /dev/null &
	ngx=$!
	sleep 0.5
	cap=$(for _ in 1 2 3; do
		wrk -t1 -c4 -d"${SECS}s" "$url" | sed -n 's/^Requests\/sec: *//p'
	done | median)
	kill "$ngx"
	wait "$ngx" 2> /dev/null
	ngx=
	r50=$(awk -v c="$cap" 'BEGIN { printf "%d", c * 0.5 }')
	r80=$(awk -v c="$cap" 'BEGIN { printf "%d", c * 0.8 }')
	js=$("$PC" run --no-store --runs "$RUNS" --warmup 1 --format json --service "$NGINX_SERVICE" \
		--ready-port "127.0.0.1:$port" "${mons[@]}" --metric wrk \
		-- wrk -t1 -c4 -d"${SECS}s" --latency "$url")
	rows "nginx (capacity $cap/s, wrk)" "closed (wrk -c4)" <<< "$js"
	js=$("$PC" run --no-store --runs "$RUNS" --warmup 1 --format json --service "$NGINX_SERVICE" \
		--ready-port "127.0.0.1:$port" "${mons[@]}" \
		-w "http:url=$url,rate=$r50,duration=$SECS" -w "http:url=$url,rate=$r80,duration=$SECS")
	rows "nginx" "open at $r50/s (50%)" "open at $r80/s (80%)" <<< "$js"
else
	echo
	echo "nginx skipped (NGINX=0, or nginx or wrk not installed: apt-get install nginx-light wrk)"
fi
echo
echo "The closed loop's understatement of a monitor's p99 change: its open loop row's change over its closed loop row's."
