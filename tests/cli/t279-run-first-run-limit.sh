#!/bin/bash
# parallel-safe
# long: a wrapper busy for 22 s
# no-sanitizer: a 22 s busy run against a wall-clock limit
# A monitored run's first run is called hung after 300 x the plain median + 10 s (no
# --timeout), unless it keeps a CPU busy (t277: a slow one is not hung; t269: busy, then
# hung).  A hung one (idle) is still called hung at that limit: t263, on /bin/true.
. tests/cli/lib.bash
plan 3
have jq || skip_rest "jq not installed"
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
done_testing
