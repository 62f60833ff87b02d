#!/bin/bash
# parallel-safe
# t219: --washout N runs the plain command N times, unmeasured, before each run that comes
# right after a monitored run, and nowhere else.  The command appends its own niceness to a
# log: the monitor ('nice -n 7 {}') makes it 7, every plain run (measured, washout, and the
# counting run) 0.  The session's recorded order says which runs follow a monitored one;
# the same seed without --washout gives the plain lines that are not washout.
. "$(dirname "$0")/lib.bash"
plan 10
have jq || skip_rest "jq is needed (apt-get install jq)"
tmpdir

one_line_exit2 "--washout abc" "$P" run --washout abc -- /bin/true
one_line_exit2 "--washout 101" "$P" run --washout 101 -- /bin/true
one_line_exit2 "--washout -1" "$P" run --washout -1 -- /bin/true

# Runs (warm-up included) whose predecessor in the session's time order was monitored.
after_monitor() {
	printf '%s' "$1" | jq '[.session.configs[] | .monitor as $m | .samples[] |
		{t: (.block * 100 + .order), mon: ($m != "none")}] | sort_by(.t) |
		[range(1; length) as $i | select(.[$i - 1].mon)] | length'
}
study() { # study WASHOUT LOG: four blocks, seed 11, the log of niceness
	run_pc run --no-store --runs 3 --seed 11 --washout "$1" -m 'nice -n 7 {}' --format json \
		-- /bin/sh -c "nice >> $2"
}
study 0 "$T/w0"
rc0=$rc out0=$out
study 2 "$T/w2"
is "$rc0 $rc" "0 0" "both studies measured"
a=$(after_monitor "$out")
is "$(after_monitor "$out0") $(printf '%s' "$out" | jq -r '.session.options.washout')" "$a 2" \
	"the same order under the same seed ($a runs right after a monitored one); options say 2"
is "$(grep -c '^7$' "$T/w2") $(grep -c '^7$' "$T/w0")" "4 4" \
	"the monitored runs are the 4 measured ones in both: no washout runs under the monitor"
p0=$(grep -c '^0$' "$T/w0") p2=$(grep -c '^0$' "$T/w2")
assert "$((p2 - p0)) plain runs more with --washout 2: 2 before each of the $a runs after a monitored one" \
	'[ "$a" -ge 3 ] && [ $((p2 - p0)) = $((2 * a)) ]'
is "$(printf '%s' "$out" | jq '[.session.configs[].samples[]] | length')" 8 \
	"the washout runs are not stored: 4 blocks of 2 runs"

run_pc run --no-store --runs 2 --washout 1 -m 'nice -n 7 {}' -- /bin/true
like "$out" "1 unmeasured plain run after each monitored one" "text: the header says so ($rc)"
# After the pilot's note too, whole (the note's buffer once cut it to "2 unmeasured plain run").
run_pc run --no-store --washout 2 --min-runs 2 --max-runs 4 --precision 100 -m 'nice -n 7 {}' -- /bin/true
like "$out" "pilot that planned them; 2 unmeasured plain runs after each monitored one\)" \
	"text: after the pilot's note, whole ($rc)"
done_testing
