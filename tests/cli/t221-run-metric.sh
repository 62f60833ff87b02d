#!/bin/bash
# parallel-safe
# run --metric: figures a command prints, known exactly (tests/cli/fake/tps-print prints
# tps 100 and latency 2 ms; under a wrapper that sets PC_TPS=90 PC_LAT=2.5, 90 and 2.5),
# analysed as elapsed time: means, changes (-10% and +25% exactly) with their intervals,
# in JSON, CSV and text, kept by the store; the last match wins, stderr is searched; a
# regex that never matches fails the runs and the command, naming the metric.
. "$(dirname "$0")/lib.bash"
plan 21
have jq || skip_rest "jq is not installed (apt-get install jq)"
tmpdir
export PROBECOST_DB=$T/pc.db
W="env PC_TPS=90 PC_LAT=2.5 PC_RPS=60"
RUN=(run --runs 5 --warmup 1 --seed 3 --metric pgbench --metric 'rps:higher=^rps: ([0-9.]+)'
	-m "$W")
run_pc "${RUN[@]}" --format json -- "$F/tps-print"
is "$rc" 0 "exit 0"
live_json=$out
j() { jq -r "$1" <<< "$out"; }
m() { j ".statistics[$1].metrics[] | select(.name == \"$2\") | .$3"; }
is "$(j '[.statistics[0].metrics[].name] | join(",")')" "tps,latency_avg,rps" \
	"the figures of the preset and of --metric, in order (latency_stddev, not printed, left out)"
is "$(m 0 tps unit) $(m 0 tps better) $(m 0 latency_avg unit) $(m 0 latency_avg better)" \
	"tps higher ms lower" "units and directions: the preset's"
is "$(m 0 tps mean) $(m 0 tps mean_lo) $(m 0 tps mean_hi) $(m 1 tps mean)" "100 100 100 90" \
	"tps: the last 'tps =' line (100, not the 1 printed before it), 90 under the wrapper"
# shellcheck disable=SC2317 # called from assert's eval
close() { awk -v x="$1" -v w="$2" 'BEGIN { exit !(x - w < 1e-9 && w - x < 1e-9) }'; }
assert "tps change -10% exactly, interval [-10, -10] ($(m 1 tps change))" \
	'close "$(m 1 tps change)" -0.1 && close "$(m 1 tps change_lo)" -0.1 && close "$(m 1 tps change_hi)" -0.1'
assert "latency change +25% exactly ($(m 1 latency_avg change))" \
	'close "$(m 1 latency_avg change)" 0.25 && close "$(m 1 latency_avg change_hi)" 0.25'
assert "rps from stderr: 50 and 60, +20% ($(m 1 rps change))" \
	'[ "$(m 0 rps mean)" = 50 ] && [ "$(m 1 rps mean)" = 60 ] && close "$(m 1 rps change)" 0.2'
is "$(m 0 tps change) $(m 1 tps significant) $(m 1 tps runs)" "null true 5" \
	"the baseline has no change; the monitor's is significant over 5 runs"
is "$(jq -c '[.session.configs[1].samples[] | select(.warmup | not) | .metrics[0]]' <<< "$out")" \
	"[90,90,90,90,90]" "every run's value is in the session (raw samples)"

run_pc "${RUN[@]}" --format csv -- "$F/tps-print"
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR > 1 { printf "%s ", $c }' <<< "$out"; }
is "$(col metric_tps_mean)|$(col metric_tps_change)" "100 90 | -0.100000 " \
	"CSV: metric_tps_mean and metric_tps_change (empty for the baseline)"

run_pc "${RUN[@]}" -- "$F/tps-print"
text=$out
like "$text" "tps \(tps, higher is better\)" "text: a block per figure, with its unit and direction"
like "$text" "$W +90 \[90, 90\] +-10\.0% \[-10\.0, -10\.0\]" "text: the monitor's line, mean and change"
widest=$(awk '/^  figure/ { f = 1 } /^$/ { f = 0 } f { print length }' <<< "$text" | sort -n | tail -1)
assert "text: the figures' lines within 100 columns for a 34-column label ($widest)" '[ "$widest" -le 100 ]'
run_pc show last
is "$out" "$text" "show prints the figures exactly as the live run did"
run_pc "${RUN[@]}" --format json -- "$F/tps-print"
live_json=$out
run_pc report last --format json
is "$out" "$live_json" "report --format json is the live JSON (figures and raw values stored)"
run_pc export last
exported=$out
"$P" import - --db "$T/other.db" <<< "$exported" > /dev/null 2>&1
run_pc report last --db "$T/other.db" --format json
# (but the level between sessions, which is the store's: that one holds a single session)
is "$(jq -c '.statistics[1].metrics | map(del(.level_sd))' <<< "$out")" \
	"$(jq -c '.statistics[1].metrics | map(del(.level_sd))' <<< "$live_json")" "export and import keep them"

# compare: a session where the command printed tps 80 against one where it printed 100.
PC_TPS=80 "$P" run --runs 3 --warmup 0 --seed 3 --metric pgbench -- "$F/tps-print" > /dev/null 2>&1
a=$("$P" history --format json | jq '.[-1].id')
PC_TPS=100 "$P" run --runs 3 --warmup 0 --seed 3 --metric pgbench -- "$F/tps-print" > /dev/null 2>&1
run_pc compare "$a" last --format json
is "$(jq -c '[.figures[] | select(.name | endswith("/ none / tps")) |
	[.mean_a, .mean_b, (.change * 1e9 | round / 1e9)]][0]' <<< "$out")" "[80,100,0.25]" \
	"compare: the figures of both sessions, B against A (tps 80 -> 100: +25%)"

# Never matched: the runs fail naming the metric and the output's last lines; exit 1.
run_pc run --no-store --runs 2 --warmup 0 --metric 'qps:higher=^qps = ([0-9]+)' -- "$F/tps-print"
is "$rc" 1 "a regex that never matches: exit 1"
like "$err" "metric 'qps' matched in no run: metric 'qps': no match for /\^qps = \(\[0-9\]\+\)/ in the output; its last lines: .*rps: 50" \
	"the error names the metric and the last lines of the output"
# A long output: what matters is at its end (the last 1 MiB kept).
run_pc run --no-store --runs 2 --warmup 0 --format json --metric 'v=^v=([0-9]+)$' -- \
	sh -c 'head -c 3000000 /dev/zero | tr "\0" "x"; echo; echo v=7'
is "$rc $(jq -r '.statistics[0].metrics[0].mean' <<< "$out")" "0 7" \
	"3 MB of output then the figure: found (the output's tail is kept)"
one_line_exit2 "--metric with a built-in workload" "$P" run --no-store -w null --metric 'x=(1)'
done_testing
