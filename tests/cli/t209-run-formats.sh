#!/bin/bash
# --format csv and markdown: one row per configuration, with the same figures as JSON.
P="${PROBECOST:-./probecost}"
F=tests/cli/fake
echo "1..4"
args=(run --no-store --runs 3 --warmup 0 --seed 11 -m "$F/slow-wrap 0.05 {}" --events 100 --unit op)
csv=$("$P" "${args[@]}" --format csv -- /bin/true 2>/dev/null)
[ "$(printf '%s\n' "$csv" | wc -l)" = 3 ] && printf '%s\n' "$csv" | head -1 | grep -q '^workload,workload_args,monitor,unit,runs_ok' \
	&& echo "ok 1 - csv: a header and two rows" || echo "not ok 1 - csv: $csv"
# A column by its header name (the fields here hold no quoted commas).
col() { printf '%s\n' "$csv" | awk -F, -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
	NR == row { print $c }'; }
ok=$(col runs_ok 3)
extra=$(col extra_ns 3)
[ "$ok" = 3 ] && awk -v e="$extra" 'BEGIN { exit !(e > 0.03e9 && e < 0.3e9) }' \
	&& echo "ok 2 - csv row: 3 runs, extra $extra ns for a 0.05 s wrapper" || echo "not ok 2 - ok=$ok extra=$extra"
md=$("$P" "${args[@]}" --format markdown -- /bin/true 2>/dev/null)
[ "$(printf '%s\n' "$md" | grep -c '^| command /bin/true |')" = 2 ] && echo "ok 3 - markdown: two table rows" \
	|| echo "not ok 3 - markdown: $md"
# No timed region and one size: the wrapper's 0.05 s is not spread over the 100 ops as a
# cost per op (fixed and per op n/a); the workload made 100, the wrapper counted none.
printf '%s\n' "$md" | grep 'slow-wrap' | grep -q '| n/a | n/a | n/a / 100 |$' \
	&& echo "ok 4 - markdown: no per-op figure made of start-up, n/a instead" || echo "not ok 4 - $md"
