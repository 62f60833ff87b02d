#!/bin/bash
# t402: bad input to `probecost counters` is one line and exit 2; impossible events exit 1 and say why.
P="${PROBECOST:-./probecost}"
echo "1..8"
err=$("$P" counters --event tsk-clock --no-store 2>&1 >/dev/null); rc=$?
if [ $rc -eq 2 ] && echo "$err" | grep -q "unknown event 'tsk-clock'; close matches:.*TASK-CLOCK" \
	&& [ "$(echo "$err" | wc -l)" = 1 ]; then echo "ok 1 - unknown event: close matches, exit 2"
else echo "not ok 1 - unknown event: rc=$rc '$err'"; fi
"$P" counters --events 0 --no-store >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && echo "ok 2 - --events 0 exit 2" || echo "not ok 2 - --events 0 exit $rc"
"$P" counters --events 17 --no-store >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && echo "ok 3 - --events 17 exit 2" || echo "not ok 3 - --events 17 exit $rc"
err=$("$P" counters --interfaces perf-read,nope --no-store 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "unknown interface 'nope'" && echo "ok 4 - unknown interface exit 2" || echo "not ok 4 - rc=$rc '$err'"
"$P" counters --iterations abc --no-store >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && echo "ok 5 - --iterations abc exit 2" || echo "not ok 5 - exit $rc"
err=$("$P" counters --event task-clock --events 3 --no-store 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "ok 6 - more k than --event names: exit 2" || echo "not ok 6 - rc=$rc '$err'"
out=$("$P" counters --help); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "perf-mmap" && echo "ok 7 - --help lists the interfaces" || echo "not ok 7 - --help rc=$rc"
# cycles: exit 1 and "no hardware PMU" without one; measured with one.
if [ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ]; then
	echo "ok 8 # skip this machine has a PMU: 'cycles' is countable"
else
	err=$("$P" counters --event cycles --no-store 2>&1 >/dev/null); rc=$?
	[ $rc -eq 1 ] && echo "$err" | grep -q "no hardware PMU" && echo "ok 8 - cycles without a PMU: exit 1, says why" || echo "not ok 8 - rc=$rc '$err'"
fi
