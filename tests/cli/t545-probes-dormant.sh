#!/bin/bash
# t545: the dormant-cost study (probes --via dormant alone): every build at three code
# layouts, timed on the thread's CPU clock, each build's cost per hit over its layouts with
# a random-effects interval; the layout copies run the same work.
. "$(dirname "$0")/lib.bash"
plan 7

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
	map("\(.dormant_layouts) \(.dormant_per_hit_ns) \(.dormant_all_per_hit_ns) \(.dormant_all_per_hit_ns_lo) \(.dormant_all_per_hit_ns_hi)") | .[]')
# A dormant plain site is one nop and its arguments kept live: well under 3 ns a hit (this
# machine measured -0.5 to 0.9 ns).  The start-up difference of the two binaries charged to
# the 16383 hits (the elapsed fallback), or a division by the wrong count, is hundreds of ns.
bad=$(printf '%s\n' "$rows" | awk '$1 != 3 || !($2 > -3 && $2 < 3) { print }')
is "$(printf '%s\n' "$rows" | wc -l):$bad" "3:" "three layouts each under 3 ns a hit: $(printf '%s\n' "$rows" | awk '{ printf "%s ", $2 }')"
# Random effects over 3 layouts: t(2) sd/sqrt(3) = 2.48 sd of the layout figures, more than
# the 1.15 sd the farthest of three can stray from their mean, so the build's interval holds
# every layout.  The fixed-effect interval (from the runs' noise alone) left layouts out.
bad=$(printf '%s\n' "$rows" | awk '!($4 <= $2 && $2 <= $5) { print }')
is "$bad" "" "the build's interval over its layouts holds each layout's figure"
all=$(printf '%s\n' "$rows" | awk '{ print $3 }' | sort -u | wc -l)
is "$all" 1 "one figure per build over its layouts"
done_testing
