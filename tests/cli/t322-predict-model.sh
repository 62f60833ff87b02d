#!/bin/bash
# t322-predict-model: probecost predict against a hand-made cost table of this machine (the
# fixture's entries with this machine's fingerprint): each monitor's predicted extra time
# is exactly its terms, count x cost, plus its fixed cost; the term that dominates is named;
# a monitor with no model or an unavailable entry is "no model" with the reason, never 0;
# bad input exits 2 with one line, a failing command exits 1 with its error, and a stale
# table (this host's, another kernel) is refused with the command that recalibrates.
. "$(dirname "$0")/lib.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
# The events are counted by run/evcount (tracepoint counters, BPF): root and perf_event tracepoints.
skip_unless_counting
# The command predicted: the plain build under the sanitizer pass (a sanitized runtime makes
# syscalls and tasks of its own).
WL=$PROBECOST
[ -n "${PROBECOST_SAN:-}" ] && [ -x ./probecost ] && WL=$PWD/probecost
plan 36
tmpdir
DB=$T/p.db
env=$("$PROBECOST" env --format json)
# The fixture's costs as measured unpinned: predict's default, as run runs a command.
jq --argjson env "$env" --arg host "$(hostname)" \
	'.env = $env | .host = $host | .entries += [.entries[] | select(.subject == "strace" and .event == "syscall") |
	  .event = "stop-after-work" | .cost_ns = 90000 | .cost_ns_lo = 80000 | .cost_ns_hi = 100000 |
	  .workload = "syscall work=2000000 loops=200" | .status = "derived"] |
	  .entries[].placement = "unpinned"' \
	tests/cli/data/costs-a.json > "$T/mine.json"
"$PROBECOST" costs --import "$T/mine.json" --db "$DB" > /dev/null

one_line_exit2 "no -m" "$PROBECOST" predict --db "$DB" -- true
one_line_exit2 "no command" "$PROBECOST" predict -m strace --db "$DB"
one_line_exit2 "an unknown monitor" "$PROBECOST" predict -m no-such-monitor --db "$DB" -- true
# A command that cannot be executed: refused at once, before the first calibration that an
# empty store would start (it calibrated for two minutes, then exited 1).
one_line_exit2 "a command that cannot be executed" "$PROBECOST" predict -m strace --db "$T/empty.db" -- /nonexistent/x
assert "... before any calibration: no store made" '[ ! -e "$T/empty.db" ]'
one_line_exit2 "--count-runs 0" "$PROBECOST" predict -m strace --count-runs 0 --db "$DB" -- true

run_pc predict -m strace --count-runs 1 --plain-runs 2 --db "$DB" -- sh -c 'echo boom-xyz >&2; exit 3'
is "$rc" 1 "a command that fails: exit 1"
like "$err" "boom-xyz" "... with the command's own error"

W=("$WL" workload syscall loops=3000)
run_pc predict -m strace -m perf-stat -m ltrace -m bpftrace-syscalls --count-runs 1 --plain-runs 2 \
	--db "$DB" --format json -- "${W[@]}"
is "$rc" 0 "predict on the syscall workload: exit 0"
a=$(jq .cost_table_age_s <<< "$out")
assert "JSON: cost_table_age_s ($a) is the seconds since the table's start (now less 1796100000, give or take a minute)" \
	'awk -v a="$a" -v n="$(( $(date +%s) - 1796100000 ))" "BEGIN { exit !(a <= n && a >= n - 60) }"'
row() { jq -c ".statistics[] | select(.monitor == \"$1\")" <<< "$out"; }
S=$(row strace)
# Every figure from the table's entries: fixed + count x cost for each term.
is "$(jq -r '[.terms[].event] | join(",")' <<< "$S")" "run,syscall,syscall-decoded,getdents,cswitch,task,exec,stop-after-work" \
	"strace: its eight terms (syscalls by class, execs, stops after work)"
