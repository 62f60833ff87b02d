#!/bin/bash
# parallel-safe: on a copy of probecost of its own (own_probecost: its probes, definitions,
#   instances and journal its alone), one perf-probe test at a time (perf_probe_lock); counts
#   and outcomes, no timings
# SIGINT midway through armed runs: tracefs uprobe_events, trace instances and
# `perf probe -l` are as before, exit 130, the runs done so far are reported.
. "$(dirname "$0")/lib.bash"
perf_probe_lock "$@"
plan 9
{ is_root && have_tracefs; } || skip_rest "needs root and tracefs at $TRACEFS"
own_probecost
via=uprobe,ftrace
have perf && via=$via,perf-probe
before_ev=$(ours_ev); before_in=$(ours_in); before_pl=$(ours_pl)
tmpdir
out=$T/out
"$P" probes --via $via --variants plain,volatile-sem --scale 3 --runs 200 --warmup 0 --cpu 0 \
	--no-store >"$out" 2>/dev/null &
pid=$!
pids="$pids $pid"; pids=${pids# }
# Once our events are registered (and armed runs under way), interrupt.
interrupt_armed 2
assert "$armed uprobe events were registered during the run" '[ "$armed" -gt 0 ]'
is "$(ours_ev)" "$before_ev" "uprobe_events as before"
is "$(ours_in)" "$before_in" "trace instances as before"
is "$(ours_pl)" "$before_pl" "perf probe -l as before"
assert "exit 130, partial report" '[ $rc = 130 ] && grep -q INTERRUPTED "$out"' || diag "exit $rc: $(cat "$out")"
# A second signal unwinds the cleanup stack from the handler and exits at once.
"$P" probes --via $via --variants plain --scale 3 --runs 200 --warmup 0 --cpu 0 --no-store \
	>/dev/null 2>&1 &
pid=$!
pids="$pids $pid"; pids=${pids# }
for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
sleep 1
kill -INT $pid; sleep 0.05; kill -INT $pid
wait $pid; rc=$?
assert "two SIGINTs: uprobe_events and instances as before (exit $rc)" \
	'[ "$(ours_ev)" = "$before_ev" ] && [ "$(ours_in)" = "$before_in" ]' || diag "$(cat "$TRACEFS/uprobe_events")"
is "$(ours_pl)" "$before_pl" "two SIGINTs: perf probe -l as before"
# SIGKILL: nothing can undo then; the next probecost removes what the dead one left.
"$P" probes --via ftrace --variants plain --scale 3 --runs 200 --warmup 0 --cpu 0 --no-store \
	>/dev/null 2>&1 &
pid=$!
pids="$pids $pid"; pids=${pids# }
for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
sleep 0.5
kill -KILL $pid; wait $pid 2>/dev/null
left=$(grep -c "pcost_${pid}_" $TRACEFS/uprobe_events)
if [ "$left" -gt 0 ]; then pass "SIGKILL left $left events behind (as it must)"
else skip "the kill came before anything was registered"; fi
err=$("$P" probes --via dormant --variants plain --kernel towers --scale 1 --runs 1 --warmup 0 \
	--no-store 2>&1 >/dev/null)
assert "the next run removed them ($err)" \
	'[ "$(grep -c "pcost_${pid}_" "$TRACEFS/uprobe_events")" = 0 ] && ! ls "$TRACEFS/instances" | grep -q "pcost_${pid}_"'
done_testing
