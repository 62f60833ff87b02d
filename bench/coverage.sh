#!/bin/bash
# bench/coverage: do probecost's 95% intervals hold a known answer 95% of the time?
#
# A study is one `probecost run` of the spin workload (LOOPS events of WORK ns
# busy work, pinned to CPU $CPU) against the inject monitor, which makes the
# workload spin a known cost per event and once per run, each run's cost drawn
# as the scenario says; the workload times those spins itself and appends them
# to a log.  Scenarios (overhead = injected / the plain run's wall time):
#   sym        +50%, each run's cost normal with CoV 0.1 (symmetric noise)
#   lognormal  +50%, each run's cost lognormal with CoV 1 (a long tail)
#   hiccup     +50%, and 2% of the monitored runs +100% more (a rare flush)
#   low        +5%, normal CoV 0.1
#   high       +500%, normal CoV 0.1
# Paths: fixed (--runs 10, the default study's count), adaptive (the
# two-stage design: a pilot of 10, then the blocks asked for --precision, at
# most 40 in all; the precision is 0.8 x the fixed path's median half-width, so
# the plan usually asks for more than the pilot; since the pilot only plans, the
# second stage is at least 10 blocks and the sample) and fallback (the same with
# --max-runs 15: no room for a second stage as large as the pilot, so the pilot
# stays in and the study runs to the cap).  'blocks' counts the measured blocks
# a study ran, its pilot included.
#
# Truth comes only from measurements outside the study's estimate:
#   per event, fixed  the injected spins as the workload timed them (fixed: with
#                     the set-up only an injected run does, injected_setup_ns), pooled
#                     over the scenario's other studies (the population mean); not the
#                     colder end a longer run pays (bench/cache-after.sh: 20-40 us
#                     a run at sym's lengths on a KVM guest), which probecost counts
#   overhead          that pooled injected time per run / the plain run's mean
#                     wall time as `perf stat -n` measured it, PERF_RUNS runs
#                     right before and as many right after the study (the
#                     machine's speed drifts by 10% between sessions: a pooled
#                     plain time made +500%'s truth move by 50 points against
#                     intervals of +-23; 5 runs after alone put it 8% (sd) off
#                     the study's own plain mean, the plain wall time having a
#                     CoV of about 10%), not probecost
#   extra             the pooled injected time per run (ns a run; divides by nothing)
#   ov_own            a diagnostic, not a target: the overhead against the pooled
#                     injected time / the study's own plain mean wall time (its
#                     denominator is the study's, so it checks the numerator alone)
#   session           a second truth for per event, fixed, extra and overhead: the
#                     costs drawn at the session's own pace (its injected spins over
#                     the sum of their factors, whose mean is 1), hiccups and set-ups
#                     pooled: what this session's monitor costs in expectation.  The
#                     pooled truths also carry each session's own level (the level
#                     table below), which no interval from within one session can see;
#                     the column 'session' is the coverage of that truth.
#   timed             a third truth for per event, extra and the overheads: the pooled
#                     injected time plus what the workload's own timed loop took
#                     longer in monitored runs than in plain ones, less the injected
#                     spins (pooled over the other studies): the host's pauses
#                     straddle the deadline spins' ends more or less often as the
#                     injected spins change their period (bench/tickgaps.c; 1.5-1.9%
#                     of the injected cost at WORK=100000).  The column 'timed' is
#                     its coverage.
#   ended             a fourth truth for fixed, extra and the overheads: the timed one
#                     (fixed: the pooled one) plus the colder end a run pays for lasting
#                     longer (bench/cache-after.sh), measured with no monitor beside each
#                     scenario (end_delta below).  The column 'ended' is its coverage: a
#                     diagnostic, not the verdict's, since probecost's runner times it
#                     (in a session of its own).
#   own               the verdict's truth: the session one (the costs at the session's own
#                     pace) plus the timed one's work part, and for the overheads over the
#                     study's own plain mean wall time (fixed: the session one).  It leaves
#                     out every offset that does not shrink as blocks are added (the
#                     machine's level in this session, the bracket's plain time, the colder
#                     end): an interval narrower for more blocks (the two-stage path's)
#                     would miss such an offset more often for being more precise.
#   +u_T              a diagnostic for the overhead: its interval widened by the truth's
#                     own uncertainty (u_T%, relative, median shown), 1.96 x it and each arm
#                     in quadrature (the metrology way: |estimate - truth| against both).
#                     u_T is the bracket's sampling ((se_before^2 + se_after^2) / 4, from
#                     perf's "+-") and 1.5 x the level between the bracket and the study (the
#                     variance of log(before / after) beyond their sampling, halved; 1.5: the
#                     mean of two other levels and the study's own, independent, the worst
#                     case).  All from perf stat, none from probecost.
# For each figure: coverage (share of studies whose interval holds the truth)
# with its Wilson 95% interval, the median relative half-width (so wide
# intervals cannot pass unseen), unbounded intervals, and for the skewed
# scenarios 'told': the studies whose robust companion disagreed with the mean
# (the skew warning), and 'cov|told', covered or told.
# Then, per cell, each study's level against its runs' noise (the sd of the study
# means, the sd the runs predict for them, the excess) for the injected cost, its pace
# (the machine's speed alone) and the plain wall time: what moves between sessions.
# Targets, against the own truth: sym, low, high coverage in [0.93, 0.97];
# lognormal at least 0.90 (covered or told); hiccup at least 0.90 covered or told among the
# studies whose own monitored runs drew a hiccup (column "seen": that share and how many);
# on every path.
#
#   STUDIES (200)  SCENARIOS ("sym lognormal hiccup low high")  PATHS ("fixed adaptive fallback")
#   LOAD=1         busy loops on every other CPU, niced (the built-in load generator)
#   PERF_RUNS (15) perf stat -n runs of the plain workload before and after each study
#   QUICK=1        8 studies a cell, for a look      CPU (0)  LOOPS (500)  WORK (10000)
#   SEED0 (0)      study i runs with --seed SEED0+i: a second batch to pool with a first
#   WASHOUT (0)    --washout N: N unmeasured plain runs before each run after a monitored one
#   KEEP=FILE      keep every study's truth, estimate and interval there (one line a study and
#                  figure: scenario path figure truth estimate lo hi told blocks session-truth
#                  sample-blocks timed-truth ended-truth u_T own-truth hiccup-drawn;
#                  bench/coverage-z.py reads it)
#   SUMMARY=FILE   no studies: the tables of a summary KEEP kept (SCENARIOS, PATHS as it holds)
#   END_RUNS (2000) the blocks of the ended truth's plain-only study a scenario (0: none)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
CPU=${CPU:-0}
STUDIES=${STUDIES:-200}
[ "${QUICK:-0}" = 1 ] && STUDIES=8
SCENARIOS=${SCENARIOS:-sym lognormal hiccup low high}
PATHS=${PATHS:-fixed adaptive fallback}
LOOPS=${LOOPS:-500}
WORK=${WORK:-10000}
SEED0=${SEED0:-0}
LOAD=${LOAD:-0}
WASHOUT=${WASHOUT:-0}
PERF_RUNS=${PERF_RUNS:-15}
END_RUNS=${END_RUNS:-2000}
for t in jq perf taskset; do
	command -v $t >/dev/null || { echo "skip: $t not installed (Debian packages jq, linux-perf, util-linux)"; exit 0; }