term() { jq "[.terms[] | select(.event == \"$1\") | .count][0]" <<< "$S"; }
sum=$(jq -n "2500000 + $(term syscall) * 7100 + $(term syscall-decoded) * 9500 + $(term getdents) * 30000 +
	$(term cswitch) * 1200 + $(term task) * 250000 + $(term exec) * 400000 + $(term stop-after-work) * 90000")
assert "strace: predicted extra $(jq .predicted_extra_ns <<< "$S") = fixed + sum of count x cost ($sum)" \
	'ratio_in "$(jq .predicted_extra_ns <<< "$S")" "$sum" 0.999999 1.000001'
n=$(term syscall)
assert "the plain syscalls ($n) hold the workload's 3000 getppid calls and its start-up's plain ones" \
	'awk -v n="$n" "BEGIN { exit !(n >= 3000 && n < 6000) }"'
# The interval from the table's: one counting run leaves the counts without error, so each
# term's arm is its count x its entry's half-width (df 4), and the terms add in quadrature.
# Their root sum of squares is the arm at df 4; the sum's df (Welch-Satterthwaite) is 4 or
# more, so its arm is that times t(df)/t(4), between 1.96/2.776 and 1.
rss=$(jq -n --slurpfile c "$T/mine.json" --argjson s "$S" '[$s.terms[] as $t | $c[0].entries[] |
	select(.subject == "strace" and .event == $t.event) | ($t.count * (.cost_ns_hi - .cost_ns_lo) / 2) | . * .] | add | sqrt')
arm=$(jq '(.predicted_extra_ns_hi - .predicted_extra_ns_lo) / 2' <<< "$S")
assert "strace: the interval is the terms' (arm $arm ns, centred, 0.70..1 x their root sum of squares $rss) and the overhead is extra / plain time" \
	'jq -e "(.predicted_extra_ns_hi + .predicted_extra_ns_lo) / 2 / .predicted_extra_ns | . > 0.999999 and . < 1.000001" <<< "$S" > /dev/null &&
	 ratio_in "$arm" "$rss" 0.70 1.0 &&
	 ratio_in "$(jq .predicted_overhead <<< "$S")" "$(jq ".predicted_extra_ns / $(jq .plain_ns <<< "$out")" <<< "$S")" 0.999999 1.000001'
is "$(jq -r .dominant <<< "$S")" syscall "strace: the syscalls dominate"
is "$(jq -c '[.placement, ([.statistics[0].terms[].overlap] | unique)]' <<< "$out")" '["unpinned",[1]]' \
	"predicted unpinned (the default); a serial command's terms overlap nothing (1)"
is "$(row ltrace | jq -c '[.model, .predicted_extra_ns, (.why | test("library call"))]')" '[false,null,true]' \
	"ltrace: no model (library calls are not counted), null, never 0"
is "$(row bpftrace-syscalls | jq -c '[.model, .predicted_overhead, (.why | test("unavailable: .bpftrace. not found"))]')" \
	'[false,null,true]' "bpftrace-syscalls: its entry is unavailable: no model, with the reason"

run_pc predict -m strace --count-runs 1 --plain-runs 2 --db "$DB" -- "${W[@]}"
like "$out" 'strace +\+[0-9.]+ \[[0-9.]+, [0-9.]+\] ms +\+[0-9.]+% \[.*\] +[0-9]+% of it from [0-9,]+ syscalls at 7100 ns' \
	"text: extra, overhead and the dominant term"
# The table's age beside it: the fixture's was measured at 1796100000 (unix seconds).
age=$(( $(date +%s) - 1796100000 ))
like "$(head -1 <<< "$out")" "\| cost table 1 \(quick, Linux 6\.1\.0-fixture, measured $(awk -v s=$age 'BEGIN { printf "%.1f", s / 86400 }') days ago\)$" \
	"text: the header gives the table's age ($age s)"
# A table whose start is not known (an import that says 0): its age is not made up.
jq '.created = 0' "$T/mine.json" > "$T/noage.json"
"$PROBECOST" costs --import "$T/noage.json" --db "$T/noage.db" > /dev/null
run_pc predict -m strace --count-runs 1 --plain-runs 2 --db "$T/noage.db" --format json -- "${W[@]}"
is "$(jq .cost_table_age_s <<< "$out")" null "JSON: a table of unknown start has cost_table_age_s null"
run_pc predict -m strace --count-runs 1 --plain-runs 2 --db "$T/noage.db" -- "${W[@]}"
like "$(head -1 <<< "$out")" "\| cost table [0-9]+ \(quick, Linux 6\.1\.0-fixture, measured at an unknown time\)$" \
	"text: ... and the header says its time is unknown"

# Placement is a condition of every cost: a table measured pinned only prices no unpinned
# run; predict says so and names the calibrate command that measures it.
jq '.entries[].placement = "cpu=0"' "$T/mine.json" > "$T/pinned.json"
"$PROBECOST" costs --import "$T/pinned.json" --db "$T/pin.db" > /dev/null
run_pc predict -m strace --count-runs 1 --plain-runs 2 --db "$T/pin.db" -- "${W[@]}"
is "$rc:$(grep -c . <<< "$err")" "2:1" "a pinned-only table, predicted unpinned: exit 2, one line"
like "$err" "no costs measured unpinned .*probecost calibrate --placement unpinned --db $T/pin\.db" \
	"... naming the calibrate command that measures the unpinned costs"
run_pc predict -m strace --cpu 0 --count-runs 1 --plain-runs 2 --db "$T/pin.db" -- "${W[@]}"
like "$(head -1 <<< "$out")" "^# probecost predict: .* \| pinned to CPU 0 \| cost table 1" \
	"--cpu 0 on the pinned table: the header says the runs predicted are pinned to CPU 0"
run_pc predict -m strace --cpu 1 --count-runs 1 --plain-runs 2 --db "$T/pin.db" -- "${W[@]}"
like "$rc:$err" "^2:.*no costs measured pinned to CPU 1 .*calibrate --placement pinned --cpu 1" \
	"--cpu 1 on a table pinned to CPU 0: refused, never priced with CPU 0's costs"

# A later 'calibrate -m strace' (a table of strace alone, here at twice the fixture's costs)
# does not hide the other monitors' costs: each monitor is priced from the newest table of
# this machine that has it, and says which.  Then a newer table pinned only: the unpinned
# prediction keeps to the unpinned tables.
"$PROBECOST" costs --import "$T/mine.json" --db "$T/two.db" > /dev/null
jq '.created += 3600 | .level = "custom" |
	.entries |= map(select(.subject == "strace") | .cost_ns *= 2 | .cost_ns_lo *= 2 | .cost_ns_hi *= 2)' \
	"$T/mine.json" > "$T/strace2.json"
"$PROBECOST" costs --import "$T/strace2.json" --db "$T/two.db" > /dev/null
jq '.created += 7200 | .entries[].placement = "cpu=0"' "$T/mine.json" > "$T/pin3.json"
"$PROBECOST" costs --import "$T/pin3.json" --db "$T/two.db" > /dev/null
run_pc predict -m strace -m perf-stat --count-runs 1 --plain-runs 2 --db "$T/two.db" --format json -- "${W[@]}"
is "$rc:$(jq -c '[.cost_table] + [.statistics[] | [.monitor, .cost_table, .model]]' <<< "$out")" \
	'0:[2,["strace",2,true],["perf-stat",1,true]]' \
	"a newer table of strace alone: strace priced from it (2), perf-stat from the older (1); the pinned-only table 3 prices nothing unpinned"
want=$(jq '[.entries[] | select(.subject == "strace" and .event == "syscall")][0].cost_ns' "$T/strace2.json")
is "$(jq '[.statistics[0].terms[] | select(.event == "syscall")][0].cost_ns' <<< "$out")" "$want" \
	"... strace's syscall at the newer table's cost ($want ns)"
want=$(jq '[.entries[] | select(.subject == "perf-stat" and .event == "run")][0].cost_ns' "$T/mine.json")
is "$(jq '[.statistics[1].terms[] | select(.event == "run")][0].cost_ns' <<< "$out")" "$want" \
	"... perf-stat's run at the older table's cost ($want ns)"
a1=$(jq .statistics[1].cost_table_age_s <<< "$out") a0=$(jq .statistics[0].cost_table_age_s <<< "$out")
assert "... each row's cost_table_age_s is its own table's (perf-stat's $a1 s, an hour older than strace's $a0 s)" \
	'[ "$((a1 - a0))" -ge 3599 ] && [ "$((a1 - a0))" -le 3601 ]'
run_pc predict -m strace -m perf-stat --count-runs 1 --plain-runs 2 --db "$T/two.db" -- "${W[@]}"
like "$(sed -n 2p <<< "$out")" "^#   perf-stat: costs from cost table 1 \(quick, measured [0-9.]+ days ago\), which table 2 lacks$" \
	"text: the header names the older table perf-stat's costs came from"
run_pc predict -m strace -m perf-stat --count-runs 1 --plain-runs 2 --db "$T/two.db" --format csv -- "${W[@]}"
# monitor, cost_table and cost_table_age_s of each line, by the header's names
csv_tables() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s:%s:%s ", $c["monitor"], $c["cost_table"], $c["cost_table_age_s"] }' <<< "$1"; }
read -r s_row p_row <<< "$(csv_tables "$out")"
is "$rc:${s_row%:*} ${p_row%:*}" "0:strace:2 perf-stat:1" "CSV: each line names its cost table (strace 2, perf-stat 1)"
assert "... and its age (perf-stat's ${p_row##*:} s, an hour older than strace's ${s_row##*:} s)" \
	'[ "$((${p_row##*:} - ${s_row##*:}))" -ge 3599 ] && [ "$((${p_row##*:} - ${s_row##*:}))" -le 3601 ]'
run_pc predict -m strace --count-runs 1 --plain-runs 2 --db "$T/noage.db" --format csv -- "${W[@]}"
is "$rc:$(csv_tables "$out")" "0:strace:1: " "CSV: a table of unknown start has an empty cost_table_age_s"

# A stale table: this host's, measured on another kernel, is refused.
jq '.env.fields."kernel.release" = "5.10.0-old"' "$T/mine.json" > "$T/stale.json"
"$PROBECOST" costs --import "$T/stale.json" --db "$T/s.db" > /dev/null
run_pc predict -m strace --db "$T/s.db" -- true
is "$rc:$(grep -c . <<< "$err")" "2:1" "a stale table: exit 2, one line"
like "$err" "kernel\.release 5\.10\.0-old -> .*probecost calibrate --db $T/s\.db" \
	"... naming the field that differs and the command that recalibrates"
done_testing
