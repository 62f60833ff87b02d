#!/bin/bash
# parallel-safe
# long: 31 s (43 at load 38) of waiting on a slow, a busy and a busy-then-hung wrapper, side by side
# no-sanitizer: wall-clock limits against wrappers that sleep or spin for 10-22 s
# A slow monitor is not a hung one.  Without --timeout a monitored run was called hung
# after 10 x the plain run's median + 10 s, however slow the monitor is by nature
# (strace on syscall:loops=200000 takes 4 s alone, 100 x plain, and was killed at
# 10.4 s on a busy machine).  Now its first run may take 300 x the plain median + 10 s,
# and later ones 10 x its own median (its warm-up and runs so far) + 10 s; while the
# first run keeps using the CPU its limit is given again, but not for ever.  Plain is
# `sleep 0.01` here, whose first-run limit is about 13 s.  A hung one (idle) is still
# called hung at that limit: t263, on /bin/true.
# The three sessions mostly wait on these limits: they run side by side (lib.bash's side),
# and each is checked in turn once it is over.
. tests/cli/lib.bash
plan 8
have jq || skip_rest "jq not installed"
tmpdir
export PCOST_FAKE_SLEEP=97.6$$
# Slow: a wrapper (fake/delay-wrap) that takes 10.6 s, then 20 s: neither is hung.
# --seed 1 runs plain first in each block (checked), so its median is known.
side slow env PCOST_DELAY_STATE="$T/state" PCOST_DELAYS="10.6 20" "$PROBECOST" run --no-store \
	--runs 2 --warmup 0 --seed 1 -m "$PWD/$F/delay-wrap {}" --format json -- sleep 0.01
# Busy: a wrapper that runs 22 s before it runs `sleep 0.01`, busy for 3 CPU s of them (or
# all 22 s when it gets less than that): the deadline wants a tenth of a CPU over the
# stretch, 1.3 s of CPU by the limit of about 13 s.
side busy env PCOST_BUSY_S=22 PCOST_BUSY_CPU_S=3 PCOST_FAKE_TAG=$$ "$PROBECOST" run --no-store \
	--runs 1 --warmup 0 --seed 1 -m "$F/busy-wrap" --format json -- sleep 0.01
# Busy, then hung: a wrapper that runs 15 s, busy as the one above, then sleeps
# (fake/hang-wrap).
side busyhung env PCOST_BUSY_S=15 PCOST_BUSY_CPU_S=3 "$PROBECOST" run --no-store --runs 1 --warmup 0 \
	-m "$PWD/$F/busy-wrap $PWD/$F/hang-wrap" --format json -- sleep 0.01

side_wait slow
is "$(printf '%s' "$out" | jq -c '[.session.configs[] | [.samples[] | .order]]')" "[[0,0],[1,1]]" \
	"plain ran first in both blocks"
is "$(printf '%s' "$out" | jq -c '[.session.configs[1].samples[] | .failed]')" "[false,false]" \
	"neither slow run was called hung ($(printf '%s' "$out" | jq -r '[.session.configs[1].samples[] | .fail_reason // empty] | join("; ")'))"
walls=$(printf '%s' "$out" | jq -r '[.session.configs[1].samples[] | .wall_ns / 1e9 | floor] | map(tostring) | join(" ")')
is "$walls" "10 20" "they took 10 and 20 s"

# A first run that passes its limit while it keeps a CPU busy is slow, not hung: the
# limit is given again while the run's processes use the CPU.  Before, it was killed as
# hung at the limit.
side_wait busy
limit=$(printf '%s' "$out" | jq -r '300 * .session.configs[0].samples[0].wall_ns / 1e9 + 10')
is "$(printf '%s' "$out" | jq -c '[.session.configs[1].samples[] | .failed]')" "[false]" \
	"a busy first run past the limit was not called hung (limit $limit s; $(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].fail_reason | if . == null or . == "" then "no failure" else . end'))"
took=$(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].wall_ns / 1e9')
assert "it ran past the limit, to its end ($took s; the limit $limit s)" \
	'awk -v t="$took" -v l="$limit" "BEGIN { exit !(t > l && t >= 22) }"'
pgrep -f "busy-wrap$$" >/dev/null; is "$?" 1 "nothing of the busy wrapper is left"

# Not for ever: one that uses the CPU past the limit (15 s) and then hangs idle is killed
# as hung at a later deadline, k x the limit: it was given the limit again k - 1 times (at
# least once), and the last time only because the stretch before it held CPU use, so that
# stretch began before the 15 s ended ((k - 2) x the limit < 15 s).
side_wait busyhung
why=$(printf '%s' "$out" | jq -r '.session.configs[1].samples[0].fail_reason')
limit=$(printf '%s' "$out" | jq -r '300 * .session.configs[0].samples[0].wall_ns / 1e9 + 10')
read -r killed again < <(printf '%s' "$why" | sed -n 's/^hung: killed after \([0-9.]*\) s (300 x the median of the plain runs, on its first run + 10 s, given again \([0-9]*\) times\{0,1\} while it used the CPU; --timeout sets the limit)$/\1 \2/p')
assert "busy past the limit, then idle: killed as hung at $((${again:-0} + 1)) x the limit ($killed s; the limit $limit s)" \
	'[ -n "$killed" ] && [ "$again" -ge 1 ] && ratio_in "$killed" "$(awk -v l="$limit" -v k="$again" "BEGIN { print (k + 1) * l }")" 0.994 1.006 &&
	awk -v l="$limit" -v k="$again" "BEGIN { exit !((k - 1) * l < 15) }"' || diag "fail_reason: $why"
pgrep -f "sleep 97.6$$" >/dev/null; is "$?" 1 "the hung wrapper's process group is gone"
done_testing
