#!/bin/bash
# tracepoint-syscalls drains its trace instance during the run (as trace-cmd record
# does) instead of leaving the events in a buffer that wraps: it sees every one of
# 1,000,000 getppid calls (it once saw 86,365 of 100,000 and 135,558 of 1,000,000),
# of one thread and of two, and none of other processes'.
. tests/cli/lib.bash
plan 4
if ! is_root || ! have_tracefs || [ ! -e "$TRACEFS/events/raw_syscalls" ] || ! have jq; then
	skip_rest "needs root, tracefs at $TRACEFS with raw_syscalls tracepoints, and jq"
fi
# seen THREADS: "made seen lost" of the tracepoint-syscalls row
seen() { printf '%s' "$out" | jq -r --argjson t "$1" '.statistics[] | select(.monitor == "tracepoint-syscalls" and .threads == $t) |
	"\(.events) \(.monitor_events) \(.lost_events)"'; }
run_pc run --no-store --format json -w syscall:loops=1000000 -m tracepoint-syscalls --cpu 0 --runs 1 --warmup 0
is "$rc" 0 "run -w syscall:loops=1000000 -m tracepoint-syscalls measures (${err%%$'\n'*})"
is "$(printf '%s' "$out" | jq -r '.statistics[] | select(.monitor == "tracepoint-syscalls") | "\(.events) \(.monitor_events) \(.lost_events)"')" \
	"1000000 1000000 0" "it saw every one of 1,000,000 syscalls"
run_pc run --no-store --format json -w syscall:loops=500000 --threads 1,2 -m tracepoint-syscalls --runs 1 --warmup 0
is "$(seen 1) / $(seen 2)" "500000 500000 0 / 1000000 1000000 0" "unpinned, 1 and 2 threads: every syscall of the workload's threads"
printf '%s' "$err" | grep -q "lost"; is "$?" 1 "no warning of lost events"
done_testing
