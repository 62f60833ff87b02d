#!/bin/bash
# bench/compare-level: does `probecost compare` call two identical studies different?
#
# SESSIONS stored sessions of one pinned study, one after another (`probecost run
# --runs RUNS --cpu CPU -w syscall:loops=LOOPS -m MONITOR`), then every pair of them
# compared twice:
#   alone       the pair in a store of its own (exported and imported): no level
#               between sessions can be measured, so each mean change's interval
#               counts the two sessions' runs alone (Welch);
#   with level  in the store of all SESSIONS: compare measures the level between
#               sessions from them (stats/compare.h pcost_compare_level).
#   perf stat   the peer: `perf stat -n -r RUNS` of the plain command after each study,
#               two of them called different where their means differ by more than
#               1.96 x the root of the sum of their squared "+-" (perf's standard
#               error of the mean), as one reads two perf stat runs side by side.
# Nothing differs between the studies, so a 95% interval should exclude 0 in about 5%
# of the pairs; printed per configuration: that share for the mean change, its robust
# companion, and the overhead change (paired within each session: needs no level), with
# the sd of the session means and the median of their standard errors.  The pairs share
# sessions: the shares are not independent trials.  Target: 'with level' within
# [0.01, 0.10] for the mean change (exit 1 outside: "MISS").
#   SESSIONS (20)  RUNS (20)  LOOPS (20000)  MONITOR (strace)  CPU (0)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
SESSIONS=${SESSIONS:-20}
RUNS=${RUNS:-20}
LOOPS=${LOOPS:-20000}
MONITOR=${MONITOR:-strace}
CPU=${CPU:-0}
for t in jq perf taskset; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian packages jq, linux-perf, util-linux)"; exit 0; }
done
if [ "$MONITOR" = strace ] && ! command -v strace >/dev/null; then
	echo "skip: strace not installed (Debian package strace)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
for i in $(seq "$SESSIONS"); do
	"$PC" run --db "$tmp/all.db" --runs "$RUNS" --cpu "$CPU" -w "syscall:loops=$LOOPS" -m "$MONITOR" \
		>/dev/null 2>&1 || { echo "FAIL: study $i did not run"; exit 1; }
	taskset -c "$CPU" perf stat -n -r "$RUNS" "$PC" workload syscall "loops=$LOOPS" 2>&1 >/dev/null |
		awk '/seconds time elapsed/ { gsub(/[(%)]/, ""); print $1, $(NF) / 100 }' >>"$tmp/perf"
	printf '\rstudy %d/%d (%d s)' "$i" "$SESSIONS" "$(($(date +%s) - t0))" >&2
done
echo >&2
# One line a pair and row: how, configuration, mean CI excludes 0, robust, overhead.
rows() { # rows HOW DB A B
	"$PC" compare "$3" "$4" --db "$2" --format json |
		jq -r --arg how "$1" '.rows[] | select(.in == "both") | [$how, (.name | sub(".* / "; "")),
			(.change_lo > 0 or .change_hi < 0), (.change_robust_lo > 0 or .change_robust_hi < 0),
			(if .overhead_a == null then "n/a" else (.delta_lo > 0 or .delta_hi < 0) end)] | @tsv'
}
for i in $(seq "$SESSIONS"); do
	for j in $(seq $((i + 1)) "$SESSIONS"); do
		rm -f "$tmp/pair.db"
		"$PC" export "$i" "$j" --db "$tmp/all.db" | "$PC" import --db "$tmp/pair.db" - >/dev/null
		rows alone "$tmp/pair.db" 1 2
		rows "with level" "$tmp/all.db" "$i" "$j"
	done
done >"$tmp/rows"
# The sessions' own spread: sd of their mean times and the median standard error, in %.
for i in $(seq "$SESSIONS"); do
	"$PC" show "$i" --db "$tmp/all.db" --format json | jq -r '.session.configs[] |
		[.samples[] | select((.warmup or .failed) | not) | .wall_ns] as $w | ($w | length) as $n |
		($w | add / $n) as $m | "\(.monitor) \($m) \((($w | map((. - $m) * (. - $m)) | add) / ($n - 1)) | sqrt / ($n | sqrt) / $m)"'
