#!/bin/bash
# delay:ns=N adds N ns to each libc read/write: the CPU time it adds per delayed call comes
# out near N, N=40000 costs twice N=20000 side by side in one run, and --scale separates it
# from start-up as the fit's slope.  The wall time per delayed call is not bounded here:
# load from other processes stretches every spin it preempts (2.1x to 3.1x seen during
# parallel make checks), while the CPU time the spins burn stays near N (a quiet machine
# gives 1.0-1.08 either way).
. "$(dirname "$0")/lib.bash"
plan 3
# The sanitizer runtime intercepts read/write itself and the preload would come second.
[ -z "$PROBECOST_SAN" ] || skip_rest "LD_PRELOAD timing under ASan"
js=$("$P" run --no-store --runs 8 --warmup 1 --cpu 0 --seed 3 --format json --scale 1,2 \
	-w pipe:loops=1000 -m delay:ns=20000 -m delay:ns=40000 2>/dev/null); rc=$?
is "$rc" 0 "exit 0"
# at scale 1 (loops=1000): the statistics row of monitor M, and the CPU time per delayed call / N.
row() { printf '%s' "$js" | jq "[.statistics[] | select(.monitor == \"$1\" and (.workload_args | test(\"loops=1000 \")))][0]"; }
base=$(row none)
cpu() { jq -n --argjson m "$(row "delay:ns=$1")" --argjson b "$base" \
	"(\$m.user_ns.mean + \$m.sys_ns.mean - \$b.user_ns.mean - \$b.sys_ns.mean) / \$m.monitor_events / $1"; }
c2=$(cpu 20000); c4=$(cpu 40000)
assert "CPU per delayed call: $c2 x 20000 and $c4 x 40000 ns (0.8..1.5 each, side by side)" \
	'ratio_in "$c2" 1 0.8 1.5 && ratio_in "$c4" 1 0.8 1.5'
# 4 delayed calls a round trip: the fit's slope is 4 x what one delayed call cost in these
# runs (r x 20000 in wall time: load stretches spins), and its 95% interval must hold that,
# give or take 30% (the whole-run extra also carries what the spins did to the rest), and be
# narrower than 1.2 times it (8 blocks: 0.6-0.8 times it here; an unbounded interval fails).
r=$(row delay:ns=20000 | jq '.extra_ns / .monitor_events / 20000')
read -r slope lo hi < <(row delay:ns=20000 | jq -r '"\(.fit_per_event_ns) \(.fit_per_event_ns_lo) \(.fit_per_event_ns_hi)"')
assert "fit slope $slope [$lo, $hi] ns/round-trip holds 4 x $r x 20000" \
	'awk -v r="$r" -v lo="$lo" -v hi="$hi" "BEGIN { e = 4 * 20000 * r; exit !(lo <= 1.3 * e && hi >= 0.7 * e && hi - lo < 1.2 * e) }"'
done_testing
