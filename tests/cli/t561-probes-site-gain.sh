#!/bin/bash
# probes --sites: each armed encoding against nop, per hit, with its interval
# from the paired blocks (gain_vs_nop), recomputed here from the session's own
# samples, in JSON, CSV, text and `show` of the stored session.
. tests/cli/lib.bash
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
# Fieller's interval is unbounded (null both ends) when nop5's extra time is not told from 0.
ok "$(printf '%s' "$row" | jq -e '(.gain_vs_nop_lo <= .gain_vs_nop and .gain_vs_nop <= .gain_vs_nop_hi) or
	(.gain_vs_nop != null and .gain_vs_nop_lo == null and .gain_vs_nop_hi == null)' \
	>/dev/null; echo $?)" "nop5's gain lies in its interval (or the interval is unbounded): $(printf '%s' "$row" | jq -c '[.gain_vs_nop_lo, .gain_vs_nop, .gain_vs_nop_hi]')"
is "$(printf '%s' "$j" | jq -c '[.statistics[] | select(.site == "nop" or .method == "dormant") | .gain_vs_nop] | unique')" \
	"[null]" "nop and dormant rows have no gain (null)"

# The known answer: nop's mean per-block (armed - dormant) over nop5's, from the raw samples.
want=$(printf '%s' "$j" | jq '
	def blocks($w; $m): [.session.configs[] | select(.workload_args | test("insn=" + $w + " "))
		| select(.monitor == $m) | .samples[] | select((.warmup or .failed) | not)
		| {key: (.block | tostring), value: .timed_ns}] | from_entries;
	def diffs($w): blocks($w; "uprobe") as $a | blocks($w; "dormant") as $d
		| [$a | keys[] | select($d[.] != null) | {key: ., value: ($a[.] - $d[.])}] | from_entries;
	diffs("nop") as $x | diffs("nop5") as $y | [$x | keys[] | select($y[.] != null)] as $k
	| ([$k[] | $x[.]] | add) / ([$k[] | $y[.]] | add)')
got=$(printf '%s' "$row" | jq '.gain_vs_nop')
ok "$(awk -v a="$got" -v b="$want" 'BEGIN { exit !(b > 0 && (a - b) / b < 1e-9 && (b - a) / b < 1e-9) }'; echo $?)" \
	"gain = nop's mean extra time / nop5's over the paired blocks ($got vs $want from the samples)"

# CSV carries the same figure; text and markdown show the section.
run_pc show 1 --db "$db" --format csv
col=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^gain_vs_nop$' | cut -d: -f1)
csvgain=$(printf '%s\n' "$out" | awk -F, -v c="$col" '$2 == "uprobe" && $1 == "nop5" { print $c }')
ok "$(awk -v a="$csvgain" -v b="$got" 'BEGIN { exit !(a != "" && (a - b) < 0.001 && (b - a) < 0.001) }'; echo $?)" \
	"show --format csv: gain_vs_nop $csvgain (live $got)"
run_pc show 1 --db "$db"
like "$out" "site encodings against nop" "show (text): the site section"
like "$out" "nop5 +uprobe +nop5 +-?[0-9.]+x( \\[-?[0-9.]+, -?[0-9.]+\\])? +(cheaper|dearer|not shown|no interval)" \
	"show (text): nop5's row with its gain, interval and verdict"
run_pc show 1 --db "$db" --format json
is "$(printf '%s' "$out" | jq -c '.statistics[] | select(.method == "uprobe" and .site == "nop5") | .gain_vs_nop')" \
	"$got" "show --format json: the stored session gives the live gain"
done_testing
