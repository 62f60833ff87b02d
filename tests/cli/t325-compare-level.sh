#!/bin/bash
# parallel-safe
# t325-compare-level: compare's mean change carries the level between sessions.
# A shared machine's level moves between sessions by more than one session's
# runs show, so the Welch interval of two sessions' runs alone calls a level shift a
# change.  Four sessions of one study under the same conditions, each run 1.00, 1.06,
# 0.97 and 1.03 x run-a.json's (and strace's 1.00, 1.02, 0.99, 1.01 x more, so that its
# overhead moves between sessions too, and takes a level of its own): compare 1 2 takes the level from all four (the one-way
# random-effects variance of their log means, the known answer computed below from the
# data) and does not call +6% a regression; with sessions 1 and 2 alone, the level is
# "not measured" and the runs' noise alone flags it.  A session under other conditions
# (unpinned) is not pooled; --fail-above counts only a growth whose interval is above 0.
# A figure (tps = 1e9 / each run's wall time) gets its own
# level from the same sessions.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
D=tests/cli/data
tmpdir
plan 21
have jq || skip_rest "jq not installed"

# Session k: every run of run-a.json x FACTOR (strace's x STRACE more), pinned to CPU 0,
# with a figure tps, and a figure idle no run measured (a preset's test not run).
session() { # session FACTOR STRACE CPU FILE
	jq -c --argjson f "$1" --argjson g "$2" --arg cpu "$3" '.options = {"cpu": $cpu, "washout": 0} |
		.metrics = [{"name": "tps", "unit": "tps", "better": "higher"}, {"name": "idle", "unit": "s", "better": "lower"}] |
		(.configs[] | select(.monitor == "strace") | .samples[].wall_ns) |= (. * $g | floor) |
		(.configs[].samples[]) |= (.wall_ns = (.wall_ns * $f | floor) | .metrics = [1e9 / .wall_ns, null])' \
		"$D/run-a.json" >"$4"
}
i=0
for fg in 1.00:1.00 1.06:1.02 0.97:0.99 1.03:1.01; do
	i=$((i + 1))
	session "${fg%:*}" "${fg#*:}" 0 "$T/s$i.json"
	"$P" import --db "$T/four.db" "$T/s$i.json" >/dev/null
	[ "$i" -le 2 ] && "$P" import --db "$T/two.db" "$T/s$i.json" >/dev/null
done

"$P" compare 1 2 --db "$T/two.db" >"$T/two"
assert "two sessions: the level is not measured; the runs' noise alone calls none's +6.0% and strace's +12 pts REGRESSIONs" \
	'grep -q "^level between sessions: not measured" "$T/two" &&
	grep " / none " "$T/two" | grep -q "+6.0%.*REGRESSION" && grep " / strace " "$T/two" | grep -q "+12\.0 \[.*REGRESSION"' ||
	diag "$(cat "$T/two")"

# The known answer: the four sessions' log means of none's measured values (jq path
# $1: wall_ns or metrics[0]) and their squared relative standard errors; the level's
# variance is the log means' squares about their mean over 3 df, less the mean of those.
level_of() {
	for k in 1 2 3 4; do
		jq -r --arg f "$1" '.configs[] | select(.monitor == "none") |
			[.samples[] | select(.warmup | not) | if $f == "wall" then .wall_ns else .metrics[0] end] | @tsv' "$T/s$k.json"
	done | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; m = s / NF; q = 0
			for (i = 1; i <= NF; i++) q += ($i - m) ^ 2
			l[NR] = log(m); v += q / (NF - 1) / NF / m / m; L += log(m) }
		END { L /= NR; for (k = 1; k <= NR; k++) ss += (l[k] - L) ^ 2
			s2 = ss / (NR - 1) - v / NR; printf "%.6f\n", sqrt(s2 > 0 ? s2 : 0) }'
}
want=$(level_of wall)
# near GOT WANT [TOL]: GOT within TOL (1e-6: WANT is printed to 6 decimals) of WANT, above 0.02.
# shellcheck disable=SC2317 # called in assert's eval'd expressions
near() { awk -v g="$1" -v w="$2" -v t="${3:-1e-6}" 'BEGIN { exit !(w > 0.02 && (g - w) ^ 2 < t * t) }'; }
"$P" compare 1 2 --db "$T/four.db" --format json >"$T/j"
got=$(jq -r '.rows[] | select(.name | endswith("/ none")) | .level_sd' "$T/j")
assert "json: none's level_sd is the four sessions' ($want), from 4 sessions, 3 df" \
	'near "$got" "$want" &&
	jq -e ".rows[] | select(.name | endswith(\"/ none\")) | .level_sessions == 4 and .level_df == 3" "$T/j" >/dev/null' ||
	diag "got $got"
