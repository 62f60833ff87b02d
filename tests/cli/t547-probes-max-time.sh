#!/bin/bash
# probes --via dormant --max-time: the adaptive dormant study asks for an unreachable precision
# (0.001 ns a hit), so only the time budget stops it: with 1 ms (less than any pilot takes),
# right after the 10-block pilot, which always runs whole;
# with 2 s (ten times what the pilot takes here), the blocks that fit at the pilot's pace, and
# done within the budget and a block.
. "$(dirname "$0")/lib.bash"
plan 6
have jq || skip_rest "jq not installed"
blocks() { printf '%s' "$out" | jq '[.session.configs[].samples[] | select(.warmup | not) | .block] | unique | length'; }
study() { run_pc probes --via dormant --variants none,plain --kernel towers --scale 1 --layouts default,a64 \
	--precision 0.001 --max-time "$1" --warmup 0 --cpu 0 --no-store --format json; }
study 0.001
is "$rc $(blocks)" "0 10" "--max-time 0.001: the 10-block pilot and no more"
# 0.001 ns is out of reach: the build says so, once, with its arm and the blocks run.
w=$(printf '%s' "$out" | jq -r '.warnings[]' | grep 'is not within the +-0.001 ns asked')
like "$w" "^plain: dormant per hit over its 2 layouts -?[0-9.]+ \\[-?[0-9.]+, -?[0-9.]+\\] ns/hit is not within the \\+-0.001 ns asked \\(an arm of [0-9.e-]+\\) after 10 blocks \\(the pilot's plan, within --max-time 0.001 s\\)" \
	"the precision not reached is told for plain ($w)"
is "$(grep -c . <<< "$w")" 1 "one line for plain's two layouts (none, the no-probe build, has no dormant cost)"
t0=$(date +%s%N)
study 2
secs=$(awk -v a="$t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
n=$(blocks)
ok "$([ "$rc" = 0 ] && [ "$n" -gt 10 ]; echo $?)" "--max-time 2: $n blocks, more than the pilot"
# The pilot's pace: the command's own time over its blocks (start-up included: an upper bound).
pace=$(awk -v s="$secs" -v n="$n" 'BEGIN { print s / n }')
ok "$(awk -v s="$secs" -v p="$pace" 'BEGIN { exit !(s <= 2 + 2 * p + 3) }'; echo $?)" \
	"done in $secs s: the 2 s budget, a block (${pace} s) and start-up"
is "$(printf '%s' "$out" | jq '[.statistics[] | select(.variant == "plain") | .dormant_layouts] | unique')" \
	"[
  2
]" "the figure is over the 2 layouts asked"
done_testing
