#!/bin/bash
# parallel-safe
# Built-in workload: events come from its report; strace -c counts 4 syscalls a round trip.
. "$(dirname "$0")/lib.bash"
plan 3
have strace || skip_rest "strace not installed (package strace)"
# LeakSanitizer cannot run under ptrace: the sanitizer build's workload must not try.
js=$(ASAN_OPTIONS=detect_leaks=0 "$P" run --no-store --runs 2 --warmup 0 --cpu 0 --format json -w pipe:loops=2000 -m strace-count 2>/dev/null); rc=$?
is "$rc" 0 "exit 0"
is "$(printf '%s' "$js" | jq -r '"\(.statistics[1].events) \(.statistics[1].unit)"')" "2000 round-trip" \
	"2000 round-trips from the workload's report"
me=$(printf '%s' "$js" | jq '.statistics[1].monitor_events')
# Each round trip: one write and one read on each side; start-up adds a few hundred more
# (a thousand more under ASan), the same at any loop count: 1000 more round trips are
# 4000 more syscalls.
js1=$(ASAN_OPTIONS=detect_leaks=0 "$P" run --no-store --runs 2 --warmup 0 --cpu 0 --format json -w pipe:loops=1000 -m strace-count 2>/dev/null)
me1=$(printf '%s' "$js1" | jq '.statistics[1].monitor_events')
assert "strace counted $me syscalls at 2000 round trips, $me1 at 1000: 4 a round trip (4000 +- 40 more)" \
	'[ "$me" -ge 8000 ] && [ $((me - me1)) -ge 3960 ] && [ $((me - me1)) -le 4040 ]'
done_testing
