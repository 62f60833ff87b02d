#!/bin/bash
# t403: `--matmul`: reads inside a 128x128 matmul vs the bare loop; values read are sane.
P="${PROBECOST:-./probecost}"
echo "1..4"
out=$("$P" counters --matmul --events 1,2 --interfaces perf-group --iterations 8 --warmup 2 \
	--matmul-runs 6 --no-store --format json 2>/dev/null); rc=$?
[ $rc -eq 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
if [ "$(echo "$out" | jq '[.statistics[] | select(.skipped)] | length' 2>/dev/null)" != 0 ]; then
	for i in 2 3 4; do echo "ok $i # skip perf_event unusable here"; done; exit 0
fi
n=$(echo "$out" | jq '.matmul | length')
[ "$n" = 2 ] && echo "ok 2 - one matmul row per k" || echo "not ok 2 - $n matmul rows"
# Every k: values never decreased; task-clock equals the thread's CPU clock within 10%
# (against elapsed time it holds only on a quiet CPU: printed, not asserted).
bad=$(echo "$out" | jq '[.matmul[] | select((.check | test("values monotonic")) | not)] | length')
[ "$bad" = 0 ] && echo "ok 3 - values monotonic" || echo "not ok 3 - $bad rows with decreasing values"
bad=$(echo "$out" | jq '[.matmul[] | (.check | capture("thread-cpu-time (?<r>[0-9.]+)").r | tonumber) | select(. < 0.9 or . > 1.1)] | length')
[ "$bad" = 0 ] && echo "ok 4 - task-clock within 10% of thread CPU time" || echo "not ok 4 - $(echo "$out" | jq -c '[.matmul[].check]')"
echo "# $(echo "$out" | jq -r '[.matmul[].check] | join(" | ")')"
