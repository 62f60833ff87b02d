#!/bin/bash
# parallel-safe
# What a user who is not root is told: env sees the tracefs mount (the mount table, not
# the 0700 directory), and each monitor's reason names its own need.
. tests/cli/lib.bash
plan 3
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
	for i in 1 2 3; do skip "needs root and setpriv(1) to become nobody"; done
	done_testing
fi
# The binary must be reachable by nobody.
bin=$(mktemp -d /tmp/t265.XXXXXX); on_exit 'rm -rf "$bin"'
cp "$PROBECOST" "$bin/probecost"; chmod 755 "$bin" "$bin/probecost"
want="not mounted"; grep -q ' /sys/kernel/tracing tracefs ' /proc/self/mounts && want=/sys/kernel/tracing
got=$(cd / && as_nobody "$bin/probecost" env | awk '$1 == "tracefs" { $1 = ""; sub(/^ +/, ""); print }')
is "$got" "$want" "env as nobody: tracefs is '$want', as the mount table says"
out=$(cd / && as_nobody "$bin/probecost" list monitors | grep -A1 '^  perf-record-system ')
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
	like "$out" "perf_event_paranoid" "perf-record-system's reason is the paranoid setting for system-wide sampling"
	ok "$(printf '%s' "$out" | grep -c 'perf trace')" "and does not mention perf trace"
else
	like "$out" "yes" "perf-record-system is available with perf_event_paranoid <= 0"
	skip "paranoid <= 0: no reason to check"
fi
done_testing
