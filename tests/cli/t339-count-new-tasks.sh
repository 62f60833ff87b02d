#!/bin/bash
# parallel-safe: it counts, compares no timing and arms no probe
# t339: run --count counts apart the calls a process the command created makes before its
# first exec, which strace --seccomp-bpf stops at whatever its filter: a fixture with a known
# number of them (tests/fixtures/predict/newtask.c), in children that exit and that exec (a
# failed execve first); a thread's calls and the command's own are not among them.
. "$(dirname "$0")/lib.bash"
skip_unless_counting
plan 8

tmpdir
cc -O2 -pthread -o "$T/newtask" tests/fixtures/predict/newtask.c || {
	not_ok "the fixture builds"
	done_testing
}
# getppid's count and its count in new tasks, execve's the same, and every new task's call.
FIG='[([.syscalls_by_nr.counts[] | select(.name == "getppid") | "\(.count)/\(.new_task)"] | first // "0/0"),
      ([.syscalls_by_nr.counts[] | select(.name == "execve") | "\(.count)/\(.new_task)"] | first // "0/0"),
      .syscalls_by_nr.new_task_calls] | join(" ")'
# figures N K MODE: one counting run of the fixture, those figures into gp, ex and all.
figures() { read -r gp ex all < <("$P" run --count --format json -- "$T/newtask" "$@" | jq -r "$FIG"); }

figures 20 50 fork
is "$gp" 1000/1000 "fork: 20 children x 50 getppid, all of them in new tasks"
[ "$all" -ge 1000 ] && [ "$all" -le 1100 ]
ok $? "fork: every new task's call, 1000 getppid and each child's few more ($all)"

figures 20 50 exec
is "$gp" 1000/1000 "exec: the 1000 getppid before the children's exec are in new tasks"
is "$ex" 41/0 "exec: 41 execve (the command's own, a failed and a successful one a child), none counted in a new task"
[ "$all" -ge 1000 ] && [ "$all" -le 1040 ]
ok $? "exec: nothing after a child's first execve, /bin/true's start-up included, is a new task's call ($all)"

figures 20 50 thread
is "$gp:$all" 1000/0:0 "thread: 20 threads x 50 getppid, none counted as a new process's"

figures 0 50 fork
is "$gp/$all" 0/0/0 "no task created: no getppid, no new task's call"

# Text: the column beside each count.
like "$("$P" run --count -- "$T/newtask" 3 5 fork)" "getppid +15 +15" "text: getppid's 15 calls, 15 of them in new tasks"
done_testing
