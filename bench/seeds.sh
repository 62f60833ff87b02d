#!/bin/bash
# bench/seeds: seed 000's experiment on this machine: pipe-test-1m (pipe, 1M round
# trips) and hackbench 10 (messaging, 10 groups), plain and under perf-stat,
# perf-record, strace and bpftrace-syscalls, pinned to CPU $CPU (default 0) like the seed's
# uniprocessor-style numbers.  Prints a Markdown table for README.md
# ("Reproducing the seeds") with the date and the machine.  Slow monitors make
# this the longest bench: strace alone takes ~2 min a run on 1M round trips on the
# 2-vCPU development machine, about 15 min in all with RUNS=3 (the default);
# RUNS, PIPE_LOOPS and MSG_GROUPS shrink it.
set -u
cd "$(dirname "$0")/.." || exit
CPU=${CPU:-0}  # the CPU everything is pinned to
PC=${PROBECOST:-./probecost}
RUNS=${RUNS:-3}
PIPE_LOOPS=${PIPE_LOOPS:-1000000}
GROUPS_N=${MSG_GROUPS:-10}
echo "### Reproducing the seeds: seed 000 (perfmon vs perfcounters overhead)"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -sr), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "probecost run --cpu $CPU --runs $RUNS --warmup 0 -w pipe:loops=$PIPE_LOOPS -w messaging:groups=$GROUPS_N -m perf-stat -m perf-record -m strace -m bpftrace-syscalls --format markdown"
echo
"$PC" run --no-store --cpu "$CPU" --runs "$RUNS" --warmup 0 --timeout 300 \
	-w "pipe:loops=$PIPE_LOOPS" -w "messaging:groups=$GROUPS_N" \
	-m perf-stat -m perf-record -m strace -m bpftrace-syscalls --format markdown
echo
echo "Seed 000 (Core2 E6800, 2.6.28): pipe-test-1m 3.344 s plain, 6.509 s under pfmon (+94%);"
echo "hackbench 10 0.496 s plain, 0.581 s under pfmon (+17%)."
