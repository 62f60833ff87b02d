#!/bin/bash
# --attach CMD --ready RE: a line on the tool's stderr makes it ready too (strace says
# "Process N attached" there), a tool that stops with exit 128+SIGINT on our SIGINT
# (strace) stopped cleanly, and a wait that times out says what it waited for and what
# the tool printed meanwhile (a wait that timed out silently left nothing to go on).
. "$(dirname "$0")/lib.bash"
plan 7
have jq || skip_rest "jq is not installed (apt-get install jq)"
RUN=(run --no-store --runs 2 --warmup 0 --format json --ready-timeout 3)
ok_runs() { jq -r '[.statistics[1].ok, .statistics[1].failed] | join(" ")' <<< "$out"; }
run_pc "${RUN[@]}" --attach "sh -c 'echo set and ready >&2; exec sleep 30'" --ready 'and ready' -- true
is "$rc $(ok_runs)" "0 2 0" "a ready line on stderr: ready, every run measured"
run_pc "${RUN[@]}" --attach "sh -c 'trap \"exit 130\" INT; echo ready; while :; do sleep 0.05; done'" \
	--ready ready -- true
is "$rc $(ok_runs)" "0 2 0" "a tool that exits 130 on SIGINT stopped cleanly"
run_pc "${RUN[@]}" --runs 1 --ready-timeout 1 --attach "sh -c 'echo hello there; exec sleep 30'" \
	--ready 'never said' -- true
why=$(jq -r '.session.configs[1].samples[0].fail_reason' <<< "$out")
like "$why" "^monitor not ready after 1 s: waited for a line of its output \(stdout or stderr\) matching --ready 'never said' from 'sh'; its last line: hello there$" \
	"a timed-out --ready wait says what it waited for and the tool's last line"
run_pc "${RUN[@]}" --runs 1 --ready-timeout 1 --attach "sleep 30" --ready 'x' -- true
why=$(jq -r '.session.configs[1].samples[0].fail_reason' <<< "$out")
like "$why" "matching --ready 'x' from 'sleep'; it printed nothing$" "and says when it printed nothing"
if have strace; then
	run_pc "${RUN[@]}" --service "sh -c 'echo up; exec sleep 60'" --ready up \
		--attach 'strace -f -o /dev/null -p {pid}' --ready 'Process [0-9]+ attached' -- true
	is "$rc $(ok_runs)" "0 2 0" "strace -p {pid} --ready 'attached' (on its stderr), stopped by SIGINT (130)"
else
	skip "strace is not installed (apt-get install strace)"
fi
# bpftrace-syscalls on a service: a tree that makes no syscall is a count of 0 (its
# program says it ended), and a bpftrace that lost the SIGINT sent right after its BEGIN
# (20 runs of nothing: each stop comes at once) gets it again: every run measured.
if is_root && have bpftrace && have_tracefs; then
	run_pc run --no-store --runs 20 --warmup 0 --format json --service 'sleep 300' -w null \
		-m bpftrace-syscalls
	is "$rc $(ok_runs) $(jq -r '.statistics[1].monitor_events' <<< "$out")" "0 20 0 0" \
		"bpftrace-syscalls on a silent service: 20 runs, none failed, 0 syscalls seen"
	P_SVC=$(readlink -f "$P")
	for _ in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 40000))
		run_pc run --no-store --runs 5 --warmup 0 --format json --cpu 0 \
			--service "$P_SVC workload server role=serve port=$port" --ready 'listening on' \
			-w "server:role=load,port=$port,requests=2000" -m bpftrace-syscalls
		[[ $err == *"exited before it was ready"* ]] || break
	done
	assert "on -w server: every run measured, its service's syscalls seen ($(jq -r '.statistics[1].monitor_events' <<< "$out") for 2000 requests)" \
		'[ "$rc $(ok_runs)" = "0 5 0" ] && ratio_in "$(jq -r ".statistics[1].monitor_events" <<< "$out")" 2000 1 100'
else
	skip "needs root, bpftrace and tracefs"
	skip "needs root, bpftrace and tracefs"
fi
done_testing
