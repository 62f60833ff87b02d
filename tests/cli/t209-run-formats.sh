#!/bin/bash
# no-sanitizer: extra times against the wrappers' sleeps, in the ratio 2
# --format csv and markdown: one row per configuration, with the same figures as JSON.
. "$(dirname "$0")/lib.bash"
plan 4
args=(run --no-store --runs 6 --warmup 0 --seed 11 -m "$F/slow-wrap 0.2 {}" -m "$F/slow-wrap 0.4 {}"
	--events 100 --unit op)
csv=$("$P" "${args[@]}" --format csv -- /bin/true 2>/dev/null)
assert "csv: a header and three rows" '[ "$(printf "%s\n" "$csv" | wc -l)" = 4 ] &&
	printf "%s\n" "$csv" | head -1 | grep -q "^workload,workload_args,monitor,unit,runs_ok"'
# A column by its header name (the fields here hold no quoted commas).
col() { printf '%s\n' "$csv" | awk -F, -v name="$1" -v row="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
	NR == row { print $c }'; }
# shellcheck disable=SC2034 # $ok1: read by assert's eval
ok1=$(col runs_ok 3); e1=$(col extra_ns 3); e2=$(col extra_ns 4)
# Side by side the 0.4 s wrapper costs about twice the 0.2 s one: the load that stretches
# a run by tens of ms (one 50 ms stretch in 4 runs of 0.1/0.2 s broke a 1.6 bound) moves
# this ratio little.  The baseline's own stretches shift both extras alike.
# The 0.2 s slept, plus the start of sh and sleep: at most +25% (50 ms) on a loaded machine.
assert "csv rows: 6 runs, extra $e1 and $e2 ns for 0.2 s and 0.4 s wrappers (0.8..1.25 x sleep, ratio 1.6..2.4)" \
	'[ "$ok1" = 6 ] && ratio_in "$e1" 0.2e9 0.8 1.25 && ratio_in "$e2" "$e1" 1.6 2.4'
# The markdown checks time nothing: 2 runs of wrappers that sleep 20 and 40 ms will do.
md=$("$P" run --no-store --runs 2 --warmup 0 --seed 11 -m "$F/slow-wrap 0.02 {}" -m "$F/slow-wrap 0.04 {}" \
	--events 100 --unit op --format markdown -- /bin/true 2>/dev/null)
is "$(printf '%s\n' "$md" | grep -c '^| command /bin/true |')" 3 "markdown: three table rows"
# No timed region and one size: the wrappers' sleeps are not spread over the 100 ops as a
# cost per op (fixed and per op n/a); the workload made 100, the wrapper counted none.
assert "markdown: no per-op figure made of start-up, n/a instead" \
	'printf "%s\n" "$md" | grep slow-wrap | grep -q "| n/a | n/a | n/a / 100 | ok |$"' || diag "$md"
done_testing
