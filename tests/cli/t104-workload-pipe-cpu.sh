#!/bin/bash
# parallel-safe
# pipe cpu=same: both tasks of the ping-pong on the one CPU the workload started on (what
# calibrate prices a counter's work at a switch on); cpu=any leaves them where they were.
. "$(dirname "$0")/lib.bash"
plan 3
[ "$(nproc)" -ge 2 ] || skip_rest "one CPU online: every task runs on it anyway"
have pgrep || skip_rest "no pgrep (Debian package procps)"
# masks CPU_ARG: the allowed CPUs of a long ping-pong and of its partner, "parent child".
masks() {
	local pid child i
	"$PROBECOST" workload pipe loops=1000000000 "cpu=$1" >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 50); do
		child=$(pgrep -P "$pid" | head -1)
		[ -n "$child" ] && break
		sleep 0.1
	done
	echo "$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/status")" \
		"$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$child/status" 2>/dev/null)"
	kill "$pid" "$child" 2>/dev/null
	wait "$pid" 2>/dev/null
}
read -r p c <<< "$(masks same)"
assert "cpu=same: the workload on one CPU ($p)" '[[ "$p" =~ ^[0-9]+$ ]]'
is "$c" "$p" "cpu=same: its partner on the same one"
all=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
is "$(masks any)" "$all $all" "cpu=any: both keep this shell's CPUs ($all)"
done_testing
