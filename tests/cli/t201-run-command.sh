#!/bin/bash
# probecost run -- CMD: raw runs kept, warm-up flagged, and a known overhead
# (a wrapper that sleeps 0.2 s) measured as about 0.2 s.
P="${PROBECOST:-./probecost}"
F=tests/cli/fake
echo "1..6"
out=$("$P" run --no-store --runs 4 --warmup 1 --seed 7 --format json \
	-m "$F/slow-wrap 0.2 {}" --events 10 --unit call -- /bin/true 2>/dev/null); rc=$?
[ "$rc" = 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
j() { printf '%s' "$out" | jq -r "$1"; }
nok=$(j '.statistics[0].ok'); mon=$(j '.statistics[1].monitor')
[ "$nok" = 4 ] && [ "$mon" = "$F/slow-wrap 0.2 {}" ] && echo "ok 2 - 4 measured runs of none, then the custom wrapper" \
	|| echo "not ok 2 - ok=$nok monitor=$mon"
extra=$(j '.statistics[1].extra_ns')
awk -v e="$extra" 'BEGIN { exit !(e > 0.15e9 && e < 0.6e9) }' \
	&& echo "ok 3 - extra time of a 0.2 s wrapper is $extra ns" || echo "not ok 3 - extra $extra ns"
# The 0.2 s is start-up: without a timed region or --scale it is not a cost per event.
per=$(j '.statistics[1].per_event_ns'); why=$(j '.statistics[1].per_event_why')
[ "$per" = null ] && [ "$why" != null ] \
	&& echo "ok 4 - no per-event figure made of start-up / --events ($why)" || echo "not ok 4 - per event $per ($why)"
warm=$(printf '%s' "$out" | jq '[.. | objects | select(has("warmup")) | select(.warmup == true)] | length')
[ "$warm" = 2 ] && echo "ok 5 - one warm-up run per configuration kept and flagged" || echo "not ok 5 - $warm warm-up runs"
sig=$(j '.statistics[1].significant')
[ "$sig" = true ] && echo "ok 6 - the overhead is significant" || echo "not ok 6 - significant=$sig"
