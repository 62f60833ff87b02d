#!/bin/bash
# no-sanitizer: known-answer timings; ASan slows every call the cost model prices
# t320-predict-inject: the cost model on a known answer.  The inject monitor spins a known
# number of nanoseconds after each call of the syscall workload (and once per run):
# calibrate measures its entries, predict prices `probecost workload syscall loops=N` with
# them, and the prediction must hold N x the injected cost; predict --verify measures it
# beside the prediction (its session stored, its error the figures' own).  The spins are
# wall time: load from other processes stretches each one it preempts, so the bounds on the figures hold
# only on a machine with a CPU to spare (/proc/loadavg below the CPU count); on a busy one
# they are skipped, and what holds under any load is still checked: the ratio of two
# injected costs calibrated side by side, and the model's arithmetic, exactly.
. "$(dirname "$0")/lib.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
# The events are counted by run/evcount (tracepoint counters, BPF): root and perf_event tracepoints.
skip_unless_counting
# The command predicted: the plain build under the sanitizer pass (a sanitized runtime makes
# syscalls and tasks of its own).
WL=$PROBECOST
[ -n "${PROBECOST_SAN:-}" ] && [ -x ./probecost ] && WL=$PWD/probecost
plan 13
tmpdir
DB=$T/i.db
EV=20000
M="inject:event=$EV,fixed=3000000"
# The known answer of calibrate: 2000 ns per event and no fixed cost.
M2="inject:event=2000,fixed=0"
quiet() { awk -v n="$(nproc)" '{ exit !($1 < n) }' /proc/loadavg; }
busy() { skip "busy machine (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs): every spin is stretched"; }

# Unpinned, as predict below prices a command by default: one entry a term.
run_pc calibrate -m "$M" -m "$M2" --placement unpinned --runs 5 --seed 5 --db "$DB" --format json
is "$rc" 0 "calibrate -m $M -m $M2 --placement unpinned: exit 0 (stored)"
entry() { jq -c ".statistics[] | select(.subject == \"$1\" and .event == \"syscall\" and .status == \"measured\")" <<< "$out"; }
row=$(entry "$M") row2=$(entry "$M2")
c=$(jq .cost_ns <<< "$row") c2=$(jq .cost_ns <<< "$row2")
# Load stretches every spin by the share of the CPU the others take, alike in the same
# interleaved blocks: the ratio of the two costs is the injected 10 on any machine.
assert "the per-syscall costs $c and $c2 ns are in the injected ratio 10 (0.75..1.3), whatever the load" \
	'ratio_in "$(awk -v a="$c" -v b="$c2" "BEGIN { if (b > 0) print a / b }")" 10 0.75 1.3'
if quiet; then
	assert "the calibrated cost per syscall, $c ns, is the injected $EV ns (0.9..1.3)" 'ratio_in "$c" "$EV" 0.9 1.3'
	# Each spin ends at the first clock read past its 2000 ns, and the loop around it costs
	# a little: the entry reads 2000 ns and a few percent (2063 [2047, 2080] measured once,
	# quiet), never less, its interval far narrower than the cost.
	assert "-m $M2 reads 2000 ns per event, and at most 10% more ($row2)" \
		'ratio_in "$c2" 2000 0.99 1.1 && jq -e "(.cost_ns_lo <= 2200) and (.cost_ns_hi - .cost_ns_lo < 1000)" <<< "$row2" > /dev/null'
else
	busy
	busy
fi
# The fixed entry is derived on the null workload, less its start-up's n0 calls at the
# per-call cost (as every monitor's, on true(1)); those calls spin nothing here, so the
# entry reads 3 ms - n0 x c (-0.8 ms at c = 20 us: not load) and a prediction adds them back.
fixed=$(jq -c ".statistics[] | select(.subject == \"$M\" and .event == \"run\")" <<< "$out")
f0=$(jq .cost_ns <<< "$fixed")
n0=$("$PROBECOST" costs --db "$DB" --format csv 2>/dev/null | grep -F "$M" |
	grep -o 'whole-run extra time, less [0-9.e+]* x syscall' | awk '{ print $5; exit }')
