#!/bin/bash
# bench/service: the resolution a user gets in BUDGET (120) s on this machine when asking
# "what does perf-record-system cost my PostgreSQL server?": probecost run with the
# postmaster as --service and pgbench -S as the load generator, adaptive until the
# budget is spent, and the 95% half-widths of the change of pgbench's tps and of the
# p99 latency (from pgbench's per-transaction log: bench/pgbench-p99.bash) under
# perf-record-system.  Target: +-5 percentage points on tps.
#
# Each way of spending the budget gets its own BUDGET s, one after the other (the
# machine's load moves between them: compare within one output).  Part 1: the length
# of a run (pgbench -T: a fixed duration, so every run measures the same time) and
# pinning (--cpu 0: server, backends and pgbench on one CPU; none: the scheduler's
# choice).  Part 2: the server started once per session or before every block
# (--service-per-block), with the first configuration of part 1.  Part 3 (SERVER=1):
# the built-in -w server (nothing installed), the half-width of its p99 change under
# perf-record-system in the same budget, at two request counts per run.
#   BUDGET=120 WAYS='T=1,cpu=0 T=5,cpu=0 T=1,cpu= T=2,cpu=' SCOPE=1 SERVER=1 bash bench/service.sh
#
# Part 0 (DESIGNS, first): how long a study of several monitors at once takes to reach
# +-5 points on tps, as a user runs it: pgbench -S -c CLIENTS (2) as the load generator,
# --metric pgbench, -m each of MONITORS (strace perf-record bpftrace-syscalls), adaptive
# with --precision 5 (every monitor's interval asked +-5 points) and --max-time LIMIT (300)
# instead of the default 60 s, so the time it needs shows.  One line per design and
# monitor: the study's wall time, its blocks (and "+N pilot" when the pilot only planned:
# the adaptive design then leaves its blocks out of the figures), the tps change and its
# +-pp.  Target: every monitor +-5 points within 120 s.  A design: T=run seconds (pgbench -T), min=pilot blocks
# (--min-runs), cpu=CPUs (--cpu; empty: unpinned).
#   DESIGNS='T=2,min=10,cpu= T=1,min=5,cpu= T=1,min=5,cpu=0' WAYS= SERVER=0 bash bench/service.sh
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
BUDGET=${BUDGET:-120}
WAYS=${WAYS-T=1,cpu=0 T=5,cpu=0 T=1,cpu= T=2,cpu=}
SCOPE=${SCOPE:-1}
SERVER=${SERVER:-1}
CLIENTS=${CLIENTS:-2}
DESIGNS=${DESIGNS-T=2,min=10,cpu= T=1,min=5,cpu= T=1,min=5,cpu=0}
MONITORS=${MONITORS:-strace perf-record bpftrace-syscalls}
LIMIT=${LIMIT:-300}
for t in jq pgbench perf; do
	command -v $t > /dev/null || { echo "skip: $t is not installed"; exit 0; }
done
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
	{ echo "skip: perf-record-system needs root or kernel.perf_event_paranoid <= 0"; exit 0; }
# What tests/cli/pg.bash needs of tests/cli/lib.bash.
have() { command -v "$1" > /dev/null 2>&1; }
is_root() { [ "$(id -u)" = 0 ]; }
_cleanups=()
on_exit() { _cleanups+=("$1"); }
T=$(mktemp -d)
cleanup() {
	local c
	for c in "${_cleanups[@]}"; do eval "$c"; done
	rm -rf "$T"
}
trap cleanup EXIT
skip_bench() { echo "skip: $1"; exit 0; }
# shellcheck source=../tests/cli/pg.bash
. tests/cli/pg.bash
pg_cluster skip_bench 1

