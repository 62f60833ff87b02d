#!/bin/bash
# Trace instances named by a probecost that is gone (pcost_PID_N, probecost-PID) but whose
# journal was lost, with no uprobe event left to find them by, are removed by the next run.
. tests/cli/lib.bash
plan 4
if ! is_root || ! have_tracefs; then skip_rest "needs root and tracefs at $TRACEFS"; fi
sh -c 'exit 0' & dead=$!; wait $dead
while kill -0 "$dead" 2>/dev/null; do sh -c 'exit 0' & dead=$!; wait $dead; done
a=pcost_${dead}_7; b=probecost-$dead
mkdir "$TRACEFS/instances/$a" "$TRACEFS/instances/$b" || skip_rest "cannot create trace instances"
on_exit "rmdir '$TRACEFS/instances/$a' '$TRACEFS/instances/$b' 2>/dev/null"
run_pc probes --no-store --via ftrace --variants plain --kernel towers --scale 1 -r 1 --warmup 0
is "$rc" 0 "probes --via ftrace measures"
[ -d "$TRACEFS/instances/$a" ]; is "$?" 1 "probes removed $a (its PID is gone, no event names it)"
mkdir "$TRACEFS/instances/$a"
run_pc run --no-store --runs 1 --warmup 0 -w syscall:loops=1000 -m tracepoint-syscalls
is "$rc" 0 "run -m tracepoint-syscalls measures"
[ -d "$TRACEFS/instances/$a" ] || [ -d "$TRACEFS/instances/$b" ]; is "$?" 1 "run removed $a and $b"
done_testing
