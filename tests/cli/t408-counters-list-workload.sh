#!/bin/bash
# t408: `probecost list counters` shows every row with availability; the matmul workload reports its reads.
P="${PROBECOST:-./probecost}"
echo "1..4"
out=$("$P" list --format json counters 2>/dev/null); rc=$?
n=$(echo "$out" | jq '.counters | length' 2>/dev/null)
[ $rc -eq 0 ] && [ "$n" = 8 ] && echo "ok 1 - list counters: 8 rows" || echo "not ok 1 - rc=$rc rows=$n"
# Every unavailable row says why.
bad=$(echo "$out" | jq '[.counters[] | select(.available | not) | select((.why // "") | length < 10)] | length' 2>/dev/null)
[ "$bad" = 0 ] && echo "ok 2 - every unavailable row has a reason" || echo "not ok 2 - $bad rows without a reason"
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
PROBECOST_REPORT_FD=3 "$P" workload matmul n=16 reps=3 3>"$tmp" >/dev/null 2>&1; rc=$?
line=$(cat "$tmp")
if [ $rc -ne 0 ] && ! "$P" counters --event task-clock --interfaces perf-read --iterations 1 --no-store >/dev/null 2>&1; then
	echo "ok 3 # skip perf_event unusable here"; echo "ok 4 # skip same"; exit 0
fi
echo "$line" | grep -q "^events=48 unit=row timed_ns=[1-9]" && echo "ok 3 - events=48 rows" || echo "not ok 3 - rc=$rc '$line'"
echo "$line" | grep -q " reads=48 decreasing=0 " && echo "ok 4 - 48 reads, none decreasing" || echo "not ok 4 - '$line'"
