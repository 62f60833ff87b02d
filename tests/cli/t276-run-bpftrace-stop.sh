#!/bin/bash
# bpftrace 0.17 loses a stop signal that lands outside its epoll_wait(2) (right after
# its ready line, when it is preempted on a loaded machine) and polls on for ever:
# "did not stop after SIGINT; killed".  probecost signals again while it sits in
# epoll_wait, with SIGTERM (the same handler in bpftrace, and unlike SIGINT never put
# back to the default, which would kill it while it prints its map).  With a bpftrace
# that has the 0.17 handling and a wide window (fake/bpftrace-017), every run stops at
# once and its count is read: bpftrace-syscalls (run) and probes --via bpftrace.
. tests/cli/lib.bash
plan 6
if ! is_root || ! have_tracefs || ! have python3 || ! have jq; then
	skip_rest "needs root, tracefs at $TRACEFS (bpftrace-syscalls' prerequisites), python3 and jq"
fi
start=$(date +%s)
PATH=$PWD/tests/cli/fake/bpftrace-017:$PATH run_pc run --no-store --format json -w null -m bpftrace-syscalls \
	--runs 3 --warmup 0
secs=$(($(date +%s) - start))
is "$rc" 0 "run -m bpftrace-syscalls with a bpftrace that loses its first signal measures"
is "$(printf '%s' "$out" | jq -c '[.session.configs[] | select(.monitor == "bpftrace-syscalls") | .samples[] | .failed]')" \
	"[false,false,false]" "no run failed ($(printf '%s\n' "$err" | grep -m1 'failed'))"
is "$(printf '%s' "$out" | jq -r '.statistics[] | select(.monitor == "bpftrace-syscalls") | .monitor_events')" 7 \
	"the count it printed at exit was read"
# Each run: 0.5 s busy, then stopped at once; a lost signal costs the 10 s grace.
ok $((secs < 15 ? 0 : 1)) "three runs took $secs s (< 15; 10 s grace each when the signal is lost)"
start=$(date +%s)
PATH=$PWD/tests/cli/fake/bpftrace-017:$PATH PCOST_FAKE_HITS=16383 run_pc probes --no-store --via bpftrace \
	--variants plain --kernel towers --scale 1 -r 2 --warmup 0
secs=$(($(date +%s) - start))
like "$(printf '%s\n' "$out" | awk '$2 == "bpftrace"')" '16383 / 16383  ok' "probes --via bpftrace: both runs stopped, their counts read (rc $rc)"
ok $((secs < 20 ? 0 : 1)) "the session took $secs s (< 20; each lost signal costs the 10 s grace)"
done_testing
