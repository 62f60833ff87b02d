#!/bin/bash
# bench/cache-after: does work take longer the longer it has been since it last ran?
# The fixed cost bench/coverage.sh measured above its truth (27-50 us a monitored run)
# lies after the spin workload's timed region: its log, its report and its exit.  Two
# parts, both pinned to CPU $CPU:
#  1. bench/cache-after.c: the same work right after spins of 1, 5, 10 and 20 ms that
#     touch nothing (median of ROUNDS interleaved rounds, and its ratio to 1 ms).
#  2. probecost itself, no monitor: two plain spin workloads whose timed loops last
#     5 and 9 ms (work=10000 and 18000 ns an event), RUNS blocks; what each run took
#     outside its timed region (wall - timed), and the longer one's excess over the
#     shorter's, paired by block, with a 95% interval.  A monitor that lengthens a
#     run pays this too; the workload's own timing of what was injected does not see it.
#   ROUNDS (300)  RUNS (1000)  CPU (0)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
ROUNDS=${ROUNDS:-300}
RUNS=${RUNS:-1000}
CPU=${CPU:-0}
for t in cc jq taskset; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 0; }
done
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cc -O2 -Wall -o "$d/cache-after" bench/cache-after.c || exit 1
echo "# bench/cache-after: $ROUNDS rounds, CPU $CPU | $(uname -r), $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# 1. the work right after a spin of L ms that touches nothing: median us (ratio to 1 ms)"
taskset -c "$CPU" "$d/cache-after" "$ROUNDS" "$d/file" 1000000 5000000 10000000 20000000 >"$d/out" || exit 1
awk '{ v[$1, $2] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END {
		printf "%-14s %16s %16s %16s %16s\n", "work", "1 ms", "5 ms", "10 ms", "20 ms"
		for (i = 1; i <= n; i++) {
			w = order[i]; b = v[w, 1000000]
			printf "%-14s", w
			split("1000000 5000000 10000000 20000000", L, " ")
			for (k = 1; k <= 4; k++)
				printf " %8.1f (%4.2fx)", v[w, L[k]] / 1000, v[w, L[k]] / b
			printf "\n"
		}
	}' "$d/out"
echo "# 2. probecost run --runs $RUNS --cpu $CPU -w spin:loops=500,work=10000 -w spin:loops=500,work=18000"
"$PC" run --no-store --format json --runs "$RUNS" --warmup 1 --cpu "$CPU" \
	-w spin:loops=500,work=10000 -w spin:loops=500,work=18000 >"$d/j" 2>/dev/null || {
	echo "probecost run failed"
	exit 1
}
jq -r '.session.configs | to_entries[] | .key as $c | .value.samples[] |
	select((.warmup or .failed) | not) | "\($c) \(.block) \(.wall_ns - .timed_ns) \(.timed_ns)"' "$d/j" |
	awk '
	{ c = $1; out[c, $2] = $3; timed[c] += $4; n[c]++ }
	END {
		for (c = 0; c < 2; c++) {
			s = 0; for (k in out) { split(k, p, SUBSEP); if (p[1] == c) s += out[k] }
			printf "  timed loop %5.2f ms: outside it %7.1f us a run (mean of %d)\n", timed[c] / n[c] / 1e6, s / n[c] / 1000, n[c]
		}
		for (k in out) { split(k, p, SUBSEP); if (p[1] == 1 && ((0, p[2]) in out)) { d = out[1, p[2]] - out[0, p[2]]; m++; sd += d; ss += d * d } }
		mu = sd / m; se = sqrt((ss - m * mu * mu) / (m - 1) / m)
		printf "  the longer run ends %.1f us slower [%.1f, %.1f] (95%%, %d pairs)\n", mu / 1000, (mu - 1.96 * se) / 1000, (mu + 1.96 * se) / 1000, m
	}'
