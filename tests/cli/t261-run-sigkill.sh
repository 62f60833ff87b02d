#!/bin/bash
# SIGKILL, which nothing can catch: the children die with probecost (PR_SET_PDEATHSIG),
# and the next run sweeps what is left (process groups, trace instances, perf probe
# definitions, temporary directories) before it measures, so its numbers are not
# affected.
. tests/cli/lib.bash
plan 14
T=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || ! command -v bpftrace >/dev/null || ! command -v strace >/dev/null ||
	! command -v perf >/dev/null || [ ! -w "$T/uprobe_events" ]; then
	for i in $(seq 14); do skip "needs root, bpftrace, strace, perf and tracefs at $T"; done
	done_testing
fi
tmp=$(mktemp -d /tmp/t261.XXXXXX)
on_exit 'rm -rf "$tmp"'
mkdir -m 700 "$tmp/state" && mkdir "$tmp/t"
export PROBECOST_STATE_DIR=$tmp/state TMPDIR=$tmp/t
BINP=$(realpath "$PROBECOST")

# Fastest timed region of the stanford workload in 5 runs (the least disturbed by load).
stanford_ns() {
	for i in 1 2 3 4 5; do
		report_of stanford variant=plain scale=10
		field timed_ns "$report"
	done | sort -n | sed -n 1p
}
# The process groups a journal still holds (added, not removed).
live_groups() {
	awk '$1=="+pgid"{g[$2]=1} $1=="-pgid"{delete g[$2]} END{for (k in g) print k}' "$tmp"/state/"$1"-*.journal
}
# Start probecost in the background; wait until its journal shows n live groups with
# processes in them, and note them: $groups, $procs ("pid start-time" lines).
start_and_wait() {
	local n=$1; shift
	"$PROBECOST" "$@" >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 500); do
		groups=$(live_groups $pid 2>/dev/null)
		procs=$(members "$groups")
		[ "$(printf '%s\n' "$procs" | grep -c .)" -ge "$n" ] && break
		sleep 0.02
	done
}
# "pid start-time" of every process in the groups (PIDs are reused on a busy machine).
# A member that exits between pgrep and the read has no start time and is left out: kept
# as "pid " it would match its own missing /proc entry ("" = "") and live for ever.
members() {
	local p st
	for g in $1; do for p in $(pgrep -g "$g"); do
		st=$(cut -d' ' -f22 "/proc/$p/stat" 2>/dev/null) && [ -n "$st" ] && echo "$p $st"
	done; done
}
# still_after SECONDS LIST: what of LIST still lives after up to SECONDS (a killed tracer
# detaching its probes can take seconds to exit on a loaded machine).
still_after() {
	local left
	for i in $(seq $(($1 * 10))); do
		left=$(still "$2")
		[ -z "$left" ] && break
		sleep 0.1
	done
	printf '%s' "$left"
}
# Which of those members still live (same pid, same start time, not a zombie).
still() {
	printf '%s\n' "$1" | while read -r p st; do
		[ -n "$p" ] && [ -n "$st" ] && [ "$(cut -d' ' -f22 "/proc/$p/stat" 2>/dev/null)" = "$st" ] &&
			! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null && echo "$p"
	done
}

base=$(stanford_ns)

# 1-7. run with bpftrace, strace and the tracepoint monitor.
start_and_wait 2 run --no-store --runs 200 --warmup 0 -w stanford:scale=10 -m bpftrace-syscalls -m strace \
	-m tracepoint-syscalls -m perf-stat
leaders=$(printf '%s\n' "$procs" | while read -r p st; do for g in $groups; do [ "$p" = "$g" ] && echo "$p $st"; done; done)
kill -KILL $pid; wait $pid 2>/dev/null
# shellcheck disable=SC2116,SC2086 # echo joins the group list on one line
ok $(( $(printf '%s\n' "$leaders" | grep -c .) < 1 )) "the killed run had children running ($(echo $groups))"
left=$(still_after 10 "$leaders")
is "$left" "" "its direct children died with it" || diag "$(for p in $(still "$leaders"); do ps -o pid,pgid,ppid,stat,args -p "$p" | tail -1; done)"
[ -e "$T/instances/probecost-$pid" ]; is "$?" 0 "its trace instance is still there (nothing could undo it)"
run_pc run --no-store --runs 1 --warmup 0 -w null
like "$err" "undid [0-9]+ change" "the next run says it undid what was left"
left=$(still_after 10 "$procs")
is "$left" "" "no process of the killed run's groups is left" ||
	diag "$(for p in $left; do ps -o pid,pgid,ppid,stat,wchan:32,args -p "$p" | tail -n +2; done)"
[ -e "$T/instances/probecost-$pid" ]; is "$?" 1 "its trace instance is gone"
is "$(ls -A "$tmp/t") $(find "$tmp/state" -mindepth 1 -maxdepth 1 -name "$pid-*" | wc -l)" " 0" "no temporary directory and no journal of it left"

# 8-11. probes with perf probe definitions and bpftrace on the stanford binary.
start_and_wait 2 probes --no-store --via perf-probe,bpftrace --variants plain --scale 10 -r 200 --warmup 0
grep -qF " $BINP:" "$T/uprobe_events"; is "$?" 0 "the killed probes run had perf probe definitions on $BINP"
kill -KILL $pid; wait $pid 2>/dev/null
run_pc probes --no-store --via dormant --variants plain --scale 1 -r 1 --warmup 0
is "$rc" 0 "the next probes run measures"
is "$(grep -F " $BINP:" "$T/uprobe_events")" "" "no probe definition on the binary is left"
is "$(still_after 10 "$procs") $(ls -A "$tmp/t")" " " "no process and no temporary directory left"

# 12-14. The numbers after the sweep: stanford as fast as before the kills.
after=$(stanford_ns)
ok $(( base > 0 && after > 0 ? 0 : 1 )) "stanford measured before ($base ns) and after ($after ns)"
ratio=$(awk -v a="$after" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
# A USDT probe left armed makes it 30-50x slower (docs/safety.md); load moves it < 2x.
ok "$(awk -v r="$ratio" 'BEGIN { print (r < 3) ? 0 : 1 }')" "after the sweep stanford takes $ratio x its time before (< 3)"
is "$(find "$tmp/state" -mindepth 1 -maxdepth 1 -name '*journal*' | wc -l)" 0 "the state directory holds no journal of a dead process"
done_testing
