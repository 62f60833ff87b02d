#!/bin/bash
# t216: the BPF programs of one probecost's counting run are not a foreign tracer to another
# probecost: a run of the syscall workload beside it goes on (it would refuse a tracer that
# is not a probecost's, t264), and only warns.
. "$(dirname "$0")/lib.bash"
unset PROBECOST_ALLOW_TRACERS # the refusal is what this test checks
plan 3
if ! is_root || ! perf_events_usable; then
	skip_rest "needs root: the counting run's BPF programs"
fi
tmpdir
"$P" run --count -- /bin/sleep 4 >"$T/count" 2>&1 &
pid=$!
on_exit "kill $pid 2>/dev/null"
# Its programs are attached once a perf_event fd of it carries BPF (fdinfo names the program).
for _ in $(seq 100); do
	grep -qs prog "/proc/$pid/fdinfo/"* && break
	sleep 0.05
done
run_pc run --no-store --runs 1 --warmup 0 -w syscall:loops=1000
is "$rc" 0 "a syscall run beside a counting run goes on (exit 0)"
# (It names one probecost: on a shared machine another one may be tracing too.)
like "$err" "another probecost \(pid [0-9]+\) is tracing at the same time" "... and warns"
wait $pid
is "$?" 0 "the counting run ends well too"
done_testing
