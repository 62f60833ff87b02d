#!/bin/bash
# bench/startup-level: does a built-in workload's plain time take a level of its own
# in each session, and is it the work or the start-up?
#
# The same work (LOOPS x WORK ns of spin, pinned to CPU $CPU) three ways:
#   lean   bench/startspin.c with the C library alone
#   fat    the same source linked with every library ./probecost links (ldd's list)
#   ours   probecost workload spin loops=LOOPS work=WORK
# each timed by `perf stat -n -r RUNS` (a session), and `probecost run`'s own plain
# runs (RUNS measured, 1 warm-up; the monitor is `env {}`, whose runs are not used);
# ROUNDS rounds, the four interleaved.  Per way: the mean wall time, the sd of the
# session means over the rounds, the sd their runs' own noise predicts (perf's "+-",
# the standard error of a session's mean; for run, its runs' sd / sqrt RUNS), and the
# excess: the level each session takes beyond its runs' noise, which no interval from
# one session can see (bench/results/coverage.md: it is what the overhead's coverage
# misses).  Quiet machine; nothing here asserts: it measures.
#   ROUNDS (16)  RUNS (15)  CPU (0)  LOOPS (500)  WORK (10000)
# shellcheck disable=SC2086 # $libs: a list of paths, split on purpose
set -u
cd "$(dirname "$0")/.." || exit
PC=$(realpath "${PROBECOST:-./probecost}")
ROUNDS=${ROUNDS:-16}
RUNS=${RUNS:-15}
CPU=${CPU:-0}
LOOPS=${LOOPS:-500}
WORK=${WORK:-10000}
for t in perf jq cc taskset; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian packages linux-perf, jq, gcc, util-linux)"; exit 0; }
done
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
libs=$(ldd "$PC" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | grep -v -e '/libc\.so' -e 'ld-linux')
cc -O2 -o "$d/lean" bench/startspin.c || exit 1
cc -O2 -o "$d/fat" bench/startspin.c -Wl,--no-as-needed $libs || exit 1
# session WAY CMD...: one perf stat -n -r RUNS session: "WAY mean_ms se_ms"
session() {
	local way=$1
	shift
	taskset -c "$CPU" perf stat -n -r "$RUNS" "$@" 2>&1 >/dev/null |
		awk -v w="$way" '/seconds time elapsed/ { gsub(/[(%)]/, ""); printf "%s %.4f %.4f\n", w, $1 * 1e3, $1 * 1e3 * $NF / 100 }'
}
for ((r = 1; r <= ROUNDS; r++)); do
	session lean "$d/lean" "$LOOPS" "$WORK"
	session fat "$d/fat" "$LOOPS" "$WORK"
	session ours "$PC" workload spin "loops=$LOOPS" "work=$WORK"
	"$PC" run --no-store --format json --runs "$RUNS" --warmup 1 --cpu "$CPU" --seed "$r" \
		-w "spin:loops=$LOOPS,work=$WORK" -m 'env {}' 2>/dev/null |
		jq -r '[.session.configs[] | select(.monitor == "none") | .samples[] | select(.warmup | not) |
			.wall_ns / 1e6] | length as $n | (add / $n) as $m |
			"run \($m) \((map((. - $m) * (. - $m)) | add) / ($n - 1) / $n | sqrt)"'
	printf '\rround %d/%d' "$r" "$ROUNDS" >&2
done >"$d/sessions"
echo >&2
echo "# bench/startup-level: spin loops=$LOOPS work=$WORK ns on CPU $CPU, $ROUNDS rounds of $RUNS runs a session | $(uname -r), $(nproc) CPUs"
echo "# libraries: ./probecost links $(echo "$libs" | wc -w) besides libc; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %9s %16s %16s %16s\n' way "mean ms" "sd of sessions" "runs predict" "excess"
awk '{ n[$1]++; s[$1] += $2; ss[$1] += $2 * $2; w[$1] += $3 * $3 }
	END { split("lean fat ours run", order, " ")
		for (i = 1; i <= 4; i++) { k = order[i]; if (n[k] < 2) continue
			m = s[k] / n[k]; vb = (ss[k] - s[k] * s[k] / n[k]) / (n[k] - 1); vw = w[k] / n[k]
			ex = vb > vw ? sqrt(vb - vw) : 0
			printf "%-6s %9.3f %8.3f (%4.1f%%) %8.3f (%4.1f%%) %8.3f (%4.1f%%)\n", k, m, sqrt(vb), 100 * sqrt(vb) / m,
				sqrt(vw), 100 * sqrt(vw) / m, ex, 100 * ex / m } }' "$d/sessions"
echo "# ways: lean = bench/startspin.c, C library alone; fat = the same linked with probecost's libraries;"
echo "#       ours = probecost workload spin (perf stat -n); run = probecost run's own plain runs"
