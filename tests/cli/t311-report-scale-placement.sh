#!/bin/bash
# t311: --scale with --placement same,split fits each placement on its own.  The session is
# hand-made (tests/cli/data/run-scale-placement.json): strace costs 500 ns + 2 ns per round
# trip on the workload's CPU and 100 ns + 7 ns split; the old fit group ignored the placement
# and printed one fit of both (4.5 ns per round trip) on both rows.
. tests/cli/lib.bash
D=tests/cli/data
plan 5
have jq || skip_rest "jq is needed (apt-get install jq)"
tmpdir
run_pc import "$D/run-scale-placement.json" --db "$T/s.db"
is "$rc" 0 "import the hand-made session"
run_pc show 1 --db "$T/s.db" --format json
# per placement: the fit's slope and fixed cost, and which row heads its fit group
fit() { printf '%s' "$out" | jq -r --arg p "$1" '[.statistics[] | select(.placement == $p)]
	| map("\(.fit_per_event_ns) \(.fit_fixed_ns)") | unique | join(",")'; }
read -r same_pe same_fx <<<"$(fit same)"
read -r split_pe split_fx <<<"$(fit split)"
assert "same CPU: one fit at every scale, 2 ns per round trip ($same_pe) and 500 ns fixed ($same_fx)" \
	'awk -v p="$same_pe" -v f="$same_fx" "BEGIN { exit !(p > 1.999 && p < 2.001 && f > 499 && f < 501) }"'
assert "split: 7 ns per round trip ($split_pe) and 100 ns fixed ($split_fx)" \
	'awk -v p="$split_pe" -v f="$split_fx" "BEGIN { exit !(p > 6.999 && p < 7.001 && f > 99 && f < 101) }"'
run_pc show 1 --db "$T/s.db"
like "$out" "fit strace, same on pipe: extra = 500 \\[[0-9]+, [0-9]+\\] ns fixed \\+ 2\\.00 " \
	"text: the same-CPU fit, labelled with its placement"
like "$out" "fit strace, split on pipe: extra = 100 \\[[0-9]+, [0-9]+\\] ns fixed \\+ 7\\.00 " \
	"text: the split fit, labelled with its placement"
done_testing
