#!/bin/bash
# A name in a world-writable directory proves nothing: user nobody plants
# /tmp/probecost-lttng-<dead pid>-x/created-var-run-lttng (the marker an lttng run of
# probecost once left in its home) and root's next probecost, of any kind, must neither
# delete /var/run/lttng nor touch nobody's directory.  It sweeps only what its journal
# (a root-only state directory) records and what root owns.  In a private mount
# namespace with tmpfs on /run and /tmp: the machine's own /run/lttng is never at stake.
. tests/cli/lib.bash
if ! is_root || ! have unshare || ! have setpriv || ! id nobody >/dev/null 2>&1; then
	plan 6
	skip_rest "needs root, unshare(1), setpriv(1) and a user nobody"
fi
private_run_tmp "$@" || { plan 6; skip_rest "cannot mount tmpfs on /run and /tmp"; }
plan 6
mkdir /run/lttng && echo precious >/run/lttng/canary
# A pid nobody runs.
sh -c 'exit 0' & dead=$!; wait $dead
while kill -0 "$dead" 2>/dev/null; do sh -c 'exit 0' & dead=$!; wait $dead; done
home=/tmp/probecost-lttng-$dead-x
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "mkdir '$home' && : >'$home/created-var-run-lttng'"
is "$(stat -c %U "$home/created-var-run-lttng" 2>/dev/null)" nobody "nobody planted $home/created-var-run-lttng"
run_pc probes --via dormant --variants none --kernel towers --scale 1 -r 1 --warmup 0 --no-store
is "$rc" 0 "probes --via dormant measures"
is "$(cat /run/lttng/canary 2>/dev/null)" precious "probes left /var/run/lttng alone (err: ${err%%$'\n'*})"
[ -e "$home/created-var-run-lttng" ]; is "$?" 0 "probes left nobody's directory alone"
printf '%s' "$err" | grep -q 'removed an lttng'; is "$?" 1 "no message claims an lttng daemon was removed"
mkdir -p /run/lttng && echo precious >/run/lttng/canary
run_pc run -w null -r 1 --warmup 0 --no-store
is "$(cat /run/lttng/canary 2>/dev/null)" precious "run left /var/run/lttng alone (rc $rc)"
done_testing
