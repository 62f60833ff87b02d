#!/bin/bash
# no-sanitizer: dormant costs of ten layouts against their spread
# t545: the dormant-cost study (probes --via dormant alone): every build at ten code
# layouts, timed on the thread's CPU clock, each build's cost per hit over its layouts with
# a random-effects interval; the layout copies run the same work.
. "$(dirname "$0")/lib.bash"
plan 7

layouts="default a32 a64 a16 a8 noalign pad16 pad24 pad40 bbsimple"
exact="" want=""
for l in $layouts; do
	report_of stanford variant=plain kernel=towers scale=1 "layout=$l" clock=cpu
	exact+="$(field events "$report"):$(field layout "$report") "
	want+="16383:$l "
done
is "$exact" "$want" "every layout copy makes the same 16383 hits"

run_pc probes --via dormant --variants none,plain --kernel towers --scale 1 --runs 3 --warmup 0 \
	--cpu 0 --no-store --format json
is "$rc" 0 "probes --via dormant: exit 0"
is "$(printf '%s' "$out" | jq '.statistics | length')" 20 "2 builds x 10 layouts"
is "$(printf '%s' "$out" | jq -r '[.statistics[].workload_args | test("clock=cpu")] | all')" true \
	"the dormant study times the kernels on the CPU clock"
# plain's rows: each layout against none at that layout, and the mean over the ten.
rows=$(printf '%s' "$out" | jq -r '[.statistics[] | select(.variant == "plain")] |
	map("\(.dormant_layouts) \(.dormant_per_hit_ns) \(.dormant_all_per_hit_ns) \(.dormant_all_per_hit_ns_lo) \(.dormant_all_per_hit_ns_hi)") | .[]')
# A dormant plain site is one nop and its arguments kept live: well under 3 ns a hit (this
# machine measured -0.5 to 0.9 ns; one layout of ten read 3.4 ns once at 3 runs under
# load, so each layout is held to 20 ns and their mean to 3 ns).  The start-up difference
# of the two binaries charged to the 16383 hits (the elapsed fallback), or a division by
# the wrong count, is hundreds of ns.
bad=$(printf '%s\n' "$rows" | awk '$1 != 10 || !($2 > -20 && $2 < 20) { print } { s += $2; n++ }
	END { if (!(n && s / n > -3 && s / n < 3)) printf "mean %g", s / n }')
is "$(printf '%s\n' "$rows" | wc -l):$bad" "10:" "ten layouts within 20 ns a hit, their mean within 3 ns: $(printf '%s\n' "$rows" | awk '{ printf "%s ", $2 }')"
# Random effects over 10 layouts: the half-width is t(9) sd/sqrt(10) = 0.715 sd of the layout
# figures, however few the blocks; a fixed-effect interval (the runs' noise alone, pooled
# over 10 layouts) is narrower than the layouts' spread, which is why they are measured.
bad=$(printf '%s\n' "$rows" | awk '{ n++; s += $2; s2 += $2 * $2; h = ($5 - $4) / 2 }
	END { sd = sqrt((s2 - s * s / n) / (n - 1)); if (!(h >= 0.71 * sd)) printf "half-width %g < 0.71 x sd %g", h, sd }')
is "$bad" "" "the build's interval spans the spread between its layouts (random effects)"
all=$(printf '%s\n' "$rows" | awk '{ print $3 }' | sort -u | wc -l)
is "$all" 1 "one figure per build over its layouts"
done_testing
