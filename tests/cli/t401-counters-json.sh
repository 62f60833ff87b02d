#!/bin/bash
# t401: `probecost counters --format json`: every series there, every sample kept, values sane.
P="${PROBECOST:-./probecost}"
echo "1..6"
out=$("$P" counters --iterations 64 --warmup 8 --events 1,2 --no-store --format json \
	--interfaces perf-read,perf-group,empty,clock_gettime 2>/dev/null)
rc=$?
[ $rc -eq 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
if ! echo "$out" | jq -e . >/dev/null 2>&1; then
	for i in 2 3 4 5 6; do echo "not ok $i - no JSON"; done; exit 0
fi
if [ "$(echo "$out" | jq '[.statistics[] | select(.skipped)] | length')" != 0 ]; then
	why=$(echo "$out" | jq -r '[.statistics[] | select(.skipped) | .note][0]')
	for i in 2 3 4 5 6; do echo "ok $i # skip perf_event unusable here: $why"; done; exit 0
fi
# 2 interfaces x 2 k x 4 ops + 2 baselines x 1 op
n=$(echo "$out" | jq '.statistics | length')
[ "$n" = 18 ] && echo "ok 2 - 18 series" || echo "not ok 2 - $n series, want 18"
bad=$(echo "$out" | jq '[.statistics[] | select(.n != 64)] | length')
[ "$bad" = 0 ] && echo "ok 3 - every series has 64 samples" || echo "not ok 3 - $bad series without 64 samples"
# A read costs something (> 10 ns: a syscall) and far less than a millisecond.
bad=$(echo "$out" | jq '[.statistics[] | select(.interface | startswith("perf")) | select(.ns.median <= 10 or .ns.median >= 1000000)] | length')
[ "$bad" = 0 ] && echo "ok 4 - perf medians within (10 ns, 1 ms)" || echo "not ok 4 - $bad medians out of range"
# start+stop+read as one region costs at least as much as its cheapest part, read.
bad=$(echo "$out" | jq '[.statistics | group_by(.interface + (.k|tostring))[] | select(.[0].k > 0)
	| (map(select(.op == "start+stop+read"))[0].ns.median) as $all
	| (map(select(.op == "read"))[0].ns.median) as $rd | select($all < $rd)] | length')
[ "$bad" = 0 ] && echo "ok 5 - start+stop+read >= read" || echo "not ok 5 - $bad groups with start+stop+read < read"
# The empty region is the timer alone: not dearer than timing clock_gettime (generous 1.5x).
ok=$(echo "$out" | jq '(.statistics[] | select(.interface == "empty") | .ns.median) as $e
	| (.statistics[] | select(.interface == "clock_gettime") | .ns.median) as $c | $e <= 1.5 * $c')
[ "$ok" = true ] && echo "ok 6 - empty region <= clock_gettime region" || echo "not ok 6 - empty region dearer than clock_gettime"
