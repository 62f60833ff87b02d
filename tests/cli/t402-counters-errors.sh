#!/bin/bash
# parallel-safe
# t402: bad input to `probecost counters` is one line and exit 2; impossible events exit 1 and say why.
. "$(dirname "$0")/lib.bash"
plan 8
run_pc counters --event tsk-clock --no-store
assert "unknown event: close matches, one line, exit 2" '[ $rc = 2 ] && [[ "$err" =~ unknown\ event\ .tsk-clock.\;\ close\ matches:.*TASK-CLOCK ]] && [ "$(printf "%s\n" "$err" | wc -l)" = 1 ]'
run_pc counters --events 0 --no-store
is "$rc" 2 "--events 0 exit 2"
run_pc counters --events 17 --no-store
is "$rc" 2 "--events 17 exit 2"
run_pc counters --interfaces perf-read,nope --no-store
assert "unknown interface exit 2" '[ $rc = 2 ] && [[ "$err" == *"unknown interface '"'nope'"'"* ]]'
run_pc counters --iterations abc --no-store
is "$rc" 2 "--iterations abc exit 2"
run_pc counters --event task-clock --events 3 --no-store
is "$rc" 2 "more k than --event names: exit 2"
run_pc counters --help
assert "--help lists the interfaces" '[ $rc = 0 ] && [[ "$out" == *perf-mmap* ]]'
# cycles: exit 1 and "no hardware PMU" without one; measured with one.
if have_pmu; then
	skip "this machine has a PMU: 'cycles' is countable"
else
	run_pc counters --event cycles --no-store
	assert "cycles without a PMU: exit 1, says why" '[ $rc = 1 ] && [[ "$err" == *"no hardware PMU"* ]]'
fi
done_testing
