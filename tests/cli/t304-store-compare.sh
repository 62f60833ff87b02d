#!/bin/bash
# parallel-safe
# t304-store-compare: compare two stored runs: changes, regressions, --fail-above, one-side rows, env diff, plot.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
D=tests/cli/data
tmpdir
DB="$T/p.db"
plan 11

"$P" import --db "$DB" "$D/run-a.json" > /dev/null
"$P" import --db "$DB" "$D/run-b.json" > /dev/null
"$P" import --db "$DB" "$D/counters.json" > /dev/null
jq -c '.configs |= map(select(.monitor != "valgrind"))' "$D/run-b.json" > "$T/b2.json"
"$P" import --db "$DB" "$T/b2.json" > /dev/null

"$P" compare 1 2 --db "$DB" > "$T/t"; rc=$?
assert "text compare exits 0 without --fail-above" '[ $rc = 0 ]'
assert "strace: 12.0 ms -> 17.0 ms, +41.7%, overhead +500% -> +750%, REGRESSION" \
   'grep "/ strace" "$T/t" | grep -q "12.0 ms .*17.0 ms .*+41.7% .*+500% .*+750% .*+2[45][0-9].[0-9] \[+2[0-9]*, +2[0-9]*\] pts .*REGRESSION"'
assert "the baseline did not change and is not a regression" 'grep "/ none" "$T/t" | grep -q "+0.0% \[" && ! grep "/ none" "$T/t" | grep -q REGRESSION'
assert "the kernel difference is listed" 'grep -q "kernel.release: 6.1.0 -> 6.18.0" "$T/t"'
"$P" compare 1 2 --db "$DB" --format json > "$T/j"
assert "json: perf-stat grew about 1 point, not a regression at the default 5" \
   'jq -e ".rows[] | select(.name | endswith(\"perf-stat\")) | (.overhead_change_points > 0.5 and .overhead_change_points < 1.5 and .regression == false)" "$T/j" > /dev/null'
"$P" compare 1 2 --db "$DB" --fail-above 300 > /dev/null 2> "$T/e"; rc1=$?
"$P" compare 1 2 --db "$DB" --fail-above 100 > /dev/null 2> "$T/e2"; rc2=$?
assert "--fail-above 300 fails on valgrind only (+2400 pts); 100 also names strace (+250)" \
   '[ $rc1 = 1 ] && [ $rc2 = 1 ] && grep -q "valgrind grew by 240[0-9].[0-9] points" "$T/e" && ! grep -q "strace" "$T/e" && grep -q "strace grew by 2[45][0-9].[0-9] points \[[0-9.]*, [0-9.]*\], more than --fail-above 100$" "$T/e2"'
"$P" compare 1 2 --db "$DB" --fail-above 5000 > /dev/null; rc=$?
assert "--fail-above above every growth exits 0" '[ $rc = 0 ]'
"$P" compare 1 4 --db "$DB" > "$T/o"
assert "a configuration on one side only is listed" 'grep -q "only in A: syscall loops=20000 / valgrind" "$T/o"'
"$P" compare 1 3 --db "$DB" 2> "$T/e"; rc=$?
assert "different kinds are a usage error" '[ $rc = 2 ] && grep -q "compare sessions of one kind" "$T/e"'
"$P" compare 1 2 --db "$DB" --plot "$T/c.png" > /dev/null; rc=$?
is "$rc $(od -An -tx1 -N24 "$T/c.png" | tr -d ' \n')" "0 89504e470d0a1a0a0000000d49484452000003c000000230" \
	"compare --plot writes a PNG of 960 x 560 (its signature and header)"
# Its bars, from the SVG of the same chart: one a side for each row in both sessions, in
# the rows' order, each as tall above the 1% baseline as its overhead's log10 (in %) says.
"$P" compare 1 2 --db "$DB" --plot "$T/c.svg" > /dev/null
heights() { # heights RGB: the bars of that fill standing on the baseline, left to right
	grep -F "fill:rgb($1)" "$T/c.svg" |
		sed -n 's/.*d="M \([0-9.]*\) \([0-9.]*\) L [0-9.]* [0-9.]* L [0-9.]* \([0-9.]*\) .*/\1 \2 \3/p' |
		awk '$3 > 200 { print $1, $3 - $2 }' | sort -n | cut -d' ' -f2
}
logs=$(jq -r '.rows[] | select(.in == "both" and .overhead_a != null) | "\(.overhead_a) \(.overhead_b)"' "$T/j")
per_decade=$(paste <(heights '12.2%,46.7%,70.6%') <(heights '100%,49.8%,5.5%') <(printf '%s\n' "$logs") |
	awk 'NF == 4 { print $1 / log(100 * $3) * log(10); print $2 / log(100 * $4) * log(10) } NF != 4 { print "x" }')
assert "the plot's 2 x $(grep -c . <<< "$logs") bars are the overheads on one log scale ($(paste -sd" " <<< "$per_decade") px a decade)" \
	'[ "$(grep -c . <<< "$per_decade")" = 8 ] && awk "{ if (\$1 !~ /^[0-9.]+\$/) exit 1; if (NR == 1) a = \$1; if (\$1 / a < 0.99 || \$1 / a > 1.01) exit 1 }" <<< "$per_decade"'
done_testing
