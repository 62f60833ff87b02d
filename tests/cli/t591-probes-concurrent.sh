#!/bin/bash
# no-sanitizer: two sessions of the probes study, minutes under ASan for nothing it adds
# parallel-safe: its probes on a copy of probecost of its own (own_probecost), its lock in a
#   private /run; it compares no timings (whether the second ran while the first was armed
#   is read from the process table); 10 s, mostly one session waiting for the other
# long: one session waiting for the other (10 s, 30 s at load 30)
# Two probes sessions at once: an armed uprobe fires for every process that runs the
# probed file, so each session would count (and time) the other's hits.  One session
# at a time: a second one waits for the first, saying whom it waits for, or with
# --no-wait refuses (exit 1), naming the other's pid and command.  Both count every
# hit exactly.  In a private mount namespace with tmpfs on /run (the lock's directory,
# /run/probecost, then holds only these sessions).
. tests/cli/lib.bash
if ! is_root || ! have_tracefs || ! have unshare; then
	plan 9
	skip_rest "needs root, tracefs at $TRACEFS and unshare(1)"
fi
private_run_tmp "$@" || { plan 9; skip_rest "cannot mount tmpfs on /run and /tmp"; }
plan 9
tmpdir
# Its probes armed on a copy of its own, which no other test runs: no other process hits them.
own_probecost || skip_rest "cannot copy probecost"
# The text table's row of a method: its hits column.
hits() {
	awk -v m="$2" '$2 == m' "$1" | grep -oE '[0-9]+ / [0-9]+  (ok|[0-9]+ (extra hits|HITS LOST))'
}
args=(--via uprobe --variants plain --scale 2 -r 2 --warmup 0 --no-store)
"$P" probes "${args[@]}" >"$T/a.txt" 2>"$T/a.err" &
a=$!
# Armed: it holds perf events (the uprobe method counts with perf_event_open).
# (up to 30 s: in make check's parallel group, at load 20-40, starting takes seconds)
for i in $(seq 300); do [ -n "$(find /proc/$a/fd -lname '*perf_event*' 2>/dev/null)" ] && break; sleep 0.1; done
run_pc probes "${args[@]}" --no-wait
is "$rc" 1 "--no-wait while another session runs: exit 1"
like "$err" "pid $a: $P probes --via uprobe" "it names the other session's pid and command (${err%%$'\n'*})"
is "$(printf '%s\n' "$err" | grep -c .)" 1 "in one line"
"$P" probes "${args[@]}" >"$T/c.txt" 2>"$T/c.err" &
c=$!
# Until the first ends, the second runs no workload: every run it timed, dormant ones
# included, ran with the first's probes gone.  (A dormant run timed beside the first's armed
# probes pays their hits: its time is the symptom, but at load a 6 ms run reads 80 ms too.)
polls=0 early=0
while kill -0 $a 2>/dev/null; do
	polls=$((polls + 1))
	pgrep -P $c -f ' workload ' >/dev/null && early=$((early + 1))
	sleep 0.02
done
wait $a; arc=$?
kill -0 $c 2>/dev/null; c_alive=$?
wait $c; crc=$?
is "$arc $crc" "0 0" "both sessions measure"
is "$c_alive" 0 "the second was still running when the first ended (it waited)"
like "$(cat "$T/c.err")" "waiting for .*pid $a" "the second said whom it waited for"
is "$(hits "$T/a.txt" uprobe)" "578528 / 578528  ok" "the first counted its own hits only, every run"
is "$(hits "$T/c.txt" uprobe)" "578528 / 578528  ok" "the second counted its own hits only, every run"
is "$early" 0 "the second ran no workload while the first was armed (of $polls looks)"
done_testing
