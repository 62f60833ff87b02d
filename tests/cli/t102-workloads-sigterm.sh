#!/bin/bash
# parallel-safe
# t102: a user's kill(1) or timeout(1) ends a workload at once, by the signal, and no
# process of its own (pipe partner, messaging workers, the server's service) outlives it.
. "$(dirname "$0")/lib.bash"
plan 20

# gone_within SECONDS PGID: every process of the group is gone (zombies count as gone).
gone_within() {
	local i p left
	for i in $(seq $(($1 * 20))); do
		left=
		for p in $(pgrep -g "$2"); do
			grep -q '^State:.*Z' /proc/"$p"/status 2>/dev/null || left="$left $p"
		done
		[ -z "$left" ] && return 0
		sleep 0.05
	done
	ps -o pid,pgid,ppid,stat,comm -g "$2" | sed 's/^/# /'
	return 1
}
# stops SIGNAL WORKLOAD ARGS...: start the workload in a group of its own, signal it after
# 0.5 s, and check it died of that signal within 3 s, leaving nothing of its group.
# SIGKILL cannot be caught: the messaging workers die with their parent (PDEATHSIG).
stops() {
	local sig=$1 pid rc t0 t1 kids
	shift
	setsid "$PROBECOST" workload "$@" >/dev/null 2>&1 &
	pid=$!
	sleep 0.5
	kids=$(pgrep -g "$pid" | grep -vcx "$pid")
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	for i in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	t1=$(date +%s%N)
	kill -0 "$pid" 2>/dev/null && { kill -KILL "$pid"; diag "still running 3 s after SIG$sig"; }
	wait "$pid"
	rc=$?
	is "$rc" $((128 + $(kill -l "$sig"))) "workload $* ends by SIG$sig ($(((t1 - t0) / 1000000)) ms)"
	gone_within 3 "$pid"
	ok $? "workload $*: none of its $kids other processes outlives it"
	pkill -KILL -g "$pid" 2>/dev/null
}
stops TERM pipe loops=100000000
stops TERM messaging groups=2 loops=1000000
stops INT messaging groups=2 loops=1000000 ipc=pipe
stops HUP pipe loops=100000000 mode=thread
stops TERM messaging groups=2 loops=1000000 mode=thread
stops TERM spawn kind=vfork-exec loops=100000000
stops KILL messaging groups=2 loops=1000000
stops TERM server requests=1000000000 conns=2
stops INT server requests=1000000000 conns=8 size=100000
stops KILL server requests=1000000000 conns=2
done_testing
