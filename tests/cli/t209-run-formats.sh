#!/bin/bash
# --format csv and markdown: one row per configuration, with the same figures as JSON.
P="${PROBECOST:-./probecost}"
F=tests/cli/fake
echo "1..4"
args=(run --no-store --runs 3 --warmup 0 --seed 11 -m "$F/slow-wrap 0.05 {}" --events 100 --unit op)
csv=$("$P" "${args[@]}" --format csv -- /bin/true 2>/dev/null)
[ "$(printf '%s\n' "$csv" | wc -l)" = 3 ] && printf '%s\n' "$csv" | head -1 | grep -q '^workload,workload_args,monitor,unit,runs_ok' \
	&& echo "ok 1 - csv: a header and two rows" || echo "not ok 1 - csv: $csv"
ok=$(printf '%s\n' "$csv" | sed -n 3p | awk -F'",' '{ print $NF }' | cut -d, -f1)
extra=$(printf '%s\n' "$csv" | sed -n 3p | awk -F'",' '{ print $NF }' | cut -d, -f16)
[ "$ok" = 3 ] && awk -v e="$extra" 'BEGIN { exit !(e > 0.03e9 && e < 0.3e9) }' \
	&& echo "ok 2 - csv row: 3 runs, extra $extra ns for a 0.05 s wrapper" || echo "not ok 2 - ok=$ok extra=$extra"
md=$("$P" "${args[@]}" --format markdown -- /bin/true 2>/dev/null)
[ "$(printf '%s\n' "$md" | grep -c '^| command /bin/true |')" = 2 ] && echo "ok 3 - markdown: two table rows" \
	|| echo "not ok 3 - markdown: $md"
printf '%s\n' "$md" | grep -q '[0-9] [mun]*s/op |' && echo "ok 4 - markdown: cost per op in the unit given" \
	|| echo "not ok 4 - $md"
