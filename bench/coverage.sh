#!/bin/bash
# bench/coverage: do probecost's 95% intervals hold a known answer 95% of the time?
#
# Each study is `probecost run` at the default (and smallest trusted) block
# count, --runs 5, on the spin workload (LOOPS events of WORK ns busy work,
# pinned to CPU $CPU), against the inject monitor, which makes the workload spin
# EVENT ns per event and FIXED ns once before its timed region.  The workload
# times those spins itself and appends them to $PCOST_SPIN_LOG, so the truth of
# each study is what was injected in that study's own runs, load included.
# --scale 1,2 adds the fit.  Truths:
#   per event      mean injected spin per event (all monitored runs)
#   fixed          mean injected fixed spin per run
#   extra          fixed + LOOPS x per event (scale 1)
#   overhead       extra / the study's mean baseline wall time (scale 1)
#   fit per event, fit fixed: the same truths, from the --scale fit
# probes' per hit is the same estimator as per event (analyze.c), so this row
# stands for it.  For each figure: coverage (share of studies whose interval
# holds the truth), mean bias (estimate / truth - 1) and median half-width.
# Target: coverage >= 0.90 and |bias| <= 3% for every figure.
#   STUDIES (default 24), QUICK=1 (8 studies, for a look), LOOPS, WORK, EVENT, FIXED, CPU.
set -u
cd "$(dirname "$0")/.."
PC=$(realpath "${PROBECOST:-./probecost}")
CPU=${CPU:-0}
STUDIES=${STUDIES:-24}
[ "${QUICK:-0}" = 1 ] && STUDIES=8
LOOPS=${LOOPS:-20000}
WORK=${WORK:-1000}
EVENT=${EVENT:-500}
FIXED=${FIXED:-5000000}
command -v jq >/dev/null || { echo "skip: jq not installed (Debian package jq)"; exit 0; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rows="$tmp/rows"
: >"$rows"
t0=$(date +%s)
for i in $(seq "$STUDIES"); do
	log="$tmp/log.$i"
	PCOST_SPIN_LOG="$log" "$PC" run --no-store --format json --runs 5 --warmup 1 --cpu "$CPU" \
		--seed "$i" --scale 1,2 -w "spin:loops=$LOOPS,work=$WORK" \
		-m "inject:event=$EVENT,fixed=$FIXED" >"$tmp/s.json" 2>/dev/null || {
		echo "study $i failed"; continue; }
	# Truths of this study, from the workload's own log of its monitored runs.
	read -r tev tfx < <(awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
		if (f["injected_event_ns"] > 0) { ev += f["events"]; inj += f["injected_event_ns"];
			fx += f["injected_fixed_ns"]; n++ } }
		END { printf "%.6f %.1f\n", inj / ev, fx / n }' "$log")
	# One row per figure: name truth estimate lo hi.
	jq -r --argjson tev "$tev" --argjson tfx "$tfx" --argjson n "$LOOPS" '
		(.statistics | map(select(.monitor == "none" and (.workload_args | test("loops=\($n) "))))[0]) as $b |
		(.statistics | map(select(.monitor != "none" and (.workload_args | test("loops=\($n) "))))[0]) as $m |
		($tfx + $n * $tev) as $extra |
		"per_event \($tev) \($m.per_event_ns) \($m.per_event_ns_lo) \($m.per_event_ns_hi)",
		"fixed \($tfx) \($m.fixed_ns) \($m.fixed_ns_lo) \($m.fixed_ns_hi)",
		"extra \($extra) \($m.extra_ns) \($m.extra_ns_lo) \($m.extra_ns_hi)",
		"overhead \($extra / $b.wall_ns.mean) \($m.overhead) \($m.overhead_lo) \($m.overhead_hi)",
		"fit_per_event \($tev) \($m.fit_per_event_ns) \($m.fit_per_event_ns_lo) \($m.fit_per_event_ns_hi)",
		"fit_fixed \($tfx) \($m.fit_fixed_ns) \($m.fit_fixed_ns_lo) \($m.fit_fixed_ns_hi)"
	' "$tmp/s.json" >>"$rows"
	printf '\rstudy %d/%d (%d s)' "$i" "$STUDIES" "$(($(date +%s) - t0))" >&2
done
echo >&2
echo "# $STUDIES studies of probecost run --runs 5 --warmup 1 --scale 1,2 --cpu $CPU:"
echo "# spin loops=$LOOPS work=$WORK ns, inject:event=$EVENT,fixed=$FIXED; $(($(date +%s) - t0)) s"
echo "# truth: the injected spins as the workload timed them (mean per event $(awk '$1 == "per_event" { s += $2; n++ } END { printf "%.0f", s / n }' "$rows") ns)"
printf '%-14s %8s %9s %10s %14s  %s\n' figure studies coverage "bias" "half-width" verdict
fail=0
for f in per_event fixed extra overhead fit_per_event fit_fixed; do
	sel() { awk -v f="$f" '$1 == f && $3 != "null" && $4 != "null" && $5 != "null"' "$rows"; }
	read -r n cov bias < <(sel | awk '{ n++; if ($4 <= $2 && $2 <= $5) c++; b += $3 / $2 - 1 }
		END { if (!n) print 0, "nan", "nan"; else printf "%d %.3f %+.2f%%\n", n, c / n, 100 * b / n }')
	hw=$(sel | awk '{ printf "%.1f%%\n", 100 * ($5 - $4) / 2 / $2 }' | sort -g |
		awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "nan" }')
	ok=$(awk -v c="$cov" -v b="${bias%\%}" -v n="$n" 'BEGIN { print (n > 0 && c >= 0.90 && b <= 3 && b >= -3) ? "ok" : "MISS" }')
	[ "$ok" = ok ] || fail=1
	printf '%-14s %8s %9s %10s %14s  %s\n' "$f" "$n" "$cov" "$bias" "+-$hw" "$ok"
done
[ $fail = 0 ] && echo "verdict: PASS (coverage >= 0.90, |bias| <= 3% for every figure)" \
	|| echo "verdict: FAIL (a figure below 0.90 coverage or beyond 3% bias)"
