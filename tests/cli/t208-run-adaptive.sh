#!/bin/bash
# parallel-safe
# Adaptive runs, two-stage: after a pilot of --min-runs blocks, the blocks the pilot's
# variance asks for --precision, planned once, within --max-runs and --max-time (but never
# fewer than the pilot).
. "$(dirname "$0")/lib.bash"
plan 6
n() { printf '%s' "$1" | jq '.statistics[0].ok'; }
# An overhead of about +10% on 0.2 s runs: its t interval at 10 blocks is far inside +-100
# points; only a baseline whose spread nears its mean (a CoV of 80%: seconds of delay under
# load) leaves Fieller's interval unbounded, which a 0.2 s sleep makes unlikely.
js=$("$P" run --no-store --format json --precision 100 -m "$F/slow-wrap 0.02 {}" -- /bin/sleep 0.2 2>/dev/null)
is "$(n "$js")" 10 "a wide --precision is met by the pilot, --min-runs (default 10)"
is "$(printf '%s' "$js" | jq '[.warnings[] | select(test("points asked"))] | length')" 0 \
	"a --precision met: no warning says it was not"
js=$("$P" run --no-store --format json --precision 0.001 --min-runs 3 --max-runs 7 \
	-m "$F/slow-wrap 0.01 {}" -- /bin/sleep 0.01 2>/dev/null)
is "$(n "$js")" 7 "an unreachable --precision stops at --max-runs (7)"
# Not reached: said, with the interval, its longer arm against the points asked, the blocks
# and the limits that stopped it.
w=$(printf '%s' "$js" | jq -r '.warnings[] | select(test("points asked"))')
like "$w" '^[^ ]*slow-wrap 0[.]01 [{][}] on command: overhead [+-][0-9.,]+% \[[+-][0-9.,]+, [+-][0-9.,]+\] is not within the [+]-0[.]001 points asked \(an arm of [0-9.]+\) after 7 blocks \(--max-runs 7, --max-time 60 s\)' \
	"an unreachable --precision is told: interval, arm, blocks and limits"
arm=$(printf '%s' "$w" | sed -n 's/.*an arm of \([0-9.]*\)).*/\1/p')
want=$(printf '%s' "$js" | jq '.statistics[] | select(.monitor != "none") | [(.overhead_hi - .overhead), (.overhead - .overhead_lo)] | max * 100')
ratio_in "$arm" "$want" 0.99 1.01
ok $? "the arm told ($arm) is the interval's longer arm, in points ($want)"
js=$("$P" run --no-store --format json --precision 0.001 --min-runs 3 --max-time 0.2 \
	-m "$F/slow-wrap 0.05 {}" -- /bin/sleep 0.05 2>/dev/null)
is "$(n "$js")" 3 "--max-time spent: stops, but after --min-runs (3)"
done_testing
