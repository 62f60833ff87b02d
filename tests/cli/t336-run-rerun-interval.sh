#!/bin/bash
# slow: 8 identical sessions of 10 blocks (about 30 s): the rerun interval is scored over their pairs
# no-sanitizer: overheads of one session against another's interval (ASan slows them unevenly)
# t336-run-rerun-interval: each session's overhead gets the interval a rerun of the
# same study lands in (stats/rerun.h), from its own sub-sessions.  Eight identical
# sessions one after another into a fresh store, strace and perf-stat on a small
# syscall loop: each later session's overhead lies inside each earlier session's rerun
# interval in at least 85% of the 28 pairs, for each monitor (95% meant; the session's
# own interval, which leaves the level between sessions out, is printed beside it for
# the record).  Each session records its 5 sub-sessions' first blocks (10 blocks: 5 of
# 2; with 1 block each, at load 11 on 2 CPUs, 23 and 21 of 28), reports 5 used, and its
# rerun interval holds its own overhead; --runs 4 is too few: null.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
tmpdir
plan 11
have jq || skip_rest "jq not installed"
have strace || skip_rest "strace not installed"
have perf || skip_rest "perf not installed"
perf_events_usable || skip_rest "perf_event_open not allowed here (perf_event_paranoid > 2, not root)"

export PROBECOST_DB=$T/rerun.db
study=(run --runs 10 --cpu 0 -w syscall:loops=1000 -m strace -m perf-stat --format json)
t0=$(date +%s)
failed=
for k in 1 2 3 4 5 6 7 8; do
	"$P" "${study[@]}" >"$T/s$k.json" 2>"$T/e$k" || failed+="$k "
done
diag "8 sessions took $(($(date +%s) - t0)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
is "$failed" "" "8 identical sessions exit 0"

# The sub-sessions: 5 of two measured blocks each (block 0 is the warm-up).
is "$(jq -c '.session.options.subsessions' "$T/s1.json")" "[1,3,5,7,9]" \
	"the options record each sub-session's first block"
used=$(jq -r '[.statistics[] | select(.monitor != "none") | .rerun_subsessions] | unique | @csv' \
	"$T"/s*.json | sort -u | paste -sd' ')
is "$used" "5" "every monitored row used its 5 sub-sessions"
is "$(jq -c '[.statistics[] | select(.monitor == "none") | .overhead_rerun_lo]' "$T/s1.json")" \
	"[null]" "the plain row has none (null)"
own=$(jq -r '.statistics[] | select(.monitor != "none") |
	select(.overhead_rerun_lo <= .overhead and .overhead <= .overhead_rerun_hi | not) |
	.monitor' "$T"/s*.json | paste -sd' ')
is "$own" "" "each rerun interval holds its own session's overhead"

# Each later session's overhead in each earlier session's interval.
for m in strace perf-stat; do
	for k in 1 2 3 4 5 6 7 8; do
		jq -r --arg m "$m" '.statistics[] | select(.monitor == $m) |
			"\(.overhead) \(.overhead_rerun_lo) \(.overhead_rerun_hi) \(.overhead_lo) \(.overhead_hi)"' \
			"$T/s$k.json"
	done >"$T/$m.tsv"
	read -r inr ins n wr ws < <(awk '{ o[NR] = $1; rl[NR] = $2; rh[NR] = $3; sl[NR] = $4; sh[NR] = $5 }
		END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++) {
			n++; r += o[j] >= rl[i] && o[j] <= rh[i]; s += o[j] >= sl[i] && o[j] <= sh[i] }
			for (i = 1; i <= NR; i++) { w = log(1 + rh[i]) - log(1 + rl[i]); v = log(1 + sh[i]) - log(1 + sl[i]); wr += w; ws += v }
			printf "%d %d %d %.3f %.3f\n", r, s, n, wr / NR, ws / NR }' "$T/$m.tsv")
	diag "$m: a later overhead inside an earlier rerun interval in $inr of $n pairs," \
		"inside its session interval in $ins; mean log widths $wr and $ws"
	assert "$m: each later overhead inside each earlier rerun interval in >= 85% of pairs ($inr of $n)" \
		'[ "$n" = 28 ] && [ $((100 * inr)) -ge $((85 * n)) ]' ||
		diag "$m, each session's overhead [rerun interval] [its own]: $(awk '{ printf "%.2f [%.2f, %.2f] [%.2f, %.2f]; ", $1, $2, $3, $4, $5 }' "$T/$m.tsv")" \
			"$(grep -h 'another probecost' "$T"/e* | head -1)"
