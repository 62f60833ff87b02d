#!/bin/bash
# A SIGKILLed `probes --via lttng` leaves its session daemon's /var/run/lttng and its
# temporary home behind (nothing can run at a SIGKILL); the next probecost run of any
# kind (here `run -w null`) removes both, from its journal, even while the dead
# daemon is still a zombie.  A /var/run/lttng that was there before an lttng run
# is not the run's to remove.  In a private mount namespace with tmpfs on /run and
# /tmp: the machine's own /run/lttng is never at stake.
. tests/cli/lib.bash
if ! is_root || ! have unshare || ! have lttng-sessiond || ! have babeltrace2 ||
	! pkg-config --exists lttng-ust; then
	plan 8
	skip_rest "needs root, unshare(1), lttng-tools, babeltrace2 and liblttng-ust-dev"
fi
private_run_tmp "$@" || { plan 8; skip_rest "cannot mount tmpfs on /run and /tmp"; }
plan 8
running() { # a process that runs (not a zombie)
	[ -n "$1" ] && [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat")" != Z ]
}
"$P" probes --via lttng --variants lttng --scale 2 --runs 50 --warmup 0 --cpu 0 --no-store >/dev/null 2>&1 &
pid=$!
for i in $(seq 150); do [ -s /run/lttng/lttng-sessiond.pid ] && ls -d /tmp/probecost-lttng-* >/dev/null 2>&1 && break; sleep 0.1; done
daemon=$(cat /run/lttng/lttng-sessiond.pid 2>/dev/null)
sleep 1
kill -KILL $pid; wait $pid 2>/dev/null
sleep 0.2
[ -d /run/lttng ] && ls -d /tmp/probecost-lttng-* >/dev/null 2>&1
is "$?" 0 "after SIGKILL, /var/run/lttng and the temporary home are left (daemon $daemon)"
run_pc run -w null -r 1 --warmup 0 --no-store
is "$rc" 0 "the next run (run -w null) measures"
[ -e /run/lttng ]; is "$?" 1 "it removed /var/run/lttng ($err)"
is "$(ls -d /tmp/probecost-lttng-* 2>/dev/null)" "" "it removed the temporary home"
running "$daemon"; is "$?" 1 "no session daemon runs"
# Someone's /var/run/lttng (no daemon in it) is used, not removed.
mkdir /run/lttng && echo precious >/run/lttng/canary
run_pc probes --via lttng --variants lttng --kernel towers --scale 1 -r 1 --warmup 0 --no-store --format json
is "$rc" 0 "an lttng run with a /var/run/lttng that was there measures (${err%%$'\n'*})"
is "$(cat /run/lttng/canary 2>/dev/null)" precious "and leaves that /var/run/lttng in place"
is "$(ls -d /tmp/probecost-lttng-* 2>/dev/null)" "" "and its temporary home is gone"
done_testing
