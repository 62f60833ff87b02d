#!/bin/bash
# bench/wall-vs-perf: does `probecost run` time a plain run as `perf stat -n` does?
# Both clocks start before the program's execve and stop when it is reaped; probecost's
# since it starts in the child right before execve (run/spawn.c: the vfork and the
# child pinning itself to --cpu stay outside), perf's when it writes the byte its
# waiting child reads before its execve (so perf's includes that wake-up).  Each round
# times /bin/true (start-up alone) and `probecost workload spin loops=500 work=10000`
# (about 10 ms of work more) with both, a session of RUNS runs each, in alternating
# order, all on CPU $CPU (perf under taskset; probecost pinned too, with --cpu; its
# monitor is `env {}`, whose runs are not used).  Printed, as medians over the rounds
# with order-statistic 95% intervals:
#   offset  ours - perf on /bin/true: what the two instruments add to a run, unjudged
#   work    (spin - true) by ours over the same by perf, - 1: do they agree on what
#           the work itself costs?  Target: within +-2% ("within" when the interval
#           is, "OUTSIDE" when none of it is, exit 1; "unresolved" otherwise).
# A constant offset moves every overhead's denominator (bench/coverage.sh takes its
# plain time from perf stat), never the extra time a monitor adds.  Quiet machine.
#   ROUNDS (15)  RUNS (20)  CPU (0)  PROBECOST (./probecost)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
ROUNDS=${ROUNDS:-15}
RUNS=${RUNS:-20}
CPU=${CPU:-0}
for t in jq perf taskset; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian packages jq, linux-perf, util-linux)"; exit 0; }
done
perf_ms() {
	taskset -c "$CPU" perf stat -n -r "$RUNS" "$@" 2>&1 >/dev/null |
		awk '/seconds time elapsed/ { printf "%.5f\n", $1 * 1e3 }'
}
ours_ms() {
	taskset -c "$CPU" "$PC" run --no-store --format json --runs "$RUNS" --warmup 1 --cpu "$CPU" \
		-m 'env {}' -- "$@" 2>/dev/null |
		jq -r '.statistics[] | select(.monitor == "none") | .wall_ns.mean / 1e6'
}
. bench/lib-median.bash
spin=("$PC" workload spin loops=500 work=10000)
d=$(mktemp)
trap 'rm -f "$d"' EXIT
for ((r = 1; r <= ROUNDS; r++)); do
	if ((r % 2)); then
		pt=$(perf_ms /bin/true); ot=$(ours_ms /bin/true); ps=$(perf_ms "${spin[@]}"); os=$(ours_ms "${spin[@]}")
	else
		ot=$(ours_ms /bin/true); pt=$(perf_ms /bin/true); os=$(ours_ms "${spin[@]}"); ps=$(perf_ms "${spin[@]}")
	fi
	echo "$pt $ot $ps $os" >>"$d"
	printf '\rround %d/%d' "$r" "$ROUNDS" >&2
done
echo >&2
echo "# bench/wall-vs-perf: $ROUNDS rounds of $RUNS runs a session, CPU $CPU | $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
awk '{ pt += $1; ot += $2; ps += $3; os += $4 } END {
	printf "means (ms): /bin/true perf %.3f ours %.3f; spin perf %.3f ours %.3f\n", pt / NR, ot / NR, ps / NR, os / NR }' "$d"
read -r m lo hi < <(awk '{ printf "%.1f\n", ($2 - $1) * 1e3 }' "$d" | median_ci)
echo "offset (ours - perf, /bin/true): $m us [$lo, $hi]"
read -r m lo hi < <(awk '{ printf "%.5f\n", (($4 - $2) / ($3 - $1) - 1) * 100 }' "$d" | median_ci)
verdict=$(awk -v l="$lo" -v h="$hi" 'BEGIN { print (l >= -2 && h <= 2) ? "within" : (h < -2 || l > 2) ? "OUTSIDE" : "unresolved" }')
printf 'work (spin - true, ours / perf - 1): %+.2f%% [%+.2f, %+.2f]  target +-2%%: %s\n' "$m" "$lo" "$hi" "$verdict"
[ "$verdict" != OUTSIDE ]
