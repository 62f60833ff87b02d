#!/bin/bash
# t218: the programs probecost starts get the signal dispositions a shell would give
# them: probecost ignores SIGPIPE and catches SIGINT/SIGTERM/SIGHUP, and an ignored
# signal stays ignored across exec, so `yes | head` under probecost would run for ever
# without the reset.  Checked in the command's own /proc/self/status (SigIgn: no
# signal ignored), for a measured run and for a counting run.
. "$(dirname "$0")/lib.bash"
plan 2
tmpdir
check='test "$(grep ^SigIgn /proc/self/status | cut -f2)" = 0000000000000000'
run_pc run --runs 1 --warmup 0 --no-store -- sh -c "$check"
is "$rc" 0 "a measured run's command ignores no signal (${err##*last: })"
if is_root; then
	run_pc run --count -- sh -c "$check"
	is "$rc" 0 "a counting run's command ignores no signal"
else
	skip "run --count needs root"
fi
done_testing