done
tmp=$(mktemp -d)
loadpids=()
cleanup() {
	for p in "${loadpids[@]}"; do kill "$p" 2>/dev/null; done
	if [ -n "${KEEP:-}" ]; then cp "$tmp/summary" "$KEEP" 2>/dev/null; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
if [ "$LOAD" = 1 ]; then
	# The load generator: a busy loop pinned to each CPU but $CPU, niced, so it takes
	# every cycle there that nobody else wants (a shared machine's users keep theirs).
	for c in $(seq 0 $(($(nproc) - 1))); do
		[ "$c" = "$CPU" ] && continue
		taskset -c "$c" nice -n 19 bash -c 'while :; do :; done' &
		loadpids+=($!)
	done
fi
plain=(taskset -c "$CPU" "$PC" workload spin "loops=$LOOPS" "work=$WORK")
# perf stat -n -r N of the plain workload: "mean se": the mean wall time in ns and its
# relative standard error (perf's "+-", the standard deviation of the mean; nan without).
perf_mean() {
	taskset -c "$CPU" perf stat -n -r "$1" "${plain[@]:3}" 2>&1 >/dev/null |
		awk '/seconds time elapsed/ { e = $(NF - 1); if (sub(/%$/, "", e)) e /= 100; else e = "nan"
			printf "%.0f %s\n", $1 * 1e9, e }'
}
read -r base _ < <(perf_mean 30)
[ -n "$base" ] || { echo "FAIL: perf stat -n could not time the plain workload"; exit 1; }
monitor() { # monitor SCENARIO: the inject monitor of a scenario
	local x dist=",dist=normal,cov=0.1" extra=
	case $1 in
	sym) x=0.5 ;;
	lognormal) x=0.5 dist=",dist=lognormal,cov=1" ;;
	hiccup) x=0.5 dist='' extra=",hiccup=0.02,hiccup_ns=$base" ;;
	low) x=0.05 ;;
	high) x=5 ;;
	esac
	awk -v x="$x" -v b="$base" -v l="$LOOPS" -v d="$dist" -v e="$extra" 'BEGIN {
		printf "inject:event=%.0f,fixed=%.0f%s%s %.2f\n", 0.8 * x * b / l, 0.2 * x * b, d, e, 20 * x }'
}
# long_work MON: the work per event of a plain run as long as MON's monitored ones
# (each event's work lengthened by MON's cost per event and its fixed cost spread).
long_work() {
	local ev fx
	ev=$(printf '%s' "$1" | sed -n 's/.*event=\([0-9]*\).*/\1/p')
	fx=$(printf '%s' "$1" | sed -n 's/.*fixed=\([0-9]*\).*/\1/p')
	awk -v w="$WORK" -v e="${ev:-0}" -v f="${fx:-0}" -v l="$LOOPS" 'BEGIN { printf "%.0f", w + e + f / l }'
}
# end_delta MON: what a plain run as long as MON's monitored ones spends outside its
# timed loop beyond a plain run's, in ns, with its 95% interval: "mean lo hi", or
# "nan nan nan".  No monitor runs: END_RUNS interleaved blocks of two plain spin
# workloads, one with each event's work lengthened by MON's cost per event (its fixed
# cost spread over the events), timed by probecost's runner as a study is (wall_ns -
# timed_ns, paired by block).  perf stat cannot time it so: its chunks of back-to-back
# runs also start each longer run after a longer one, whose colder start it adds
# (bench/results/coverage.md: +117 against +26 us at sym), and a run at a time is
# too noisy (its own start-up: +-60 us at 400 pairs).
end_delta() {
	local w2
	[ "$END_RUNS" -gt 0 ] || { echo "nan nan nan"; return; }
	w2=$(long_work "$1")
	"$PC" run --no-store --format json --runs "$END_RUNS" --warmup 1 --cpu "$CPU" --seed 1 \
		-w "spin:loops=$LOOPS,work=$WORK" -w "spin:loops=$LOOPS,work=$w2" 2>/dev/null |
		jq -r '.session.configs | to_entries[] | .key as $c | .value.samples[] |
			select((.warmup or .failed) | not) | "\(.block) \($c) \(.wall_ns - .timed_ns)"' |
		paired_delta
}
# paired_delta: lines "pair which ns" (which 0: the plain workload, 1: the longer one)
# in, "mean lo hi" of the pairs' differences (longer - plain) out, with a 95% t
# interval (t: 2.0 from 60 pairs, the default, 2.045 from 30, else 2.262), or "nan nan nan".
paired_delta() {
	awk '{ out[$2, $1] = $3 }
		END { for (k in out) { split(k, p, SUBSEP); if (p[1] == 1 && ((0, p[2]) in out)) {
				d = out[1, p[2]] - out[0, p[2]]; m++; sd += d; ss += d * d } }
			if (m < 3) { print "nan nan nan"; exit }
			mu = sd / m; se = sqrt((ss - m * mu * mu) / (m - 1) / m); t = m >= 60 ? 2.0 : (m >= 30 ? 2.045 : 2.262)
			printf "%.0f %.0f %.0f\n", mu, mu - t * se, mu + t * se }'
}
# Wilson score interval of k successes in n at 95%: "lo hi".
wilson() {
	awk -v k="$1" -v n="$2" 'BEGIN { z = 1.959964; if (n == 0) { print "nan nan"; exit }
		p = k / n; c = (p + z * z / (2 * n)) / (1 + z * z / n)
		h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
		printf "%.3f %.3f\n", c - h, c + h }'
}
t0=$(date +%s)
printf '# bench/coverage: %d studies a cell, spin loops=%d work=%d ns pinned to CPU %s, %s\n' \
	"$STUDIES" "$LOOPS" "$WORK" "$CPU" "$([ "$LOAD" = 1 ] && echo "LOAD=1 (busy loops on the other CPUs)" || echo "quiet (no load generator)")"
