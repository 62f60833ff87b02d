#!/bin/bash
# parallel-safe: it counts and arms uprobes only on copies of probecost of its own
#   (own_probecost; under the sanitizer pass the plain build's copy too), looks only at its
#   own events in uprobe_events, and compares counts, not timings
# long: 17-20 s, 13 of them waiting for the kernel to disarm stanford's 114 probes
# t213: run --count recovers what the built-in workloads are known to do.  Each is counted at
# two sizes, so the start-up they share cancels: the differences are the loops' exactly
# (getppid calls, forks, threads, execs; switches of a pinned ping-pong within 25%), the
# syscalls by number add up to the total, and stanford's hits per probe are its own count.
. "$(dirname "$0")/lib.bash"
own_probecost || { plan 1; not_ok "a copy of $PROBECOST of its own"; done_testing; }
plan 12

if ! is_root; then
	skip_rest "not root: tracepoint counters, BPF and uprobes need root"
fi
if ! perf_events_usable || [ ! -e /sys/bus/event_source/devices/tracepoint ]; then
	skip_rest "no perf_event tracepoints here (/sys/bus/event_source/devices/tracepoint)"
fi

# The workloads counted: under the sanitizer pass the plain build (a sanitized runtime makes
# syscalls and tasks of its own as it goes), a copy of its own (other tests run ./probecost:
# its probes stay unarmed); the counting is $P's either way.
W=$P
if [ -n "${PROBECOST_SAN:-}" ] && [ -x ./probecost ]; then
	tmpdir
	cp ./probecost "$T/probecost" && W=$T/probecost
fi
# count ARGS...: the JSON of one counting run of `probecost workload ARGS`, pinned to CPU 0,
# started by sh: its main executable has no SDT probes, probecost's 114 would take ~10 s to
# disarm each time (only the stanford case below counts them).
count() { "$P" run --count --cpu 0 --format json -- /bin/sh -c 'exec "$0" workload "$@"' "$W" "$@"; }
# jqc JSON EXPR
jqc() { printf '%s' "$1" | jq -r "$2"; }
GETPPID='[.syscalls_by_nr.counts[] | select(.name == "getppid") | .count] | add // 0'
SUM='[.syscalls_by_nr.counts[].count] | add'

a=$(count syscall loops=1)
b=$(count syscall loops=100001)
is "$(($(jqc "$b" .counts.syscalls) - $(jqc "$a" .counts.syscalls)))" 100000 \
	"syscall: 100000 more syscalls for 100000 more loops ($(jqc "$a" .counts.syscalls) at loops=1)"
is "$(($(jqc "$b" "$GETPPID") - $(jqc "$a" "$GETPPID")))" 100000 \
	"syscall: 100000 more getppid by number ($(jqc "$a" "$GETPPID") at loops=1: sh makes one)"
is "$(jqc "$a" "$SUM")/$(jqc "$b" "$SUM")" "$(jqc "$a" .counts.syscalls)/$(jqc "$b" .counts.syscalls)" \
	"the syscalls by number add up to the tracepoint's total"
is "$(jqc "$b" '"\(.counts.execs) \(.counts.tasks_created) \(.left_running) \(.exit_status)"')" "2 0 0 0" \
	"syscall: two execs (sh's, probecost's), no task created, nothing left, exit 0"

a=$(count spawn loops=1)
b=$(count spawn loops=41)
is "$(($(jqc "$b" .counts.tasks_created) - $(jqc "$a" .counts.tasks_created)))" 40 "spawn: 40 more forks"
a=$(count spawn kind=thread loops=1)
b=$(count spawn kind=thread loops=41)
is "$(($(jqc "$b" .counts.threads_created) - $(jqc "$a" .counts.threads_created)))/$(($(jqc "$b" .counts.tasks_created) - $(jqc "$a" .counts.tasks_created)))" \
	40/40 "spawn kind=thread: 40 more threads, which are 40 more tasks"
a=$(count spawn kind=vfork-exec loops=1)
b=$(count spawn kind=vfork-exec loops=41)
is "$(($(jqc "$b" .counts.execs) - $(jqc "$a" .counts.execs)))" 40 "spawn kind=vfork-exec: 40 more execs"
is "$(jqc "$b" "$SUM")" "$(jqc "$b" .counts.syscalls)" "... and its children's syscalls are counted by number too"

# pipe-test-1m pinned to one CPU: each round trip switches twice; other processes may preempt
# either run (a few switches more or less at start-up), and where other tests' tasks share
# CPU 0 it read fewer (1829 in the sanitizer pass's parallel group, at load).  One side
# only would be 1000, both counted twice 4000: +-25% tells them apart.
a=$(count pipe loops=1)
b=$(count pipe loops=1001)
d=$(($(jqc "$b" .counts.context_switches) - $(jqc "$a" .counts.context_switches)))
assert "pipe --cpu 0: 2000 more context switches for 1000 more round trips, +-25% ($d; one side alone 1000, both twice 4000)" \
	'[ "$d" -ge 1500 ] && [ "$d" -le 2500 ]'

# stanford with semaphores: every probe's hits are what the workload counted itself.
if have_uprobe_pmu; then
	report_of stanford variant=plain-sem
	want=$(printf '%s\n' "$report" | tr ' ' '\n' | sed -n 's/^hits_//p' | sort | tr '\n' ' ')
	c=$("$P" run --count --cpu 0 --format json -- "$W" workload stanford variant=plain-sem)
	got=$(jqc "$c" '.probes.hits[] | select(.provider == "stanford_plain_sem") | "\(.name)=\(.hits)"' |
		sort | tr '\n' ' ')
	is "$got" "$want" "stanford plain-sem: hits per probe as the workload reports them"
	is "$(jqc "$c" '[.probes.hits[] | select(.provider != "stanford_plain_sem") | .hits] | add')" 0 \
		"... and none on the probes of the builds that did not run"
	is "$(grep -F " $(readlink -f "$W"):" "$TRACEFS/uprobe_events" 2>/dev/null | grep -c "pcost_[0-9]*_count/")" 0 \
		"no uprobe event of a counting run is left in uprobe_events"
else
	skip "no uprobe PMU here"
	skip "no uprobe PMU here"
	skip "no uprobe PMU here"
fi
done_testing
