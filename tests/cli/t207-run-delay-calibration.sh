#!/bin/bash
# delay:ns=N adds N ns to each libc read/write: the cost per monitor event comes out at N or
# more (a spin never ends early), and N=40000 costs twice N=20000 side by side in one run, so
# load that stretches every spin (2.1x seen during a parallel make check) stretches both.
# --scale separates the per-call cost from start-up as the fit's slope: 4 delayed calls a
# round trip, so the slope is 4 x the pooled per-call cost of the same samples.
. "$(dirname "$0")/lib.bash"
plan 3
# The sanitizer runtime intercepts read/write itself and the preload would come second.
[ -z "$PROBECOST_SAN" ] || skip_rest "LD_PRELOAD timing under ASan"
js=$("$P" run --no-store --runs 8 --warmup 1 --cpu 0 --seed 3 --format json --scale 1,2 \
	-w pipe:loops=1000 -m delay:ns=20000 -m delay:ns=40000 2>/dev/null); rc=$?
is "$rc" 0 "exit 0"
# Per delayed call, pooled over both scales.
per() { printf '%s' "$js" | jq "[.statistics[] | select(.monitor == \"delay:ns=$1\")]
	| (map(.extra_ns) | add) / (map(.monitor_events) | add)"; }
slope() { printf '%s' "$js" | jq ".statistics[] | select(.monitor == \"delay:ns=$1\") | .fit_per_event_ns" | head -1; }
p2=$(per 20000); p4=$(per 40000)
assert "per delayed call: $p2 ns for 20000, $p4 ns for 40000 (>= 0.9 N, ratio 1.7..2.3)" \
	'ratio_in "$p2" 20000 0.9 1000 && ratio_in "$p4" "$p2" 1.7 2.3'
s2=$(slope 20000); s4=$(slope 40000)
assert "fit slopes $s2 and $s4 ns/round-trip: >= 0.8 x 4 x N, each 0.75..1.33 x 4 x its per-call cost" \
	'ratio_in "$s2" 80000 0.8 1000 && ratio_in "$s2" "$(awk -v p="$p2" "BEGIN { print 4 * p }")" 0.75 1.33 &&
	 ratio_in "$s4" "$(awk -v p="$p4" "BEGIN { print 4 * p }")" 0.75 1.33'
done_testing
