#!/bin/bash
# t218: the programs probecost starts get the signal dispositions a shell would give
# them: probecost ignores SIGPIPE and catches SIGINT/SIGTERM/SIGHUP, and an ignored
# signal stays ignored across exec, so `yes | head` under probecost would run for ever
# without the reset.  The known answer is what this test's own shell hands the same
# command (SigIgn in /proc/self/status: GNU make, for one, leaves glibc's signals 32 and
# 33 ignored in its children), for a measured run and for a counting run.
. "$(dirname "$0")/lib.bash"
plan 2
tmpdir
# What a plain shell gives its command here, less SIGHUP, SIGINT, SIGPIPE and SIGTERM
# (bits 0, 1, 12, 14), which probecost always hands on at their default.
shell=$(sh -c 'grep ^SigIgn /proc/self/status | cut -f2')
want=$(printf '%016x' "$((0x$shell & ~0x5003))")
check='test "$(grep ^SigIgn /proc/self/status | cut -f2)" = '"$want"
run_pc run --runs 1 --warmup 0 --no-store -- sh -c "$check"
is "$rc" 0 "a measured run's command ignores what a shell's would ($want) (${err##*last: })"
if is_root; then
	run_pc run --count -- sh -c "$check"
	is "$rc" 0 "a counting run's command ignores what a shell's would ($want)"
else
	skip "run --count needs root"
fi
done_testing
