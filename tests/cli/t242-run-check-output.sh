#!/bin/bash
# parallel-safe: strace and wrappers on a fixture of its own; outcomes, no timings
# t242: --check-output: a monitored run whose stdout differs from every plain run's is
# changed-program (exit 1), and its row names the first line that differs; --output-filter
# drops the lines that vary by themselves (a program's own timings) before comparing.
# Known answers from tests/fixtures/outcome/tells.c, which prints "traced: yes" under a
# tracer and "traced: no" otherwise (and exits 0 either way), or with "time" its own
# elapsed ns and the wall clock, different each run (elapsed alone can repeat where the
# clock source is coarse).  Without --check-output the same runs are ok (output is
# not compared), as before.
. "$(dirname "$0")/lib.bash"
plan 9
have cc || skip_rest "needs cc (the fixture is built here)"
have jq || skip_rest "jq not installed"
tmpdir
cc -O2 -o "$T/tells" tests/fixtures/outcome/tells.c || skip_rest "cannot build the fixture"
# LeakSanitizer cannot run under ptrace: the null workload strace wraps is probecost itself.
[ -n "${PROBECOST_SAN:-}" ] && export ASAN_OPTIONS=detect_leaks=0
RUN=(run --runs 2 --warmup 0 --no-store --format json)
row() { jq -r --arg m "$1" '.statistics[] | select(.monitor == $m and .workload == "command") | "\(.outcome): \(.outcome_why)"' <<< "$out"; }

if have strace; then
	run_pc "${RUN[@]}" -m strace --check-output -- "$T/tells"
	is "$rc/$(row strace)" \
		"1/changed-program: 2 of 2 runs: stdout differs from the plain runs' at line 2: 'traced: yes' (plain: 'traced: no'); its none runs: 2 of 2 ok" \
		"output changed under strace: changed-program with the first differing line, exit 1"
	run_pc "${RUN[@]}" -m strace -- "$T/tells"
	is "$rc/$(row strace)" "0/ok: 2 runs ok" "without --check-output the output is not compared"
else
	skip "strace not installed"
	skip "strace not installed"
fi
# A wrapper that changes nothing: the same output, ok.
run_pc "${RUN[@]}" -m "env {}" --check-output -- "$T/tells"
is "$rc/$(row "env {}")" "0/ok: 2 runs ok" "unchanged output under a wrapper: ok, exit 0"
# A program that prints its own elapsed time: every run's output differs ...
run_pc "${RUN[@]}" -m "env {}" --check-output -- "$T/tells" time
like "$rc/$(row "env {}")" "^1/changed-program: 2 of 2 runs: stdout differs from the plain runs' at line 2: 'took [0-9]+ ns at [0-9]+' \\(plain: 'took [0-9]+ ns at [0-9]+'\\);" \
	"a timing line compared: changed-program at that line"
# ... unless the filter drops that line (and the figure is still read from it by --metric).
run_pc "${RUN[@]}" -m "env {}" --output-filter '^took [0-9]+ ns at [0-9]+$' --metric 'took=took ([0-9]+) ns' \
	-- "$T/tells" time
is "$rc/$(row "env {}")" "0/ok: 2 runs ok" "--output-filter drops the timing line: ok, exit 0"
is "$(jq -r '[.statistics[] | select(.workload == "command") | .metrics[] | select(.name == "took" and .runs == 2 and .mean > 0)] | length' <<< "$out")" \
	2 "--metric still reads the digested stdout: 2 runs each of none and env"
# Bad input: exit 2, one line naming the input and the fix.
run_pc "${RUN[@]}" --output-filter '(' -- "$T/tells"
like "$rc/$err" "^2/probecost run: --output-filter '\\(': .*; give an extended regex of the lines to drop" \
	"a filter that is not a regex: exit 2"
run_pc "${RUN[@]}" --check-output -w null
like "$rc/$err" "^2/probecost run: --check-output compares your command's output" \
	"--check-output without a command: exit 2"
run_pc probes --check-output --no-store
like "$rc/$err" "^2/probecost probes: --check-output compares the output of --binary's command" \
	"probes --check-output without --binary: exit 2"
done_testing
