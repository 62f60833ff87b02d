#!/bin/bash
# bench/probes: per-hit cost of every available SDT arming method side by side
# in one `probecost probes` session (the seed-002 matrix: no probes, plain and
# volatile arguments, with and without semaphores), hits verified; then a
# cross-check of the bpftrace row by hand (bpftrace attached beside a bare
# `probecost workload stanford`, the workload's own timed region, no runner).
# Expected shape: uprobe counting is the cheapest armed method;
# ftrace and bpftrace add to it; dormant probes cost little next to the
# no-probe build.  Reference: ~0.3 us per uprobe hit on bare-metal Intel
# (BPF selftests); a VM is slower.  SCALE (default 3) x 289,264 hits per run.
set -u
cd "$(dirname "$0")/.." || exit
PC=${PROBECOST:-./probecost}
SCALE=${SCALE:-3}
RUNS=${RUNS:-3}
BIN=$(readlink -f "$PC")

if [ "$(id -u)" != 0 ]; then
	echo "skip: arming uprobes needs root"
	exit 0
fi
csv=$(mktemp); txt=$(mktemp); trap 'rm -f "$csv" "$txt"' EXIT
echo "# probecost probes --scale $SCALE --runs $RUNS --cpu 0 (all variants, every method available)"
"$PC" probes --scale "$SCALE" --runs "$RUNS" --warmup 1 --cpu 0 --no-store --format csv >"$csv" 2>"$txt"
rc=$?
sed 's/^/# /' "$txt"
if [ $rc != 0 ]; then
	echo "FAIL: probecost probes exited $rc"
	exit 1
fi
printf '\n  %-13s %-11s %12s %12s   %s\n' variant method "elapsed ms" "ns/hit" "hits counted/expected"
# variant,method,runs,failed,elapsed_mean_ns,elapsed_cov,overhead,lo,hi,per_hit_ns,per_hit_cycles,expected,counted,lost
awk -F, 'NR > 1 {
	hits = ($13 == -1) ? "-" : $13 "/" $12 ($14 > 0 ? "  " $14 " LOST" : "  ok");
	printf "  %-13s %-11s %12.1f %12s   %s\n", $1, $2, $5 / 1e6, ($10 ~ /nan/ ? "-" : sprintf("%.0f", $10)), hits
}' "$csv"

verdict=PASS
lost=$(awk -F, 'NR > 1 && $14 > 0' "$csv" | wc -l)
[ "$lost" = 0 ] || { echo "VERDICT: $lost configurations lost hits"; verdict=FAIL; }
# A configuration with failed runs, or an armed one without a per-hit figure, measured nothing.
broken=$(awk -F, 'NR > 1 && ($4 > 0 || ($2 != "dormant" && $1 != "none" && $10 ~ /nan/))' "$csv" | wc -l)
[ "$broken" = 0 ] || { echo "VERDICT: $broken configurations had failed runs or no per-hit figure"; verdict=FAIL; }
# Cheapest armed method per probe build.
for v in plain volatile plain-sem volatile-sem; do
	best=$(awk -F, -v v=$v 'NR > 1 && $1 == v && $2 != "dormant" && $10 !~ /nan/ { print $10, $2 }' "$csv" | sort -g | head -1)
	echo "  cheapest armed method for $v: ${best#* } (${best%% *} ns/hit)"
	case "$best" in *uprobe) ;; "") ;; *) echo "  note: uprobe was not the cheapest for $v"; verdict=MIXED;; esac
done
# Dormant probe builds against the no-probe build: a session of its own, longer
# runs and more of them (the armed session's runs are too short to see ns/hit).
DSCALE=${DSCALE:-30}
echo "# dormant cost: probecost probes --via dormant --scale $DSCALE --runs 10 --cpu 0"
"$PC" probes --via dormant --scale "$DSCALE" --runs 10 --warmup 1 --cpu 0 --no-store 2>/dev/null \
	| sed -n '/^# dormant probes/,$p'

# Cross-check by hand: bpftrace beside the bare workload, the workload's own timing.
if command -v bpftrace >/dev/null; then
	timed() { # median timed_ns of RUNS runs of the plain build
		for _ in $(seq "$RUNS"); do
			PROBECOST_REPORT_FD=3 taskset -c 0 "$PC" workload stanford variant=plain \
				scale="$SCALE" 3>&1 >/dev/null | tr ' ' '\n' | sed -n 's/^timed_ns=//p'
		done | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
	}
	hits=$(PROBECOST_REPORT_FD=3 "$PC" workload stanford variant=none scale="$SCALE" 3>&1 >/dev/null \
		| tr ' ' '\n' | sed -n 's/^events=//p')
	base=$(timed)
	log=$(mktemp)
	bpftrace -e "usdt:$BIN:stanford_plain:* { @ = count(); }" >"$log" 2>&1 &
	bp=$!
	for _ in $(seq 200); do grep -q Attaching "$log" && break; sleep 0.1; done
	sleep 1
	armed=$(timed)
	kill -INT $bp; wait $bp 2>/dev/null
	rm -f "$log"
	hand=$(awk -v a="$armed" -v b="$base" -v h="$hits" 'BEGIN { printf "%.0f", (a - b) / h }')
	ours=$(awk -F, 'NR > 1 && $1 == "plain" && $2 == "bpftrace" {printf "%.0f", $10}' "$csv")
	echo "  cross-check, plain/bpftrace: by hand $hand ns/hit, probecost ${ours:-?} ns/hit"
	if [ -n "$ours" ] && [ "$hand" -gt 0 ]; then
		agree=$(awk -v a="$ours" -v b="$hand" 'BEGIN { r = a / b; printf "  ratio probecost/hand %.2f (%s)\n", r,
			(r > 0.67 && r < 1.5) ? "agree" : "DISAGREE" }')
		echo "$agree"
	fi
	case "${agree:-DISAGREE}" in *DISAGREE*) [ $verdict = FAIL ] || verdict=MIXED ;; esac
fi
echo "VERDICT: $verdict (hits exact everywhere; uprobe cheapest armed method expected)"
[ $verdict != FAIL ]
