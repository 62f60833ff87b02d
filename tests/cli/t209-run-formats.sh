#!/bin/bash
# --format csv and markdown: one row per configuration, with the same figures as JSON.
. "$(dirname "$0")/lib.bash"
plan 4
args=(run --no-store --runs 3 --warmup 0 --seed 11 -m "$F/slow-wrap 0.05 {}" -m "$F/slow-wrap 0.1 {}"
	--events 100 --unit op)
csv=$("$P" "${args[@]}" --format csv -- /bin/true 2>/dev/null)
assert "csv: a header and three rows" '[ "$(printf "%s\n" "$csv" | wc -l)" = 4 ] &&
	printf "%s\n" "$csv" | head -1 | grep -q "^workload,workload_args,monitor,unit,runs_ok"'
col() { printf '%s\n' "$csv" | sed -n "$1p" | awk -F'",' '{ print $NF }' | cut -d, -f"$2"; }
ok5=$(col 3 1); e5=$(col 3 16); e10=$(col 4 16)
# The sleeps set a floor; side by side the 0.1 s wrapper costs about twice the 0.05 s one.
assert "csv rows: 3 runs, extra $e5 and $e10 ns for 0.05 s and 0.1 s wrappers (>= sleep, ratio 1.6..2.1)" \
	'[ "$ok5" = 3 ] && ratio_in "$e5" 0.05e9 0.95 1000 && ratio_in "$e10" "$e5" 1.6 2.1'
md=$("$P" "${args[@]}" --format markdown -- /bin/true 2>/dev/null)
is "$(printf '%s\n' "$md" | grep -c '^| command /bin/true |')" 3 "markdown: three table rows"
like "$md" '[0-9] [mun]*s/op \|' "markdown: cost per op in the unit given"
done_testing
