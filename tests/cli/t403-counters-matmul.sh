#!/bin/bash
# parallel-safe
# t403: `--matmul`: reads inside a 128x128 matmul vs the bare loop; values read are sane.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
plan 4
perf_events_usable || skip_rest "perf_event_open not allowed here (kernel.perf_event_paranoid, not root)"
out=$("$P" counters --matmul --events 1,2 --interfaces perf-group --iterations 8 --warmup 2 \
	--matmul-runs 6 --no-store --format json 2>/dev/null); rc=$?
j() { printf '%s' "$out" | jq "$1"; }
assert "exit 0, no series skipped" '[ $rc = 0 ] && [ "$(j "[.statistics[] | select(.skipped)] | length")" = 0 ]'
is "$(j '.matmul | length')" 2 "one matmul row per k"
# Every k: values never decreased; task-clock equals the thread's CPU clock within 10%
# (against elapsed time it holds only on a quiet CPU: printed, not asserted).
is "$(j '[.matmul[] | select((.check | test("values monotonic")) | not)] | length')" 0 "values monotonic"
is "$(j '[.matmul[] | (.check | capture("thread-cpu-time (?<r>[0-9.]+)").r | tonumber) | select(. < 0.9 or . > 1.1)] | length')" 0 \
	"task-clock within 10% of thread CPU time"
diag "$(printf '%s' "$out" | jq -r '[.matmul[].check] | join(" | ")')"
done_testing
