#!/bin/bash
# probes --scale 1,3: hits expected and counted scale exactly, and the fit section appears.
. "$(dirname "$0")/lib.bash"
plan 3
{ is_root && have_uprobe_pmu; } || skip_rest "needs root and the uprobe PMU"
args=(--via uprobe --variants plain --kernel towers --scale 1,3 --runs 2 --warmup 0 --cpu 0 --no-store)
csv=$("$P" probes "${args[@]}" --format csv 2>/dev/null)
is "$(echo "$csv" | awk -F, '$2 == "uprobe" {print $12 "/" $13}' | sort | tr '\n' ' ')" "16383/16383 49149/49149 " \
	"16383 and 3 x 16383 hits expected and counted"
txt=$("$P" probes "${args[@]}" 2>/dev/null)
assert "rows labelled by scale" 'echo "$txt" | grep -qE "^  plain x3 +uprobe "' || diag "$txt"
# The fit is checked on its figures, not on how the text lays them out (two blocks under
# load can fit a negative fixed cost: a row with a minus sign is still a fit row).
js=$("$P" probes "${args[@]}" --format json 2>/dev/null)
read -r fx ph lo hi < <(echo "$js" | jq -r '[.statistics[] | select(.variant == "plain" and .method == "uprobe")][0] |
	[.fit_fixed_ns, .fit_per_event_ns, .fit_per_event_ns_lo, .fit_per_event_ns_hi] | map(tostring) | join(" ")')
assert "fit: fixed $fx ns + $ph [$lo, $hi] ns per hit, and its text row" \
	'awk -v f="$fx" -v p="$ph" -v l="$lo" -v h="$hi" "BEGIN { exit !(f != \"null\" && p != \"null\" && l + 0 <= p + 0 && p + 0 <= h + 0) }" &&
	 echo "$txt" | grep -A2 "^# fit over the scales" | grep -qE "^  plain +uprobe "' || diag "$txt"
done_testing