# design T=..,min=..,cpu=..: one study of every monitor at +-5 points; a line a monitor.
design() {
	local t min cpu opts=() mons=() js start wall pin
	t=${1#T=} min=${1#*min=} cpu=${1#*cpu=}
	t=${t%%,*} min=${min%%,*}
	[ -n "$cpu" ] && opts=(--cpu "$cpu")
	for m in $MONITORS; do mons+=(-m "$m"); done
	start=$(date +%s.%N)
	js=$("$PC" run --no-store --seed 11 --warmup 1 --min-runs "$min" --precision 5 \
		--max-time "$LIMIT" --format json "${opts[@]}" --service "$PG_SERVICE" \
		--ready 'database system is ready to accept connections' --metric pgbench "${mons[@]}" \
		-- "${PGBENCH[@]}" -n -S -c "$CLIENTS" -j "$CLIENTS" -T "$t" bench 2> "$T/err")
	[ -z "${KEEP:-}" ] || printf '%s\n' "$js" > "$KEEP/service-${1//[^a-zA-Z0-9=]/_}.json"
	wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
	if ! jq -e '.statistics[1]' > /dev/null 2>&1 <<< "$js"; then
		printf '| %s | failed: %s |\n' "$1" "$(tail -1 "$T/err")"
		return
	fi
	pin=unpinned
	[ -n "$cpu" ] && pin="--cpu $cpu"
	jq -r --arg d "-T $t, --min-runs $min, $pin" --arg w "$wall" '
		def f(n): .metrics[] | select(.name == n);
		def pct(x): if x == null then "n/a" else (x * 1000 | round / 10 | tostring) end;
		(.statistics[0] | f("tps")) as $b | (.options.pilot_blocks // 0) as $p |
		.statistics[1:][] | f("tps") as $t |
		(if $t.change_lo == null then null else ($t.change_hi - $t.change_lo) / 2 end) as $hw |
		"| \($d) | \($w) s | \($t.runs) (\(if $p > 0 then "+\($p) pilot, " else "" end)\(.failed) failed) | \(.monitor) | \($b.mean | round) | \(pct($t.change)) [\(pct($t.change_lo)), \(pct($t.change_hi))] | \(pct($hw)) | \(if $hw != null and $hw <= 0.05 and ($w | tonumber) <= 120 then "yes" else "no" end) |"' \
		<<< "$js"
}
if [ -n "$DESIGNS" ]; then
	echo "# bench/service: $MONITORS on PostgreSQL $("$PGBIN/postgres" -V | awk '{ print $3 }'), pgbench -S -c $CLIENTS, --precision 5, --max-time $LIMIT, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg) at the start, $(date -u '+%F %H:%M') UTC"
	echo "| design | study wall | blocks | monitor | plain tps | tps change [95%] | +-pp | +-5 in 120 s |"
	echo "|---|---|---|---|---|---|---|---|"
	for d in $DESIGNS; do
		design "$d"
		echo "<!-- load $(cut -d' ' -f1 /proc/loadavg) after it -->"
	done
fi
[ -n "$WAYS" ] || [ "$SERVER" = 1 ] || exit 0
echo "# bench/service: perf-record-system on PostgreSQL $("$PGBIN/postgres" -V | awk '{ print $3 }'), pgbench -S -c $CLIENTS, $BUDGET s each, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg) at the start"
printf '%-34s %6s %7s  %-26s %8s  %-26s %8s\n' way blocks "tps" "tps change [95%]" "+-pp" \
	"p99 change [95%]" "+-pp"

# measure LABEL RUN-OPTIONS... -- PGBENCH-OPTIONS...: one budget's session; a table line.
measure() {
	local label=$1 js opts=() pg=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	pg=("$@")
	js=$("$PC" run --no-store --seed 11 --warmup 1 --min-runs 5 --max-runs 100000 --precision 0.001 \
		--max-time "$BUDGET" --format json "${opts[@]}" --service "$PG_SERVICE" \
		--ready 'database system is ready to accept connections' --metric pgbench \
		--metric 'p99:lower=^latency p99 = ([0-9]+ us)' -m perf-record-system \
		-- "$PWD/bench/pgbench-p99.bash" "${PGBENCH[@]:1}" -n -S -c "$CLIENTS" -j "$CLIENTS" "${pg[@]}" bench \
		2> "$T/err")
	if ! jq -e '.statistics[1]' > /dev/null 2>&1 <<< "$js"; then
		printf '%-34s failed: %s\n' "$label" "$(tail -1 "$T/err")"
		return
	fi
	jq -r --arg l "$label" '
		def f(n): .metrics[] | select(.name == n);
		def pct(x): if x == null then "n/a" else (x * 1000 | round / 10 | tostring) end;
		def ch(m): "\(pct(m.change)) [\(pct(m.change_lo)), \(pct(m.change_hi))]";
		def hw(m): if m.change_lo == null then "n/a" else pct((m.change_hi - m.change_lo) / 2) end;
		(.statistics[0] | f("tps")) as $b | (.statistics[1] | f("tps")) as $t |
		(.statistics[1] | f("p99")) as $p |
		[$l, (.statistics[1].metrics[0].runs | tostring), ($b.mean | round | tostring),
		 ch($t), hw($t), ch($p), hw($p)] | @tsv' <<< "$js" |
		awk -F'\t' '{ printf "%-34s %6s %7s  %-26s %8s  %-26s %8s\n", $1, $2, $3, $4, $5, $6, $7 }'
}

# way WAY SCOPE: one line of the table for "T=1,cpu=0" once per session or per block.
way() {
	local t=${1#T=} cpu=${1#*cpu=} opts=() pin=unpinned
	t=${t%%,*}
	[ -n "$cpu" ] && opts=(--cpu "$cpu") && pin="--cpu $cpu"
	[ "$2" = block ] && opts+=(--service-per-block)
	measure "-T $t, $pin, per $2" "${opts[@]}" -- -T "$t"
}
for w in $WAYS; do
	way "$w" session
done
# shellcheck disable=SC2086
[ "$SCOPE" = 1 ] && set -- $WAYS && [ $# -gt 0 ] && way "$1" block

# server N: -w server with N requests a run, pinned to CPU 0, in the budget; a table line.
server() {
	local js
	js=$("$PC" run --no-store --seed 11 --warmup 1 --min-runs 5 --max-runs 100000 --precision 0.001 \
		--max-time "$BUDGET" --format json --cpu 0 -w "server:requests=$1" -m perf-record-system \
		2> "$T/err")
	jq -r --arg l "-w server:requests=$1, --cpu 0" '
		def f(n): .metrics[] | select(.name == n);
		def pct(x): if x == null then "n/a" else (x * 1000 | round / 10 | tostring) end;
		def ch(m): "\(pct(m.change)) [\(pct(m.change_lo)), \(pct(m.change_hi))]";
		def hw(m): if m.change_lo == null then "n/a" else pct((m.change_hi - m.change_lo) / 2) end;
		(.statistics[0] | f("throughput")) as $b | (.statistics[1] | f("throughput")) as $t |
		(.statistics[1] | f("p99_us")) as $p |
		[$l, ($p.runs | tostring), ($b.mean | round | tostring), ch($t), hw($t), ch($p), hw($p)] |
		@tsv' <<< "$js" 2> /dev/null |
		awk -F'\t' '{ printf "%-34s %6s %7s  %-26s %8s  %-26s %8s\n", $1, $2, $3, $4, $5, $6, $7 }' ||
		printf '%-34s failed: %s\n' "-w server:requests=$1" "$(tail -1 "$T/err")"
}
if [ "$SERVER" = 1 ]; then
	echo "# the built-in server: throughput (req/s) instead of tps, its own p99"
	server 20000
	server 100000
fi
echo "# +-pp: half-width of the 95% interval of the change, percentage points; blocks: measured blocks in the budget (+1 warm-up)"
