#!/bin/bash
# bench/harness: what probecost's runner costs per run, against hyperfine -N,
# on the same command (/bin/true), in one run, pinned to CPU $CPU (default 0).  Per-run cost
# is the marginal wall time of the whole tool: (T(RUNS_B) - T(RUNS_A)) /
# (RUNS_B - RUNS_A), so each tool's fixed start-up (probecost's environment
# fingerprint, hyperfine's shell calibration) cancels.  Also shown: the mean
# each tool reports for /bin/true (its measurement floor).
# Target: probecost's per-run cost / hyperfine's <= 1.0.
set -u
cd "$(dirname "$0")/.." || exit
CPU=${CPU:-0}  # the CPU everything is pinned to
PC=${PROBECOST:-./probecost}
RUNS_A=${RUNS_A:-50}
RUNS_B=${RUNS_B:-350}
ROUNDS=${ROUNDS:-3}
for t in hyperfine jq; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian package $t)"; exit 0; }
done
now() { date +%s%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
pc_one() { # pc_one RUNS -> "elapsed_ns mean_us"
	local t0 t1 js
	t0=$(now)
	js=$(taskset -c "$CPU" "$PC" run --no-store --runs "$1" --warmup 0 --format json -- /bin/true 2>/dev/null)
	t1=$(now)
	echo "$((t1 - t0)) $(printf '%s' "$js" | jq '.statistics[0].wall_ns.mean / 1000')"
}
hf_one() {
	local t0 t1 f
	f=$(mktemp)
	t0=$(now)
	taskset -c "$CPU" hyperfine -N --runs "$1" --warmup 0 --export-json "$f" /bin/true >/dev/null 2>&1
	t1=$(now)
	echo "$((t1 - t0)) $(jq '.results[0].mean * 1e6' "$f")"
	rm -f "$f"
}
pc=() hf=() pcm=() hfm=()
for _ in $(seq "$ROUNDS"); do
	# Interleaved, so drift hits both tools alike.
	read -r pa _ < <(pc_one "$RUNS_A"); read -r pb m < <(pc_one "$RUNS_B"); pcm+=("$m")
	read -r ha _ < <(hf_one "$RUNS_A"); read -r hb m < <(hf_one "$RUNS_B"); hfm+=("$m")
	pc+=("$(awk -v a="$pa" -v b="$pb" -v n="$((RUNS_B - RUNS_A))" 'BEGIN { print (b - a) / n / 1000 }')")
	hf+=("$(awk -v a="$ha" -v b="$hb" -v n="$((RUNS_B - RUNS_A))" 'BEGIN { print (b - a) / n / 1000 }')")
done
p=$(printf '%s\n' "${pc[@]}" | median); h=$(printf '%s\n' "${hf[@]}" | median)
pm=$(printf '%s\n' "${pcm[@]}" | median); hm=$(printf '%s\n' "${hfm[@]}" | median)
printf '%-16s %20s %24s\n' "tool" "us per extra run" "its mean of /bin/true (us)"
printf '%-16s %20.1f %24.1f\n' "probecost run" "$p" "$pm" "hyperfine -N" "$h" "$hm"
ratio=$(awk -v a="$p" -v b="$h" 'BEGIN { printf "%.2f", a / b }')
echo "ratio probecost/hyperfine per-run cost: $ratio (median of $ROUNDS rounds, runs $RUNS_A vs $RUNS_B; target <= 1.0)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.0) }' && echo "verdict: PASS" || echo "verdict: FAIL (above target)"
