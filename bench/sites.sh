#!/bin/bash
# bench/sites: per-hit cost of every arming method at each probe-site encoding
# (sdt.h's 1-byte nop, a 5-byte nop, a 10-byte nop), and whether the kernel
# optimized the site (Linux 6.18 turns a uprobe on a 5-byte nop into a call
# through [uprobes-trampoline] instead of an int3 trap; 2.2x per hit on Intel
# in its patch series).  Two workloads in one session each: the uprobe
# microbenchmark (a call to a function that starts with the nop) and the
# stanford plain build (SDT sites inside real code).  Verdict: the nop5
# optimization pays for a method when the interval of its gain (nop's cost per
# hit / nop5's, blocks paired: gain_vs_nop) lies above 1.  SCALE, RUNS,
# KERNEL (stanford) may be set.
set -u
cd "$(dirname "$0")/.." || exit
. bench/lib-probes.bash
SCALE=${SCALE:-10}
RUNS=${RUNS:-5}
KERNEL=${KERNEL:-towers}
need_root || exit 0
json=$(mktemp); trap 'rm -f "$json"' EXIT
verdict=PASS
for wl in uprobe stanford; do
	if [ $wl = uprobe ]; then
		args=(--workload uprobe --variants nop --scale "$SCALE")
	else
		args=(--variants plain --kernel "$KERNEL" --scale $((SCALE * 2)))
	fi
	echo "# probecost probes ${args[*]} --sites nop,nop5,nop10 --runs $RUNS --warmup 1 --cpu 0"
	if ! "$PC" probes "${args[@]}" --sites nop,nop5,nop10 --runs "$RUNS" --warmup 1 --cpu 0 \
		--no-store --format json >"$json" 2>/dev/null; then
		echo "FAIL: probecost probes exited non-zero"
		exit 1
	fi
	site_table "$json" site
	check_rows "$json" || verdict=FAIL
	nop5_verdict "$json"
done
echo "VERDICT: $verdict"
[ $verdict = PASS ]
