#!/bin/bash
# bench/threads-run: what a monitor costs per syscall as the workload's threads
# grow (probecost run --threads): the syscall workload (every thread making
# LOOPS getppid calls) under bpftrace, strace and perf stat at 1 and 2 threads,
# on CPUs 0-1, in one interleaved session.  A tracer that serialises its
# tracees (strace: one ptrace loop for all threads) or takes a shared lock
# shows as a cost per syscall that does not fall, or rises, with threads.
# Every row's events are checked: the workload's report says threads x LOOPS.
# Per syscall: the workload's timed region, monitored minus plain, / syscalls, with
# its 95% interval (probecost's statistics, per_event_ns_lo/hi).
set -u
cd "$(dirname "$0")/.."
PC=${PROBECOST:-./probecost}
LOOPS=${LOOPS:-50000}
RUNS=${RUNS:-8}
THREADS=${THREADS:-1,2}
CPUS=${CPUS:-0-1}
command -v jq >/dev/null || { echo "skip: jq not installed (Debian package jq)"; exit 0; }
mons=()
for m in bpftrace-syscalls strace perf-stat; do
	why=$("$PC" list monitors 2>/dev/null | awk -v m="$m" '$1 == m { print $3 }')
	[ "$why" = yes ] && mons+=(-m "$m") || echo "# $m not available here: skipped"
done
[ ${#mons[@]} -gt 0 ] || { echo "skip: none of bpftrace, strace, perf is available"; exit 0; }
js=$(mktemp); trap 'rm -f "$js"' EXIT
cmd=("$PC" run --no-store --format json -w "syscall:loops=$LOOPS" --threads "$THREADS" "${mons[@]}"
	--cpu "$CPUS" --runs "$RUNS" --warmup 1)
echo "# ${cmd[*]}"
"${cmd[@]}" >"$js" 2>/dev/null || { echo "FAIL: probecost run exited $?"; exit 1; }
echo "# $(jq -r '.session.options.headline // ""' "$js")"
printf '  %-18s %7s %10s %12s %26s   %s\n' monitor threads syscalls "ns/syscall" "95% interval" "events made/seen"
jq -r '
  .statistics as $st
  | $st[] | select(.monitor != "none") as $x
  | [$x.monitor, ($x.threads // "-"), $x.events, $x.per_event_ns,
     $x.per_event_ns_lo, $x.per_event_ns_hi,
     ($x.monitor_events // "-"), ($x.lost_events // "-")] | @tsv' "$js" |
while IFS=$'\t' read -r m t ev pe lo hi seen lost; do
	printf '  %-18s %7s %10s %12.0f %12.0f .. %-12.0f   %s/%s%s\n' "$m" "$t" "$ev" "$pe" "$lo" "$hi" \
		"$ev" "$seen" "$([ "$lost" != - ] && [ "$lost" != 0 ] && echo " (lost $lost)")"
done
# Exact counts: every run of every configuration made threads x LOOPS syscalls.
bad=$(jq --argjson l "$LOOPS" '[.session.configs[] | .threads as $t | .samples[]
	| select(.failed | not) | select(.events != $t * $l)] | length' "$js")
[ "$bad" = 0 ] && echo "events: every run made threads x $LOOPS syscalls" \
	|| { echo "FAIL: $bad runs made another number of syscalls"; exit 1; }
