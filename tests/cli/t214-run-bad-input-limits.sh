#!/bin/bash
# Bad input that was accepted silently: --threads 999 ran 999 x 10,000,000 getppid (now
# at most 4 threads per CPU the workload may run on: more measure the scheduler's time
# slicing, not the monitor, and each thread makes the full loop count), and
# -m 'strace {} {}' ran strace on a file named '{}' and exited 0.  Each is one line,
# exit 2, before anything runs.
. tests/cli/lib.bash
plan 6
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
# The CPUs probecost may use (its affinity), as the kernel says.
ncpu=$(grep -c . <(taskset -cp $$ | sed 's/.*: //' | tr ',' '\n' | awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }'))
max=$((4 * ncpu))
one_line_exit2 "run --threads 999" timeout 20 "$P" run --no-store -w syscall --threads 999 -r 1 --warmup 0
one_line_exit2 "run --threads $((max + 1)) ($ncpu CPUs)" timeout 20 "$P" run --no-store -w syscall:loops=1000 \
	--threads $((max + 1)) -r 1 --warmup 0
run_pc run --no-store -w syscall:loops=1000 --threads 5 --cpu 0 -r 1 --warmup 0
is "$rc" 2 "run --threads 5 --cpu 0: at most 4 on one CPU (${err%%$'\n'*})"
run_pc run --no-store -w syscall:loops=1000 --threads "$max" -r 1 --warmup 0
is "$rc" 0 "run --threads $max (4 x $ncpu CPUs) measures (${err%%$'\n'*})"
one_line_exit2 "probes --threads 999" timeout 20 "$P" probes --no-store --via dormant --workload uprobe \
	--threads 999 -r 1 --warmup 0
one_line_exit2 "-m 'strace {} {}' (the workload's place twice)" timeout 20 "$P" run --no-store -w null \
	-m 'strace {} {}' -r 1 --warmup 0
done_testing
