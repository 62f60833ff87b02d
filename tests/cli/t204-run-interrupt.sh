#!/bin/bash
# Ctrl-C midway: every child group killed, tracefs restored, what was measured printed.
. "$(dirname "$0")/lib.bash"
plan 6
mons=(--attach "$F/attach-ready" --ready 'ready$')
tp=no
if is_root && [ -e "$TRACEFS/events/raw_syscalls/enable" ]; then
	mons+=(-m tracepoint-syscalls); tp=yes
	before=$(cat "$TRACEFS/events/raw_syscalls/enable")
fi
tmpdir
# --events 1: no counting run first, so blocks start at once (under ASan at load 7 the
# counting run and the null workload's twins left no measured block after 3 s).
# The command notes each of its runs in $T/runs: Ctrl-C once two blocks are measured (a
# block is one run of each configuration, none and the monitors: the next run began), 30 s
# at most.
ncfg=2
[ $tp = no ] || ncfg=3
: >"$T/runs"
"$P" run --no-store --runs 1000 --warmup 0 --events 1 "${mons[@]}" -- \
	sh -c 'echo >>"$0"; exec /bin/sleep 0.1' "$T/runs" >"$T/out" 2>/dev/null &
pid=$!
for _ in $(seq 300); do [ "$(wc -l <"$T/runs")" -gt $((2 * ncfg)) ] && break; sleep 0.1; done
kill -INT $pid
wait $pid; rc=$?
is "$rc" 130 "exit 130 after SIGINT"
assert "partial results printed" 'grep -q "INTERRUPTED" "$T/out" && grep -qE "^  none +[0-9.]+ ms" "$T/out"' ||
	diag "$(cat "$T/out")"
assert "the attach monitor was killed" '! pgrep -f "fake/attach-ready" >/dev/null'
if [ $tp = yes ]; then
	# Only this run's instance: other probecosts may be tracing at the same time.
	assert "the trace instance was removed" '[ ! -d "$TRACEFS/instances/probecost-$pid" ]'
	is "$(cat "$TRACEFS/events/raw_syscalls/enable")" "$before" "global raw_syscalls enable unchanged"
	# An instance left by a probecost killed with SIGKILL (its PID gone) is swept first.
	/bin/true & dead=$!; wait $dead
	mkdir "$TRACEFS/instances/probecost-$dead"
	"$P" run --no-store --runs 1 --warmup 0 -m tracepoint-syscalls -- /bin/true >/dev/null 2>&1
	if [ -d "$TRACEFS/instances/probecost-$dead" ]; then
		not_ok "a stale instance was left"; rmdir "$TRACEFS/instances/probecost-$dead"
	else
		pass "a stale instance of a dead probecost was removed"
	fi
else
	skip_rest "needs root and tracefs with raw_syscalls events"
fi
done_testing
