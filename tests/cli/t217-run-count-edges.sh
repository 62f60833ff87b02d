#!/bin/bash
# t217: run --count at its edges: bad usage (exit 2, one line), a command that is not there,
# fails, is killed or times out (exit 1, the counts printed all the same), a daemon left
# behind (counted, killed), the three formats, and Ctrl-C (nothing left armed or running).
. "$(dirname "$0")/lib.bash"
plan 16

one_line_exit2 "--count without a command" "$P" run --count
one_line_exit2 "--count with -m" "$P" run --count -m strace -- /bin/true
one_line_exit2 "--count with --scale" "$P" run --count --scale 1,2 --events 1 -- /bin/true
one_line_exit2 "--count --format markdown" "$P" run --count --format markdown -- /bin/true

run_pc run --count -- pcost-no-such-command
is "$rc/$(printf '%s\n' "$err" | grep -c .)" 2/1 "a command not on \$PATH: exit 2, one line"
like "$err" "pcost-no-such-command.*not found" "... naming it ($err)"

run_pc run --count --format json -- /bin/sh -c 'exit 3'
is "$rc $(printf '%s' "$out" | jq -r '"\(.exit_status) \(.failed) \(.signal)"')" "1 3 exit 3 null" \
	"a command that exits 3: exit 1, its status in the JSON"
run_pc run --count --format json -- /bin/sh -c 'kill -SEGV $$'
is "$rc $(printf '%s' "$out" | jq -r '"\(.exit_status) \(.signal)"')" "1 null SEGV" "one killed by SIGSEGV"
run_pc run --count --timeout 0.3 --format json -- /bin/sleep 5
is "$rc $(printf '%s' "$out" | jq -r '"\(.failed) \(.timed_out) \(.wall_ns < 3e9)"')" \
	"1 timeout after 0.3 s true true" "--timeout 0.3 kills a 5 s sleep"

# A daemon in a session of its own outlives the command: counted, killed, reaped.
run_pc run --count --format json -- /bin/sh -c 'setsid /bin/sleep 313.25 & /bin/sleep 0.2'
is "$rc $(printf '%s' "$out" | jq -r .left_running)" "0 1" "a daemon left running is counted"
sleep 0.2
is "$(pgrep -fc 'sleep 313.25')" 0 "... and killed"

# The formats: JSON and CSV carry the same kinds; text says n/a for nothing it counted.
run_pc run --count --format csv -- /bin/true
kinds=$(printf '%s\n' "$out" | sed -n '2,11s/,.*//p' | tr '\n' ' ')
is "$(printf '%s\n' "$out" | head -1) $kinds" "event,count,unit,counter syscalls context_switches \
voluntary_switches involuntary_switches minor_faults major_faults tasks_created threads_created \
execs task_clock_ns " "CSV: a header and one row per kind"
run_pc run --count --format json -- /bin/true
is "$(printf '%s' "$out" | jq -r '.counts | keys_unsorted | join(" ")')" "${kinds% }" \
	"JSON: the same kinds"

if ! is_root || ! have_uprobe_pmu; then
	skip_rest "not root or no uprobe PMU: Ctrl-C with probes armed needs both"
fi
run_pc run --count -- /bin/true
like "$out" "syscalls by number \(BPF" "as root, text shows the syscalls by number"

# Ctrl-C while probes are armed: exit 130, no event, no workload left.  The fixture
# (tests/fixtures/sdtsem) has four probes behind semaphores: few probes, so disarming them
# is quick (each uprobe counter's last close waits ~80 ms).  --count runs it twice, first
# with nothing armed, then armed for its hits: 10^7 turns end in 0.05 s unarmed, and take
# a minute armed (six uprobe hits a turn), so the Ctrl-C, once its events are defined,
# comes while the armed run goes on.
have make || skip_rest "needs make (the fixture is built from tests/fixtures/sdtsem)"
make -s build/fixtures/sdtsem >/dev/null || skip_rest "cannot build the fixture here"
FIX=$(readlink -f build/fixtures/sdtsem)
tmpdir
"$P" run --count -- "$FIX" 10000000 >"$T/out" 2>"$T/err" &
pid=$!
armed="not armed in 10 s"
for _ in $(seq 100); do
	grep -q "pcost_${pid}_count/" "$TRACEFS/uprobe_events" && armed=armed && break
	sleep 0.1
done
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
is "$rc $armed" "130 armed" "Ctrl-C while its probes are armed: exit 130"
is "$(grep -c "pcost_${pid}_count/" "$TRACEFS/uprobe_events")/$(pgrep -fc "^$FIX 10000000")" \
	0/0 "... no uprobe event and no workload left"
done_testing