[ "$WASHOUT" = 0 ] || printf '# --washout %s: that many unmeasured plain runs before each run that follows a monitored one\n' "$WASHOUT"
printf '# plain run %.2f ms (perf stat -n -r 30); load average %s\n' "$(awk -v b="$base" 'BEGIN { print b / 1e6 }')" "$(cut -d' ' -f1-3 /proc/loadavg)"
summary="$tmp/summary"
: >"$summary"
# SUMMARY=FILE: the tables of a summary kept before (KEEP=FILE), no studies run.
run_scenarios=$SCENARIOS
if [ -n "${SUMMARY:-}" ]; then
	cp "$SUMMARY" "$summary" || exit 1
	run_scenarios=
	printf '# the studies of %s, tabulated again\n' "$SUMMARY"
fi
for sc in $run_scenarios; do
	read -r mon prec < <(monitor "$sc")
	read -r dend dlo dhi < <(end_delta "$mon")
	printf '%s %s %s %s\n' "$sc" "$dend" "$dlo" "$dhi" >>"$tmp/ends"
	for path in $PATHS; do
		cell="$tmp/$sc.$path"
		mkdir -p "$cell"
		# A precision the pilot usually misses: 0.8 x the fixed path's median
		# half-width, so the plan asks for about 1.5 x 10 x 1.56 = 23 blocks.
		if [ "$path" != fixed ] && [ -s "$tmp/$sc.fixed/rows" ]; then
			prec=$(awk '$7 != "null" && $8 != "null" { print 100 * ($8 - $7) / 2 }' "$tmp/$sc.fixed/rows" |
				sort -g | awk '{ a[NR] = $1 } END { if (NR) { p = 0.8 * a[int((NR + 1) / 2)]; printf "%.3f", (p > 100 ? 100 : p) } }')
		fi
		case $path in
		fixed) how=(--runs 10) ;;
		adaptive) how=(--precision "${prec:-10}" --min-runs 10 --max-runs 40 --max-time 30) ;;
		# No room for a second stage as large as the pilot (15 < 2 x 10): the runner
		# keeps the pilot and runs to the cap, whatever the pilot planned.
		fallback) how=(--precision "${prec:-10}" --min-runs 10 --max-runs 15 --max-time 30) ;;
		esac
		: >"$cell/perf"
		for i in $(seq "$STUDIES"); do
			read -r before bse < <(perf_mean "$PERF_RUNS")
			PCOST_SPIN_LOG="$cell/log.$i" "$PC" run --no-store --format json "${how[@]}" --warmup 1 --washout "$WASHOUT" \
				--cpu "$CPU" --seed "$((SEED0 + i))" -w "spin:loops=$LOOPS,work=$WORK" -m "$mon" \
				>"$cell/s.$i.json" 2>/dev/null || { echo "study $sc/$path/$i failed" >&2; rm -f "$cell/s.$i.json"; }
			read -r after ase < <(perf_mean "$PERF_RUNS")
			# the bracket's mean, both sides and their relative standard errors
			printf '%.0f %s %s %s %s\n' "$(awk -v a="$before" -v b="$after" 'BEGIN { print (a + b) / 2 }')" \
				"$before" "$after" "$bse" "$ase" >>"$cell/perf"
			printf '\r%s/%s: study %d/%d (%d s)' "$sc" "$path" "$i" "$STUDIES" "$(($(date +%s) - t0))" >&2
		done
		# Per study: its injected sums (monitored runs) and its estimates.
		for i in $(seq "$STUDIES"); do
			[ -s "$cell/s.$i.json" ] || continue
			sums=$(awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
				if (f["inject"] == 1) { n++; ev += f["events"]; e += f["injected_event_ns"] + f["injected_hiccup_ns"]
					fx += f["injected_fixed_ns"] + f["injected_setup_ns"] } }
				END { printf "%d %.0f %.0f %.0f", n, ev, e, fx }' "$cell/log.$i")
			# The session's own pace: its injected spins over the sum of their drawn factors
			# (mean 1; a ratio of sums, which a tiny factor cannot blow up), and the hiccups
			# and set-ups apart (pooled below: rare, or not drawn).
			psums=$(awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
				if (f["inject"] == 1) { n++; sf += f["factor"]; pe += f["injected_event_ns"]
					pf += f["injected_fixed_ns"]; h += f["injected_hiccup_ns"]; su += f["injected_setup_ns"] } }
				END { printf "%d %.6f %.0f %.0f %.0f %.0f", n, sf, pe, pf, h, su }' "$cell/log.$i")
			# The timed loop's work part (timed_ns less the injected spins in it): its sum
			# and count over the monitored runs, then over the plain ones.
			tsums=$(awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
				if (f["inject"] == 1) { wm += f["timed_ns"] - f["injected_event_ns"] - f["injected_hiccup_ns"]; nm++ }
				else if (f["inject"] == 0 && f["washout"] != 1) { wp += f["timed_ns"]; np++ } }
				END { printf "%.0f %d %.0f %d", wm, nm, wp, np }' "$cell/log.$i")
			read -r sbase pb pa pbs pas < <(sed -n "${i}p" "$cell/perf")
			# The bracket's own uncertainty: its sampling variance as the truth's denominator
			# ((se_b^2 + se_a^2) / 4), and for the level below the log ratio of its two sides
			# and the sum of their squared standard errors.
			pu=$(awk -v b="${pb:-0}" -v a="${pa:-0}" -v sb="${pbs:-nan}" -v sa="${pas:-nan}" 'BEGIN {
				if (b > 0 && a > 0 && sb + 0 == sb && sa + 0 == sa) printf "%.9g %.9g %.9g", (sb * sb + sa * sa) / 4, log(b / a), sb * sb + sa * sa
				else print "nan nan nan" }')
			jq -r --arg sums "$sums" --arg sbase "${sbase:-0}" --arg psums "$psums" --arg tsums "$tsums" --arg pu "$pu" '
				(.statistics | map(select(.monitor != "none"))[0]) as $m |
				(.warnings | map(select(test("overhead mean .*skewed"))) | length) as $to |
				(.warnings | map(select(test("per event mean .*skewed"))) | length) as $te |
				(.warnings | map(select(test("overhead mean .*skewed, and the extra time|extra time mean .*skewed"))) | length) as $tx |
				(.warnings | map(select(test("fixed mean .*skewed"))) | length) as $tf |
				def n: if . == null then "null" else tostring end;
				"\($sums) \($m.pairs + (.options.pilot_blocks // 0)) \($m.overhead|n) \($m.overhead_lo|n) \($m.overhead_hi|n) \($to) " +
				"\($m.per_event_ns|n) \($m.per_event_ns_lo|n) \($m.per_event_ns_hi|n) \($te) " +
				"\($m.fixed_ns|n) \($m.fixed_ns_lo|n) \($m.fixed_ns_hi|n) \($sbase) " +
				"\($m.extra_ns|n) \($m.extra_ns_lo|n) \($m.extra_ns_hi|n) " +
				"\(.statistics | map(select(.monitor == "none"))[0].wall_ns.mean | n) \($psums) \($m.pairs) \($tsums) \($tx) \($tf) \($pu)"' "$cell/s.$i.json"
		done >"$cell/rows"
		# Per study, for the level table: the mean and variance over its runs of the
		# injected time (monitored runs), of the time the nominal spins took (injected
		# / the run's drawn factor: the machine's pace alone) and of the plain wall time.
		for i in $(seq "$STUDIES"); do
			[ -s "$cell/s.$i.json" ] || continue
			{
				awk '{ for (k = 1; k <= NF; k++) { split($k, kv, "="); f[kv[1]] = kv[2] }
					if (f["inject"] != 1 || f["factor"] <= 0) next
					x = f["injected_event_ns"] + f["injected_fixed_ns"] + f["injected_hiccup_ns"] + f["injected_setup_ns"]
					y = (f["injected_event_ns"] + f["injected_fixed_ns"]) / f["factor"]
					n++; sx += x; sxx += x * x; sy += y; syy += y * y }
					END { if (n > 1) printf "%d %.6g %.6g %.6g %.6g ", n, sx / n, (sxx - sx * sx / n) / (n - 1),
						sy / n, (syy - sy * sy / n) / (n - 1); else printf "0 0 0 0 0 " }' "$cell/log.$i"
				jq -r '[.session.configs[] | select(.monitor == "none") | .samples[] |
					select(.warmup | not) | .wall_ns] | length as $n | (add / $n) as $m |
					"\($n) \($m) \((map((. - $m) * (. - $m)) | add) / ($n - 1))"' "$cell/s.$i.json"
			}
		done >"$cell/levels"
		awk -v sc="$sc" -v path="$path" '$1 > 1 && $6 > 1 { k++
				# (runs, mean, variance) of injected, pace and plain: fields 1-3, 1 4 5, 6-8
				add(0, $1, $2, $3); add(1, $1, $4, $5); add(2, $6, $7, $8) }
			function add(j, n, m, v) { S[j] += m; SS[j] += m * m; W[j] += v / n }
			END { if (k < 3) exit
				printf "%-10s %-9s %6d", sc, path, k
				for (j = 0; j < 3; j++) { mm = S[j] / k; vb = (SS[j] - S[j] * S[j] / k) / (k - 1); w = W[j] / k
					printf "  %7.2f %7.2f %7.2f", 100 * sqrt(vb) / mm, 100 * sqrt(w) / mm,
						100 * sqrt(vb > w ? vb - w : 0) / mm }
				printf "\n" }' "$cell/levels" >>"$tmp/levels"
		pbase=$(awk '{ s += $1; n++ } END { if (n) printf "%.0f", s / n }' "$cell/perf")
		# Leave-one-out truths, then one line per figure: coverage and widths.
		# Session truths (the 10th field): the drawn costs at the session's own pace (its
		# injected spins over the sum of their factors, mean 1), hiccups and set-ups pooled
		# over the other studies: what this session's monitor costs in expectation.
		awk -v base="$pbase" -v sc="$sc" -v path="$path" -v dend="${dend:-nan}" '
			{ n[NR] = $1; ev[NR] = $2; e[NR] = $3; fx[NR] = $4; r[NR] = $0; N += $1; EV += $2; E += $3; FX += $4
			  h[NR] = $26; su[NR] = $27; H += $26; SU += $27
			  wm[NR] = $29; nm[NR] = $30; wp[NR] = $31; np[NR] = $32; WM += $29; NM += $30; WP += $31; NP += $32
			  if ($36 != "nan") { ku++; D += $36; DD += $36 * $36; SS += $37 } }
			END {
				# The level between the bracket and the study: the variance of the log ratio of
				# the two sides of the bracket beyond their sampling (2 levels apart), halved;
				# the denominator of the truth then differs from the level of the study by the
				# sampling of the bracket ((se_b^2 + se_a^2) / 4) and 1.5 levels (the mean of
				# two others, and that of the study), independent: the worst case, white here.
				lv2 = ku > 2 ? ((DD - D * D / ku) / (ku - 1) - SS / ku) / 2 : 0
				if (lv2 < 0) lv2 = 0
				for (i = 1; i <= NR; i++) {
					split(r[i], f, " ")
					pairs = f[28]
					tn = N - n[i]; tev = EV - ev[i]
					tper = (E - e[i]) / tev; tfix = (FX - fx[i]) / tn
					tov = ((E - e[i]) + (FX - fx[i])) / tn / (f[17] > 0 ? f[17] : base)
					# per run: events, the session-paced event and fixed costs
					epr = ev[i] / n[i]; sper = "nan"; sfix = "nan"
					if (f[23] > 0) {
						sper = f[24] / f[23] / epr + (H - h[i]) / tev
						sfix = f[25] / f[23] + (SU - su[i]) / tn
					}
					sext = sper == "nan" ? "nan" : sper * epr + sfix
					# the work part: its extra per monitored run, pooled over the other studies
					wx = "nan"
					if (NM - nm[i] > 0 && NP - np[i] > 0)
						wx = (WM - wm[i]) / (NM - nm[i]) - (WP - wp[i]) / (NP - np[i])
					text = (E - e[i] + FX - fx[i]) / tn + wx
					tden = f[17] > 0 ? f[17] : base
					# the ended truth: the timed extra (else the pooled one) and the colder end
					eext = dend == "nan" ? "nan" : (wx == "nan" ? (E - e[i] + FX - fx[i]) / tn : text) + dend
					u = f[35] == "nan" ? "nan" : sqrt(f[35] + 1.5 * lv2)
					# the own truths (the verdict takes them): at the pace of the session, the
					# pooled work part, and for the overhead over the plain mean of the study:
					# no offset that stays as blocks grow (a level, the bracket, the colder end)
					oext = sext == "nan" ? "nan" : sext + (wx == "nan" ? 0 : wx)
					fig(1, "overhead", tov, f[6], f[7], f[8], f[9], f[5], sext == "nan" ? "nan" : sext / tden,
						wx == "nan" ? "nan" : text / tden, eext == "nan" ? "nan" : eext / tden, u,
						oext == "nan" || f[21] <= 0 ? "nan" : oext / f[21])
					fig(2, "per_event", tper, f[10], f[11], f[12], f[13], f[5], sper, wx == "nan" ? "nan" : tper + wx / epr,
						"nan", "nan", sper == "nan" ? "nan" : sper + (wx == "nan" ? 0 : wx / epr))
					fig(3, "fixed", tfix, f[14], f[15], f[16], f[34], f[5], sfix, tfix, dend == "nan" ? "nan" : tfix + dend,
						"nan", sfix)
					fig(4, "extra", (E - e[i] + FX - fx[i]) / tn, f[18], f[19], f[20], f[33], f[5], sext,
						wx == "nan" ? "nan" : text, eext, "nan", oext)
					if (f[21] > 0)
						fig(5, "ov_own", ((E - e[i]) + (FX - fx[i])) / tn / f[21], f[6], f[7], f[8], f[9], f[5],
							sext == "nan" ? "nan" : sext / f[21], wx == "nan" ? "nan" : text / f[21],
							eext == "nan" ? "nan" : eext / f[21], "nan", oext == "nan" ? "nan" : oext / f[21])
				}
			}
			function fig(k, name, t, v, lo, hi, told, blocks, st, tt, et, u, ot) {
				if (v == "null") return
				# the last field: whether the monitored runs of the study drew a hiccup
				print sc, path, name, t, v, lo, hi, told, blocks, st, pairs, tt, et, u == "" ? "nan" : u,
					ot == "" ? "nan" : ot, (h[i] > 0 ? 1 : 0)
			}' "$cell/rows" >>"$summary"
	done
