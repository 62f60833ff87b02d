#!/bin/bash
# no-sanitizer: counter read medians in bounds and against clock_gettime
# t401: `probecost counters --format json`: every series there, every sample kept, values sane.
. "$(dirname "$0")/lib.bash"
plan 6
perf_events_usable || skip_rest "perf_event_open not allowed here (kernel.perf_event_paranoid, not root)"
out=$("$P" counters --iterations 64 --warmup 8 --events 1,2 --no-store --format json \
	--interfaces perf-read,perf-group,empty,clock_gettime 2>/dev/null); rc=$?
is "$rc" 0 "exit 0"
printf '%s' "$out" | jq -e . >/dev/null 2>&1 || { not_ok "the output is JSON"; skip_rest "no JSON"; }
j() { printf '%s' "$out" | jq "$1"; }
# 2 interfaces x 2 k x 4 ops + 2 baselines x 1 op, none skipped.
is "$(j '.statistics | length') $(j '[.statistics[] | select(.skipped)] | length')" "18 0" "18 series, none skipped"
is "$(j '[.statistics[] | select(.n != 64)] | length')" 0 "every series has 64 samples"
# A read costs something (> 10 ns: a syscall) and far less than a millisecond.
is "$(j '[.statistics[] | select(.interface | startswith("perf")) | select(.ns.median <= 10 or .ns.median >= 1000000)] | length')" 0 \
	"perf medians within (10 ns, 1 ms)"
# start+stop+read as one region costs at least as much as its cheapest part, read.
is "$(j '[.statistics | group_by(.interface + (.k|tostring))[] | select(.[0].k > 0)
	| (map(select(.op == "start+stop+read"))[0].ns.median) as $all
	| (map(select(.op == "read"))[0].ns.median) as $rd | select($all < $rd)] | length')" 0 "start+stop+read >= read"
# The empty region is the timer alone: not dearer than timing clock_gettime (generous 1.5x).
is "$(j '(.statistics[] | select(.interface == "empty") | .ns.median) as $e
	| (.statistics[] | select(.interface == "clock_gettime") | .ns.median) as $c | $e <= 1.5 * $c')" true \
	"empty region <= clock_gettime region"
done_testing
