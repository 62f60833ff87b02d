#!/bin/bash
# bench/precision: overhead of perf-stat on `pipe loops=200000` (pinned to CPU $CPU, default 0),
# in a fixed budget per tool (BUDGET s, default 60): the 95% CI half-width of the
# overhead probecost reaches, against the interval hyperfine -N and perf stat -r
# give for the same two commands in the same budget (half the budget each, their
# relative errors combined: ratio r = m2/m1, rel. sd = sqrt(e1^2 + e2^2), 95% = 1.96 sd).
# Target: probecost's interval is the narrowest and contains the others' point estimates.
set -u
cd "$(dirname "$0")/.." || exit
CPU=${CPU:-0}  # the CPU everything is pinned to
PC=$(realpath "${PROBECOST:-./probecost}")
BUDGET=${BUDGET:-60}
LOOPS=${LOOPS:-200000}
for t in hyperfine perf jq; do
	command -v $t >/dev/null || { echo "skip: $t not installed"; exit 0; }
done
plain=("$PC" workload pipe loops="$LOOPS")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
wrapped=(perf stat -o "$tmp/ps.out" -- "${plain[@]}")

# One run's time, to size the fixed-count tools to the budget.
t0=$(date +%s%N); taskset -c "$CPU" "${wrapped[@]}" >/dev/null; t1=$(date +%s%N)
per=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print (b - a) / 1e9 }')
n=$(awk -v b="$BUDGET" -v p="$per" 'BEGIN { n = int(b / 2 / (p * 1.1)); print (n < 3) ? 3 : n }')

# probecost: adaptive blocks until the budget is spent (precision 0 never stops it early).
js=$("$PC" run --no-store --cpu "$CPU" --warmup 1 --min-runs 3 --max-runs 100000 --precision 0.001 \
	--max-time "$BUDGET" --format json -w "pipe:loops=$LOOPS" -m perf-stat 2>/dev/null)
pc_ov=$(printf '%s' "$js" | jq '.statistics[1].overhead * 100')
pc_lo=$(printf '%s' "$js" | jq '.statistics[1].overhead_lo * 100')
pc_hi=$(printf '%s' "$js" | jq '.statistics[1].overhead_hi * 100')
pc_n=$(printf '%s' "$js" | jq '.statistics[1].ok')

# hyperfine -N: both commands, n runs each.
taskset -c "$CPU" hyperfine -N --runs "$n" --warmup 1 --export-json "$tmp/hf.json" \
	"${plain[*]}" "${wrapped[*]}" >/dev/null 2>&1
read -r hf_ov hf_hw < <(jq -r '.results as $r | ($r[0].mean) as $m1 | ($r[1].mean) as $m2 |
	(($r[0].stddev / $m1) / ($r[0].times | length | sqrt)) as $e1 |
	(($r[1].stddev / $m2) / ($r[1].times | length | sqrt)) as $e2 |
	"\(($m2 / $m1 - 1) * 100) \(1.96 * ($m2 / $m1) * (($e1 * $e1 + $e2 * $e2) | sqrt) * 100)"' "$tmp/hf.json")

# perf stat -r: its "( +- x% )" is the relative standard error of the mean.
ps_one() { # ps_one CMD... -> "mean_s relerr"
	taskset -c "$CPU" perf stat -r "$n" -o "$tmp/r.out" -- "$@" >/dev/null 2>&1
	sed -n 's/^ *\([0-9.]*\) +- [0-9.]* seconds time elapsed *( +- *\([0-9.]*\)% )/\1 \2/p' "$tmp/r.out"
}
read -r m1 e1 < <(ps_one "${plain[@]}")
read -r m2 e2 < <(ps_one "${wrapped[@]}")
read -r ps_ov ps_hw < <(awk -v m1="$m1" -v m2="$m2" -v e1="$e1" -v e2="$e2" \
	'BEGIN { r = m2 / m1; printf "%f %f\n", (r - 1) * 100, 1.96 * r * sqrt(e1 * e1 + e2 * e2) }')

pc_hw=$(awk -v a="$pc_lo" -v b="$pc_hi" 'BEGIN { print (b - a) / 2 }')
printf '%-16s %10s %22s %10s %6s\n' tool overhead "95% interval" half-width runs
printf '%-16s %9.2f%% [%+8.2f, %+8.2f] %9.2f %6s\n' "probecost run" "$pc_ov" "$pc_lo" "$pc_hi" "$pc_hw" "$pc_n"
for row in "hyperfine -N:$hf_ov:$hf_hw" "perf stat -r:$ps_ov:$ps_hw"; do
	IFS=: read -r name ov hw <<<"$row"
	awk -v nm="$name" -v o="$ov" -v h="$hw" -v n="$n" \
		'BEGIN { printf "%-16s %9.2f%% [%+8.2f, %+8.2f] %9.2f %6s\n", nm, o, o - h, o + h, h, n }'
done
awk -v p="$pc_hw" -v a="$hf_hw" -v b="$ps_hw" -v lo="$pc_lo" -v hi="$pc_hi" -v x="$hf_ov" -v y="$ps_ov" \
	'BEGIN { narrow = p <= a && p <= b; inside = x >= lo && x <= hi && y >= lo && y <= hi;
		printf "narrowest: %s; contains the others'\'' estimates: %s\n", narrow ? "yes" : "no", inside ? "yes" : "no";
		print (narrow && inside) ? "verdict: PASS" : "verdict: FAIL" }'
