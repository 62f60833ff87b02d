#!/bin/bash
# delay:ns=N adds N ns to each libc read/write: the CPU time it adds per delayed call comes
# out near N, and --scale separates it from start-up as the fit's slope.  The wall time per
# delayed call is not bounded here: load from other processes stretches every spin it
# preempts (2.1x to 3.1x seen during parallel make checks), while the CPU time the spins
# burn stays near N (a quiet machine gives 1.0-1.08 either way).
P="${PROBECOST:-./probecost}"
echo "1..3"
if ! "$P" workload --help >/dev/null 2>&1; then
	for i in 1 2 3; do echo "ok $i # skip the workload command is not in this build"; done; exit 0
fi
if [ -n "$PROBECOST_SAN" ]; then
	# The sanitizer runtime intercepts read/write itself and the preload would come second.
	for i in 1 2 3; do echo "ok $i # skip LD_PRELOAD timing under ASan"; done; exit 0
fi
js=$("$P" run --no-store --runs 3 --warmup 1 --cpu 0 --seed 3 --format json --scale 1,2 \
	-w pipe:loops=1000 -m delay:ns=20000 2>/dev/null); rc=$?
[ "$rc" = 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
# configs: [none x1, delay x1, none x2, delay x2]
r=$(printf '%s' "$js" | jq '.statistics[1] | .extra_ns / .monitor_events / 20000')
c=$(printf '%s' "$js" | jq '.statistics as $s | ($s[1].user_ns.mean + $s[1].sys_ns.mean - $s[0].user_ns.mean
	- $s[0].sys_ns.mean) / $s[1].monitor_events / 20000')
awk -v c="$c" 'BEGIN { exit !(c > 0.8 && c < 1.5) }' \
	&& echo "ok 2 - per delayed call: $c x 20000 ns of CPU ($r x in wall time)" \
	|| echo "not ok 2 - per delayed call: $c x 20000 ns of CPU ($r x in wall time)"
# 4 delayed calls a round trip: the fit's slope is 4 x what one delayed call cost in these
# runs (test 2's r x 20000: load stretches spins), and its 95% interval must hold that,
# give or take 30% (the whole-run extra also carries what the spins did to the rest).
read -r slope lo hi < <(printf '%s' "$js" | jq -r '.statistics[1] | "\(.fit_per_event_ns) \(.fit_per_event_ns_lo) \(.fit_per_event_ns_hi)"')
awk -v r="$r" -v lo="$lo" -v hi="$hi" 'BEGIN { e = 4 * 20000 * r; exit !(lo <= 1.3 * e && hi >= 0.7 * e && lo < hi) }' \
	&& echo "ok 3 - fit slope $slope [$lo, $hi] ns/round-trip holds 4 x $r x 20000" \
	|| echo "not ok 3 - fit slope $slope [$lo, $hi] vs 4 x $r x 20000"
