#!/bin/bash
# bench/rerun: does a rerun of the study land inside the session's rerun interval?
#
# STUDIES identical studies one after another (the default study, `probecost run`, or
# `probecost run $ARGS`), each into a store of its own.  For each monitor and every pair
# i < j: is study j's overhead inside study i's rerun interval (overhead_rerun_lo/hi,
# stats/rerun.h) and inside its session interval (overhead_lo/hi)?  With the median
# width of each (on the log(1 + overhead) scale) and their ratio.  Then every pair
# compared with nothing else stored (the pair exported into a store of its own): how
# often compare calls the overhead change ("different": its interval excludes 0) and
# the mean change significant.  The pairs share studies: the shares are not
# independent trials.
# Targets: rerun interval >= 0.90 quiet, >= 0.85 under LOAD=1, median width <= 3 x
# the session interval's; compare "different" in <= 7% of pairs (exit 1: "MISS").
#   STUDIES (20)  LOAD (0; 1: a niced busy loop on every CPU but 0)  ARGS (none: the
#   default study; e.g. "--runs 10 --cpu 0 -w syscall:loops=2000 -m strace")  KEEP=DIR
#   keeps the sessions' JSON and stores there; FROM=DIR analyses those stores again
#   instead of running studies (`show` and compare by this probecost: its intervals)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
STUDIES=${STUDIES:-20}
LOAD=${LOAD:-0}
read -r -a args <<<"${ARGS:-}"
for t in jq taskset; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian packages jq, util-linux)"; exit 0; }
done
tmp=$(mktemp -d)
loadpids=()
# shellcheck disable=SC2317 # the EXIT trap calls it
cleanup() {
	for p in "${loadpids[@]}"; do kill "$p" 2>/dev/null; done
	if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$tmp"/s*.json "$tmp"/s*.db "$KEEP"/ 2>/dev/null; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$LOAD" = 1 ]; then
	# As bench/coverage.sh: every cycle nobody else wants on each CPU but 0 (the study's).
	for c in $(seq 1 $(($(nproc) - 1))); do
		taskset -c "$c" nice -n 19 bash -c 'while :; do :; done' &
		loadpids+=($!)
	done
fi
t0=$(date +%s)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
if [ -n "${FROM:-}" ]; then
	# The studies a KEEP=DIR run kept: analysed again (shown by this probecost), not run.
	cp "$FROM"/s*.db "$tmp"/ || exit 1
	STUDIES=$(find "$tmp" -name 's*.db' | wc -l)
	for i in $(seq "$STUDIES"); do
		"$PC" show 1 --db "$tmp/s$i.db" --format json >"$tmp/s$i.json" 2>/dev/null ||
			{ echo "FAIL: study $i could not be shown"; exit 1; }
	done
else
	for i in $(seq "$STUDIES"); do
		"$PC" run --db "$tmp/s$i.db" "${args[@]}" --format json >"$tmp/s$i.json" 2>/dev/null ||
			{ echo "FAIL: study $i did not run"; exit 1; }
		printf '\rstudy %d/%d (%d s)' "$i" "$STUDIES" "$(($(date +%s) - t0))" >&2
	done
	echo >&2
fi
# One line a study and monitor: study, monitor, overhead, rerun lo, hi, session lo, hi.
for i in $(seq "$STUDIES"); do
	jq -r --arg i "$i" '.statistics[] | select(.monitor != "none" and .overhead != null) |
		[$i, .monitor, .overhead, .overhead_rerun_lo, .overhead_rerun_hi, .overhead_lo,
		 .overhead_hi] | map(tostring) | join(" ")' "$tmp/s$i.json"
done >"$tmp/rows"
# compare of each pair with nothing else stored: "different" (the overhead change's
# interval excludes 0) and the mean change's significance, per monitor.
for i in $(seq "$STUDIES"); do
	for j in $(seq $((i + 1)) "$STUDIES"); do
		rm -f "$tmp/pair.db"
		for k in "$i" "$j"; do
			"$PC" export 1 --db "$tmp/s$k.db" | "$PC" import --db "$tmp/pair.db" - >/dev/null 2>&1
		done
		"$PC" compare 1 2 --db "$tmp/pair.db" --format json 2>/dev/null |
			jq -r '.rows[] | select(.in == "both" and .overhead_a != null) |
				[(.name | sub(".* / "; "")), (.delta_lo > 0 or .delta_hi < 0), .significant] |
				map(tostring) | join(" ")'
	done
