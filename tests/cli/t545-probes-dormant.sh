#!/bin/bash
# no-sanitizer: dormant costs of three layouts against their spread
# t545: the dormant-cost study (probes --via dormant alone): every build at three code
# layouts, timed on the thread's CPU clock, each build's cost per hit over its layouts with
# an interval and the layouts' spread; the layout copies run the same work.
. "$(dirname "$0")/lib.bash"
plan 6

exact=
for l in default a32 a64; do
	report_of stanford variant=plain kernel=towers scale=1 layout=$l clock=cpu
	exact+="$(field events "$report"):$(field layout "$report") "
done
is "$exact" "16383:default 16383:a32 16383:a64 " "every layout copy makes the same 16383 hits"

run_pc probes --via dormant --variants none,plain --kernel towers --scale 1 --runs 3 --warmup 0 \
	--cpu 0 --no-store --format json
is "$rc" 0 "probes --via dormant: exit 0"
is "$(printf '%s' "$out" | jq '.statistics | length')" 6 "2 builds x 3 layouts"
is "$(printf '%s' "$out" | jq -r '[.statistics[].workload_args | test("clock=cpu")] | all')" true \
	"the dormant study times the kernels on the CPU clock"
# plain's rows: each layout against none at that layout, and the mean over the three.
rows=$(printf '%s' "$out" | jq -r '[.statistics[] | select(.variant == "plain")] |
	map("\(.dormant_layouts) \(.dormant_per_hit_ns) \(.dormant_all_per_hit_ns) \(.dormant_all_per_hit_ns_lo) \(.dormant_all_per_hit_ns_hi) \(.dormant_spread_min_ns) \(.dormant_spread_max_ns)") | .[]')
bad=$(printf '%s\n' "$rows" | awk '$1 != 3 || !($6 <= $2 && $2 <= $7) || !($6 <= $3 && $3 <= $7) || !($4 < $3 && $3 < $5) { print }')
is "$(printf '%s\n' "$rows" | wc -l):$bad" "3:" "each layout within the build's spread, the mean inside the spread and its interval"
all=$(printf '%s\n' "$rows" | awk '{ print $3 }' | sort -u | wc -l)
is "$all" 1 "one figure per build over its layouts"
done_testing
