#!/bin/bash
# bench/sites: per-hit cost of every arming method at each probe-site encoding
# (sdt.h's 1-byte nop, a 5-byte nop, a 10-byte nop), and whether the kernel
# optimized the site (Linux 6.18 turns a uprobe on a 5-byte nop into a call
# through [uprobes-trampoline] instead of an int3 trap; 2.2x per hit on Intel
# in its patch series).  Two workloads in one session each: the uprobe
# microbenchmark (a call to a function that starts with the nop) and the
# stanford plain build (SDT sites inside real code), whose nop5 build stands
# beside nop5-nrz, the same compiled with -mno-red-zone: the optimized call
# pushes into the red zone, where a leaf function (fft) may keep data, so the
# safe encoding is measured side by side with the unsafe one.  Verdict: the
# nop5 optimization pays for a method when the interval of its gain (nop's cost
# per hit / nop5's, blocks paired: gain_vs_nop) lies above 1; a configuration
# probecost flagged before arming (red_zone_live and optimizable) may fail
# without failing the bench.  SCALE, RUNS, KERNEL (stanford; empty: all kernels)
# may be set.
set -u
cd "$(dirname "$0")/.."
. bench/lib-probes.bash
SCALE=${SCALE:-10}
RUNS=${RUNS:-5}
KERNEL=${KERNEL-towers} # KERNEL= (empty): every kernel; KERNEL=fft: the one nop5 breaks
need_root || exit 0
json=$(mktemp); trap 'rm -f "$json"' EXIT
verdict=PASS
for wl in uprobe stanford; do
	if [ $wl = uprobe ]; then
		# The targets are assembly: no red zone, no nop5-nrz.
		args=(--workload uprobe --variants nop --scale "$SCALE" --sites nop,nop5,nop10)
	else
		args=(--variants plain ${KERNEL:+--kernel "$KERNEL"} --scale $((SCALE * 2))
			--sites nop,nop5,nop5-nrz,nop10)
	fi
	echo "# probecost probes ${args[*]} --runs $RUNS --warmup 1 --cpu 0"
	# Exit 1 with a report: a run changed the program (the unsafe build, flagged before arming).
	"$PC" probes "${args[@]}" --runs "$RUNS" --warmup 1 --cpu 0 --no-store --format json \
		>"$json" 2>/dev/null
	rc=$?
	if [ $rc -gt 1 ] || ! jq -e .statistics "$json" >/dev/null 2>&1; then
		echo "FAIL: probecost probes exited $rc without a report"
		exit 1
	fi
	site_table "$json" site
	check_rows "$json" || verdict=FAIL
	nop5_verdict "$json"
done
echo "VERDICT: $verdict"
[ $verdict = PASS ]
