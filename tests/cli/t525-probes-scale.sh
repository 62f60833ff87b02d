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
assert "fit: fixed + per hit" \
	'echo "$txt" | grep -A2 "^# fit over the scales" | grep -qE "^  plain +uprobe +-?[0-9.]+ ms +[0-9]+ ns"' || diag "$txt"
done_testing
