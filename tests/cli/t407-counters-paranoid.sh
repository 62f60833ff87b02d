#!/bin/bash
# parallel-safe
# t407: an unprivileged user gets what kernel.perf_event_paranoid allows, and is told why.
. "$(dirname "$0")/lib.bash"
P=$(readlink -f "$P")
plan 2
{ is_root && have runuser && id nobody >/dev/null 2>&1; } || skip_rest "needs root, runuser and user nobody"
runuser -u nobody -- test -x "$P" || skip_rest "user nobody cannot execute $P"
lvl=$(cat /proc/sys/kernel/perf_event_paranoid)
tmpdir; chmod 755 "$T"
runuser -u nobody -- env HOME="$T" "$P" counters --event task-clock --interfaces perf-group \
	--iterations 8 --warmup 1 --no-store --format json >"$T/out" 2>"$T/err"
rc=$?
if [ "$lvl" -ge 3 ]; then
	is "$rc" 1 "paranoid $lvl: exit 1"
	assert "says the level and the fix" 'grep -q "perf_event_paranoid is $lvl" "$T/err"'
elif [ "$lvl" -eq 2 ]; then
	assert "paranoid 2: measured, counting user space only" '[ $rc = 0 ] && [ "$(jq -r .options.counting "$T/out")" = user ]'
	assert "warns that kernel side is not counted" 'grep -q "user space only" "$T/err"'
else
	assert "paranoid $lvl: user+kernel" '[ $rc = 0 ] && [ "$(jq -r .options.counting "$T/out")" = user+kernel ]'
	skip "paranoid $lvl lets everyone count the kernel side"
fi
done_testing