assert "json: with the level, none's +6% is not significant and not a regression; its interval holds 0" \
	'jq -e ".rows[] | select(.name | endswith(\"/ none\")) | .significant == false and .regression == false and
		.change_lo < 0 and .change_hi > 0.06 and .change_robust_lo < 0" "$T/j" >/dev/null'
assert "json: every row's level is measured, and no row is a regression" \
	'jq -e "[.rows[] | (.level_sd != null) and (.regression == false)] | all" "$T/j" >/dev/null'
"$P" compare 1 2 --db "$T/four.db" >"$T/t"
assert "text: the level section names none's level and its 4 sessions; no REGRESSION" \
	'grep -q "^level between sessions (" "$T/t" && grep -q "/ none: [0-9.]*% (4 sessions)$" "$T/t" &&
	! grep -q REGRESSION "$T/t"' || diag "$(cat "$T/t")"
"$P" compare 1 2 --db "$T/four.db" --format csv >"$T/c"
assert "csv: level_sd, level_sessions and overhead_level_pts end the header; none's row has no overhead level" \
	'head -1 "$T/c" | grep -q ",level_sd,level_sessions,overhead_level_pts$" && grep "/ none," "$T/c" | grep -q ",4,$"'
# The overhead's level: each session's strace overhead (mean over the blocks where both
# ran, / none's, - 1) and its delta-method standard error (sd of strace - r none over
# the blocks, / sqrt(n) / mean none), pooled the same way, in points.
wanto=$(for k in 1 2 3 4; do
	jq -r '[.configs[] | select(.monitor == "none" or .monitor == "strace") | .monitor as $m |
		.samples[] | select(.warmup | not) | "\(.block) \($m) \(.wall_ns)"] | .[]' "$T/s$k.json" |
		awk -v k="$k" '{ w[$1, $2] = $3; b[$1] = 1 } END { for (i in b) if (((i, "none") in w) && ((i, "strace") in w)) {
			n++; x[n] = w[i, "strace"]; y[n] = w[i, "none"]; sx += x[n]; sy += y[n] }
			r = sx / sy; for (i = 1; i <= n; i++) { d = x[i] - r * y[i]; sd += d; sq += d * d }
			m = sd / n; se = sqrt((sq - n * m * m) / (n - 1)) / sqrt(n) / (sy / n); printf "%.12g %.12g\n", r - 1, se * se }'
done | awk '{ o[NR] = $1; v += $2; s += $1 } END { s /= NR; for (k = 1; k <= NR; k++) q += (o[k] - s) ^ 2
	s2 = q / (NR - 1) - v / NR; printf "%.6f\n", 100 * sqrt(s2 > 0 ? s2 : 0) }')
goto=$(jq -r '.rows[] | select(.name | endswith("/ strace")) | .overhead_level_pts' "$T/j")
assert "json: strace's overhead level is the four sessions' ($wanto pts)" \
	'near "$goto" "$wanto" 1e-4 && [ "${wanto%%.*}" -ge 1 ]' || diag "got $goto"
