#!/bin/bash
# bench/drift: the same two commands, the same time budget, three tools: whose
# 95% interval holds a known injected cost when the machine drifts?
#
#   A = probecost workload spin loops=LOOPS work=WORK
#   B = env PCOST_INJECT_EVENT_NS=EVENT A     (B spins EVENT ns more per event)
#
# Truth: what B's runs injected, as the spin workload timed it (PCOST_SPIN_LOG),
# per run; the env exec B adds (~0.5 ms) is not in it and is small next to it.
# Each tool gets BUDGET s, pinned to CPU $CPU:
#   probecost run: A and B in interleaved blocks until the budget is spent;
#     its extra_ns and 95% interval (paired t over blocks);
#   hyperfine -N and perf stat -r: all runs of A, then all runs of B (half the
#     budget each); mean(B) - mean(A) +- 1.96 x the combined standard errors
#     (perf's "+-" is already the standard error of the mean).
# DRIFT=1 (default) makes the machine drift as a busy one does: half way into each
# tool's budget a CPU hog starts on CPU $CPU (a spin of 3 ms every 10 ms).
# Interleaving is what keeps the drift out of the comparison.
set -u
cd "$(dirname "$0")/.." || exit
PC=$(realpath "${PROBECOST:-./probecost}")
CPU=${CPU:-0}
BUDGET=${BUDGET:-30}
LOOPS=${LOOPS:-20000}
WORK=${WORK:-1000}
EVENT=${EVENT:-2000}
DRIFT=${DRIFT:-1}
for t in hyperfine perf jq; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian package ${t/perf/linux-perf})"; exit 0; }
done
tmp=$(mktemp -d)
hog=
stop_hog() { [ -n "$hog" ] && kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; hog=; }
trap 'stop_hog; rm -rf "$tmp"' EXIT
A=("$PC" workload spin "loops=$LOOPS" "work=$WORK")
B=(env "PCOST_INJECT_EVENT_NS=$EVENT" "${A[@]}")
# drift_from: the hog, started BUDGET/2 s from now, until stop_hog.
drift_from() {
	[ "$DRIFT" = 1 ] || return 0
	( sleep "$(awk -v b="$BUDGET" 'BEGIN { print b / 2 }')"
	  while :; do taskset -c "$CPU" "$PC" workload spin loops=1 work=3000000 >/dev/null 2>&1; sleep 0.007; done ) &
	hog=$!
}
truth() { awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
	if (f["injected_event_ns"] > 0) { s += f["injected_event_ns"]; n++ } }
	END { printf "%.0f\n", n ? s / n : 0 }' "$1"; }

# Three runs each of A and B, to size the fixed-count tools to the budget.
t0=$(date +%s%N)
for _ in 1 2 3; do taskset -c "$CPU" "${A[@]}"; taskset -c "$CPU" "${B[@]}"; done
t1=$(date +%s%N)
n=$(awk -v b="$BUDGET" -v a="$t0" -v c="$t1" 'BEGIN { p = (c - a) / 1e9 / 3; n = int(b / (p * 1.15)); print (n < 3) ? 3 : n }')

rows=()
# probecost
export PCOST_SPIN_LOG="$tmp/pc.log"
drift_from
ts=$(date +%s)
js=$(taskset -c "$CPU" "$PC" run --no-store --cpu "$CPU" --warmup 1 --min-runs 5 --max-runs 100000 \
	--precision 0.001 --max-time "$BUDGET" --format json -m "env PCOST_INJECT_EVENT_NS=$EVENT" \
	-- "${A[@]}" 2>/dev/null)
stop_hog
read -r est lo hi nb < <(printf '%s' "$js" | jq -r '.statistics[1] | "\(.extra_ns) \(.extra_ns_lo) \(.extra_ns_hi) \(.pairs)"')
rows+=("probecost-run $(truth "$tmp/pc.log") $est $lo $hi $nb-blocks,$(($(date +%s) - ts))s")

# hyperfine -N: A's runs, then B's
export PCOST_SPIN_LOG="$tmp/hf.log"
drift_from
ts=$(date +%s)
taskset -c "$CPU" hyperfine -N --runs "$n" --warmup 1 --export-json "$tmp/hf.json" "${A[*]}" "${B[*]}" >/dev/null 2>&1
stop_hog
read -r est lo hi < <(jq -r '.results as $r | (($r[1].mean - $r[0].mean) * 1e9) as $d |
	(1.96e9 * ((($r[0].stddev * $r[0].stddev + $r[1].stddev * $r[1].stddev) / ($r[0].times | length)) | sqrt)) as $h |
	"\($d) \($d - $h) \($d + $h)"' "$tmp/hf.json")
rows+=("hyperfine-N $(truth "$tmp/hf.log") $est $lo $hi $n+$n-runs,$(($(date +%s) - ts))s")

# perf stat -r: A's runs, then B's
export PCOST_SPIN_LOG="$tmp/ps.log"
drift_from
ts=$(date +%s)
ps_one() { taskset -c "$CPU" perf stat -r "$n" -- "$@" 2>&1 >/dev/null |
	awk '/seconds time elapsed/ { m = $1; for (k = 1; k <= NF; k++) if ($k == "+-") e = $(k + 1) }
	END { gsub(/[(%)]/, "", e); print m * 1e9, m * 1e9 * e / 100 }'; }
read -r ma ea < <(ps_one "${A[@]}")
read -r mb eb < <(ps_one "${B[@]}")
stop_hog
read -r est lo hi < <(awk -v a="$ma" -v b="$mb" -v x="$ea" -v y="$eb" \
	'BEGIN { d = b - a; h = 1.96 * sqrt(x * x + y * y); print d, d - h, d + h }')
rows+=("perf-stat-r $(truth "$tmp/ps.log") $est $lo $hi $n+$n-runs,$(($(date +%s) - ts))s")

echo "# spin loops=$LOOPS work=$WORK ns; B injects $EVENT ns/event; budget ${BUDGET} s per tool, CPU $CPU, drift=$DRIFT"
printf '%-14s %12s %14s %26s %18s  %s\n' tool "truth (ms)" "estimate (ms)" "95% interval (ms)" "design, time" holds
for r in "${rows[@]}"; do
	read -r tool tr est lo hi design <<<"$r"
	awk -v t="$tool" -v tr="$tr" -v e="$est" -v l="$lo" -v h="$hi" -v d="$design" 'BEGIN {
		ok = (l <= tr && tr <= h) ? "yes" : "NO"
		printf "%-14s %12.2f %14.2f %12.2f .. %-12.2f %18s  %s\n", t, tr / 1e6, e / 1e6, l / 1e6, h / 1e6, d, ok }'
done
