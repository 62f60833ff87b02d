#!/bin/bash
# probecost refuses to measure, saying why, while a tracer that is not its own is armed
# on what it measures: an enabled uprobe event on the binary it runs, enabled syscall
# events when it measures syscalls, a BPF program on the syscall tracepoints.
. tests/cli/lib.bash
unset PROBECOST_ALLOW_TRACERS # the refusal is what this test checks
plan 9
T=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || [ ! -w "$T/uprobe_events" ]; then
	for i in $(seq 9); do skip "needs root and tracefs at $T"; done
	done_testing
fi
BINP=$(realpath "$PROBECOST")
G=t264_$$
off=$("$PROBECOST" probes --list "$BINP" | awk '$1 == "stanford_plain" && $2 == "fft" { print $4 }')
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -n "$bt" ] && kill "$bt" 2>/dev/null
	echo 0 2>/dev/null >"$T/events/$G/enable"
	echo "-:$G/fft" 2>/dev/null >>"$T/uprobe_events"
	rmdir "$T/instances/$G" 2>/dev/null
}
on_exit cleanup

# 1-4. A uprobe event on the binary probecost runs (its built-in workloads are in it).
echo "p:$G/fft $BINP:$off" >>"$T/uprobe_events"
run_pc run --no-store --runs 1 --warmup 0 -w null
is "$rc" 0 "a defined but disabled uprobe event costs nothing: the run goes on"
echo 1 >"$T/events/$G/fft/enable"
run_pc run --no-store --runs 1 --warmup 0 -w null
is "$rc" 1 "with the event enabled, run refuses (exit 1)"
like "$err" "not this probecost's is armed on what it would measure: the uprobe event $G/fft on $BINP is enabled" \
	"and says which tracer, on which file"
run_pc probes --no-store --via dormant --variants plain --scale 1 -r 1 --warmup 0
is "$rc" 1 "probes refuses too"
echo 0 >"$T/events/$G/fft/enable"
echo "-:$G/fft" >>"$T/uprobe_events"

# 5-7. Syscall events enabled in an instance that is not a probecost's.
mkdir "$T/instances/$G"
echo 1 >"$T/instances/$G/events/raw_syscalls/enable"
run_pc run --no-store --runs 1 --warmup 0 -w syscall:loops=1000
like "$rc: $err" "^1: .*raw_syscalls events are enabled in tracefs" "measuring syscalls with raw_syscalls enabled is refused"
run_pc run --no-store --runs 1 --warmup 0 -w null
is "$rc" 0 "the null workload does not measure syscalls: it runs"
PROBECOST_ALLOW_TRACERS=1 run_pc run --no-store --runs 1 --warmup 0 -w syscall:loops=1000
is "$rc" 0 "PROBECOST_ALLOW_TRACERS=1 measures anyway"
echo 0 >"$T/instances/$G/events/raw_syscalls/enable"
rmdir "$T/instances/$G"

# 8-9. A BPF program on the syscall tracepoint, from a process that is not ours.
if ! command -v bpftrace >/dev/null; then
	skip "bpftrace not installed"; skip "bpftrace not installed"; done_testing
fi
bpftrace -e 'BEGIN { printf("t264-ready\n"); } tracepoint:raw_syscalls:sys_enter { @n = count(); }' \
	>"/tmp/t264.$$" 2>&1 &
bt=$!
for i in $(seq 200); do grep -q t264-ready "/tmp/t264.$$" && break; sleep 0.05; done
run_pc run --no-store --runs 1 --warmup 0 -w syscall:loops=1000
like "$rc: $err" "^1: .*process $bt has a BPF program on the sys_enter tracepoint" "a foreign bpftrace on sys_enter is named"
# bpftrace prints its map on SIGINT; under load that can stall: KILL after 5 s.
kill -INT "$bt"
for i in $(seq 100); do kill -0 "$bt" 2>/dev/null || break; sleep 0.05; done
kill -KILL "$bt" 2>/dev/null; wait "$bt" 2>/dev/null; bt=
rm -f "/tmp/t264.$$"
run_pc run --no-store --runs 1 --warmup 0 -w syscall:loops=1000
is "$rc" 0 "once it is gone, the run measures"
done_testing