wantf=$(level_of tps)
gotf=$(jq -r '.figures[] | select(.name | endswith("/ none / tps")) | .level_sd' "$T/j")
assert "json: none's tps figure has its own level ($wantf) from the same 4 sessions" \
	'near "$gotf" "$wantf" &&
	jq -e ".figures[] | select(.name | endswith(\"/ none / tps\")) | .level_sessions == 4 and .change_lo < 0 and .change_hi > 0" "$T/j" >/dev/null' ||
	diag "got $gotf"
assert "text: the figure's line names its level" \
	'grep -q "/ none / tps: .*, level between sessions [0-9.]*% (4 sessions)$" "$T/t"' || diag "$(cat "$T/t")"
"$P" compare 1 2 --db "$T/two.db" --format json >"$T/j2"
is "$(jq -r '.figures[] | select(.name | endswith("/ none / tps")) | "\(.level_sd) \(.level_sessions)"' "$T/j2")" \
	"null 0" "json, two sessions: the figure's level is not measured"
assert "a figure neither session measured is no line (was 'nan -> nan'), nor a JSON figure" \
	'! grep -q "/ idle" "$T/t" && ! grep -qi "nan" "$T/t" && [ "$(jq "[.figures[] | select(.name | endswith(\"/ idle\"))] | length" "$T/j")" = 0 ]'
# --fail-above counts a growth whose interval lies above 0: strace's +12 pts is one
# alone, and with the level, whose interval holds 0, it is named but not counted.
"$P" compare 1 2 --db "$T/two.db" --fail-above 5 >/dev/null 2>"$T/f2"
rc2=$?
assert "--fail-above 5, two sessions: exit 1, strace's +12.0 pts and its interval named" \
	'[ $rc2 = 1 ] && grep -q "strace grew by 12.0 points \[[0-9.]*, [0-9.]*\], more than --fail-above 5$" "$T/f2"' || diag "$(cat "$T/f2")"
"$P" compare 1 2 --db "$T/four.db" --fail-above 5 >/dev/null 2>"$T/f4"
rc4=$?
assert "--fail-above 5, with the level: exit 0, strace's growth named as not counted" \
	'[ $rc4 = 0 ] && grep -q "strace grew by 12.0 points \[-[0-9.]*, [0-9.]*\], more than --fail-above 5, but its 95% interval holds 0: not counted$" "$T/f4"' ||
	diag "rc $rc4: $(cat "$T/f4")"
# show prints a session's level beside its runs' +-, over it and the sessions stored
# before it (as run printed it): the same known answers for the newest.
"$P" show 4 --db "$T/four.db" >"$T/s1"
lw=$(awk -v w="$want" 'BEGIN { printf "%.1f", 100 * w }')
lo=$(awk -v w="$wanto" 'BEGIN { printf "%.1f", w }')
lvl=$(sed -n '/^  level between sessions/,/^$/p' "$T/s1" | tr -s ' \n' ' ')
assert "show: the level lines name none's $lw% and strace's with its overhead's $lo pts, over 4 sessions, within 100 columns" \
	'[[ $lvl == *"level between sessions (a mean'"'"'s sd beyond its runs'"'"' +-; 4 sessions, same conditions): none $lw% (tps "*"), "*", strace "*"% (its overhead $lo pts, tps "*"), "* ]] &&
	[ "$(sed -n "/^  level between sessions/,/^\$/p" "$T/s1" | awk "{ print length }" | sort -n | tail -1)" -le 100 ]' ||
	diag "$(cat "$T/s1")"
# The default study's brief text prints the same lines under its table.
for k in 1 2 3 4; do
	jq -c '.options.default_study = true' "$T/s$k.json" | "$P" import --db "$T/brief.db" - >/dev/null
