#!/bin/bash
# parallel-safe: on a copy of the redzone fixture with a build id of its own (t511 and t238 arm
#   theirs), one perf-probe test at a time (perf_probe_lock); outcomes, no timings
# t536: perf-probe wraps the program in perf stat, which passes the program's exit status
# on: a program that changed under the armed probe is changed-program and probes exits 1,
# as under the other methods (before, perf stat's status was taken as the tool's:
# tool-failed, exit 0).  Known answer: the redzone fixture keeps a value in the red zone
# across its nop5 site redzone:live, which Linux 6.18 optimizes into a CALL that pushes
# there; the program checks its answers and exits 3 at the first wrong one (a row that fails
# twice in its first runs is not run again: 2 of 2).
. "$(dirname "$0")/lib.bash"
perf_probe_lock "$@"
plan 3
is_root || skip_rest "needs root (uprobes)"
have jq || skip_rest "jq not installed"
{ have perf && have_tracefs; } || skip_rest "needs perf and tracefs (perf-probe)"
grep -q ' arch_uprobe_optimize$' /proc/kallsyms ||
	skip_rest "this kernel does not optimize nop5 uprobes: nothing pushes into the red zone"
make -s build/fixtures/redzone >/dev/null || skip_rest "cannot build the fixture here"
tmpdir
mkdir -m 700 "$T/state"
export PROBECOST_STATE_DIR=$T/state
binary_copy build/fixtures/redzone "$T/redzone" >/dev/null || skip_rest "cannot copy the fixture to $T"
FIX=$T/redzone
on_exit "perf buildid-cache --remove '$FIX' >/dev/null 2>&1"
# Under perf-probe the kernel left the site unoptimized in 2 of 6 sessions here (every run
# then ok, every hit counted): up to 4 sessions, until one where it did.
row() { jq -r '.statistics[] | select(.method == "perf-probe") | "\(.outcome): \(.outcome_why)"' <<< "$out"; }
for try in 1 2 3 4; do
	run_pc probes --binary "$FIX" --probe redzone:live --via perf-probe --runs 3 --warmup 0 \
		--no-store --format json -- "$FIX" 200000 live
	[[ "$(row)" == ok:* ]] || break
	diag "session $try: the site was not optimized ($(row)): again"
done
is "$rc" 1 "a program changed under perf-probe: exit 1"
is "$(jq -r '.statistics[] | select(.method == "dormant") | .outcome' <<< "$out")" ok "its dormant runs are ok"
like "$(row)" \
	"^changed-program: [1-3] of [23] runs: exit 3: redzone: live\\([0-9]+\\) = [0-9]+, expected [0-9]+ \\(call [0-9]+\\); its dormant runs: 3 of 3 ok$" \
	"its row: changed-program, in the program's own words"
done_testing
