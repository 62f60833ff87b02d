#!/bin/bash
# parallel-safe
# long: a monitor that works 2 s, another 5 s
# no-sanitizer: limits in seconds against a monitor that burns CPU for 2 s and 5 s
# An attach monitor that is still working (using CPU) when --ready-timeout runs out is
# given more time, up to 10 x --ready-timeout; one that is neither ready nor working is
# stopped at --ready-timeout.  bpftrace compiling its program on a loaded machine took
# more than the default 10 s in 2 of 5 default studies ("monitor not ready after 10 s").
# --ready-timeout 0.5 (the rule is the same at any limit): 10 x that is 5 s of work.
. tests/cli/lib.bash
plan 3
export PCOST_FAKE_SLEEP=97.6$$
start=$EPOCHREALTIME
run_pc run --no-store --runs 1 --warmup 0 --format json --attach "$PWD/$F/attach-busy-ready 2" \
	--ready '^busy-monitor ready' --ready-timeout 0.5 -- /bin/true
secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
is "$rc $(printf '%s' "$out" | jq -c '[.statistics[] | select(.monitor | startswith("attach:")) | .ok, .failed]')" \
	"0 [1,0]" "working 1-2 s with --ready-timeout 0.5: ready, its run measured ($secs s)"
run_pc run --no-store --runs 1 --warmup 0 --attach "$PWD/$F/attach-never" --ready '^never$' --ready-timeout 0.5 -- /bin/true
like "$out" "failed: monitor not ready after 0[.]5 s" "sleeping instead: stopped at --ready-timeout"
start=$EPOCHREALTIME
run_pc run --no-store --runs 1 --warmup 0 --attach "$PWD/$F/attach-busy-ready 30" --ready '^busy-monitor ready' \
	--ready-timeout 0.5 -- /bin/true
secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
# Given its 10 x --ready-timeout (not stopped at 0.5 s, nor waited for until its 30 s), then failed.
assert "working for ever: stopped after 10 x --ready-timeout ($secs s), its run failed not ready" \
	'awk -v s="$secs" "BEGIN { exit !(s >= 4.5 && s < 10) }" && printf "%s" "$out" | grep -q "failed: monitor not ready"'
done_testing
