#!/bin/bash
# parallel-safe: on a copy of probecost of its own (own_probecost: its probes, definitions,
#   instances and journal its alone), one perf-probe test at a time (perf_probe_lock); counts
#   and outcomes, no timings
# Function sites and return probes (the uprobe workload) are undone like SDT
# sites: after SIGINT, two SIGINTs and SIGKILL (+ the next run's sweep),
# uprobe_events, trace instances and `perf probe -l` are as before.
. tests/cli/lib.bash
perf_probe_lock "$@"
P=$PROBECOST
BINP=$(readlink -f "$P")
T=/sys/kernel/tracing
plan 6
if [ "$(id -u)" != 0 ] || [ ! -w $T/uprobe_events ]; then
	for i in 1 2 3 4 5 6; do skip "needs root and tracefs at $T"; done
	done_testing
fi
pids=
ours_ev() { grep -F " $BINP:" $T/uprobe_events 2>/dev/null; }
ours_in() { [ -n "$pids" ] && find "$T/instances" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | grep -E "^pcost_(${pids// /|})_" | sort; }
ours_pl() { perf probe -l 2>/dev/null | grep -F "$BINP"; }
own_probecost
via=uprobe,ftrace
command -v perf >/dev/null && via=$via,perf-probe
before_ev=$(ours_ev); before_in=$(ours_in); before_pl=$(ours_pl)
start() { # start METHODS: an armed session in the background, $pid
	"$P" probes --workload uprobe --variants nop,ret --sites nop,nop5 --via "$1" --scale 5 \
		--runs 200 --warmup 0 --cpu 0 --no-store >/dev/null 2>&1 &
	pid=$!
	pids="$pids $pid"; pids=${pids# }
	for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
}
start $via
# Configurations are armed one at a time: wait (up to 30 s, slow under ASan) for a return probe's turn.
armed=0
for i in $(seq 300); do armed=$(ours_ev | grep -c '^r:'); [ "$armed" -gt 0 ] && break; sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
ok "$([ "$armed" -gt 0 ]; echo $?)" "$armed return probes were registered (r: events)"
ok "$([ "$(ours_ev)" = "$before_ev" ] && [ "$(ours_in)" = "$before_in" ]; echo $?)" \
	"SIGINT: uprobe_events and instances as before (exit $rc)"
is "$(ours_pl)" "$before_pl" "SIGINT: perf probe -l as before"
start $via
sleep 0.5
kill -INT $pid; sleep 0.05; kill -INT $pid; wait $pid
ok "$([ "$(ours_ev)" = "$before_ev" ] && [ "$(ours_in)" = "$before_in" ] &&
	[ "$(ours_pl)" = "$before_pl" ]; echo $?)" "two SIGINTs: everything as before"
start ftrace
sleep 0.3
kill -KILL $pid; wait $pid 2>/dev/null
left=$(grep -c "pcost_${pid}_" $T/uprobe_events)
if [ "$left" -gt 0 ]; then ok 0 "SIGKILL left $left events behind (as it must)"; else
	skip "the kill came before anything was registered"; fi
"$P" probes --workload uprobe --variants nop --via dormant --scale 1 --runs 1 --warmup 0 \
	--no-store >/dev/null 2>&1
ok "$([ "$(grep -c "pcost_${pid}_" $T/uprobe_events)" = 0 ] &&
	! find "$T/instances" -mindepth 1 -maxdepth 1 -name "*pcost_${pid}_*" | grep -q .; echo $?)" "the next run removed them"
done_testing
