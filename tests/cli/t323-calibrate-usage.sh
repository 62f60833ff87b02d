#!/bin/bash
# parallel-safe
# t323-calibrate-usage: calibrate's bad input exits 2 with one line before anything is
# measured, and a monitor this machine lacks (here: bpftrace off $PATH) is stored as
# unavailable with the reason, never as 0, which predict then shows as "no model".
. "$(dirname "$0")/lib.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
plan 10
tmpdir

one_line_exit2 "--quick with --thorough" "$PROBECOST" calibrate --quick --thorough --db "$T/x.db"
one_line_exit2 "-m ltrace (no model: library calls are not counted)" \
	"$PROBECOST" calibrate -m ltrace --db "$T/x.db"
one_line_exit2 "-m an unknown monitor" "$PROBECOST" calibrate -m no-such-monitor --db "$T/x.db"
one_line_exit2 "an argument" "$PROBECOST" calibrate extra --db "$T/x.db"
one_line_exit2 "--runs 0" "$PROBECOST" calibrate --runs 0 --db "$T/x.db"
is "$(ls "$T")" "" "nothing was stored by the refused commands"

# A $PATH without bpftrace: its entries are unavailable, with the package to install.
mkdir "$T/bin"
for t in perf strace; do ! have $t || ln -s "$(command -v $t)" "$T/bin/$t"; done
# probecost with that $PATH alone (the test's own tools keep theirs).
run_pc_path() {
	out=$(env PATH="$T/bin" "$PROBECOST" "$@" 2> "$T/err")
	rc=$?
	# shellcheck disable=SC2034 # read by the tests' own lines after each call
	err=$(cat "$T/err")
}
run_pc_path calibrate -m bpftrace-syscalls --db "$T/u.db" --format json
is "$rc:$(jq -c '[.statistics[] | [.event, .status, .cost_ns, .placement]]' <<< "$out")" \
	'0:[["syscall","unavailable",null,"unpinned"],["syscall-decoded","unavailable",null,"unpinned"],["getdents","unavailable",null,"unpinned"],["syscall-shared","unavailable",null,"unpinned"],["run","unavailable",null,"unpinned"],["syscall","unavailable",null,"cpu=0"],["syscall-decoded","unavailable",null,"cpu=0"],["getdents","unavailable",null,"cpu=0"],["syscall-shared","unavailable",null,"cpu=0"],["run","unavailable",null,"cpu=0"]]' \
	"bpftrace-syscalls off \$PATH: stored, its five entries (syscalls by class, beside another task, run) of both placements unavailable, no figure"
like "$(jq -r '.statistics[0].why' <<< "$out")" "install package bpftrace" "... with the package to install"
if is_root && perf_events_usable && [ -e /sys/bus/event_source/devices/tracepoint ]; then
	run_pc_path predict -m bpftrace-syscalls --count-runs 1 --plain-runs 2 --db "$T/u.db" \
		--format json -- /bin/true
	is "$(jq -c '.statistics[0] | [.model, .predicted_extra_ns, (.why | test("unavailable"))]' <<< "$out")" \
		'[false,null,true]' "predict: no model, never 0 (the entry is unavailable)"
else
	skip "not root, or no perf_event tracepoints: nothing counts the events"
fi
# A counter's work at a switch is priced on a ping-pong that shares one CPU, unpinned too.
if have perf && perf_events_usable; then
	run_pc calibrate -m perf-stat --placement unpinned --runs 2 --db "$T/p.db" --format json
	is "$rc:$(jq -r '.statistics[] | select(.event == "cswitch") | "\(.workload) \(.status)"' <<< "$out")" \
		"0:pipe loops=5000 cpu=same measured" "perf-stat's switch: measured on the pipe with both tasks on one CPU"
else
	skip "perf not installed, or perf events refused here"
fi
done_testing