if quiet; then
	assert "the fixed entry $f0 ns is the injected 3 ms less the null run's $n0 calls x $c ns (within 1 ms)" \
		'awk -v f="$f0" -v n="$n0" -v c="$c" "BEGIN { d = f + n * c - 3000000; exit !(d > -1e6 && d < 1e6) }"'
else
	busy
fi

N=4000
run_pc predict -m "$M" --count-runs 1 --plain-runs 2 --db "$DB" --format json -- \
	"$WL" workload syscall loops=$N
is "$rc" 0 "predict on 'workload syscall loops=$N': exit 0"
S=$(jq -c '.statistics[0]' <<< "$out")
n=$(jq '.terms[] | select(.event == "syscall") | .count' <<< "$S")
f=$(jq '.terms[] | select(.event == "run") | .cost_ns' <<< "$S")
p=$(jq .predicted_extra_ns <<< "$S")
assert "the prediction $p ns is the fixed $f ns + $n syscalls x $c ns" \
	'ratio_in "$p" "$(awk -v f="$f" -v n="$n" -v c="$c" "BEGIN { printf \"%.3f\", f + n * c }")" 0.999999 1.000001'
assert "the syscall count $n holds the workload's $N calls (and its start-up)" \
	'awk -v n="$n" -v N=$N "BEGIN { exit !(n >= N && n < N + 3000) }"'
# What was injected: N spins of EV ns and one of 3 ms (the start-up's calls spin nothing:
# the null run the fixed cost came from made them too).
if quiet; then
	assert "the prediction $p ns holds the injected $N x $EV + 3000000 ns (0.9..1.3)" \
		'ratio_in "$p" $((N * EV + 3000000)) 0.9 1.3'
else
	busy
fi

# --verify: the same prediction beside a measured session of the monitor, stored in --db.
run_pc predict --verify -m "$M" --count-runs 1 --plain-runs 2 --runs 3 --seed 5 --db "$DB" --format json -- \
	"$WL" workload syscall loops=$N
S=$(jq -c '.statistics[0]' <<< "$out")
id=$(jq .verify_session <<< "$out")
is "$rc $(jq -c '[.statistics[] | .measured_extra_ns | type]' <<< "$out")" '0 ["number"]' "predict --verify: exit 0, a measured extra time"
stored=$("$PROBECOST" show "$id" --db "$DB" --format json 2>/dev/null | jq -c ".statistics[] | select(.monitor == \"$M\") | [.overhead, .extra_ns]")
is "$stored" "$(jq -c '[.measured_overhead, .measured_extra_ns]' <<< "$S")" \
	"the measured figures are those of the stored session $id"
# The error and the two cross-checks are the figures' own arithmetic.
assert "error $(jq .error <<< "$S") is (predicted - measured) / measured, and each 'in' flag its interval's" \
	'jq -e "((.predicted_extra_ns - .measured_extra_ns) / .measured_extra_ns - .error | fabs < 1e-9) and
		(.measured_in_predicted == (.measured_extra_ns >= .predicted_extra_ns_lo and .measured_extra_ns <= .predicted_extra_ns_hi)) and
		(.predicted_in_measured == (.predicted_extra_ns >= .measured_extra_ns_lo and .predicted_extra_ns <= .measured_extra_ns_hi))" <<< "$S" > /dev/null'
if quiet; then
	assert "the measured extra $(jq .measured_extra_ns <<< "$S") ns holds the injected $N x $EV + 3000000 ns (0.9..1.3)" \
		'ratio_in "$(jq .measured_extra_ns <<< "$S")" $((N * EV + 3000000)) 0.9 1.3'
else
	busy
fi
done_testing
