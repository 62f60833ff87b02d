#!/bin/bash
# parallel-safe
# long: a monitor that works 3 s, another 10 s
# no-sanitizer: limits in seconds against a monitor that burns CPU for 3 s and 30 s
# An attach monitor that is still working (using CPU) when --ready-timeout runs out is
# given more time, up to 10 x --ready-timeout; one that is neither ready nor working is
# stopped at --ready-timeout.  bpftrace compiling its program on a loaded machine took
# more than the default 10 s in 2 of 5 default studies ("monitor not ready after 10 s").
. tests/cli/lib.bash
plan 3
export PCOST_FAKE_SLEEP=97.6$$
start=$(date +%s)
run_pc run --no-store --runs 1 --warmup 0 --format json --attach "$PWD/$F/attach-busy-ready 3" \
	--ready '^busy-monitor ready' --ready-timeout 1 -- /bin/true
secs=$(($(date +%s) - start))
is "$rc $(printf '%s' "$out" | jq -c '[.statistics[] | select(.monitor | startswith("attach:")) | .ok, .failed]')" \
	"0 [1,0]" "working 3 s with --ready-timeout 1: ready, its run measured ($secs s)"
run_pc run --no-store --runs 1 --warmup 0 --attach "$PWD/$F/attach-never" --ready '^never$' --ready-timeout 1 -- /bin/true
like "$out" "failed: monitor not ready after 1 s" "sleeping instead: stopped at --ready-timeout"
start=$(date +%s)
run_pc run --no-store --runs 1 --warmup 0 --attach "$PWD/$F/attach-busy-ready 30" --ready '^busy-monitor ready' \
	--ready-timeout 1 -- /bin/true
secs=$(($(date +%s) - start))
# Given its 10 x --ready-timeout (not stopped at 1 s, nor waited for until its 30 s), then failed.
assert "working for ever: stopped after 10 x --ready-timeout ($secs s), its run failed not ready" \
	'[ "$secs" -ge 9 ] && [ "$secs" -lt 20 ] && printf "%s" "$out" | grep -q "failed: monitor not ready"'
done_testing
