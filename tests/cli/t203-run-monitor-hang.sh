#!/bin/bash
# parallel-safe
# A hanging monitor is killed by --timeout; an attach monitor never ready times out; nothing is left behind.
. "$(dirname "$0")/lib.bash"
plan 5
# Durations unique to this test run name its processes for pgrep: other trees run this test too.
export PCOST_FAKE_SLEEP=97.1$$
t0=$(date +%s)
run_pc run --no-store --runs 2 --warmup 0 --timeout 1 -m "$F/hang-wrap" -- /bin/true
t1=$(date +%s)
assert "the hung run was killed and reported" '[ "$rc" = 0 ] && [[ "$out" =~ hang-wrap.*failed:\ timeout\ after\ 1\ s ]]'
assert "in $((t1 - t0)) s (< 15)" '[ $((t1 - t0)) -lt 15 ]'
assert "its process group is gone" '! pgrep -f "sleep $PCOST_FAKE_SLEEP" >/dev/null'
export PCOST_FAKE_SLEEP=97.2$$
run_pc run --no-store --runs 2 --warmup 0 --attach "$F/attach-never" --ready '^never$' --ready-timeout 0.5 -- /bin/true
like "$out" "failed: monitor not ready after 0.5 s" "an attach monitor never ready times out cleanly"
assert "the attach monitor was killed" '! pgrep -f "sleep $PCOST_FAKE_SLEEP" >/dev/null'
done_testing
