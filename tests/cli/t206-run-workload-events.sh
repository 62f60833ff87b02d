#!/bin/bash
# Built-in workload: events come from its report; strace -c counts 4 syscalls a round trip.
P="${PROBECOST:-./probecost}"
echo "1..3"
if ! "$P" workload --help >/dev/null 2>&1; then
	for i in 1 2 3; do echo "ok $i # skip the workload command is not in this build"; done; exit 0
fi
if ! command -v strace >/dev/null; then
	for i in 1 2 3; do echo "ok $i # skip strace not installed (package strace)"; done; exit 0
fi
# LeakSanitizer cannot run under ptrace: the sanitizer build's workload must not try.
js=$(ASAN_OPTIONS=detect_leaks=0 "$P" run --no-store --runs 2 --warmup 0 --cpu 0 --format json -w pipe:loops=2000 -m strace-count 2>/dev/null); rc=$?
[ "$rc" = 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
ev=$(printf '%s' "$js" | jq '.statistics[1].events'); unit=$(printf '%s' "$js" | jq -r '.statistics[1].unit')
[ "$ev" = 2000 ] && [ "$unit" = round-trip ] && echo "ok 2 - 2000 round-trips from the workload's report" \
	|| echo "not ok 2 - events=$ev unit=$unit"
me=$(printf '%s' "$js" | jq '.statistics[1].monitor_events')
# Each round trip: one write and one read on each side; start-up adds a few hundred more.
[ "$me" -ge 8000 ] && [ "$me" -lt 9000 ] && echo "ok 3 - strace counted $me syscalls (>= 4 x 2000)" \
	|| echo "not ok 3 - strace counted $me"
