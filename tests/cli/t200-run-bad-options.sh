#!/bin/bash
# probecost run: bad options and bad input exit 2 with exactly one line on stderr.
P="${PROBECOST:-./probecost}"
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
)
echo "1..$((${#cases[@]} + 1))"
n=0
for c in "${cases[@]}"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	err=$("$P" run --no-store $c 2>&1 >/dev/null); rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ "$rc" = 2 ] && [ "$lines" = 1 ]; then
		echo "ok $n - run $c: exit 2, one line ($err)"
	else
		echo "not ok $n - run $c: exit $rc, $lines lines: $err"
	fi
done
n=$((n + 1))
err=$("$P" run --no-store -m "'unterminated" -- /bin/true 2>&1 >/dev/null); rc=$?
if [ "$rc" = 2 ] && printf '%s' "$err" | grep -q "unterminated quote"; then
	echo "ok $n - an unterminated quote in -m is bad input"
else
	echo "not ok $n - unterminated quote: exit $rc: $err"
fi
