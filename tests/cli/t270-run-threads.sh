#!/bin/bash
# parallel-safe
# run --threads: the syscall workload at 1 and 2 threads; events = threads x loops in
# every run, every row carries its thread count (JSON, CSV, text); bad input exits 2.
. tests/cli/lib.bash
plan 12
command -v jq >/dev/null || { for i in $(seq 12); do skip "jq not installed"; done; done_testing; }

report_of syscall loops=3000 threads=3
is "$(field events "$report") $(field threads "$report")" "9000 3" "the workload: 3 threads x 3000 calls"

run_pc run --no-store --format json -w syscall:loops=2000 --threads 1,2 --runs 2 --warmup 0 \
	-m 'env PROBECOST_T260=1'
is "$rc" 0 "run --threads 1,2 exits 0"
is "$(printf '%s' "$out" | jq -c '[.statistics[] | [.monitor, .threads, .events]]')" \
	'[["none",1,2000],["env PROBECOST_T260=1",1,2000],["none",2,4000],["env PROBECOST_T260=1",2,4000]]' \
	"rows carry threads; events = threads x loops"
is "$(printf '%s' "$out" | jq '[.session.configs[] | .threads as $t | .samples[] | select(.events != $t * 2000)] | length')" \
	0 "every run made threads x loops syscalls"
is "$(printf '%s' "$out" | jq -r '[.statistics[] | .baseline] | map(tostring) | join(",")')" \
	"null,0,null,2" "each thread count has its own baseline (none: null)"
is "$(printf '%s' "$out" | jq -c '.session.options.threads')" "[1,2]" "the options record the thread counts"

run_pc run --no-store --format csv -w syscall:loops=1000 --threads 2 --runs 1 --warmup 0
col=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^threads$' | cut -d: -f1)
is "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f"${col:-99}")" 2 "CSV: the threads column"

run_pc run --no-store -w syscall:loops=1000 --threads 2 --runs 1 --warmup 0
like "$out" "# 2 threads" "text: the thread count in the group's heading"

run_pc run --no-store -w pipe:loops=10 --threads 2 --runs 1
like "$rc $err" "^2 .*--threads: workload 'pipe' has no threads" "a workload without threads: exit 2, named"
run_pc run --no-store -w syscall --threads 0
like "$rc $err" "^2 .*--threads '0': expected up to 8 thread counts in 1..1024" "--threads 0: exit 2"
run_pc run --no-store --threads 2 -- /bin/true
like "$rc $err" "^2 .*--threads and --placement need built-in workloads" "--threads with a command: exit 2"
run_pc workload syscall threads=2000
like "$rc $err" "^2 .*threads" "threads=2000 is out of range: exit 2"
done_testing
