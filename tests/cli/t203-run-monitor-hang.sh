#!/bin/bash
# A hanging monitor is killed by --timeout; an attach monitor never ready times out; nothing is left behind.
. "$(dirname "$0")/lib.bash"
plan 5
t0=$(date +%s)
run_pc run --no-store --runs 2 --warmup 0 --timeout 1 -m "$F/hang-wrap" -- /bin/true
t1=$(date +%s)
assert "the hung run was killed and reported" '[ "$rc" = 0 ] && [[ "$out" =~ hang-wrap.*failed:\ timeout\ after\ 1\ s ]]'
assert "in $((t1 - t0)) s (< 15)" '[ $((t1 - t0)) -lt 15 ]'
assert "its process group is gone" '! pgrep -f "sleep 97.31" >/dev/null'
run_pc run --no-store --runs 2 --warmup 0 --attach "$F/attach-never" --ready '^never$' --ready-timeout 0.5 -- /bin/true
like "$out" "failed: monitor not ready after 0.5 s" "an attach monitor never ready times out cleanly"
assert "the attach monitor was killed" '! pgrep -f "sleep 97.32" >/dev/null'
done_testing
