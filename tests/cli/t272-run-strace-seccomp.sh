#!/bin/bash
# no-sanitizer: tracing getppid against tracing write, a ratio
# strace-seccomp:trace=SET: strace stops the workload only for SET.  Tracing the
# workload's own syscall costs far more per call than tracing one it never makes;
# the parameter is checked; `list monitors` shows it with its availability.
. tests/cli/lib.bash
# LeakSanitizer stops the world with ptrace at exit, which a workload that strace
# already traces cannot do: it spins.  No leak check where a ptrace tool wraps it.
[ -n "${PROBECOST_SAN:-}" ] && export ASAN_OPTIONS=detect_leaks=0
plan 6
run_pc list monitors
like "$out" "strace-seccomp +wrap +(yes|no)" "list monitors has strace-seccomp"
run_pc run --no-store -w syscall -m strace-seccomp
like "$rc $err" "^2 .*strace-seccomp' needs ':trace=SET'" "no SET: exit 2 with an example"
run_pc run --no-store -w syscall -m 'strace-seccomp:trace=get ppid'
like "$rc $err" "^2 .*strace-seccomp' needs ':trace=SET'" "a SET with a blank: exit 2 (not a custom command)"
ver=$(strace -V 2>/dev/null | sed -n 's/.*version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
if ! command -v jq >/dev/null; then
	for i in 1 2 3; do skip "jq not installed"; done
elif [ -z "$ver" ] || [ "${ver% *}" -lt 5 ] || { [ "${ver% *}" = 5 ] && [ "${ver#* }" -lt 3 ]; }; then
	for i in 1 2 3; do skip "strace 5.3 or later not installed (--seccomp-bpf)"; done
else
	run_pc run --no-store --format json -w syscall:loops=20000 --cpu 0 --runs 3 --warmup 0 \
		-m strace-seccomp:trace=getppid -m strace-seccomp:trace=write
	is "$(printf '%s' "$out" | jq -c '[.statistics[] | [.monitor, .events, .failed]]')" \
		'[["none",20000,0],["strace-seccomp:trace=getppid",20000,0],["strace-seccomp:trace=write",20000,0]]' \
		"both filters ran; every run made 20000 getppid calls"
	# Every call stopped (microseconds) against none stopped (the filter alone): a factor well above 5.
	r=$(printf '%s' "$out" | jq '.statistics[1].extra_ns / ([.statistics[2].extra_ns, 20000 * 50] | max)')
	like "$r" '^[0-9.]+$' "a ratio was measured ($r)"
	awk -v r="$r" 'BEGIN { exit !(r > 5) }'
	ok $? "tracing getppid costs $r x tracing write, which the workload never calls (> 5)"
fi
done_testing
