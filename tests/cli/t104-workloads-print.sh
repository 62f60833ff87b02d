#!/bin/bash
# parallel-safe
# workload --print: a human line in the voice of perf bench (total time, usecs/op, ops/sec)
# instead of the report line, with figures that agree with each other and with a clock outside:
# spin loops=1000 work=10000 spins 1000 x 10 us, so at least 10 ms, and no longer than the
# command took by date(1).
. "$(dirname "$0")/lib.bash"
plan 5
t0=$(date +%s%N)
o=$("$P" workload spin loops=1000 work=10000 --print 2>&1); rc=$?
wall=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }')
is "$rc" 0 "workload spin --print: exit 0"
like "$(printf '%s\n' "$o" | head -1)" '^# workload spin: loops=1000 work=10000$' "the first line names the workload"
total=$(printf '%s\n' "$o" | awk '/Total time:/ { print $3 }')
per=$(printf '%s\n' "$o" | awk '/usecs\/op/ { print $1 }')
ops=$(printf '%s\n' "$o" | awk '/ops\/sec/ { print $1 }')
ok "$(awk -v t="$total" -v w="$wall" 'BEGIN { exit !(t >= 0.010 && t <= w) }'; echo $?)" \
	"total $total s: at least the 10 ms spun, at most the $wall s date(1) saw"
ok "$(awk -v t="$total" -v p="$per" 'BEGIN { exit !(p >= 10 && p * 1000 / 1e6 > t - 0.0011 && p * 1000 / 1e6 < t + 0.0011) }'; echo $?)" \
	"$per usecs/op: at least the 10 us of work, and x 1000 ops = the total"
ok "$(awk -v p="$per" -v o="$ops" 'BEGIN { exit !(o > 0.99 * 1e6 / p && o < 1.01 * 1e6 / p) }'; echo $?)" \
	"$ops ops/sec = 1e6 / usecs/op"
done_testing
