#!/bin/bash
# bpftrace-syscalls on a --service, ready and stopped: a silent service's count is 0 and a
# stop signal lost right after bpftrace's BEGIN is sent again (20 runs), and on -w server
# every run is measured with the service's syscalls seen.  --attach and --ready with
# other tools: t233.
. "$(dirname "$0")/lib.bash"
plan 2
have jq || skip_rest "jq is not installed (apt-get install jq)"
ok_runs() { jq -r '[.statistics[1].ok, .statistics[1].failed] | join(" ")' <<< "$out"; }
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
