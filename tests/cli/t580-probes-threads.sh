#!/bin/bash
# parallel-safe: on a copy of probecost of its own (own_probecost: its probes, definitions,
#   instances and journal its alone), one perf-probe test at a time (perf_probe_lock); counts
#   and outcomes, no timings
# The stanford workload on threads: threads=N makes exactly N x one thread's
# hits (every kernel, its own data per thread), probes --threads and run
# --threads count them exactly for each arming method, Ctrl-C and SIGKILL
# with threads leave nothing behind, and --threads where nothing has threads
# is one line, exit 2.
. "$(dirname "$0")/lib.bash"
perf_probe_lock "$@"
own_probecost
plan 17

# 1-3: the workload's own counts.
report_of stanford scale=1 threads=1
one=$report
report_of stanford scale=1 threads=3
three=$report
is "$(field events "$three")" $((3 * $(field events "$one"))) \
	"threads=3 makes exactly 3 x threads=1's $(field events "$one") hits"
want=$(for k in perm towers queens intmm puzzle quick bubble tree fft; do
	printf '%s ' $((3 * $(field hits_$k "$one"))); done)
got=$(for k in perm towers queens intmm puzzle quick bubble tree fft; do
	printf '%s ' "$(field hits_$k "$three")"; done)
is "$got" "$want" "every kernel's hits, times 3"
# The code-layout copies and the CPU clock on threads too (what the clock sums: test_wl_threads).
report_of stanford kernel=towers layout=a32 clock=cpu threads=2
is "$(field events "$report") $(field threads "$report")" "32766 2" \
	"layout=a32 clock=cpu threads=2: 2 x 16383 towers hits"

# 4-5: --threads where the workload has none: one line, exit 2.
run_pc probes --threads 2 --binary /bin/true --probe p:n -- /bin/true
ok "$([ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *--threads* ]]; echo $?)" \
	"probes --threads with --binary: exit 2, '$err'"
run_pc run --no-store -w null --threads 2 --runs 1
ok "$([ $rc = 2 ] && [[ $err == *"--threads: workload 'null' has no threads"* ]]; echo $?)" \
	"run --threads on a workload without threads: exit 2, '$err'"

# 6-7: run --threads maps onto the stanford workload's threads (no tracer needed).
have jq || skip_rest "jq not installed"
run_pc run --no-store --format json -w stanford:kernel=towers --threads 1,2 --runs 2 --warmup 0 \
	-m 'env PROBECOST_T580=1'
is "$(printf '%s' "$out" | jq -c '[.statistics[] | [.threads, .events]]')" \
	'[[1,16383],[1,16383],[2,32766],[2,32766]]' "run --threads 1,2: rows of 1 and 2 threads x 16383 hits"
is "$(printf '%s' "$out" | jq '[.session.configs[] | .threads as $t | .samples[] | select(.events != $t * 16383)] | length')" \
	0 "every run made threads x 16383 hits"

# 8-12: armed, every method counts every thread's hits (root, the uprobe PMU, tracefs).
{ is_root && have_uprobe_pmu && have_tracefs; } ||
	skip_rest "needs root, the uprobe PMU and tracefs at $TRACEFS"
counts() { # METHOD: [threads, hits counted, hits expected] of its rows
	printf '%s' "$out" | jq -c --arg m "$1" \
		'[.statistics[] | select(.method == $m) | [.threads, .hits_counted, .hits_expected]]'
}
via=uprobe,ftrace
have perf && via=$via,perf-probe
have bpftrace && via=$via,bpftrace
run_pc probes --variants plain --kernel towers --threads 1,2 --via $via --scale 1 -r 1 --warmup 0 \
	--no-store --format json
is "$rc" 0 "probes --threads 1,2 --via $via exits 0"
for m in uprobe ftrace; do
	is "$(counts $m)" '[[1,16383,16383],[2,32766,32766]]' "$m: 1 and 2 threads' hits counted exactly"
done
is "$(printf '%s' "$out" | jq '[.session.configs[] | select(.monitor != "dormant") | .samples[]
	| select(.warmup | not) | select(.monitor_events != .events)] | length')" 0 \
	"every armed run of every method ($via) counted what its threads made"
if have lttng && have lttng-sessiond && have babeltrace2 && [ -e build/lttng/pcost-lttng.so ]; then
	# Two thread counts are two lttng groups: they share one session daemon.
	run_pc probes --variants lttng --kernel towers --threads 1,2 --via lttng --scale 1 -r 1 \
		--warmup 0 --no-store --format json --timeout 60
	is "$(counts lttng)" '[[1,16383,16383],[2,32766,32766]]' "lttng: 1 and 2 threads' events in the trace"
else
	skip "lttng, lttng-sessiond, babeltrace2 or the LTTng-UST build missing"
fi

# 13-17: Ctrl-C and SIGKILL while threads make the hits.
before_ev=$(ours_ev)
tmpdir
"$PROBECOST" probes --variants plain --threads 2 --via uprobe,ftrace --scale 5 --runs 200 \
	--warmup 0 --no-store >"$T/out" 2>/dev/null &
pid=$!
pids=$pid
interrupt_armed 2
assert "$armed uprobe events were registered during the run" '[ "$armed" -gt 0 ]'
is "$(ours_ev)" "$before_ev" "after Ctrl-C: uprobe_events as before"
is "$(ours_in)" "" "after Ctrl-C: no trace instance of ours"
assert "after Ctrl-C: exit 130, partial report" '[ $rc = 130 ] && grep -q INTERRUPTED "$T/out"' ||
	diag "exit $rc: $(cat "$T/out")"
"$PROBECOST" probes --variants plain --threads 2 --via ftrace --scale 5 --runs 200 --warmup 0 \
	--no-store >/dev/null 2>&1 &
pid=$!
pids="$pids $pid"
for i in $(seq 100); do ours_ev | grep -q "pcost_${pid}_" && break; sleep 0.1; done
sleep 0.5
kill -KILL $pid; wait $pid 2>/dev/null
"$PROBECOST" probes --via dormant --variants plain --kernel towers --scale 1 --runs 1 --warmup 0 \
	--no-store >/dev/null 2>&1
assert "after a SIGKILL, the next run removed its events and instances" \
	'[ "$(grep -c "pcost_${pid}_" "$TRACEFS/uprobe_events")" = 0 ] && ! ls "$TRACEFS/instances" | grep -q "pcost_${pid}_"'
done_testing