done
echo >&2
elapsed=$(($(date +%s) - t0))
if [ -s "$tmp/ends" ]; then
	printf '\n# the colder end (ended truth): a plain run as long as a monitored one, beyond a plain one, %s blocks\n' "$END_RUNS"
	awk '{ if ($2 == "nan") printf "%-10s n/a\n", $1; else printf "%-10s %+.1f us [%+.1f, %+.1f]\n", $1, $2 / 1000, $3 / 1000, $4 / 1000 }' "$tmp/ends"
fi
printf '\n%-10s %-9s %-10s %6s %6s %15s %8s %8s %6s %9s %8s  %-7s %7s %7s %7s %7s %7s %6s %s\n' scenario path figure studies cover "[95% Wilson]" "hw/truth" unbound told "cov|told" blocks verdict session pooled timed ended "+u_T" "u_T%" "seen"
for sc in $SCENARIOS; do
	for path in $PATHS; do
		for fg in overhead per_event fixed extra ov_own; do
			# The verdict's truth is the own one (field 15: the session's pace, the pooled
			# work part, the study's own plain mean), else the timed one (12), else the
			# pooled one, which moves to field 16 and is shown beside it with the session
			# (10), timed and ended (13) ones.
			sel=$(awk -v s="$sc" -v p="$path" -v f="$fg" '$1 == s && $2 == p && $3 == f {
				own = NF >= 15 && $15 != "nan"; timed = NF >= 12 && $12 != "nan"; $17 = $4
				if (own) $4 = $15; else if (timed) $4 = $12
				print }' "$summary")
			[ -n "$sel" ] || continue
			# +u_T: the interval widened by the truth's own uncertainty (field 14, relative: the
			# bracket's sampling and the level between it and the study), 1.96 x it and each
			# arm in quadrature, the metrology way (|estimate - truth| against both).
			ku=$(printf '%s\n' "$sel" | awk '$14 != "nan" && $14 != "" && $6 != "null" && $7 != "null" { m++
					w = 1.959964 * ($17 < 0 ? -$17 : $17) * $14
					lo = $5 - sqrt(($5 - $6) ^ 2 + w * w); hi = $5 + sqrt(($7 - $5) ^ 2 + w * w)
					k += (lo <= $17 && $17 <= hi) }
				END { print m ? sprintf("%.3f", k / m) : "n/a" }')
			umed=$(printf '%s\n' "$sel" | awk '$14 != "nan" && $14 != "" { printf "%.4f\n", 100 * $14 }' | sort -g |
				awk '{ a[NR] = $1 } END { print NR ? sprintf("%.2f", a[int((NR + 1) / 2)]) : "n/a" }')
			read -r n k unb told either blk ks kp kt ke nh eh < <(printf '%s\n' "$sel" | awk '{ n++
				ub = ($6 == "null" || $7 == "null"); u += ub
				c = ub || ($6 <= $4 && $4 <= $7); k += c; t += ($8 > 0); ct += (c || $8 > 0); b += $9
				if ($16 == 1) { nh++; eh += (c || $8 > 0) }
				if ($10 != "nan") { ns++; ks += ub || ($6 <= $10 && $10 <= $7) }
				kp += ub || ($6 <= $17 && $17 <= $7)
				if ($12 != "nan") { nt++; kt += ub || ($6 <= $12 && $12 <= $7) }
				if ($13 != "nan") { ne++; ke += ub || ($6 <= $13 && $13 <= $7) } }
				END { printf "%d %d %d %d %d %.1f %s %.3f %s %s %d %d\n", n, k, u, t, ct, b / n, ns ? sprintf("%.3f", ks / ns) : "n/a",
					kp / n, nt ? sprintf("%.3f", kt / nt) : "n/a", ne ? sprintf("%.3f", ke / ne) : "n/a", nh, eh }')
			read -r wlo whi < <(wilson "$k" "$n")
			hw=$(printf '%s\n' "$sel" | awk '$6 != "null" && $7 != "null" { printf "%.4f\n", ($7 - $6) / 2 / ($4 < 0 ? -$4 : $4) }' |
				sort -g | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : "nan" }')
			cov=$(awk -v k="$k" -v n="$n" 'BEGIN { printf "%.3f", k / n }')
			ct=$(awk -v k="$either" -v n="$n" 'BEGIN { printf "%.3f", k / n }')
			# hiccup: covered-or-told among the studies whose own runs drew a hiccup (a study
			# that drew none cannot hold a mean one carries: docs/statistics.md)
			seen=n/a
			[ "$sc" = hiccup ] && seen=$(awk -v e="$eh" -v n="$nh" 'BEGIN { printf n ? "%.3f(%d)" : "n/a(0)", e / n, n }')
			case $sc in
			lognormal) verdict=$(awk -v c="$cov" -v t="$ct" 'BEGIN { print (c >= 0.90 || t >= 0.90) ? "ok" : "MISS" }') ;;
			hiccup) verdict=$(awk -v e="$eh" -v n="$nh" 'BEGIN { print ((n && e / n >= 0.90) ? "ok" : "MISS") }') ;;
			*) verdict=$(awk -v c="$cov" -v lo="$wlo" -v hi="$whi" 'BEGIN {
				if (c >= 0.93 && c <= 0.97) print "ok"; else if (hi >= 0.93 && lo <= 0.97) print "ok?"; else print "MISS" }') ;;
			esac
			printf '%-10s %-9s %-10s %6d %6s %15s %8s %8d %6d %9s %8s  %-7s %7s %7s %7s %7s %7s %6s %s\n' "$sc" "$path" "$fg" "$n" "$cov" \
				"[$wlo, $whi]" "$hw" "$unb" "$told" "$ct" "$blk" "$verdict" "$ks" "$kp" "$kt" "$ke" "$ku" "$umed" "$seen"
		done
	done
done
# Each study's level against its runs' noise: the sd of the study means over the
# studies, the sd the runs' own noise predicts for them, and the excess (a level of
# its own each study takes, which no interval from within one study can see), all in
# % of the mean.  injected: the monitor's cost; pace: that cost over its drawn factor
# (the machine's speed alone); plain: the plain wall time.
if [ -s "$tmp/levels" ]; then
	printf '\n# between-study level, %% of the mean: sd of the study means / sd their runs predict / excess\n'
	printf '%-10s %-9s %6s  %-23s  %-23s  %-23s\n' scenario path studies "injected" "pace" "plain"
	cat "$tmp/levels"
fi
printf '\n# %d s in all; load average at the end %s\n' "$elapsed" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '# ok?: the point estimate is outside [0.93, 0.97] but its Wilson interval reaches it\n'
