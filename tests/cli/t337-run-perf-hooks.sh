#!/bin/bash
# parallel-safe
# The kernel's per-task perf hooks are held on while a session measures: a
# disabled software perf event on probecost itself, so a monitor that opens
# per-task events (perf stat, perf record) starts alike in every run, and the
# session's options say so.
. tests/cli/lib.bash
plan 4
command -v jq >/dev/null || { for i in $(seq 4); do skip "jq not installed"; done; done_testing; }
T=$(mktemp -d); on_exit 'rm -rf "$T"'
# Whether this machine opens perf events at all (perf_event_paranoid above 2,
# Debian's default 3, refuses them to all but root).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo missing)
if [ "$paranoid" = missing ] || { [ "$paranoid" -gt 2 ] && [ "$(id -u)" != 0 ]; }; then
	for i in $(seq 4); do skip "perf events refused here (perf_event_paranoid: $paranoid)"; done
	done_testing
fi
# Each invocation lists its parent's (probecost's: the runner execs the command in
# the child it forks) open files under a line of its own.
cat >"$T/fds.sh" <<'SH'
#!/bin/sh
echo run >>"$1"
for f in /proc/$PPID/fd/*; do readlink "$f"; done >>"$1"
SH
chmod +x "$T/fds.sh"
run_pc run --no-store --format json --runs 3 --warmup 0 -- "$T/fds.sh" "$T/fds"
is "$rc" 0 "run exits 0"
is "$(printf '%s' "$out" | jq -r '.session.options.perf_hooks')" held \
	"the session's options say the hooks were held"
runs=$(grep -c '^run$' "$T/fds")
assert "the command ran at least the 3 timed runs ($runs)" '[ "$runs" -ge 3 ]'
is "$(awk '/^run$/ { n++ } /perf_event/ { seen[n] = 1 } END { c = 0; for (i = 1; i <= n; i++) c += (i in seen); print c }' "$T/fds")" \
	"$runs" "probecost held a perf event while each run ran"
done_testing