done >"$tmp/compare"
# The same studies in one store, in order, as a user who reruns them keeps them: each
# shown again takes the overhead's level between sessions from those stored before it
# (3 or more: docs/statistics.md); compare is not asked again there.
for i in $(seq "$STUDIES"); do
	"$PC" export 1 --db "$tmp/s$i.db" | "$PC" import --db "$tmp/all.db" - >/dev/null 2>&1
done
for i in $(seq "$STUDIES"); do
	"$PC" show "$i" --db "$tmp/all.db" --format json 2>/dev/null | jq -r --arg i "$i" '.statistics[] |
		select(.monitor != "none" and .overhead != null) | [$i, .monitor, .overhead,
		.overhead_rerun_lo, .overhead_rerun_hi, .overhead_lo, .overhead_hi] | map(tostring) | join(" ")'
done >"$tmp/store-rows"
printf '# bench/rerun: %d studies (%s%s), %s, %d s; load average %s before, %s after; %s\n' \
	"$STUDIES" "${ARGS:-the default study}" "${FROM:+, kept in $FROM}" "$([ "$LOAD" = 1 ] && echo "LOAD=1" || echo "no load generator")" \
	"$(($(date +%s) - t0))" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u '+%F %H:%M UTC')"
target=$([ "$LOAD" = 1 ] && echo 0.85 || echo 0.90)
rc=0
table() { # table ROWS COMPARE: one line a monitor
printf '%-18s %6s %8s %8s %10s %10s %7s %11s %10s  %s\n' monitor pairs "in rerun" "in own" \
	"rerun w" "own w" "w ratio" "different" "mean sig" verdict
while read -r m; do
	read -r n inr ins < <(awk -v m="$m" '$2 == m { k++; o[k] = $3; rl[k] = $4; rh[k] = $5; sl[k] = $6; sh[k] = $7 }
		END { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (rl[i] != "null") {
			n++; r += o[j] >= rl[i] && o[j] <= rh[i]; s += o[j] >= sl[i] && o[j] <= sh[i] }
			printf "%d %d %d\n", n, r, s }' "$1")
	# The median width of each interval, log(1 + hi) - log(1 + lo).
	wr=$(awk -v m="$m" '$2 == m && $4 != "null" { print log(1 + $5) - log(1 + $4) }' "$1" | sort -g |
		awk '{ a[NR] = $1 } END { printf "%.3f", NR ? a[int((NR + 1) / 2)] : 0 }')
	ws=$(awk -v m="$m" '$2 == m && $6 != "null" { print log(1 + $7) - log(1 + $6) }' "$1" | sort -g |
		awk '{ a[NR] = $1 } END { printf "%.3f", NR ? a[int((NR + 1) / 2)] : 0 }')
	read -r nc dif sig < <(awk -v m="$m" '$1 == m { n++; d += $2 == "true"; s += $3 == "true" } END { print n + 0, d + 0, s + 0 }' "$2")
	verdict=$(awk -v n="$n" -v r="$inr" -v t="$target" -v wr="$wr" -v ws="$ws" -v nc="$nc" -v d="$dif" 'BEGIN {
		v = ""; if (n == 0 || r / n < t) v = v " MISS(coverage)"; if (ws > 0 && wr / ws > 3) v = v " MISS(width)"
		if (nc > 0 && d / nc > 0.07) v = v " MISS(compare)"; print v == "" ? "ok" : substr(v, 2) }')
	[ "$verdict" = ok ] || rc=1
	printf '%-18s %6d %8.3f %8.3f %10s %10s %7.2f %5d/%-5d %10.3f  %s\n' "$m" "$n" \
		"$(awk -v a="$inr" -v n="$n" 'BEGIN { print n ? a / n : 0 }')" \
		"$(awk -v a="$ins" -v n="$n" 'BEGIN { print n ? a / n : 0 }')" "$wr" "$ws" \
		"$(awk -v a="$wr" -v b="$ws" 'BEGIN { print (b > 0 ? a / b : 0) }')" "$dif" "$nc" \
		"$(awk -v a="$sig" -v n="$nc" 'BEGIN { print n ? a / n : 0 }')" "$verdict"
done < <(awk '{ print $2 }' "$1" | sort -u)
}
echo "each study in a store of its own (the interval from its own sub-sessions):"
table "$tmp/rows" "$tmp/compare"
echo "in one store, in order (each with the level of those stored before it, from the third):"
table "$tmp/store-rows" /dev/null
exit $rc
