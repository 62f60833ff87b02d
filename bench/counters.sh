#!/bin/bash
# bench/counters: median cost of one read of k events, probecost's best path vs PAPI_read,
# measured side by side in one run.  Targets: best/PAPI <= 1.0 for every k;
# perf-group <= perf-read for every k >= 2.  Prints a table and a verdict; exit 0 either way
# unless the measurement itself failed (numbers on a busy machine are not verdicts).
set -u
P="${PROBECOST:-./probecost}"
ITER="${BENCH_ITERATIONS:-2048}"
ROUNDS="${BENCH_ROUNDS:-4}"
# Rounds alternate the order of the interfaces, so drift on a shared machine does not
# favour whichever runs first; each figure is the median over rounds of the per-round median.
outs=()
for ((r = 0; r < ROUNDS; r++)); do
	if ((r % 2)); then order=papi,perf-mmap,perf-group,perf-read
	else order=perf-read,perf-group,perf-mmap,papi; fi
	o=$("$P" counters --interfaces "$order" --events 1,2,4,8,16 --iterations "$ITER" \
		--warmup 256 --no-store --format json) || { echo "bench/counters: probecost counters failed"; exit 1; }
	outs+=("$o")
done
# Merge the rounds: one series per (interface, k, op) whose median is the median of medians.
out=$(printf '%s\n' "${outs[@]}" | jq -s '
  def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  { options: .[0].options,
    series: ([.[].series[]] | group_by([.interface, .k, .op])
             | map(if .[0].skipped then .[0] else .[0] + { ns: { median: (map(.ns.median) | median) } } end)) }')
echo "$out" | jq -r --arg iter "$ITER" --arg rounds "$ROUNDS" '
  def med(i; k): [.series[] | select(.interface == i and .k == k and .op == "read" and (.skipped | not)) | .ns.median | round][0];
  (.options.timer_why) as $timer
  | [.series[] | select(.skipped) | "  skipped " + .interface + ": " + .note] as $skips
  | [1,2,4,8,16] as $ks
  | [ $ks[] as $k
      | { k: $k, read: med("perf-read"; $k), group: med("perf-group"; $k),
          mmap: med("perf-mmap"; $k), papi: med("papi"; $k) }
      | .best = ([.read, .group, .mmap] | map(select(. != null)) | min)
      | .bestname = (if .best == .mmap then "perf-mmap" elif .best == .group then "perf-group" else "perf-read" end)
      | .ratio = (if .papi then .best / .papi else null end) ] as $rows
  | "# bench/counters: median ns of one read of k events, \($iter) iterations per round, median of \($rounds) rounds",
    "# timer: \($timer)",
    "",
    "   k  perf-read  perf-group  perf-mmap       papi   best (path)            best/papi  group<=read",
    ( $rows[] | "  \(.k | tostring | (" " * (2 - length)) + .)  \(.read | tostring | .[0:9] | (" " * (9 - length)) + .)  \(.group | tostring | .[0:10] | (" " * (10 - length)) + .)  \((.mmap // "-") | tostring | .[0:9] | (" " * (9 - length)) + .)  \((.papi // "-") | tostring | .[0:9] | (" " * (9 - length)) + .)   \(.best | tostring | .[0:9]) (\(.bestname))\(" " * (12 - (.bestname | length) + 6 - (.best | tostring | length)))  \(if .ratio then (.ratio * 1000 | round / 1000 | tostring) else "n/a" end)  \(if .k >= 2 then (if .group <= .read then "yes" else "NO" end) else "-" end)" ),
    "",
    ( $skips[] ),
    ( if ([$rows[] | select(.ratio == null)] | length) > 0 then "verdict: best/papi: PAPI not measured here (see skipped)"
      elif ([$rows[] | select(.ratio > 1.0)] | length) == 0 then "verdict: best/papi <= 1.0 for every k: MET"
      else "verdict: best/papi <= 1.0: NOT MET for k = \([$rows[] | select(.ratio > 1.0) | .k] | map(tostring) | join(","))" end ),
    ( if ([$rows[] | select(.k >= 2 and .group > .read)] | length) == 0 then "verdict: perf-group <= perf-read for every k >= 2: MET"
      else "verdict: perf-group <= perf-read: NOT MET for k = \([$rows[] | select(.k >= 2 and .group > .read) | .k] | map(tostring) | join(","))" end )
'
