#!/bin/bash
# parallel-safe
# long: 92 s of waiting on slow wrappers and hang limits
# no-sanitizer: 90 s of waiting on wall-clock limits (10.6, 20 and 22 s runs, two hang limits)
# A slow monitor is not a hung one.  Without --timeout a monitored run was called hung
# after 10 x the plain run's median + 10 s, however slow the monitor is by nature
# (strace on syscall:loops=200000 takes 4 s alone, 100 x plain, and was killed at
# 10.4 s on a busy machine).  Now its first run may take 300 x the plain median + 10 s,
# and later ones 10 x its own median (its warm-up and runs so far) + 10 s.  Here plain
# is `sleep 0.01`, and a wrapper (fake/delay-wrap) takes 10.6 s, then 20 s: neither is
# hung.  --seed 1 runs plain first in each block (checked), so its median is known.
. tests/cli/lib.bash
plan 9
have jq || skip_rest "jq not installed"
tmpdir
PCOST_DELAY_STATE=$T/state PCOST_DELAYS="10.6 20" run_pc run --no-store --runs 2 --warmup 0 --seed 1 \
	-m "$PWD/$F/delay-wrap {}" --format json -- sleep 0.01
is "$(printf '%s' "$out" | jq -c '[.session.configs[] | [.samples[] | .order]]')" "[[0,0],[1,1]]" \
	"plain ran first in both blocks"
is "$(printf '%s' "$out" | jq -c '[.session.configs[1].samples[] | .failed]')" "[false,false]" \
	"neither slow run was called hung ($(printf '%s' "$out" | jq -r '[.session.configs[1].samples[] | .fail_reason // empty] | join("; ")'))"
walls=$(printf '%s' "$out" | jq -r '[.session.configs[1].samples[] | .wall_ns / 1e9 | floor] | map(tostring) | join(" ")')
is "$walls" "10 20" "they took 10 and 20 s"
# A hung one is still called hung: on /bin/true (a few ms) its first run is killed
# after 300 x the plain median + 10 s; the plain run here is the only one, so the limit
# is known from its wall time (at load it can pass 33 ms, and the limit 20 s).
export PCOST_FAKE_SLEEP=97.5$$
run_pc run --no-store --runs 1 --warmup 0 -m "$F/hang-wrap" --format json -- /bin/true
why=$(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].fail_reason')
limit=$(printf '%s' "$out" | jq -r '300 * .session.configs[0].samples[0].wall_ns / 1e9 + 10')
killed=$(printf '%s' "$why" | sed -n 's/^hung: killed after \([0-9.]*\) s (300 x the median of the plain runs.*/\1/p')
# The reason gives the limit to 0.1 s; the limit is 10 s or more: within 0.6%.
assert "a hung wrapper on /bin/true is killed after 300 x its plain run + 10 s ($killed s; $limit s)" \
	'[ -n "$killed" ] && ratio_in "$killed" "$limit" 0.994 1.006' || diag "fail_reason: $why"
# A first run that passes that limit while it keeps a CPU busy is slow, not hung: the
# limit is given again while the run's processes use the CPU (here a wrapper that
# spins 22 s before it runs `sleep 0.01`, whose limit is about 13 s).  Before, it was
# killed as hung at the limit.
PCOST_BUSY_S=22 PCOST_FAKE_TAG=$$ run_pc run --no-store --runs 1 --warmup 0 --seed 1 -m "$F/busy-wrap" --format json -- sleep 0.01
limit=$(printf '%s' "$out" | jq -r '300 * .session.configs[0].samples[0].wall_ns / 1e9 + 10')
is "$(printf '%s' "$out" | jq -c '[.session.configs[1].samples[] | .failed]')" "[false]" \
	"a busy first run past the limit was not called hung (limit $limit s; $(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].fail_reason | if . == null or . == "" then "no failure" else . end'))"
took=$(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].wall_ns / 1e9')
assert "it ran past the limit, to its end ($took s; the limit $limit s)" \
	'awk -v t="$took" -v l="$limit" "BEGIN { exit !(t > l && t >= 22) }"'
pgrep -f "busy-wrap$$" >/dev/null; is "$?" 1 "nothing of the busy wrapper is left"
# One that uses the CPU past the limit (15 s) and then hangs idle is killed as hung at
# a later deadline, k x the limit: it was given the limit again k - 1 times (at least
# once), and the last time only because the stretch before it held CPU use, so that
# stretch began before the 15 s ended ((k - 2) x the limit < 15 s).
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
