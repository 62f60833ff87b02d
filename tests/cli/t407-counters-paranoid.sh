#!/bin/bash
# t407: an unprivileged user gets what kernel.perf_event_paranoid allows, and is told why.
P="${PROBECOST:-./probecost}"
P=$(readlink -f "$P")
echo "1..2"
if [ "$(id -u)" != 0 ] || ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
	echo "ok 1 # skip needs root, runuser and user nobody"; echo "ok 2 # skip same"; exit 0
fi
if ! runuser -u nobody -- test -x "$P"; then
	echo "ok 1 # skip user nobody cannot execute $P"; echo "ok 2 # skip same"; exit 0
fi
lvl=$(cat /proc/sys/kernel/perf_event_paranoid)
tmp=$(mktemp -d); chmod 755 "$tmp"; trap 'rm -rf "$tmp"' EXIT
runuser -u nobody -- env HOME="$tmp" "$P" counters --event task-clock --interfaces perf-group \
	--iterations 8 --warmup 1 --no-store --format json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$lvl" -ge 3 ]; then
	[ $rc -eq 1 ] && echo "ok 1 - paranoid $lvl: exit 1" || echo "not ok 1 - paranoid $lvl: exit $rc"
	grep -q "perf_event_paranoid is $lvl" "$tmp/err" && echo "ok 2 - says the level and the fix" || echo "not ok 2 - $(cat "$tmp/err")"
elif [ "$lvl" -eq 2 ]; then
	[ $rc -eq 0 ] && [ "$(jq -r .options.counting "$tmp/out")" = user ] \
		&& echo "ok 1 - paranoid 2: measured, counting user space only" || echo "not ok 1 - rc=$rc $(cat "$tmp/err")"
	grep -q "user space only" "$tmp/err" && echo "ok 2 - warns that kernel side is not counted" || echo "not ok 2 - no warning: $(cat "$tmp/err")"
else
	[ $rc -eq 0 ] && [ "$(jq -r .options.counting "$tmp/out")" = user+kernel ] \
		&& echo "ok 1 - paranoid $lvl: user+kernel" || echo "not ok 1 - rc=$rc"
	echo "ok 2 # skip paranoid $lvl lets everyone count the kernel side"
fi
