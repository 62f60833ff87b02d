#!/bin/bash
# parallel-safe
# t101: bad workload parameters exit 2 with one line naming the parameter and its range.
. "$(dirname "$0")/lib.bash"
plan 16

bad() { # bad EXPECTED_ERR_REGEX ARGS...
	local re=$1
	shift
	run_pc workload "$@"
	is "$rc" 2 "'workload $*' exits 2"
	like "$err" "$re" "'workload $*' says: $re"
}
bad "unknown workload 'frob' \(known: pipe, messaging, syscall, spawn, null" frob
bad "workload pipe: unknown parameter 'size' \(known: loops, mode, cpu\)" pipe size=3
bad "workload pipe: loops='x' is not a number: an integer 1-1000000000" pipe loops=x
bad "workload pipe: loops='0' is out of range: an integer 1-1000000000" pipe loops=0
bad "workload pipe: loops='-1' is not a number" pipe loops=-1
bad "workload messaging: groups='5000' is out of range: an integer 1-1000" messaging groups=5000
bad "workload spawn: kind='clone' is not valid: one of fork\|vfork-exec\|thread" spawn kind=clone
run_pc workload syscall loops=10 nr=nonsense
is "$rc" 2 "syscall nr=nonsense exits 2"
is "$(printf '%s\n' "$err" | wc -l)" 1 "with exactly one line"
done_testing