done
"$P" show 4 --db "$T/brief.db" >"$T/sb"
blv=$(sed -n '/^  level between sessions/,/^$/p' "$T/sb" | tr -s ' \n' ' ')
assert "the default study's brief text: the same level lines under its table" \
	'grep -q "^# probecost run: what each monitor costs here" "$T/sb" && [ -n "$blv" ] && [ "$blv" = "$lvl" ]' ||
	diag "$(cat "$T/sb")"
"$P" show 4 --db "$T/four.db" --format json >"$T/sj"
gs=$(jq -r '.statistics[] | select(.monitor == "none") | .level_sd' "$T/sj")
gso=$(jq -r '.statistics[] | select(.monitor == "strace") | .overhead_level_pts' "$T/sj")
assert "show --format json: level_sd ($want) and overhead_level_pts ($wanto) from 4 sessions; show 3 from 3" \
	'near "$gs" "$want" && near "$gso" "$wanto" 1e-4 &&
	jq -e "[.statistics[] | .level_sessions == 4] | all" "$T/sj" >/dev/null &&
	"$P" show 3 --db "$T/four.db" --format json | jq -e "[.statistics[] | .level_sessions == 3] | all" >/dev/null' ||
	diag "got $gs $gso (show 3: it and the sessions stored before it, as run printed it)"
gsf=$(jq -r '.statistics[] | select(.monitor == "none") | .metrics[] | select(.name == "tps") | .level_sd' "$T/sj")
lf=$(awk -v w="$wantf" 'BEGIN { printf "%.1f", 100 * w }')
"$P" show 4 --db "$T/four.db" --format csv >"$T/sc"
assert "show: none's tps figure has its own level ($wantf): JSON, the level lines, CSV metric_tps_level_sd" \
	'near "$gsf" "$wantf" && [[ $lvl == *"none $lw% (tps $lf%), "* ]] &&
	head -1 "$T/sc" | grep -q ",metric_tps_level_sd"' || diag "got $gsf; $(grep -A3 "figure /" "$T/s1")"
"$P" show 2 --db "$T/two.db" >"$T/s2"
"$P" show 2 --db "$T/two.db" --format json >"$T/s2j"
"$P" show 2 --db "$T/two.db" --format csv >"$T/s2c"
assert "show, two sessions: no level line; null in JSON, empty in CSV" \
	'! grep -q "level between" "$T/s2" &&
	jq -e "[.statistics[] | .level_sd == null and .level_sessions == null and .overhead_level_pts == null] | all" "$T/s2j" >/dev/null &&
	head -1 "$T/s2c" | grep -q ",level_sd,level_sessions,overhead_level_pts,outcome,outcome_why," &&
	[ "$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i ~ /level/) c[i] = 1; next }
		{ for (i in c) if (\$i != \"\") print }" "$T/s2c" | wc -l)" = 0 ]' || diag "$(cat "$T/s2c")"
# An unpinned session (its runs 1.5 x) is under other conditions: not pooled.
session 1.5 1.5 "" "$T/s5.json"
"$P" import --db "$T/four.db" "$T/s5.json" >/dev/null
"$P" compare 1 2 --db "$T/four.db" --format json >"$T/j5"
is "$(jq -r '.rows[] | select(.name | endswith("/ none")) | "\(.level_sessions) \(.level_sd)"' "$T/j5")" \
	"4 $got" "an unpinned fifth session is not pooled: the same level from the same 4"
is "$("$P" show 5 --db "$T/four.db" --format json | jq -c '[.statistics[] | .level_sd]' | sort -u)" \
	"[null,null,null,null,null]" "show of the unpinned session: no level (no 2 sessions under its conditions)"
# Compared the other way round: the same sessions pooled.
"$P" compare 2 1 --db "$T/four.db" --format json >"$T/j21"
is "$(jq -r '.rows[] | select(.name | endswith("/ none")) | .level_sessions' "$T/j21")" 4 \
	"B before A: the same 4 sessions pooled"
done_testing
