#!/bin/bash
# bench/threads: per-hit cost of every arming method when 1 and 2 threads make
# the hits at once, so contention in the kernel's uprobe path or in a tracer
# shows as per hit growing with threads: the uprobe microbenchmark (on a
# 1-byte and a 5-byte nop), then the stanford kernels (every thread running
# them on its own data; the plain build for the uprobe-based methods, the
# LTTng-UST build for lttng where it is built).  Per hit = extra wall time /
# all threads' hits: with N threads on N CPUs a tracer that scales perfectly
# shows 1/N of its 1-thread figure.  Not pinned (the threads need a CPU
# each).  Every armed row must count every thread's hits.
# THREADS, SCALE (uprobe), STANFORD_SCALE, RUNS.
set -u
cd "$(dirname "$0")/.." || exit
. bench/lib-probes.bash
THREADS=${THREADS:-1,2}
SCALE=${SCALE:-10}
STANFORD_SCALE=${STANFORD_SCALE:-1}
RUNS=${RUNS:-5}
need_root || exit 0
json=$(mktemp); trap 'rm -f "$json"' EXIT
verdict=PASS

# measure DESCRIPTION ROWKEY PROBES-ARGS...: one session, its table (a line per
# method and ROWKEY value, "" for method alone), its rows checked.
measure() {
	local args=("${@:3}" --threads "$THREADS" --runs "$RUNS" --warmup 1)
	echo "# probecost probes ${args[*]} ($(nproc) CPUs): $1"
	if ! "$PC" probes "${args[@]}" --no-store --format json >"$json" 2>/dev/null; then
		echo "FAIL: probecost probes exited non-zero"
		verdict=FAIL
		return
	fi
	site_table "$json" threads "$2"
	check_rows "$json" || verdict=FAIL
}

measure "the uprobe microbenchmark" site --workload uprobe --variants nop --sites nop,nop5 --scale "$SCALE"
variants=plain
"$PC" list probes 2>/dev/null | grep -q '^  lttng  *probe  *yes' && variants=plain,lttng
measure "the stanford kernels" "" --variants "$variants" --scale "$STANFORD_SCALE"
echo "VERDICT: $verdict"
[ $verdict = PASS ]
