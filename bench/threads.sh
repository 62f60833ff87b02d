#!/bin/bash
# bench/threads: per-hit cost of every arming method when 1 and 2 threads make
# the hits at once (the uprobe microbenchmark, on a 1-byte and a 5-byte nop),
# so contention in the kernel's uprobe path or in a tracer shows as per hit
# growing with threads.  Per hit = extra wall time / all threads' hits: with N
# threads on N CPUs a tracer that scales perfectly shows 1/N of its 1-thread
# figure.  Not pinned (the threads need a CPU each).  THREADS, SCALE, RUNS.
set -u
cd "$(dirname "$0")/.."
. bench/lib-probes.bash
THREADS=${THREADS:-1,2}
SCALE=${SCALE:-10}
RUNS=${RUNS:-5}
need_root || exit 0
json=$(mktemp); trap 'rm -f "$json"' EXIT
echo "# probecost probes --workload uprobe --variants nop --sites nop,nop5 --threads $THREADS" \
	"--scale $SCALE --runs $RUNS --warmup 1 ($(nproc) CPUs)"
if ! "$PC" probes --workload uprobe --variants nop --sites nop,nop5 --threads "$THREADS" \
	--scale "$SCALE" --runs "$RUNS" --warmup 1 --no-store --format json >"$json" 2>/dev/null; then
	echo "FAIL: probecost probes exited non-zero"
	exit 1
fi
site_table "$json" threads site
verdict=PASS
check_rows "$json" || verdict=FAIL
echo "VERDICT: $verdict"
[ $verdict = PASS ]
