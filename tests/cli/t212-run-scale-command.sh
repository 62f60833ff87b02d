#!/bin/bash
# t212: --scale on a user's command: {n} becomes the event count at each scale (--events is
# the count at scale 1), and the fit separates a wrapper's fixed cost from the per-event cost.
# The command sleeps 10 ms per event: 1, 2 and 4 events; the wrapper sleeps 50 ms once.
. "$(dirname "$0")/lib.bash"
F=tests/cli/fake
plan 5

run_pc run --no-store --runs 5 --warmup 1 --seed 5 --format json --events 1 --unit nap \
	--scale 1,2,4 -m "$F/slow-wrap 0.05 {}" -- /bin/sleep 0.0{n}
is "$rc" 0 "exit 0"
is "$(printf '%s' "$out" | jq -r '[.statistics[] | select(.monitor == "none") | .workload_args] | join(",")')" \
	"/bin/sleep 0.01,/bin/sleep 0.02,/bin/sleep 0.04" "{n} replaced by 1, 2 and 4 events"
is "$(printf '%s' "$out" | jq -r '[.statistics[] | .events] | join(",")')" "1,1,2,2,4,4" \
	"the events at each scale"
# The plain command: about 10 ms per event (sleep overshoots a little); the wrapper: 50 ms
# fixed, nothing per event.  Bounds leave room for a loaded machine, not for a wrong fit.
read -r bpe mfx mpe mlo mhi < <(printf '%s' "$out" | jq -r '[.statistics[0], .statistics[1]] |
	"\(.[0].fit_per_event_ns) \(.[1].fit_fixed_ns) \(.[1].fit_per_event_ns) \(.[1].fit_fixed_ns_lo) \(.[1].fit_fixed_ns_hi)"')
ok "$(awk -v p="$bpe" 'BEGIN { exit !(p > 9e6 && p < 14e6) }'; echo $?)" \
	"the command's own fit: $bpe ns per event (10 ms sleeps)"
# The known answer: 50 ms of sleep, plus the start of sh and sleep (a few ms).  The interval
# must reach [45, 60] ms and be narrower than 60 ms (an unbounded or misplaced one fails).
ok "$(awk -v f="$mfx" -v p="$mpe" -v l="$mlo" -v h="$mhi" 'BEGIN { exit !(f > 40e6 && f < 70e6 && l <= 60e6 && h >= 45e6 && h - l < 60e6 && p > -5e6 && p < 5e6) }'; echo $?)" \
	"the wrapper: $mfx [$mlo, $mhi] ns fixed (50 ms slept), $mpe ns per event (none added)"
done_testing
