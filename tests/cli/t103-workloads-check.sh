#!/bin/bash
# parallel-safe
# t103: every built-in workload checks its own result and says so on its report line
# (check=ok, or check=bad why="..." and exit 1); a workload with nothing to check says
# nothing.  Known answers: a preloaded shim (tests/fixtures/outcome/corrupt.c) makes each
# workload compute one thing wrong, and its check names it.  A fatal signal writes a fault
# line on the report descriptor (signal=SEGV ... ip_vaddr=...) before the process dies of it.
. "$(dirname "$0")/lib.bash"
plan 20
tmpdir
have cc || skip_rest "no C compiler (cc) to build the fixture shim: apt-get install gcc"
cc -shared -fPIC -o "$T/corrupt.so" tests/fixtures/outcome/corrupt.c -ldl ||
	skip_rest "the fixture shim did not build"

check_is() { # check_is WANT_RC/WANT_CHECK DESC WORKLOAD ARGS...
	local want=$1 desc=$2
	shift 2
	report_of "$@"
	is "$rc/$(field check "$report")" "$want" "$desc"
}
check_is 0/ok "pipe: every round trip carried its own int back" pipe loops=3000
check_is 0/ok "pipe, thread partner" pipe loops=3000 mode=thread
check_is 0/ok "messaging: every receiver read the bytes sent" messaging groups=2 fds=3 loops=20
check_is 0/ok "messaging over pipes, threads" messaging groups=2 fds=3 loops=20 ipc=pipe mode=thread
check_is 0/ok "syscall: every getppid answered the same, 2 threads" syscall loops=20000 threads=2
check_is 0/ok "syscall: an invalid number, ENOSYS every time" syscall loops=2000 nr=99999 via=libc
check_is 0/ok "spawn: every forked task exited with its own status" spawn loops=30
check_is 0/ok "spawn: every thread returned its number" spawn kind=thread loops=30
check_is 0/ok "matmul: every product added up to its sum worked out apart" matmul reps=2 reads=none
check_is 0/ok "stanford: every kernel's own check" stanford scale=1
check_is 0/ok "uprobe: every call made, a value carried across every call" uprobe loops=5000 threads=2
check_is 0/ok "uprobe redzone, nothing armed: every value kept in the red zone came back" uprobe insn=redzone loops=5000
check_is 0/ok "sdtargs: every site passed, the arguments summed after it" sdtargs variant=a3 loops=5000
check_is 0/ "null has nothing to check: no check= at all" null

# Known answers: what the shim made wrong, named by the check.  AddressSanitizer must be
# the first library a sanitizer build loads: no shim can come before it there.
[ -n "${PROBECOST_SAN:-}" ] && san=1 || san=
corrupt_is() { # corrupt_is WHAT WANT_WHY_REGEX DESC WORKLOAD ARGS...
	local what=$1 want=$2 desc=$3
	shift 3
	[ -n "$san" ] && { skip "$desc: no LD_PRELOAD shim before AddressSanitizer"; return; }
	PCOST_CORRUPT=$what LD_PRELOAD="$T/corrupt.so" report_of "$@"
	like "$rc/$(field check "$report") $report" "^1/bad .*why=\"$want\"" "$desc"
}
corrupt_is write:10 "the partner received other ints than 0, 1, 2, \.\.\. in order" \
	"pipe: one int changed in flight: check=bad, exit 1" pipe loops=1000
# Each sender's 2nd data write is its first message to receiver 2 (of 2).
corrupt_is write:2 "1 of 2 receivers read other bytes than were sent" \
	"messaging: one message's byte changed: the receiver it went to says so" messaging groups=1 fds=2 loops=10
corrupt_is getppid:7 "thread 1: 999 of 1000 calls returned what the first did \([0-9]+\)" \
	"syscall: one getppid answered otherwise: 999 of 1000 calls" syscall loops=1000 via=libc
corrupt_is sincos "kernel fft computed a wrong result \(thread 1\)" \
	"stanford: fft's twiddles 1% off: check=bad names the kernel" stanford kernel=fft scale=1
corrupt_is _exit "task 1 ended with status 0x100, not exit 0" \
	"spawn: a task that exited otherwise" spawn loops=10

# A fatal signal: the fault line, with where in the executable (a kill is a sent signal).
PROBECOST_REPORT_FD=3 "$PROBECOST" workload spin loops=1000000000 3>"$T/fault" 2>/dev/null &
pid=$!
# Send it once the workload's fault handlers are in (a fixed 0.3 s was too short for the
# ASan build at load).
wait_started "$pid" pc-spin
kill -SEGV $pid
wait $pid 2>/dev/null
rc=$?
like "$rc $(cat "$T/fault")" "^139 signal=SEGV code=0 pid=$pid from_pid=$$ ip=0x[0-9a-f]+" \
	"a SIGSEGV sent to a workload: the fault line names it and the sender, then it dies of it"
done_testing
