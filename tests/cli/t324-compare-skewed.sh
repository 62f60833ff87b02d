#!/bin/bash
# parallel-safe
# t324-compare-skewed: compare's change has a robust companion, as one slow run moves a
# mean: the Hodges-Lehmann shift of the log run times with its Mann-Whitney interval, in JSON,
# CSV and, where it disagrees with the means, a "skewed" line.  Session B is A with
# one ltrace run of 30 ms among runs of 2.7: the means' change is +91.5%, the
# robust one 0; the other rows are the same in both and are not told.  And compare
# lists the run options that change a run's cost (--cpu, --washout) where they differ.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
D=tests/cli/data
tmpdir
DB="$T/p.db"
plan 8
have jq || skip_rest "jq not installed"

"$P" import --db "$DB" "$D/run-a.json" >/dev/null
jq -c '(.configs[] | select(.monitor == "ltrace") | .samples[6].wall_ns) = 30000000' \
	"$D/run-a.json" >"$T/b.json"
"$P" import --db "$DB" "$T/b.json" >/dev/null

"$P" compare 1 2 --db "$DB" >"$T/t"
# mean(B)/mean(A) - 1 for ltrace over the measured runs, from the data: the known answer
mean_of() { jq -r '.configs[] | select(.monitor == "ltrace") | .samples | map(select(.warmup | not) | .wall_ns) | add / length' "$1"; }
change=$(awk -v a="$(mean_of "$D/run-a.json")" -v b="$(mean_of "$T/b.json")" 'BEGIN { printf "%+.1f%%", 100 * b / a - 100 }')
assert "text: one skewed line, ltrace's, with the means' change ($change) and a robust one near 0" \
	'grep -A1 "^skewed (A -> B" "$T/t" | grep -q "/ ltrace: mean $change \[.*\], robust [+-]0\.[0-9]% \[" &&
	[ "$(sed -n "/^skewed/,/^$/p" "$T/t" | grep -c ": mean ")" = 1 ]' || diag "$(cat "$T/t")"
"$P" compare 1 2 --db "$DB" --format json >"$T/j"
assert "json: ltrace change_skewed, change_robust within 1% of 0, its interval around it" \
	'jq -e ".rows[] | select(.name | endswith(\"ltrace\")) | .change_skewed == true and (.change_robust | fabs) < 0.01 and .change_robust_lo <= .change_robust and .change_robust <= .change_robust_hi" "$T/j" >/dev/null'
assert "json: the unchanged rows are not skewed, their robust change 0" \
	'jq -e "[.rows[] | select(.name | endswith(\"ltrace\") | not) | .change_skewed == false and .change_robust == 0] | all" "$T/j" >/dev/null'
"$P" compare 1 2 --db "$DB" --format csv >"$T/c"
assert "csv: the robust columns in the header" \
	'head -1 "$T/c" | grep -q ",change_robust,change_robust_lo,change_robust_hi,change_skewed,"'
assert "csv: ltrace's row: its robust change and 1 (skewed), then no level (two sessions)" \
	'grep "ltrace" "$T/c" | grep -q ",1,,,$"'
# A row only in one session has no change: empty fields, never "nan".
jq -c '.configs |= map(select(.monitor != "valgrind"))' "$D/run-a.json" >"$T/a2.json"
"$P" import --db "$DB" "$T/a2.json" >/dev/null
"$P" compare 1 3 --db "$DB" --format csv >"$T/c2"
assert "csv: a row in one session only has empty figures, not nan" \
	'grep -q "valgrind,a,[0-9.]*,,,,,," "$T/c2" && ! grep -qi "nan" "$T/c2"' || diag "$(cat "$T/c2")"
# The run options that change a run's cost are listed with the environment's
# differences: A unpinned, B on --cpu 0 (imported with those options).
jq -c '.options = {"cpu": "", "washout": 0}' "$D/run-a.json" >"$T/ua.json"
jq -c '.options = {"cpu": "0", "washout": 0}' "$D/run-a.json" >"$T/ub.json"
"$P" import --db "$T/o.db" "$T/ua.json" >/dev/null
"$P" import --db "$T/o.db" "$T/ub.json" >/dev/null
"$P" compare 1 2 --db "$T/o.db" >"$T/o"
assert "text: option cpu: unpinned -> 0 among the differences" \
	'sed -n "/^environment differences/,\$p" "$T/o" | grep -qx "  option cpu: unpinned -> 0"' || diag "$(cat "$T/o")"
"$P" compare 1 2 --db "$T/o.db" --format json >"$T/oj"
is "$(jq -c '[.env_differences[] | select(.key | startswith("option"))]' "$T/oj")" \
	'[{"key":"option cpu","a":"unpinned","b":"0"}]' "json: the same, and washout (the same on both) is not listed"
done_testing
