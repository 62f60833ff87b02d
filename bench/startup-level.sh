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
# misses).  Then the start-up alone, library by library: startspin with no work
# (loops=1 work=0) linked with each library ./probecost names (DT_NEEDED, each with
# what it pulls in), against lean and fat: ms and page faults (perf stat -r 20,
# LIB_ROUNDS rounds interleaved, their mean).  Quiet machine; nothing here asserts.
#   ROUNDS (16)  RUNS (15)  CPU (0)  LOOPS (500)  WORK (10000)  LIB_ROUNDS (3)
# shellcheck disable=SC2086 # $libs: a list of paths, split on purpose
set -u
cd "$(dirname "$0")/.." || exit
PC=$(realpath "${PROBECOST:-./probecost}")
ROUNDS=${ROUNDS:-16}
LIB_ROUNDS=${LIB_ROUNDS:-3}
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

# The start-up, library by library.
needed=$(readelf -d "$PC" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v -e '^libc\.so' -e '^libm\.so')
for l in $needed; do
	p=$(ldconfig -p | awk -v l="$l" '$1 == l { print $NF; exit }')
	[ -n "$p" ] && cc -O2 -o "$d/lib_$l" bench/startspin.c -Wl,--no-as-needed "$p"
done
for ((r = 1; r <= LIB_ROUNDS; r++)); do
	for b in "$d/lean" "$d/fat" "$d"/lib_*; do
		taskset -c "$CPU" perf stat -n -r 20 -e page-faults "$b" 1 0 2>&1 >/dev/null |
			awk -v b="${b##*/}" '/page-faults/ { f = $1 } /seconds time elapsed/ { printf "%s %.4f %s\n", b, $1 * 1e3, f }'
	done
done >"$d/libs"
echo
echo "# start-up alone (loops=1 work=0), perf stat -r 20, mean of $LIB_ROUNDS rounds: each library with what it pulls in"
printf '%-26s %9s %12s %8s\n' binary "ms" "ms over lean" faults
awk '{ s[$1] += $2; n[$1]++; f[$1] = $3 } END { for (k in s) print k, s[k] / n[k], f[k] }' "$d/libs" >"$d/means"
awk 'NR == FNR { if ($1 == "lean") lean = $2; next } { printf "%-26s %9.3f %12.3f %8s\n", $1, $2, $2 - lean, $3 }' \
	"$d/means" "$d/means" | sort -k2 -g
