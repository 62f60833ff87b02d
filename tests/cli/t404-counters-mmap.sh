#!/bin/bash
# parallel-safe
# t404: perf-mmap is measured where rdpmc works, and skipped with the reason where it cannot.
. "$(dirname "$0")/lib.bash"
plan 2
perf_events_usable || skip_rest "perf_event_open not allowed here (kernel.perf_event_paranoid, not root)"
run_pc counters --interfaces perf-mmap --events 1 --iterations 16 --warmup 2 --no-store --format json
is "$rc" 0 "exit 0"
# rdpmc works where the PMU lets user space read its counters (cpu/rdpmc not 0).
rdpmc=$(cat /sys/bus/event_source/devices/cpu/rdpmc /sys/bus/event_source/devices/cpu_core/rdpmc 2>/dev/null | head -1)
if have_pmu && [ -n "$rdpmc" ] && [ "$rdpmc" != 0 ]; then
	is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.op == "read") | [.skipped, .n]][0]')" "[false,16]" \
		"rdpmc path measured (16 samples)"
else
	note=$(printf '%s' "$out" | jq -r 'select(.statistics[0].skipped) | .statistics[0].note')
	like "$note" "index 0|no counter index|rdpmc disabled|PMU" "no PMU with rdpmc here: skipped and says why"
fi
done_testing
