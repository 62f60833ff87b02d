#!/bin/bash
# parallel-safe
# t408: `probecost list counters` shows every row with availability; the matmul workload reports its reads.
. "$(dirname "$0")/lib.bash"
plan 4
run_pc list --format json counters
assert "list counters: 8 rows" '[ $rc = 0 ] && [ "$(printf "%s" "$out" | jq ".counters | length")" = 8 ]'
# Every unavailable row says why.
is "$(printf '%s' "$out" | jq '[.counters[] | select(.available | not) | select((.why // "") | length < 10)] | length')" 0 \
	"every unavailable row has a reason"
perf_events_usable || skip_rest "perf_event_open not allowed here (kernel.perf_event_paranoid, not root)"
report_of matmul n=16 reps=3
like "$report" "^events=48 unit=row timed_ns=[1-9]" "events=48 rows"
like "$report" " reads=48 decreasing=0 " "48 reads, none decreasing"
done_testing
