#!/bin/bash
# parallel-safe
# probes: --help, bad options (one line, exit 2), and the method rows of `probecost list`.
. "$(dirname "$0")/lib.bash"
plan 9
run_pc probes --help
assert "--help on stdout, exit 0" '[ $rc = 0 ] && [[ "$out" == *"--via LIST"* ]]'
check() { # description, expected stderr fragment, args...
	local d=$1 want=$2
	shift 2
	run_pc probes "$@"
	assert "$d: exit 2, one line with '$want'" \
		'[ $rc = 2 ] && [ "$(printf "%s\n" "$err" | wc -l)" = 1 ] && [[ "$err" == *"$want"* ]]' || diag "exit $rc: $err"
}
check "unknown option" "unknown or incomplete option '--bogus'" --bogus
check "unknown method" "unknown probe method 'nope'" --via nope
check "unknown variant" "unknown variant 'x'" --variants x
check "--binary without --probe" "--binary and --probe go together" --binary "$P"
check "--scale out of range" "--scale: '0' is not a list of up to 8 numbers in 1..1000000" --scale 0
check "unknown kernel" "unknown stanford kernel 'nope'" --kernel nope --via dormant
check "command without --binary" "needs --binary and --probe" -- /bin/true
missing=
rows=$("$P" list 2>/dev/null | sed -n '/probe arming methods/,$p')
for m in dormant uprobe ftrace perf-probe bpftrace stap; do
	echo "$rows" | grep -qE "^  $m +(baseline|probe) +(yes|no) " || missing="$missing $m"
done
assert "list: six methods, stap available or says why not" '[ -z "$missing" ] &&
	{ echo "$rows" | grep -A1 -E "^  stap +probe +no " | grep -q "not available: " ||
		echo "$rows" | grep -qE "^  stap +probe +yes "; }' || diag "missing:$missing; $rows"
done_testing
