#!/bin/bash
# parallel-safe
# long: 31 s of waiting on a slow wrapper (10.6 and 20 s runs)
# no-sanitizer: 31 s of waiting on wall-clock limits (10.6 and 20 s runs)
# A slow monitor is not a hung one.  Without --timeout a monitored run was called hung
# after 10 x the plain run's median + 10 s, however slow the monitor is by nature
# (strace on syscall:loops=200000 takes 4 s alone, 100 x plain, and was killed at
# 10.4 s on a busy machine).  Now its first run may take 300 x the plain median + 10 s,
# and later ones 10 x its own median (its warm-up and runs so far) + 10 s.  Here plain
# is `sleep 0.01`, and a wrapper (fake/delay-wrap) takes 10.6 s, then 20 s: neither is
# hung.  --seed 1 runs plain first in each block (checked), so its median is known.
# The first run's limit on a hung wrapper: t263; on a busy one: t279; one busy, then hung: t269
# (apart, so that their waits run side by side in make check).
. tests/cli/lib.bash
plan 3
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
done_testing
