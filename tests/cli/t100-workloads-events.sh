#!/bin/bash
# parallel-safe
# t100: every built-in workload reports the events it was asked for and a positive timed_ns.
. "$(dirname "$0")/lib.bash"
plan 26

events_are() { # events_are WANT_EVENTS WANT_UNIT WORKLOAD ARGS...
	local want=$1 unit=$2
	shift 2
	report_of "$@"
	is "$rc/$(field events "$report")/$(field unit "$report")" "0/$want/$unit" "$* reports events=$want unit=$unit"
	ns=$(field timed_ns "$report")
	[ "$want" = 0 ] || { [ "${ns:-0}" -gt 0 ]; ok $? "$* reports a positive timed_ns ($ns)"; }
}
events_are 2000 round-trip pipe loops=2000
events_are 1500 round-trip pipe loops=1500 mode=thread
events_are $((2 * 4 * 4 * 5)) message messaging groups=2 fds=4 loops=5
events_are $((3 * 2 * 2 * 7)) message messaging groups=3 fds=2 loops=7 ipc=pipe mode=thread
events_are 100000 syscall syscall loops=100000
events_are 5000 syscall syscall loops=5000 nr=99999
like "$report" 'result=ENOSYS' "an invalid syscall number returns ENOSYS and still counts"
events_are 3000 syscall syscall loops=3000 nr=99999 via=libc
like "$report" 'result=ENOSYS' "through libc too, an invalid number returns ENOSYS and counts"
events_are 50 task spawn kind=fork loops=50
events_are 20 task spawn kind=vfork-exec loops=20
events_are 200 task spawn kind=thread loops=200
events_are 0 none null
events_are 700 request server requests=700 conns=2

# The timed region excludes setup: it never exceeds the wall time of the whole command.
start=$(date +%s%N)
report_of pipe loops=3000
end=$(date +%s%N)
ns=$(field timed_ns "$report")
[ "$ns" -lt $((end - start)) ]
ok $? "pipe timed_ns ($ns) is less than the command's wall time ($((end - start)))"
done_testing
