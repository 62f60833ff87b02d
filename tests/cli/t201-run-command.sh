#!/bin/bash
# probecost run -- CMD: raw runs kept, warm-up flagged, and known overheads (wrappers that
# sleep 0.2 s and 0.4 s) measured as at least their sleep, and in the ratio 2 side by side.
. "$(dirname "$0")/lib.bash"
plan 6
out=$("$P" run --no-store --runs 4 --warmup 1 --seed 7 --format json -m "$F/slow-wrap 0.2 {}" \
	-m "$F/slow-wrap 0.4 {}" --events 10 --unit call -- /bin/true 2>/dev/null); rc=$?
is "$rc" 0 "exit 0"
j() { printf '%s' "$out" | jq -r "$1"; }
is "$(j '.statistics[0].ok') $(j '.statistics[1].monitor')" "4 $F/slow-wrap 0.2 {}" \
	"4 measured runs of none, then the custom wrapper"
e2=$(j '.statistics[1].extra_ns'); e4=$(j '.statistics[2].extra_ns')
# A sleep never ends early: the extra time is at least the sleep, and at most the sleep plus
# the start of sh and sleep (a few ms; 50 ms of slack for a loaded machine); fork/exec of the
# wrapper adds the same to both, so the two extras stand close to 2:1.
assert "extra times ${e2} and ${e4} ns: the 0.2 s slept (up to +25%), ratio within 1.7..2.1" \
	'ratio_in "$e2" 0.2e9 0.95 1.25 && ratio_in "$e4" "$e2" 1.7 2.1'
# The sleep is start-up: without a timed region or --scale it is not a cost per event.
per=$(j '.statistics[1].per_event_ns'); why=$(j '.statistics[1].per_event_why')
assert "no per-event figure made of start-up / --events ($why)" '[ "$per" = null ] && [ "$why" != null ]'
warm=$(printf '%s' "$out" | jq '[.. | objects | select(has("warmup")) | select(.warmup == true)] | length')
is "$warm" 3 "one warm-up run per configuration kept and flagged"
is "$(j '.statistics[1].significant')" true "the overhead is significant"
done_testing
