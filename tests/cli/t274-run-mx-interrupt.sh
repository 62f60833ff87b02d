#!/bin/bash
# Ctrl-C and SIGKILL in the middle of placed, threaded, filtered and counting rows:
# exit 130 with what was measured, no tracer or workload left behind, the tracefs
# instance (record-tgid, its own buffer size) removed; after SIGKILL the next run sweeps it.
. tests/cli/lib.bash
# LeakSanitizer stops the world with ptrace at exit, which a workload that strace
# already traces cannot do: it spins.  No leak check where a ptrace tool wraps it.
[ -n "${PROBECOST_SAN:-}" ] && export ASAN_OPTIONS=detect_leaks=0
plan 6
T=/sys/kernel/tracing
mark=$((7000000 + RANDOM))	# a loop count no other test uses: finds our processes
mons=()
command -v strace >/dev/null && mons+=(-m strace -m strace-seccomp:trace=getppid)
tp=no
if [ -w "$T/instances" ] && [ -e "$T/events/raw_syscalls/enable" ]; then
	mons+=(-m tracepoint-syscalls); tp=yes
fi
place=(); [ "$(nproc)" -ge 2 ] && place=(--placement same,split)
[ ${#mons[@]} -gt 0 ] || mons=(-m "$PWD/tests/cli/fake/cpu-wrap")
left() { pgrep -f "loops=$mark" >/dev/null; }
out=$(mktemp); on_exit 'rm -f "$out"; pkill -KILL -f "loops=$mark"'

"$PROBECOST" run --no-store --runs 1000 --warmup 0 --cpu 0 -w syscall:loops=$mark --threads 1,2 \
	"${place[@]}" "${mons[@]}" >"$out" 2>/dev/null &
pid=$!
for i in $(seq 100); do left && break; sleep 0.1; done
sleep 2
kill -INT $pid
wait $pid; rc=$?
is "$rc" 130 "exit 130 after SIGINT"
like "$(cat "$out")" "INTERRUPTED" "what was measured is printed, marked interrupted"
for i in $(seq 50); do left || break; sleep 0.1; done
ok "$(left && echo 1 || echo 0)" "no tracer or workload left after Ctrl-C"
if [ $tp = yes ]; then
	ok "$(ls -d "$T"/instances/probecost-$pid >/dev/null 2>&1 && echo 1 || echo 0)" "the trace instance was removed"
	"$PROBECOST" run --no-store --runs 1000 --warmup 0 --cpu 0 -w syscall:loops=$mark --threads 2 \
		-m tracepoint-syscalls >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 100); do [ -d "$T/instances/probecost-$pid" ] && left && break; sleep 0.1; done
	kill -KILL $pid; wait $pid 2>/dev/null
	ok "$([ -d "$T/instances/probecost-$pid" ] && echo 0 || echo 1)" "SIGKILL left the instance behind (nothing can undo then)"
	pkill -KILL -f "loops=$mark"
	"$PROBECOST" run --no-store --runs 1 --warmup 0 -w syscall:loops=10 -m tracepoint-syscalls >/dev/null 2>&1
	ok "$([ -d "$T/instances/probecost-$pid" ] && echo 1 || echo 0)" "the next run removed it"
else
	for i in 1 2 3; do skip "tracefs not writable here (needs root)"; done
fi
done_testing
