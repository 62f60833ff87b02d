#!/bin/bash
# A hanging monitor is killed by --timeout; an attach monitor never ready times out; nothing is left behind.
P="${PROBECOST:-./probecost}"
F=tests/cli/fake
echo "1..5"
t0=$(date +%s)
out=$("$P" run --no-store --runs 2 --warmup 0 --timeout 1 -m "$F/hang-wrap" -- /bin/true 2>/dev/null); rc=$?
t1=$(date +%s)
[ "$rc" = 0 ] && printf '%s\n' "$out" | grep -q "hang-wrap.*failed: timeout after 1 s" \
	&& echo "ok 1 - the hung run was killed and reported" || echo "not ok 1 - exit $rc: $out"
[ $((t1 - t0)) -lt 15 ] && echo "ok 2 - in $((t1 - t0)) s" || echo "not ok 2 - took $((t1 - t0)) s"
pgrep -f "sleep 97.31" >/dev/null && echo "not ok 3 - the hung monitor's process survived" \
	|| echo "ok 3 - its process group is gone"
out=$("$P" run --no-store --runs 2 --warmup 0 --attach "$F/attach-never" --ready '^never$' \
	--ready-timeout 0.5 -- /bin/true 2>/dev/null); rc=$?
printf '%s\n' "$out" | grep -q "failed: monitor not ready after 0.5 s" \
	&& echo "ok 4 - an attach monitor never ready times out cleanly" || echo "not ok 4 - exit $rc: $out"
pgrep -f "sleep 97.32" >/dev/null && echo "not ok 5 - the attach monitor survived" \
	|| echo "ok 5 - the attach monitor was killed"
