#!/bin/bash
# probes --scale 1,3: hits expected and counted scale exactly, and the fit's cost per hit agrees
# with what the kernels' own timed region measured.
. "$(dirname "$0")/lib.bash"
plan 4
{ is_root && have_uprobe_pmu; } || skip_rest "needs root and the uprobe PMU"
args=(--via uprobe --variants plain --kernel towers --scale 1,3 --warmup 1 --cpu 0 --no-store)
# The csv and text runs check counts and labels, which 2 blocks show as well as 10; the
# fit's timing below takes 10.
csv=$("$P" probes "${args[@]}" --runs 2 --format csv 2>/dev/null)
is "$(echo "$csv" | awk -F, '$2 == "uprobe" {print $12 "/" $13}' | sort | tr '\n' ' ')" "16383/16383 49149/49149 " \
	"16383 and 3 x 16383 hits expected and counted"
txt=$("$P" probes "${args[@]}" --runs 2 2>/dev/null)
assert "rows labelled by scale" 'echo "$txt" | grep -qE "^  plain x3 +uprobe "' || diag "$txt"
# The fit's slope (extra wall time against hits, over the scales) is the cost per hit; the
# known answer is what the kernels' own timed region measured: per block, (armed - dormant)
# timed_ns / hits at scale 3, the median over the blocks (a run's hiccup does not move it).
# Within a factor 2: a slope taken at the wrong scale is off by 3x, one that kept the
# start-up in it by the whole extra run time over the hits.
js=$("$P" probes "${args[@]}" --runs 10 --format json 2>/dev/null)
read -r fx ph lo hi < <(echo "$js" | jq -r '[.statistics[] | select(.variant == "plain" and .method == "uprobe")][0] |
	[.fit_fixed_ns, .fit_per_event_ns, .fit_per_event_ns_lo, .fit_per_event_ns_hi] | map(tostring) | join(" ")')
own=$(echo "$js" | jq '[.session.configs[] | select(.samples[0].scale == 3)] as $c
	| ($c[] | select(.monitor == "dormant") | [.samples[] | select((.warmup or .failed) | not) | {key: (.block | tostring), value: .timed_ns}] | from_entries) as $d
	| [$c[] | select(.monitor == "uprobe") | .samples[] | select((.warmup or .failed) | not) | select($d[.block | tostring] != null)
	   | (.timed_ns - $d[.block | tostring]) / .events] | sort | .[length / 2 | floor]')
assert "fit: $ph [$lo, $hi] ns per hit, the kernels' own timed region $own ns per hit (within 2x)" \
	'ratio_in "$ph" "$own" 0.5 2' || diag "fixed $fx ns"
like "$(echo "$txt" | grep -A2 "^# fit over the scales")" "
  plain +uprobe " "text: the fit section has the uprobe row"
done_testing
