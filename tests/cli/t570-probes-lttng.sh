#!/bin/bash
# parallel-safe: LTTng-UST only (no uprobe, no tracefs), its session daemon, /run and /dev/shm
#   in a mount namespace of its own; of the homes in /tmp it counts only those of dead owners
#   made after it began; it times nothing; 8 s, mostly waiting on the daemon
# long: three session daemons started and stopped (8 s, 26 s at load 30)
# probes --via lttng: the LTTng-UST builds hit as often as the SDT ones, every
# event is in the trace, and the private session daemon, its traces and
# /var/run/lttng are gone afterwards: at the end, after SIGINT, and after a
# SIGKILL once the next run has swept.
# Its own lttng world: a private mount namespace with fresh /run (the root session daemon's
# /var/run/lttng, probecost's journal) and /dev/shm (lttng-ust's wait page), and its own
# LTTNG_HOME, so a session daemon someone else runs (or a killed probecost leaked) is
# invisible to it and never a reason to skip.
if [ "$(id -u)" = 0 ] && [ -z "${PCOST_T570_NS:-}" ] && command -v unshare >/dev/null; then
	# shellcheck disable=SC2016 # $0 and $@ are the inner bash's
	PCOST_T570_NS=1 exec unshare --mount --propagation private bash -c \
		'mount -t tmpfs tmpfs /run && mount -t tmpfs tmpfs /dev/shm && exec bash "$0" "$@"' "$0" "$@"
fi
. tests/cli/lib.bash
P=$PROBECOST
plan 10
tmpdir
export LTTNG_HOME=$T/lttng-home
mkdir -p "$LTTNG_HOME"
daemon_alive() { [ -r /var/run/lttng/lttng-sessiond.pid ] && kill -0 "$(cat /var/run/lttng/lttng-sessiond.pid)" 2>/dev/null; }
if [ "$(id -u)" != 0 ] || [ -z "${PCOST_T570_NS:-}" ] || ! command -v lttng-sessiond >/dev/null ||
	! command -v babeltrace2 >/dev/null || ! pkg-config --exists lttng-ust || ! command -v jq >/dev/null; then
	skip_rest "needs root, unshare (util-linux), lttng-tools, babeltrace2, liblttng-ust-dev and jq"
fi
is "$(daemon_alive && echo running)" "" "no session daemon in the test's own namespace, whatever runs outside"
# What a probecost that is gone left (other probecosts may be using lttng meanwhile:
# only a dead owner's daemon and homes count, and /var/run/lttng with no daemon).
dead() { ! kill -0 "$1" 2>/dev/null; }
leftovers() {
	local h o d
	for h in /tmp/probecost-lttng-*; do
		[ -e "$h" ] || continue
		# another probecost's, outside this namespace, left before the test began
		printf '%s\n' "$homes_before" | grep -qxF "$h" && continue
		o=${h#/tmp/probecost-lttng-}; o=${o%%-*}
		dead "$o" && echo "$h"
	done
	if daemon_alive; then
		d=$(cat /var/run/lttng/lttng-sessiond.pid)
		# (the daemon may be gone by now: the redirection's own error is hushed too)
		o=$({ tr '\0' '\n' </proc/"$d"/environ; } 2>/dev/null | sed -n 's|^LTTNG_HOME=/tmp/probecost-lttng-\([0-9]*\)-.*|\1|p')
		[ -n "$o" ] && dead "$o" && echo "daemon $d of dead $o"
	elif [ -z "$rundir_before" ] && [ -e /var/run/lttng ]; then
		echo /var/run/lttng
	fi
}
rundir_before=$(ls -d /var/run/lttng 2>/dev/null)
homes_before=$(ls -d /tmp/probecost-lttng-* 2>/dev/null)
report_of stanford variant=plain kernel=towers scale=2
plain=$(field hits_towers "$report")
report_of stanford variant=lttng kernel=towers scale=2
is "$(field hits_towers "$report")" "$plain" "the lttng build of towers hits its sites as often as plain"
run_pc probes --via lttng --variants none,lttng --kernel towers --scale 3 -r 2 --warmup 0 --cpu 0 \
	--no-store --format json
is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "lttng") | .hits_counted, .hits_lost]')" \
	"[49149,0]" "stanford: every one of 3 x 16383 events is in the trace"
is "$(printf '%s' "$out" | jq -r '[.statistics[] | select(.method == "lttng") | .per_hit_ns != null, .optimized] | map(tostring) | join(",")')" \
	"true,null" "a per-event cost, and no uprobe optimization to speak of"
run_pc probes --via lttng --workload uprobe --variants lttng --threads 2 --scale 1 -r 1 --warmup 0 \
	--no-store --format json
is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "lttng") | .hits_counted]')" "[200000]" \
	"uprobe workload, 2 threads: 200000 events in the trace"
is "$(leftovers)" "" "nothing left: no daemon, no /var/run/lttng, no temporary home"
"$P" probes --via lttng --variants lttng --scale 2 --runs 50 --warmup 0 --cpu 0 --no-store >/dev/null 2>&1 &
pid=$!
# (up to 30 s: at load 20-40 the daemon took over 10 s to start)
for i in $(seq 300); do daemon_alive && break; sleep 0.1; done
ok "$(daemon_alive; echo $?)" "a session daemon runs during the session"
sleep 1
kill -INT $pid; wait $pid; rc=$?
is "$(leftovers)" "" "SIGINT (exit $rc): nothing left"
"$P" probes --via lttng --variants lttng --scale 2 --runs 50 --warmup 0 --cpu 0 --no-store >/dev/null 2>&1 &
pid=$!
# Killed once its daemon runs (its home is made before): what it leaves is then certain.
# The journal that would let another probecost sweep them is in this namespace's /run.
for i in $(seq 300); do daemon_alive && break; sleep 0.1; done
up=$(daemon_alive && echo up)
kill -KILL $pid; wait $pid 2>/dev/null
left=$(leftovers)
is "$up $(grep -c '^/tmp/probecost-lttng-' <<< "$left")" "up 1" "SIGKILL with its daemon up leaves its home behind (as it must): ${left//$'\n'/ }"
"$P" probes --via dormant --variants none --kernel towers --scale 1 -r 1 --warmup 0 --no-store >/dev/null 2>&1
sleep 0.5
is "$(leftovers)" "" "the next run removed them (and any daemon left)"
done_testing
