#!/bin/bash
# --format csv and markdown: one row per configuration, with the same figures as JSON.
. "$(dirname "$0")/lib.bash"
plan 4
args=(run --no-store --runs 4 --warmup 0 --seed 11 -m "$F/slow-wrap 0.1 {}" -m "$F/slow-wrap 0.2 {}"
	--events 100 --unit op)
csv=$("$P" "${args[@]}" --format csv -- /bin/true 2>/dev/null)
assert "csv: a header and three rows" '[ "$(printf "%s\n" "$csv" | wc -l)" = 4 ] &&
	printf "%s\n" "$csv" | head -1 | grep -q "^workload,workload_args,monitor,unit,runs_ok"'
col() { printf '%s\n' "$csv" | sed -n "$1p" | awk -F'",' '{ print $NF }' | cut -d, -f"$2"; }
ok1=$(col 3 1); e1=$(col 3 16); e2=$(col 4 16)
# The sleeps set a floor; side by side the 0.2 s wrapper costs about twice the 0.1 s one.
assert "csv rows: 4 runs, extra $e1 and $e2 ns for 0.1 s and 0.2 s wrappers (>= 0.9 x sleep, ratio 1.6..2.2)" \
	'[ "$ok1" = 4 ] && ratio_in "$e1" 0.1e9 0.9 1000 && ratio_in "$e2" "$e1" 1.6 2.2'
md=$("$P" "${args[@]}" --format markdown -- /bin/true 2>/dev/null)
is "$(printf '%s\n' "$md" | grep -c '^| command /bin/true |')" 3 "markdown: three table rows"
like "$md" '[0-9] [mun]*s/op \|' "markdown: cost per op in the unit given"
done_testing
