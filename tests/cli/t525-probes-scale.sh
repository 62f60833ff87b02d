#!/bin/bash
# probes --scale 1,3: hits expected and counted scale exactly, and the fit section appears.
P="${PROBECOST:-./probecost}"
echo "1..3"
if [ "$(id -u)" != 0 ]; then
	for i in 1 2 3; do echo "ok $i # skip needs root (uprobes)"; done; exit 0
fi
args=(--via uprobe --variants plain --kernel towers --scale 1,3 --runs 2 --warmup 0 --cpu 0 --no-store)
csv=$("$P" probes "${args[@]}" --format csv 2>/dev/null)
one=$(echo "$csv" | awk -F, '$2 == "uprobe" {print $12 "/" $13}' | sort | tr '\n' ' ')
[ "$one" = "16383/16383 49149/49149 " ] && echo "ok 1 - 16383 and 3 x 16383 hits expected and counted" \
	|| echo "not ok 1 - got '$one'"
txt=$("$P" probes "${args[@]}" 2>/dev/null)
echo "$txt" | grep -qE "^  plain x3 +uprobe " && echo "ok 2 - rows labelled by scale" \
	|| { echo "not ok 2 - no 'plain x3' row"; echo "$txt" | sed 's/^/# /'; }
# The fit is checked on its figures, not on how the text lays them out (two blocks under
# load can fit a negative fixed cost: a row with a minus sign is still a fit row).
js=$("$P" probes "${args[@]}" --format json 2>/dev/null)
fit=$(echo "$js" | jq -r '[.statistics[] | select(.variant == "plain" and .method == "uprobe")][0] |
	[.fit_fixed_ns, .fit_per_event_ns, .fit_per_event_ns_lo, .fit_per_event_ns_hi] | map(tostring) | join(" ")')
read -r fx ph lo hi <<<"$fit"
awk -v f="$fx" -v p="$ph" -v l="$lo" -v h="$hi" 'BEGIN { exit !(f != "null" && p != "null" && l + 0 <= p + 0 && p + 0 <= h + 0) }' \
	&& echo "$txt" | grep -A2 "^# fit over the scales" | grep -qE "^  plain +uprobe " \
	&& echo "ok 3 - fit: fixed $fx ns + $ph [$lo, $hi] ns per hit, and its text row" \
	|| { echo "not ok 3 - fit '$fit'"; echo "$txt" | sed 's/^/# /'; }
