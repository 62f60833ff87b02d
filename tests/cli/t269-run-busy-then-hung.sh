#!/bin/bash
# parallel-safe
# long: 39 s of waiting: a wrapper busy for 15 s, then hung until 3 x its limit
# no-sanitizer: 39 s of waiting on wall-clock limits
# A monitored run's first run is given its limit (300 x the plain median + 10 s, no
# --timeout) again while it uses the CPU (t279), but not for ever: one that uses the CPU
# past the limit (15 s) and then hangs idle is killed as hung at a later deadline, k x
# the limit: it was given the limit again k - 1 times (at least once), and the last time
# only because the stretch before it held CPU use, so that stretch began before the 15 s
# ended ((k - 2) x the limit < 15 s).
. tests/cli/lib.bash
plan 2
have jq || skip_rest "jq not installed"
export PCOST_FAKE_SLEEP=97.6$$
PCOST_BUSY_S=15 run_pc run --no-store --runs 1 --warmup 0 -m "$PWD/$F/busy-wrap $PWD/$F/hang-wrap" --format json -- sleep 0.01
why=$(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].fail_reason')
limit=$(printf '%s' "$out" | jq -r '300 * .session.configs[0].samples[0].wall_ns / 1e9 + 10')
read -r killed again < <(printf '%s' "$why" | sed -n 's/^hung: killed after \([0-9.]*\) s (300 x the median of the plain runs, on its first run + 10 s, given again \([0-9]*\) times\{0,1\} while it used the CPU; --timeout sets the limit)$/\1 \2/p')
assert "busy past the limit, then idle: killed as hung at $((${again:-0} + 1)) x the limit ($killed s; the limit $limit s)" \
	'[ -n "$killed" ] && [ "$again" -ge 1 ] && ratio_in "$killed" "$(awk -v l="$limit" -v k="$again" "BEGIN { print (k + 1) * l }")" 0.994 1.006 &&
	awk -v l="$limit" -v k="$again" "BEGIN { exit !((k - 1) * l < 15) }"' || diag "fail_reason: $why"
pgrep -f "sleep 97.6$$" >/dev/null; is "$?" 1 "the hung wrapper's process group is gone"
done_testing
