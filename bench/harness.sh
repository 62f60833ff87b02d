#!/bin/bash
# bench/harness: what probecost's runner costs per run, against hyperfine -N,
# on the same command (/bin/true), in one run.  Both tools do RUNS runs
# (default 300), pinned to CPU 0; we report, per run, the wall time of the whole
# tool divided by its runs (the harness cost, fork/exec/wait and bookkeeping
# included) and the mean each tool reports for /bin/true (its measurement floor).
# Target: probecost's per-run cost / hyperfine's <= 1.0.
set -u
cd "$(dirname "$0")/.."
PC=${PROBECOST:-./probecost}
RUNS=${RUNS:-300}
ROUNDS=${ROUNDS:-3}
if ! command -v hyperfine >/dev/null; then
	echo "skip: hyperfine not installed (Debian package hyperfine)"; exit 0
fi
now() { date +%s%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
pc_tot=() hf_tot=() pc_mean=() hf_mean=()
for r in $(seq "$ROUNDS"); do
	# Interleaved rounds, so drift hits both tools alike.
	t0=$(now)
	js=$(taskset -c 0 "$PC" run --no-store --runs "$RUNS" --warmup 3 --format json -- /bin/true 2>/dev/null)
	t1=$(now)
	pc_tot+=("$(awk -v a="$t0" -v b="$t1" -v n="$((RUNS + 3))" 'BEGIN { print (b - a) / n / 1000 }')")
	pc_mean+=("$(printf '%s' "$js" | jq '.statistics[0].wall_ns.mean / 1000')")
	f=$(mktemp)
	t0=$(now)
	taskset -c 0 hyperfine -N --runs "$RUNS" --warmup 3 --export-json "$f" /bin/true >/dev/null 2>&1
	t1=$(now)
	hf_tot+=("$(awk -v a="$t0" -v b="$t1" -v n="$((RUNS + 3))" 'BEGIN { print (b - a) / n / 1000 }')")
	hf_mean+=("$(jq '.results[0].mean * 1e6' "$f")")
	rm -f "$f"
done
p=$(printf '%s\n' "${pc_tot[@]}" | median); h=$(printf '%s\n' "${hf_tot[@]}" | median)
pm=$(printf '%s\n' "${pc_mean[@]}" | median); hm=$(printf '%s\n' "${hf_mean[@]}" | median)
printf '%-22s %18s %22s\n' "tool" "us per run (total)" "mean of /bin/true (us)"
printf '%-22s %18.1f %22.1f\n' "probecost run" "$p" "$pm" "hyperfine -N" "$h" "$hm"
ratio=$(awk -v a="$p" -v b="$h" 'BEGIN { printf "%.2f", a / b }')
echo "ratio probecost/hyperfine per-run cost: $ratio (median of $ROUNDS rounds of $RUNS runs; target <= 1.0)"
awk -v r="$ratio" 'BEGIN { exit !(r <= 1.0) }' && echo "verdict: PASS" || echo "verdict: FAIL (above target)"
