#!/bin/bash
# The busy-machine figure on known answers, both sides, runs pinned to CPU 0: with nothing
# added, the plain runs and those beside an attach monitor read other processes' CPU time
# well under the warning's 10% of their wall time, and no busy warning; with a busy loop
# pinned to the same CPU (it takes about half of that CPU), a large share (>= 0.3) and the
# warning.  Runs shorter than /proc/stat's clock ticks resolve (null: 1 ms of `null`) are
# named in the warning with why, never given a number.  The quiet side needs a CPU to spare
# (decided from /proc/loadavg): others' work on CPU 0 is what the figure counts.
. "$(dirname "$0")/lib.bash"
plan 8
tmpdir
have taskset || skip_rest "taskset is not installed"
# About 190 ms a plain run alone (20,000 getppid: 5 ms); long enough for 10 ms ticks.  No
# warm-up block: the figure is other processes' CPU time on CPU 0, which a cold first run
# does not move.
study() {
	run_pc run --no-store --format json -w syscall:loops=1500000 "$@" --cpu 0 --runs 3 --warmup 0 \
		--seed 7 --attach "$(dirname "$0")/fake/attach-ready" --ready 'ready'
	printf '%s\n' "$out" >"$T/out.json"
	[ "$rc" = 0 ] || diag "exit $rc: $err"
}
# share: each configuration's "monitor on workload: other CPU / wall", null where none.
share() {
	jq -r '.statistics[] | "\(.monitor) on \(.workload): \(if .other_cpu_ns == null then "null"
		else (.other_cpu_ns / .wall_ns.mean * 1000 | round / 1000) end)"' "$T/out.json"
}
busy_warned() { jq -r '.warnings[]' "$T/out.json" | grep -F 'busy machine'; }

if machine_quiet; then
	study
	diag "nothing added (load $(cut -d' ' -f1-3 /proc/loadavg)): $(share | paste -sd';')"
	is "$(share | awk '$NF != "null" && $NF < 0.1' | wc -l)" 2 \
		"nothing added: both configurations read other CPU time under 10% of their wall time"
	is "$(busy_warned)" "" "nothing added: no busy-machine warning"
else
	skip "busy machine (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs): others' work is on CPU 0"
	skip "busy machine (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs): others' work is on CPU 0"
fi

# A busy loop on CPU 0 beside every run, started and stopped here.
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
on_exit 'kill $hog 2>/dev/null; wait $hog 2>/dev/null'
study -w null
kill $hog
wait $hog 2>/dev/null
diag "a busy loop on CPU 0: $(share | paste -sd';')"
is "$rc" 0 "beside a busy loop: the study exits 0"
is "$(share | grep -c ' on syscall: ')" 2 "beside a busy loop: two configurations on syscall"
is "$(share | grep ' on syscall: ' | awk '$NF != "null" && $NF >= 0.3' | wc -l)" 2 \
	"beside a busy loop: both read other CPU time of at least 0.3 of their wall time"
is "$(share | grep ' on null: ' | awk '{ print $NF }' | sort -u)" null \
	"runs too short for clock ticks (null): no figure rather than a wrong one"
like "$(busy_warned)" '^busy machine: processes outside this study took CPU time equal to [0-9]+%' \
	"beside a busy loop: the busy-machine warning"
like "$(busy_warned)" 'not measured for .*none on null \([0-9]+ ms\).*: runs too short for /proc/stat.s clock ticks' \
	"the warning names the runs without a figure, and why"
done_testing
