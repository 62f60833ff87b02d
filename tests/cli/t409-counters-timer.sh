#!/bin/bash
# counters --timer: the timer that times every operation.  tsc counts whole TSC cycles (ns are
# cycles / the TSC's GHz); monotonic counts whole nanoseconds of CLOCK_MONOTONIC (cycles are ns x
# GHz).  One clock_gettime costs the same read either way: timed by the TSC it is the
# clock_gettime row less the empty region; timed by CLOCK_MONOTONIC it is the empty region itself
# (the timer's own cost).
. "$(dirname "$0")/lib.bash"
plan 5
have jq || skip_rest "jq not installed"
grep -qw constant_tsc /proc/cpuinfo || skip_rest "no constant TSC (/proc/cpuinfo flags)"
tmpdir
# Three sessions a timer: the first for the format checks, all three for the cost (below).
for i in 1 2 3; do
	for t in tsc monotonic; do
		"$P" counters --interfaces empty,clock_gettime --events 1 --iterations 4096 --timer "$t" \
			--cpu 0 --no-store --format json >"$T/$t.$i.json" 2>/dev/null
	done
done
is "$(jq -r '[.options.timer, (.statistics[] | .timer)] | unique | join(",")' "$T/tsc.1.json") $(
	jq -r '[.options.timer, (.statistics[] | .timer)] | unique | join(",")' "$T/monotonic.1.json")" \
	"tsc monotonic" "each session and every row record the timer asked"
is "$(jq '[.statistics[] | .cycles.min, .cycles.median, .cycles.max | . == floor] | all' "$T/tsc.1.json")" \
	true "--timer tsc: whole cycles"
is "$(jq '[.statistics[] | .ns.min, .ns.median, .ns.max | . == floor] | all' "$T/monotonic.1.json")" \
	true "--timer monotonic: whole nanoseconds"
is "$(jq '[.statistics[] | .ns.min | . == floor] | all' "$T/tsc.1.json")" false \
	"--timer tsc: its nanoseconds are cycles converted, not clock readings"
# Means (the TSC reads in steps of 10 ns here, so medians of a difference jump by 10 ns), the
# least of three sessions each: one preemption among 4096 operations moves a mean by tens of
# ns (CI once read 64.8 ns by the TSC against 27.6 by CLOCK_MONOTONIC, under ASan at load).
by_tsc=$(jq -s 'map((.statistics[] | select(.interface == "clock_gettime") | .ns.mean) -
	(.statistics[] | select(.interface == "empty") | .ns.mean)) | min' "$T"/tsc*.json)
by_mono=$(jq -s 'map(.statistics[] | select(.interface == "empty") | .ns.mean) | min' "$T"/monotonic*.json)
ok "$(ratio_in "$by_tsc" "$by_mono" 0.5 2; echo $?)" \
	"one clock_gettime: $by_tsc ns timed by the TSC, $by_mono ns by CLOCK_MONOTONIC (within 2x)"
done_testing
