#!/bin/bash
# parallel-safe: a redis of its own on a free port and a state directory of its own (the
#   journals it plants and sweeps); strace and perf record -p trace that redis only; the one
#   timing it compares is strace's GET rate below -30% (about -85% here), far beyond what
#   load on the other tests moves; 12 s, mostly waiting
# run --service-pid: a redis-server this test starts, outside probecost, measured under
# strace and perf-record (they attach to it for their runs and detach after); it serves
# after the study, untraced and not stopped, and after a SIGKILL of probecost while
# strace traces it; a tracer a killed probecost left (its group in that probecost's
# journal) is swept by the next run, a tracer that is not probecost's is refused and left
# alone; {pid} is the service's pid; bad values exit 2 with one line.
. "$(dirname "$0")/lib.bash"
plan 22
have jq || skip_rest "jq is not installed (apt-get install jq)"
have redis-server || skip_rest "redis-server is not installed (apt-get install redis-server)"
have redis-benchmark || skip_rest "redis-benchmark is not installed (apt-get install redis-tools)"
have redis-cli || skip_rest "redis-cli is not installed (apt-get install redis-tools)"
have strace || skip_rest "strace is not installed (apt-get install strace)"
is_root || skip_rest "needs root (strace -p and perf record -p on a process of another session)"
tmpdir
mkdir -m 700 "$T/state"
export PROBECOST_STATE_DIR=$T/state

# The service, started here as its own administrator would: a free loopback port.
for _ in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 40000))
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$T" \
		--daemonize no > "$T/redis.log" 2>&1 &
	rp=$!
	for _ in $(seq 100); do
		[ "$(redis-cli -p "$port" ping 2> /dev/null)" = PONG ] && break
		kill -0 "$rp" 2> /dev/null || break
		sleep 0.05
	done
	kill -0 "$rp" 2> /dev/null && break
done
on_exit 'kill "$rp" 2> /dev/null'
serves() { [ "$(redis-cli -p "$port" ping 2> /dev/null)" = PONG ]; }
tracer() { awk '$1 == "TracerPid:" { print $2 }' "/proc/$rp/status"; }
state() { awk '$1 == "State:" { print $2 }' "/proc/$rp/status"; }
# running PID: it exists and is not a zombie (an orphan's parent may not reap it at once).
running() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2> /dev/null; }
# untraced_within SECONDS: its TracerPid is 0 within that time (a killed tracer lets go).
untraced_within() {
	for _ in $(seq $(($1 * 20))); do
		[ "$(tracer)" = 0 ] && return 0
		sleep 0.05
	done
	return 1
}
LOAD=(--metric redis-benchmark -- redis-benchmark -p "$port" -n 2000 -c 2 -t get -q)

# ---- measured: strace and perf-record attach to it, it serves after ----------------
monitors=(-m strace) names=strace
have perf && monitors+=(-m perf-record) names+=" perf-record"
run_pc run --no-store --runs 3 --warmup 1 --seed 4 --cpu 0 --format json --service-pid "$rp" \
	"${monitors[@]}" "${LOAD[@]}"
is "$rc" 0 "exit 0 ($(tail -1 <<< "$err"))"
j() { jq -r "$1" <<< "$out"; }
is "$(j '[.statistics[].monitor] | join(" ")')" "none $names" \
	"the plain runs and each monitor's"
assert "strace -f -p on the running redis: GET rate down by over 30% ($(j '.statistics[1].metrics[0].change'))" \
	'ratio_in "$(j ".statistics[1].metrics[0].change")" -1 0.3 1'
assert "its CPU time was measured ($(j '.statistics[0].service_cpu_ns.mean') ns a run)" \
	'[ "$(j ".statistics[0].service_cpu_ns.mean > 0")" = true ]'
is "$(j '.options.service_pid')" "$rp" "the session records the pid"
ok "$(serves; echo $?)" "redis still serves after the study"
is "$(tracer) $(state)" "0 S" "not traced, not stopped (sleeping)"

# ---- {pid} is its pid ----------------------------------------------------------------
run_pc run --no-store --runs 1 --warmup 0 --seed 4 --service-pid "$rp" \
	--attach "bash -c 'echo \$0 >> $T/pid; exec sleep 60' {pid}" "${LOAD[@]}"
