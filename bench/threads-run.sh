#!/bin/bash
# bench/threads-run: what a monitor costs per event as the workload's threads
# grow (probecost run --threads), at 1 and 2 threads on CPUs 0-1, one
# interleaved session per workload:
#   syscall   every thread making LOOPS getppid calls, under bpftrace, strace
#             and perf stat: a tracer that serialises its tracees (strace: one
#             ptrace loop for all threads) or takes a shared lock shows as a
#             cost per syscall that does not fall, or rises, with threads;
#   stanford  every thread running the kernels (STANFORD_SCALE repetitions,
#             289,264 probe hits each) under perf stat, perf record and
#             valgrind: per hit of the kernels; valgrind runs one thread at a
#             time, so its cost per hit cannot fall with threads.
# Every row's events are checked: the workload's report says threads x its
# per-thread count.  Per event: the workload's timed region, monitored minus
# plain, / events, with its 95% interval (per_event_ns_lo/hi).
set -u
cd "$(dirname "$0")/.." || exit
PC=${PROBECOST:-./probecost}
LOOPS=${LOOPS:-50000}
STANFORD_SCALE=${STANFORD_SCALE:-1}
RUNS=${RUNS:-8}
THREADS=${THREADS:-1,2}
CPUS=${CPUS:-0-1}
command -v jq >/dev/null || { echo "skip: jq not installed (Debian package jq)"; exit 0; }
js=$(mktemp); trap 'rm -f "$js"' EXIT

# monitors NAME...: "-m NAME" for each one available here, the others named as skipped.
monitors() {
	mons=()
	for m in "$@"; do
		why=$("$PC" list monitors 2>/dev/null | awk -v m="$m" '$1 == m { print $3 }')
		[ "$why" = yes ] && mons+=(-m "$m") || echo "# $m not available here: skipped"
	done
}

# session WORKLOAD EVENTS-PER-THREAD UNIT: one run --threads session under "${mons[@]}",
# its table, and every run's events checked.
session() {
	local cmd=("$PC" run --no-store --format json -w "$1" --threads "$THREADS" "${mons[@]}"
		--cpu "$CPUS" --runs "$RUNS" --warmup 1) bad
	echo "# ${cmd[*]}"
	"${cmd[@]}" >"$js" 2>/dev/null || { echo "FAIL: probecost run exited $?"; exit 1; }
	echo "# $(jq -r '.session.options.headline // ""' "$js")"
	printf '  %-18s %7s %10s %12s %26s   %s\n' monitor threads "${3}s" "ns/$3" "95% interval" \
		"events made/seen"
	jq -r '
	  def ns: if . == null then "n/a" else round | tostring end;
	  .statistics[] | select(.monitor != "none")
	  | [.monitor, (.threads // "-"), .events, (.per_event_ns | ns),
	     (.per_event_ns_lo | ns), (.per_event_ns_hi | ns),
	     (.monitor_events // "-"), (.lost_events // "-")] | map(tostring) | @tsv' "$js" |
	while IFS=$'\t' read -r m t ev pe lo hi seen lost; do
		printf '  %-18s %7s %10s %12s %12s .. %-12s   %s/%s%s\n' "$m" "$t" "$ev" "$pe" "$lo" \
			"$hi" "$ev" "$seen" "$([ "$lost" != - ] && [ "$lost" != 0 ] && echo " (lost $lost)")"
	done
	# Exact counts: every run of every configuration made threads x the per-thread count.
	bad=$(jq --argjson l "$2" '[.session.configs[] | .threads as $t | .samples[]
		| select(.failed | not) | select(.events != $t * $l)] | length' "$js")
	# shellcheck disable=SC2015 # echo cannot fail: FAIL only when $bad is not 0
	[ "$bad" = 0 ] && echo "events: every run made threads x $2 ${3}s" \
		|| { echo "FAIL: $bad runs made another number of ${3}s"; exit 1; }
}

monitors bpftrace-syscalls strace perf-stat
if [ ${#mons[@]} -gt 0 ]; then
	session "syscall:loops=$LOOPS" "$LOOPS" syscall
else
	echo "skip: none of bpftrace, strace, perf is available"
fi
monitors perf-stat perf-record valgrind
if [ ${#mons[@]} -gt 0 ]; then
	session "stanford:scale=$STANFORD_SCALE" $((289264 * STANFORD_SCALE)) hit
else
	echo "skip: neither perf nor valgrind is available"
fi
