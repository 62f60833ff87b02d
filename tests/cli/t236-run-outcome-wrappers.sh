#!/bin/bash
# parallel-safe: wrappers of its own fixture, no probe armed; 10 s mostly waiting
# long: 10 s, mostly the traced fixture waiting
# no-sanitizer: the fixture exits 3 unless its parent's name is probecost, and the ASan build is probecost-san
# t236: whose fault a wrapped run's failure is.  A wrapper that passes its program's exit
# status on (strace, perf stat, any wrapper of your own) and did not say the failure was
# its own: the program's, so changed-program (exit 1) when its plain runs were fine.  A
# wrapper that failed by itself (its own error line, coreutils' 125-127, not an ELF file for
# ltrace): tool-failed, exit 0.  Known answers from tests/fixtures/outcome/watched.c, which
# exits 3 (or dies of SIGSEGV) when traced or started by anything but probecost; perf stat
# exits 0 when its program dies of a signal, and says so in its last line (before, every
# wrapper's status
# was taken as the tool's: strace's and perf stat's rows were tool-failed or, for the
# wrapper that forks, tool-failed too, and probecost exited 0).
. "$(dirname "$0")/lib.bash"
plan 9
have cc || skip_rest "needs cc (the fixture is built here)"
have jq || skip_rest "jq not installed"
tmpdir
cc -O2 -o "$T/watched" tests/fixtures/outcome/watched.c || skip_rest "cannot build the fixture"
# A wrapper of your own that forks its command (no exec): its status is the command's.
printf '#!/bin/sh\n"$@"\n' > "$T/wrap"
chmod +x "$T/wrap"
RUN=(run --runs 2 --warmup 0 --no-store --format json)
row() { jq -r --arg m "$1" '.statistics[] | select(.monitor == $m and .workload == "command") | "\(.outcome): \(.outcome_why)"' <<< "$out"; }

run_pc "${RUN[@]}" -m "$T/wrap {}" -- "$T/watched"
is "$rc" 1 "a wrapper of your own that changed the program's exit status: exit 1"
like "$(row "$T/wrap {}")" "^changed-program: 2 of 2 runs: exit 3: watched: tracer 0, parent wrap; its none runs: 2 of 2 ok$" \
	"its row: changed-program, with the program's own words"
if have strace; then
	run_pc "${RUN[@]}" -m strace -- "$T/watched"
	like "$rc/$(row strace)" "^1/changed-program: 2 of 2 runs: exit 3: watched: tracer [1-9][0-9]*, parent strace; " \
		"strace passes the exit status on: changed-program, exit 1"
	run_pc "${RUN[@]}" -m "strace -u pcost-no-such-user {}" -- "$T/watched"
	is "$rc/$(row "strace -u pcost-no-such-user {}")" \
		"0/tool-failed: 2 of 2 runs: exit 1: strace: Cannot find user 'pcost-no-such-user'" \
		"strace that cannot start the program (its own error line): tool-failed, exit 0"
else
	skip "strace not installed"
	skip "strace not installed"
fi
if have perf && perf stat -o /dev/null true 2>/dev/null; then
	# perf stat 6.1 itself drops the program's ending now and then (it exited 0 for a
	# program that exited 3 in 2 of 30 runs here, by hand): 4 runs (a configuration whose
	# first two runs failed stops there), and the row is changed-program whenever any shows it.
	PERF_RUN=(run --runs 4 --warmup 0 --no-store --format json)
	run_pc "${PERF_RUN[@]}" -m perf-stat -- "$T/watched"
	like "$rc/$(row perf-stat)" "^1/changed-program: [1-4] of [2-4] runs: exit 3: watched: tracer 0, parent perf; its none runs: 4 of 4 ok$" \
		"perf stat passes the exit status on: changed-program, exit 1"
	run_pc "${PERF_RUN[@]}" -m perf-stat -- "$T/watched" segv
	like "$rc/$(row perf-stat)" "^1/changed-program: [1-4] of [2-4] runs: killed by SIGSEGV \(perf stat exited 0\); its none runs: 4 of 4 ok$" \
		"perf stat hides a fatal signal (exit 0) but says it: changed-program, exit 1"
else
	skip "perf stat not usable here"
	skip "perf stat not usable here"
fi
run_pc "${RUN[@]}" -m "env -C $T/no-such-dir {}" -- "$T/watched"
like "$rc/$(row "env -C $T/no-such-dir {}")" "^0/tool-failed: 2 of 2 runs: exit 125: env: cannot change directory" \
	"a wrapper that fails by itself (env's 125): tool-failed, exit 0"
if have ltrace; then
	printf '#!/bin/sh\nexit 0\n' > "$T/script"
	chmod +x "$T/script"
	run_pc "${RUN[@]}" -m ltrace -- "$T/script"
	like "$rc/$(row ltrace)" "^0/tool-failed: 2 of 2 runs: exit 1: .*is not an ELF file" \
		"ltrace, which passes no status on, failing on a script: tool-failed, exit 0"
else
	skip "ltrace not installed"
fi
# Unchanged: the program fine under a wrapper that does not change it.
run_pc "${RUN[@]}" -m "taskset -c 0 {}" -- /bin/true
is "$rc/$(row "taskset -c 0 {}")" "0/ok: 2 runs ok" "an exec-ing wrapper that changes nothing: ok"
done_testing
