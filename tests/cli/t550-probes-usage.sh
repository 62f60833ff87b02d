#!/bin/bash
# probes: --help, bad options (one line, exit 2), and the method rows of `probecost list`.
P="${PROBECOST:-./probecost}"
echo "1..9"
out=$("$P" probes --help); rc=$?
[ $rc = 0 ] && echo "$out" | grep -q -- "--via LIST" && echo "ok 1 - --help on stdout, exit 0" \
	|| echo "not ok 1 - --help: exit $rc"
t=2
check() { # description, expected stderr fragment, args...
	local d=$1 want=$2 err rc; shift 2
	err=$("$P" probes "$@" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ "$err" == *"$want"* ]]; then
		echo "ok $t - $d"
	else
		echo "not ok $t - $d: exit $rc, '$err'"
	fi
	t=$((t + 1))
}
check "unknown option" "unknown or incomplete option '--bogus'" --bogus
check "unknown method" "unknown probe method 'nope'" --via nope
check "unknown variant" "unknown variant 'x'" --variants x
check "--binary without --probe" "--binary and --probe go together" --binary "$P"
check "--scale out of range" "--scale: '0' is not a list of up to 8 numbers in 1..1000000" --scale 0
check "unknown kernel" "unknown stanford kernel 'nope'" --kernel nope --via dormant
check "command without --binary" "needs --binary and --probe" -- /bin/true
rows=$("$P" list 2>/dev/null | sed -n '/probe arming methods/,$p')
for m in dormant uprobe ftrace perf-probe bpftrace stap; do
	echo "$rows" | grep -qE "^  $m +(baseline|probe) +(yes|no) " || { echo "not ok $t - list lacks $m"; exit 0; }
done
echo "$rows" | grep -A1 -E "^  stap +probe +no " | grep -q "not available: " || \
	echo "$rows" | grep -qE "^  stap +probe +yes " && echo "ok $t - list: six methods, stap says why not" \
	|| echo "not ok $t - list rows: $rows"
