#!/bin/bash
# probes --sites: each armed encoding against nop, per hit, with its interval
# from the paired blocks (gain_vs_nop), in JSON, CSV, text and `show` of the
# stored session.
. tests/cli/lib.bash
P=$PROBECOST
plan 7

if ! is_root || ! have_uprobe_pmu || ! have jq; then
	skip_rest "needs root, the uprobe PMU and jq"
fi
tmpdir
db=$T/pc.db
run_pc probes --workload uprobe --variants nop --sites nop,nop5 --via uprobe --scale 1 -r 5 \
	--warmup 0 --cpu 0 --db "$db" --format json
j=$out
printf '%s' "$j" >"$T/live.json"
row=$(printf '%s' "$j" | jq -c '.statistics[] | select(.method == "uprobe" and .site == "nop5")')
got=$(printf '%s' "$row" | jq '.gain_vs_nop')
# The gain's arithmetic (Fieller over the paired blocks) is pinned by hand-computed values in
# tests/unit/test_analyze.c (test_site_gain); here, what the command adds: which rows pair up,
# and that the gain is the ratio of the two rows' own costs per hit, as the text says.
want=$(printf '%s' "$j" | jq '[.statistics[] | select(.method == "uprobe")] |
	(map(select(.site == "nop"))[0].per_hit_ns) / (map(select(.site == "nop5"))[0].per_hit_ns)')
ok $(awk -v a="$got" -v b="$want" 'BEGIN { exit !(b > 0 && (a - b) / b < 1e-9 && (b - a) / b < 1e-9) }'; echo $?) \
	"gain $got = nop's per hit / nop5's per hit in the table ($want)"
is "$(printf '%s' "$j" | jq -c '[.statistics[] | select(.site == "nop" or .method == "dormant") | .gain_vs_nop] | unique')" \
	"[null]" "nop and dormant rows have no gain (null)"
# Armed at nop the kernel traps (int3); the workload says whether it saw the trampoline.
is "$(printf '%s' "$j" | jq -c '[.statistics[] | select(.method == "uprobe" and .site == "nop") | .optimized]')" \
	"[false]" "nop (int3) is never optimized, by the workload's own observation"

# CSV carries the same figure; text and markdown show the section.
run_pc show 1 --db "$db" --format csv
col=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^gain_vs_nop$' | cut -d: -f1)
csvgain=$(printf '%s\n' "$out" | awk -F, -v c="$col" '$2 == "uprobe" && $1 == "nop5" { print $c }')
ok $(awk -v a="$csvgain" -v b="$got" 'BEGIN { exit !(a != "" && (a - b) < 0.001 && (b - a) < 0.001) }'; echo $?) \
	"show --format csv: gain_vs_nop $csvgain (live $got)"
run_pc show 1 --db "$db"
like "$out" "site encodings against nop" "show (text): the site section"
like "$out" "nop5 +uprobe +nop5 +-?[0-9.]+x( \\[-?[0-9.]+, -?[0-9.]+\\])? +(cheaper|dearer|not shown|no interval)" \
	"show (text): nop5's row with its gain, interval and verdict"
run_pc show 1 --db "$db" --format json
is "$(printf '%s' "$out" | jq -c '.statistics[] | select(.method == "uprobe" and .site == "nop5") | .gain_vs_nop')" \
	"$got" "show --format json: the stored session gives the live gain"
done_testing
