#!/bin/bash
# parallel-safe
# probecost run: bad options and bad input exit 2 with exactly one line on stderr.
. "$(dirname "$0")/lib.bash"
cases=(
	"--bogus"
	"--runs abc -- /bin/true"
	"--runs 0 -- /bin/true"
	"--format xml -- /bin/true"
	"-m no-such-monitor -- /bin/true"
	"--ready ^x -- /bin/true"
	"--events 5"
	"--cpu x -- /bin/true"
	"--scale 1,2 -- /bin/true"
	"--precision -3 -- /bin/true"
	"-m delay:ns=0 -- /bin/true"
	"-m delay -- /bin/true"
	"-m strace:x -- /bin/true"
	"--min-runs 9 --max-runs 3 -- /bin/true"
	"-w no-such-workload"
	"--runs"
	"-m strace"
)
plan $((${#cases[@]} + 1))
for c in "${cases[@]}"; do
	# shellcheck disable=SC2086
	one_line_exit2 "run $c" "$P" run --no-store $c
done
run_pc run --no-store -m "'unterminated" -- /bin/true
assert "an unterminated quote in -m is bad input" '[ "$rc" = 2 ] && [[ "$err" == *"unterminated quote"* ]]'
done_testing