is "$rc $(sort -u "$T/pid" 2> /dev/null)" "0 $rp" "an --attach command's {pid} is the service's pid"

# ---- probecost SIGKILLed while strace traces it --------------------------------------
"$PROBECOST" run --no-store --runs 50 --warmup 0 --seed 4 --service-pid "$rp" -m strace \
	"${LOAD[@]}" > /dev/null 2>&1 &
pc=$!
for _ in $(seq 400); do
	[ "$(tracer)" != 0 ] && break
	sleep 0.05
done
traced=$(tracer)
{ kill -KILL "$pc" && wait "$pc"; } 2> /dev/null # no "Killed" line
assert "the study was tracing redis when it was killed (TracerPid $traced)" '[ "$traced" != 0 ]'
ok "$(untraced_within 3; echo $?)" "within 3 s of the SIGKILL redis is no longer traced"
state=$(state)
assert "not stopped ($state)" '[ "$state" != T ] && [ "$state" != t ]'
ok "$(serves; echo $?)" "redis serves after probecost's SIGKILL"
ok "$(kill -0 "$rp"; echo $?)" "the same process runs (never restarted)"

# ---- a tracer a killed probecost left: the next run sweeps it ------------------------
# A strace in a group of its own, and a journal of a probecost that is dead that holds
# the group (PR_SET_PDEATHSIG makes this rare; the journal covers what it misses).
(setsid strace -f -qq -o /dev/null -p "$rp" > /dev/null 2>&1 &) # not a job: no "Killed"
for _ in $(seq 200); do
	[ "$(tracer)" != 0 ] && break
	sleep 0.05
done
left=$(tracer)
dead=$(sh -c 'echo $$')
boot=$(awk '{ printf "%.0f", $1 * 1e9 + 1e9 }' /proc/uptime) # CLOCK_BOOTTIME, ns
printf 'owner %s 1 ?\n+pgid %s %s\n' "$dead" "$(ps -o pgid= "$left" | tr -d ' ')" "$boot" \
	> "$T/state/$dead-1.journal"
run_pc run --no-store --runs 1 --warmup 0 --seed 4 --service-pid "$rp" -m strace "${LOAD[@]}"
is "$rc" 0 "a run after it measures ($(tail -1 <<< "$err"))"
like "$err" "undid 1 change" "it says it undid what the killed one left"
is "$(running "$left" && echo alive) $(tracer)" " 0" \
	"the left tracer is gone, redis untraced"

# ---- a tracer that is not probecost's: refused, left alone ----------------------------
strace -qq -o /dev/null -p "$rp" > /dev/null 2>&1 &
st=$!
on_exit 'kill "$st" 2> /dev/null'
for _ in $(seq 200); do
	[ "$(tracer)" != 0 ] && break
	sleep 0.05
done
run_pc run --no-store --runs 1 --warmup 0 --service-pid "$rp" -m strace "${LOAD[@]}"
like "$rc $err" "^1 .*--service-pid $rp: its process $rp is traced by pid $st \(strace\), which is not this probecost's" \
	"a service traced by another tracer is refused, naming it"
ok "$(kill -0 "$st"; echo $?)" "that tracer is left alone"
kill "$st"
wait "$st" 2> /dev/null
untraced_within 3

# ---- bad values ----------------------------------------------------------------------
# bad WANT DESCRIPTION ARGS...: exit 2, one line on stderr that holds WANT.
bad() {
	local want=$1 d=$2
	shift 2
	run_pc run --no-store "$@" "${LOAD[@]}"
	is "$rc $(grep -c . <<< "$err") $([[ $err == *"$want"* ]] && echo says)" "2 1 says" \
		"$d: exit 2, one line ($err)"
}
bad "--service-pid '0': expected the pid of a running service" "a pid of 0" --service-pid 0
dead=$(sh -c 'echo $$')
bad "--service-pid $dead: no such process is running" "a pid that is gone" --service-pid "$dead"
bad "probecost never restarts one it did not start" "--service-per-block" \
	--service-pid "$rp" --service-per-block
if [ -d /run/systemd/system ]; then
	skip "systemd runs here: unit:NAME is looked up (the error is for a machine without it)"
else
	bad "systemd is not running on this machine" "unit:NAME without systemd" \
		--service-pid unit:redis-server.service
fi
done_testing
