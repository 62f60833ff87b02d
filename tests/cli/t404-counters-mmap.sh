#!/bin/bash
# t404: perf-mmap is measured where rdpmc works, and skipped with the reason where it cannot.
P="${PROBECOST:-./probecost}"
echo "1..2"
out=$("$P" counters --interfaces perf-mmap --events 1 --iterations 16 --warmup 2 --no-store --format json 2>/dev/null); rc=$?
[ $rc -eq 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
if echo "$out" | jq -e '.statistics[0].skipped' >/dev/null; then
	note=$(echo "$out" | jq -r '.statistics[0].note')
	if echo "$note" | grep -Eq "index 0|no counter index|rdpmc disabled|PMU"; then
		echo "ok 2 - skipped and says why: $note"
	else
		echo "not ok 2 - skipped without a reason: $note"
	fi
else
	n=$(echo "$out" | jq '[.statistics[] | select(.op == "read") | .n][0]')
	[ "$n" = 16 ] && echo "ok 2 - rdpmc path measured (16 samples)" || echo "not ok 2 - n=$n"
fi
