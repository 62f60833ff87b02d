#!/bin/bash
# parallel-safe
# run --placement same,split: the monitor starts on the workload's CPU or on another,
# the workload moves itself to --cpu; rows carry placement; bad input exits 2.
. tests/cli/lib.bash
plan 11
command -v jq >/dev/null || { for i in $(seq 11); do skip "jq not installed"; done; done_testing; }
ncpu=$(nproc)
T=$(mktemp -d); on_exit 'rm -rf "$T"'
# The wrapper by a path relative to the checkout's root: the text's monitor column
# (48 characters) holds it, wherever the checkout is.
WRAP=$F/cpu-wrap

if [ "$ncpu" -ge 2 ]; then
	export PCOST_CPU_WRAP_OUT=$T/cpus
	run_pc run --no-store --format json -w syscall:loops=1000 --placement same,split --cpu 0 \
		--runs 2 --warmup 0 -m "$WRAP"
	unset PCOST_CPU_WRAP_OUT
	is "$rc" 0 "run --placement same,split exits 0"
	is "$(printf '%s' "$out" | jq -c '[.statistics[] | [.placement, .baseline]]')" \
		'[[null,null],["same",0],["split",0]]' "the baseline once, unplaced; the monitor same and split"
	is "$(sort -u "$T/cpus" | tr '\n' ' ')" "0 0 1 0 " \
		"the wrapper ran on CPU 0 (same) and CPU 1 (split); the workload was sent to CPU 0"
	is "$(printf '%s' "$out" | jq -r '.session.options | "\(.placement) \(.split_cpu) \(.cpu)"')" \
		"same,split 1 0" "the options record the placement and the CPUs"
	# The workload moves itself where it is told, whatever it inherited.
	PROBECOST_WORKLOAD_CPUS=1 timeout -s KILL 30 taskset -c 0 "$PROBECOST" workload syscall \
		loops=300000000 >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 50); do
		wl=$(pgrep -P $pid | head -1)
		cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/${wl:-0}/status" 2>/dev/null)
		[ "$cpus" = 1 ] && break; sleep 0.1
	done
	pkill -KILL -P $pid 2>/dev/null; wait $pid 2>/dev/null
	is "$cpus" 1 "a workload given PROBECOST_WORKLOAD_CPUS=1 under taskset -c 0 runs on CPU 1"
	run_pc run --no-store --format csv -w syscall:loops=500 --placement split --cpu 1 --runs 1 \
		--warmup 0 -m "$WRAP"
	col=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^placement$' | cut -d: -f1)
	is "$(printf '%s\n' "$out" | cut -d, -f"${col:-99}" | tail -n +2 | tr '\n' ' ')" ' split ' \
		"CSV: placement empty for the baseline, split for the monitor"
	run_pc run --no-store -w syscall:loops=500 --placement split --cpu 0 --runs 1 --warmup 0 \
		-m "$WRAP"
	like "$out" "cpu-wrap, split" "text: the placement beside the monitor"
else
	for i in $(seq 7); do skip "one CPU ($ncpu): nothing to split onto"; done
fi
run_pc run --no-store -w syscall --placement beside
like "$rc $err" "^2 .*--placement 'beside': expected same, split or same,split" "bad --placement: exit 2"
run_pc run --no-store --placement same -- /bin/true
like "$rc $err" "^2 .*--threads and --placement need built-in workloads" "--placement with a command: exit 2"
PROBECOST_WORKLOAD_CPUS=x "$PROBECOST" workload syscall loops=10 >/dev/null 2>"$T/e"; rc=$?
like "$rc $(cat "$T/e")" "^2 .*PROBECOST_WORKLOAD_CPUS='x'" "a bad PROBECOST_WORKLOAD_CPUS: exit 2"
# split with every CPU taken by --cpu: nothing to split onto.
all=$(taskset -pc $$ | sed 's/.*: //')
run_pc run --no-store -w syscall --placement split --cpu "$all"
like "$rc $err" "^2 .*--placement split needs a CPU besides --cpu" "split with no CPU left: exit 2"
done_testing