done >"$tmp/means"
printf '# bench/compare-level: %d sessions of %d runs (syscall loops=%d, none and %s, --cpu %s), %d pairs, %d s\n' \
	"$SESSIONS" "$RUNS" "$LOOPS" "$MONITOR" "$CPU" $((SESSIONS * (SESSIONS - 1) / 2)) "$(($(date +%s) - t0))"
printf '%-10s %11s %10s  %-11s %9s %9s %9s  %s\n' config "sd means" "median se" how "mean" robust overhead verdict
rc=0
while read -r cfg; do
	sdm=$(awk -v c="$cfg" '$1 == c { m[++n] = log($2) }
		END { for (i = 1; i <= n; i++) s += m[i]; s /= n; for (i = 1; i <= n; i++) q += (m[i] - s) ^ 2
			printf "%.2f%%\n", 100 * sqrt(q / (n - 1)) }' "$tmp/means")
	mse=$(awk -v c="$cfg" '$1 == c { print $3 }' "$tmp/means" | sort -g |
		awk '{ a[NR] = $1 } END { printf "%.2f%%\n", 100 * a[int((NR + 1) / 2)] }')
	for how in alone "with level"; do
		read -r k kr ko n no < <(awk -F'\t' -v c="$cfg" -v h="$how" '$1 == h && $2 == c { n++; k += ($3 == "true"); kr += ($4 == "true")
			if ($5 != "n/a") { no++; ko += ($5 == "true") } } END { print k + 0, kr + 0, ko + 0, n + 0, no + 0 }' "$tmp/rows")
		[ "$n" -gt 0 ] || continue
		verdict=
		if [ "$how" = "with level" ]; then
			verdict=$(awk -v k="$k" -v n="$n" 'BEGIN { r = k / n; print (r >= 0.01 && r <= 0.10) ? "ok" : "MISS" }')
			[ "$verdict" = ok ] || rc=1
		fi
		printf '%-10s %11s %10s  %-11s %9.3f %9.3f %9s  %s\n' "$cfg" "$sdm" "$mse" "$how" \
			"$(awk -v k="$k" -v n="$n" 'BEGIN { print k / n }')" "$(awk -v k="$kr" -v n="$n" 'BEGIN { print k / n }')" \
			"$([ "$no" -gt 0 ] && awk -v k="$ko" -v n="$no" 'BEGIN { printf "%.3f", k / n }' || echo n/a)" "$verdict"
	done
done < <(awk '{ print $1 }' "$tmp/means" | sort -u)
# The peer: every pair of perf stat runs, |difference| > 1.96 x their combined "+-".
read -r k n < <(awk '{ m[NR] = $1; e[NR] = $1 * $2 }
	END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) { n++
		k += ((m[i] - m[j]) ^ 2 > 1.959964 ^ 2 * (e[i] ^ 2 + e[j] ^ 2)) } print k + 0, n + 0 }' "$tmp/perf")
if [ "$n" -gt 0 ]; then
	printf '%-10s %11s %10s  %-11s %9.3f %9s %9s\n' none "$(awk '{ l[NR] = log($1); s += l[NR] }
		END { s /= NR; for (i = 1; i <= NR; i++) q += (l[i] - s) ^ 2; printf "%.2f%%", 100 * sqrt(q / (NR - 1)) }' "$tmp/perf")" \
		"$(awk '{ print $2 }' "$tmp/perf" | sort -g | awk '{ a[NR] = $1 } END { printf "%.2f%%", 100 * a[int((NR + 1) / 2)] }')" \
		"perf stat" "$(awk -v k="$k" -v n="$n" 'BEGIN { print k / n }')" n/a n/a
fi
exit $rc
