#!/bin/bash
# bench/placement: a tracer on the workload's CPU (same) or on another one
# (split), probecost run --placement same,split, for the syscall workload
# pinned to CPU 0 under strace and perf trace (and strace-seccomp tracing the
# workload's syscall): per-syscall cost with its interval, and the ratio
# split/same.  DESIGN.md measured by hand: ptrace tools and perf trace cost
# 10-18x more unpinned; here the workload stays pinned and only the tracer
# moves, so the ratio isolates the cross-CPU wake-ups of each stop.  Per
# syscall: the timed region, monitored minus plain, / syscalls, with its 95%
# interval (probecost's statistics, per_event_ns_lo/hi).
set -u
cd "$(dirname "$0")/.." || exit
PC=${PROBECOST:-./probecost}
LOOPS=${LOOPS:-20000}
RUNS=${RUNS:-8}
command -v jq >/dev/null || { echo "skip: jq not installed (Debian package jq)"; exit 0; }
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to split onto"; exit 0; }
mons=()
for m in strace strace-seccomp perf-trace; do
	why=$("$PC" list monitors 2>/dev/null | awk -v m="$m" '$1 == m { print $3 }')
	arg=$m; [ $m = strace-seccomp ] && arg=strace-seccomp:trace=getppid
	[ "$why" = yes ] && mons+=(-m "$arg") || echo "# $m not available here: skipped"
done
[ ${#mons[@]} -gt 0 ] || { echo "skip: neither strace nor perf is available"; exit 0; }
js=$(mktemp); trap 'rm -f "$js"' EXIT
cmd=("$PC" run --no-store --format json -w "syscall:loops=$LOOPS" --placement same,split "${mons[@]}"
	--cpu 0 --runs "$RUNS" --warmup 1)
echo "# ${cmd[*]}"
"${cmd[@]}" >"$js" 2>/dev/null || { echo "FAIL: probecost run exited $?"; exit 1; }
echo "# $(jq -r '.session.options.headline // ""' "$js"); monitor on CPU $(jq -r '.session.options.split_cpu' "$js") when split"
printf '  %-30s %-9s %12s %26s %10s   %s\n' monitor placement "ns/syscall" "95% interval" "split/same" "events made/seen"
jq -r '
  .statistics as $st
  | $st[] | select(.monitor != "none") as $x
  | ([$st[] | select(.monitor == $x.monitor and .placement == "same")][0].per_event_ns) as $same
  | [$x.monitor, $x.placement, $x.per_event_ns,
     $x.per_event_ns_lo, $x.per_event_ns_hi,
     (if $x.placement == "split" and $same != null and $same > 0 then $x.per_event_ns / $same else "-" end),
     $x.events, ($x.monitor_events // "-"), ($x.lost_events // "-")] | @tsv' "$js" |
while IFS=$'\t' read -r m p pe lo hi r ev seen lost; do
	[ "$r" != - ] && r=$(printf '%.1fx' "$r")
	printf '  %-30s %-9s %12.0f %12.0f .. %-12.0f %10s   %s/%s%s\n' "$m" "$p" "$pe" "$lo" "$hi" "$r" \
		"$ev" "$seen" "$([ "$lost" != - ] && [ "$lost" != 0 ] && echo " (lost $lost)")"
done
bad=$(jq --argjson l "$LOOPS" '[.session.configs[].samples[] | select(.failed | not)
	| select(.events != $l)] | length' "$js")
# shellcheck disable=SC2015 # echo cannot fail: FAIL only when $bad is not 0
[ "$bad" = 0 ] && echo "events: every run made $LOOPS syscalls" \
	|| { echo "FAIL: $bad runs made another number of syscalls"; exit 1; }
