#!/bin/bash
# bench/carry-plain: do long monitored runs slow the plain runs interleaved with them?
#
# The plain spin run's mean wall time in a study whose monitor spins 60 ms a run (as
# bench/coverage.sh's 'high' scenario does) and in one whose monitor spins 1 ns, each
# between `perf stat -n -r 30` timings of the same plain run; ROUNDS times, all on CPU
# $CPU.  A plain mean that is higher beside the long runs is a carry-over longer than one
# run, which the carry-over regression (a run after a monitored run against one after a
# plain run) cannot see: every plain run of the study carries it.  Beside each plain
# wall time, 'loop': the mean time the spin workload's own timed loop took in the runs
# (PCOST_SPIN_LOG), so 'wall - loop' is the start-up and exit around the work: a gap
# in the wall time that the loop does not share is not the machine's pace.  A third
# session's monitor is a wrapper that sleeps 60 ms before it execs the workload: the
# plain runs beside it have the same time between them as beside the spinning monitor,
# with the CPU idle, not busy.
#   ROUNDS (3)  CPU (0)  PROBECOST (./probecost)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
CPU=${CPU:-0}
for t in jq perf taskset; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian packages jq, linux-perf, util-linux)"; exit 0; }
done
log=$(mktemp)
wrap=$(mktemp)
trap 'rm -f "$log" "$wrap"' EXIT
printf '#!/bin/sh\nsleep 0.06\nexec "$@"\n' >"$wrap"
chmod +x "$wrap"
# loop: the mean timed loop of the plain runs (inject=0) in the log, in ms.
loop() {
	awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
		if (f["inject"] == 0) { s += f["timed_ns"]; n++ } }
		END { if (n) printf "%.3f ms", s / n / 1e6; else printf "n/a" }' "$log"
}
perf_ms() {
	: >"$log"
	printf '%s, loop %s\n' "$(PCOST_SPIN_LOG=$log taskset -c "$CPU" perf stat -n -r 30 \
		"$PC" workload spin loops=500 work=10000 2>&1 >/dev/null |
		awk '/seconds time elapsed/ { printf "%.3f ms", $1 * 1e3 }')" "$(loop)"
}
study() {
	: >"$log"
	PCOST_SPIN_LOG=$log "$PC" run --no-store --format json --runs 20 --warmup 1 --cpu "$CPU" \
		-w spin:loops=500,work=10000 -m "$1" 2>/dev/null |
		jq -r '.statistics[] | "\(.monitor) \(.wall_ns.mean / 1e6) ms"'
	echo "loop of its uninjected runs $(loop)"
}
for r in $(seq "${ROUNDS:-3}"); do
	echo "== round $r"
	echo "perf stat plain: $(perf_ms)"
	echo "-- monitor spins 60 ms a run:"
	study "inject:event=0,fixed=60000000"
	echo "-- monitor sleeps 60 ms a run (a wrapper):"
	study "$wrap {}"
	echo "-- monitor spins 1 ns:"
	study "inject:event=0,fixed=1"
	echo "perf stat plain: $(perf_ms)"
done
