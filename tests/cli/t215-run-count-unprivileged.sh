#!/bin/bash
# parallel-safe
# t215: run --count as a user who is not root: what it cannot count is null with a reason that
# names the need (root for tracefs, the paranoid setting for perf), never 0, and page faults
# still count, in user mode only where kernel.perf_event_paranoid is 2.
. "$(dirname "$0")/lib.bash"
plan 4
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if ! is_root || ! have setpriv || ! id nobody >/dev/null 2>&1; then
	skip_rest "needs root and setpriv(1) to become nobody"
fi
bin=$(mktemp -d /tmp/t215.XXXXXX)
on_exit 'rm -rf "$bin"'
cp "$P" "$bin/probecost"
chmod 755 "$bin" "$bin/probecost"
out=$(cd / && as_nobody env XDG_RUNTIME_DIR="$bin" "$bin/probecost" run --count --format json -- /bin/true 2>/dev/null)
is "$?/$(printf '%s' "$out" | jq -r .exit_status)" 0/0 "as nobody: exit 0, /bin/true exited 0"
if [ -r "$TRACEFS/events/raw_syscalls/sys_enter/format" ] &&
	as_nobody test -r "$TRACEFS/events/raw_syscalls/sys_enter/format"; then
	skip "tracefs is readable by nobody here"
else
	is "$(printf '%s' "$out" | jq -r '"\(.counts.syscalls) \(.not_counted.syscalls | test("run as root"))"')" \
		"null true" "syscalls: null, and the reason says root"
fi
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
faults=$(printf '%s' "$out" | jq -r '"\(.counts.minor_faults > 0) \(.sources.minor_faults)"')
case $paranoid in
-1 | 0 | 1) is "$faults" "true perf_event software page-faults-min" "paranoid $paranoid: faults counted" ;;
2) like "$faults" "^true .*page-faults-min:u \(user mode only" "paranoid 2: faults counted in user mode, and said so" ;;
*) like "$faults" "^false null" "paranoid $paranoid: no faults counted" ;;
esac
if [ "$paranoid" -ge 2 ]; then
	like "$(printf '%s' "$out" | jq -r '"\(.counts.context_switches) \(.not_counted.context_switches)"')" \
		"^null .*perf_event_paranoid <= 1" "context switches: null, the reason names the setting"
else
	skip "paranoid $paranoid lets nobody count switches"
fi
done_testing
