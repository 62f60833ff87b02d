#!/bin/bash
# SIGINT midway through armed runs: tracefs uprobe_events, trace instances and
# `perf probe -l` are as before, exit 130, the runs done so far are reported.
P="${PROBECOST:-./probecost}"
# Only what this binary registers: other probecosts (other trees, other
# passes) may be using tracefs at the same time.
BINP=$(readlink -f "$P")
pids=
ours_ev() { grep -F " $BINP:" /sys/kernel/tracing/uprobe_events 2>/dev/null; }
ours_in() { [ -n "$pids" ] && ls /sys/kernel/tracing/instances 2>/dev/null | grep -E "^pcost_(${pids// /|})_"; }
ours_pl() { perf probe -l 2>/dev/null | grep -F "in $BINP "; }
T=/sys/kernel/tracing
echo "1..9"
if [ "$(id -u)" != 0 ] || [ ! -w $T/uprobe_events ]; then
	for i in 1 2 3 4 5 6 7 8 9; do echo "ok $i # skip needs root and tracefs at $T"; done
	exit 0
fi
via=uprobe,ftrace
command -v perf >/dev/null && via=$via,perf-probe
before_ev=$(ours_ev); before_in=$(ours_in); before_pl=$(ours_pl)
out=$(mktemp); trap 'rm -f "$out"' EXIT
"$P" probes --via $via --variants plain,volatile-sem --scale 3 --runs 200 --warmup 0 --cpu 0 \
	--no-store >"$out" 2>/dev/null &
pid=$!
pids="$pids $pid"; pids=${pids# }
# Wait until our events are registered (and armed runs under way), then interrupt.
for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
armed=$(ours_ev | grep -c .)
sleep 2
kill -INT $pid
wait $pid; rc=$?
[ "$armed" -gt 0 ] && echo "ok 1 - $armed uprobe events were registered during the run" \
	|| echo "not ok 1 - nothing was registered before the interrupt"
[ "$(ours_ev)" = "$before_ev" ] && echo "ok 2 - uprobe_events as before" \
	|| { echo "not ok 2 - uprobe_events left:"; sed 's/^/# /' $T/uprobe_events; }
[ "$(ours_in)" = "$before_in" ] && echo "ok 3 - trace instances as before" \
	|| echo "not ok 3 - instances: $(ours_in)"
[ "$(ours_pl)" = "$before_pl" ] && echo "ok 4 - perf probe -l as before" \
	|| echo "not ok 4 - perf probe -l: $(perf probe -l 2>&1)"
[ $rc = 130 ] && grep -q INTERRUPTED "$out" && echo "ok 5 - exit 130, partial report" \
	|| { echo "not ok 5 - exit $rc"; sed 's/^/# /' "$out"; }
# A second signal unwinds the cleanup stack from the handler and exits at once.
"$P" probes --via $via --variants plain --scale 3 --runs 200 --warmup 0 --cpu 0 --no-store \
	>/dev/null 2>&1 &
pid=$!
pids="$pids $pid"; pids=${pids# }
for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
sleep 1
kill -INT $pid; sleep 0.05; kill -INT $pid
wait $pid; rc=$?
[ "$(ours_ev)" = "$before_ev" ] && [ "$(ours_in)" = "$before_in" ] \
	&& echo "ok 6 - two SIGINTs: uprobe_events and instances as before (exit $rc)" \
	|| { echo "not ok 6 - after two SIGINTs:"; sed 's/^/# /' $T/uprobe_events; }
[ "$(ours_pl)" = "$before_pl" ] && echo "ok 7 - two SIGINTs: perf probe -l as before" \
	|| echo "not ok 7 - perf probe -l: $(perf probe -l 2>&1)"
# SIGKILL: nothing can undo then; the next probecost removes what the dead one left.
"$P" probes --via ftrace --variants plain --scale 3 --runs 200 --warmup 0 --cpu 0 --no-store \
	>/dev/null 2>&1 &
pid=$!
pids="$pids $pid"; pids=${pids# }
for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
sleep 0.5
kill -KILL $pid; wait $pid 2>/dev/null
left=$(grep -c "pcost_${pid}_" $T/uprobe_events)
[ "$left" -gt 0 ] && echo "ok 8 - SIGKILL left $left events behind (as it must)" \
	|| echo "ok 8 # skip the kill came before anything was registered"
err=$("$P" probes --via dormant --variants plain --kernel towers --scale 1 --runs 1 --warmup 0 \
	--no-store 2>&1 >/dev/null)
if [ "$(grep -c "pcost_${pid}_" $T/uprobe_events)" = 0 ] && ! ls $T/instances | grep -q "pcost_${pid}_"; then
	echo "ok 9 - the next run removed them ($err)"
else
	echo "not ok 9 - still there after the next run"
fi