done

# compare of two sessions with nothing else stored (each exported into a store of its own
# pair): the overhead change's interval from their sub-sessions, each arm at least 2.5 /
# sqrt(2) times the two sessions' own arms in quadrature (stats/rerun.h).  Identical
# sessions: "different" in at most 2 of the 7 pairs (1, k) per monitor (5% meant; before
# the floor, 40 of 190 perf-record pairs under load).  A real change: a session with
# strace's monitored runs 1.5 times as long is "different", its change 50 x (1 + overhead)
# points, inside the interval.  The session changed is the one whose strace rerun interval
# is the median of the eight: one disturbed session has an interval too wide to call any
# change (CI, session 1: [-306, 2646] points, about its centre), which is the
# honest answer for it and says nothing of how compare sees a typical session.
pair() { # pair A.json B.json: compare 1 2 of the two, JSON
	rm -f "$T/pair.db"
	"$P" import --db "$T/pair.db" "$1" >/dev/null && "$P" import --db "$T/pair.db" "$2" >/dev/null &&
		"$P" compare 1 2 --db "$T/pair.db" --format json
}
for k in 1 2 3 4 5 6 7 8; do "$P" export "$k" >"$T/x$k.json"; done
diff=$(for k in 2 3 4 5 6 7 8; do
	pair "$T/x1.json" "$T/x$k.json" | jq -r '.rows[] | select(.in == "both" and .overhead_a != null) |
		select(.delta_lo > 0 or .delta_hi < 0) | .name | sub(".* / "; "")'
done | sort | uniq -c | awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')
assert "compare of identical sessions: 'different' in at most 2 of 7 pairs per monitor (${diff:-none})" \
	'! awk -v d="$diff" "BEGIN { n = split(d, a, \", \"); for (i = 1; i <= n; i++) { split(a[i], f, \" \"); if (f[2] > 2) exit 0 } exit 1 }"'
# strace.tsv's line k: session k's overhead and rerun interval; the median width's session.
mk=$(awk '{ print log(1 + $3) - log(1 + $2), NR }' "$T/strace.tsv" | sort -g | sed -n 4p | cut -d' ' -f2)
jq '(.configs[] | select(.monitor == "strace") | .samples[].wall_ns) |= (. * 1.5 | floor)' "$T/x$mk.json" >"$T/xs.json"
row=$(pair "$T/x$mk.json" "$T/xs.json" | jq -c '.rows[] | select(.in == "both" and (.name | endswith(" / strace")))')
o=$(jq -r '.overhead_a' <<<"$row")
assert "compare of a real change (session $mk's strace runs x 1.5): different, 50 x (1 + overhead) points inside [$(jq -r '"\(.delta_lo), \(.delta_hi)"' <<<"$row")]" \
	'jq -e --argjson o "$o" "(50 * (1 + \$o)) as \$w | .delta_lo > 0 and .delta_lo <= \$w and \$w <= .delta_hi" <<<"$row" >/dev/null' ||
	_why "$row" "strace, each session's overhead [rerun interval]: $(awk '{ printf "%.2f [%.2f, %.2f]; ", $1, $2, $3 }' "$T/strace.tsv")"

# Too few blocks for 5 sub-sessions with 4 df: not measured.
"$P" run --runs 4 --no-store --cpu 0 -w syscall:loops=1000 -m perf-stat --format json \
	>"$T/few.json" 2>"$T/efew"
is "$(jq -c '[.statistics[] | select(.monitor == "perf-stat") |
	.overhead_rerun_lo, .overhead_rerun_hi, .rerun_subsessions]' "$T/few.json")" \
	"[null,null,null]" "--runs 4: no rerun interval (null)"
# The text's line under the table says it in words.
"$P" show last >"$T/text" 2>&1
like "$(grep 'a rerun of this study' "$T/text")" \
	'^  overhead a rerun of this study would read, 95% \(5 sub-sessions\): strace [+][0-9.]+% \[' \
	"the text prints the rerun interval under the table"
done_testing
