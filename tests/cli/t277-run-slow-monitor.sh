#!/bin/bash
# parallel-safe
# long: 42 s of waiting on a slow wrapper and a hang limit
# no-sanitizer: 40 s of waiting on wall-clock limits (10.6 s and 20 s runs, a hang limit)
# A slow monitor is not a hung one.  Without --timeout a monitored run was called hung
# after 10 x the plain run's median + 10 s, however slow the monitor is by nature
# (strace on syscall:loops=200000 takes 4 s alone, 100 x plain, and was killed at
# 10.4 s on a busy machine).  Now its first run may take 300 x the plain median + 10 s,
# and later ones 10 x its own median (its warm-up and runs so far) + 10 s.  Here plain
# is `sleep 0.01`, and a wrapper (fake/delay-wrap) takes 10.6 s, then 20 s: neither is
# hung.  --seed 1 runs plain first in each block (checked), so its median is known.
. tests/cli/lib.bash
plan 4
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
done_testing
