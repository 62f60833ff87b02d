#!/bin/bash
# parallel-safe
# t406: too many descriptors is reported as such (per interface); Ctrl-C keeps what was measured.
. "$(dirname "$0")/lib.bash"
plan 3
perf_events_usable || skip_rest "perf_event_open not allowed here (kernel.perf_event_paranoid, not root)"
# 16 events need 16 descriptors: with 12 allowed, perf-read must say why it stopped.
out=$( (ulimit -n 12; "$P" counters --events 16 --interfaces perf-read --iterations 8 --no-store --format json 2>/dev/null) )
like "$(printf '%s' "$out" | jq -r '.statistics[0].note // empty' 2>/dev/null)" "too many open descriptors.*ulimit -n" \
	"EMFILE: skipped with 'too many open descriptors'"
tmpdir
"$P" counters --iterations 10000000 --events 1 --interfaces perf-group --no-store --format json \
	>"$T/out" 2>"$T/err" &
pid=$!
# Into the measuring loop, however long start-up takes (env fingerprint, sanitizer, load):
# its perf_event descriptor open, and still open half a second later.
perf_fd() {
	local f
	for f in "/proc/$pid/fd/"*; do
		[ "$(readlink "$f" 2>/dev/null)" = "anon_inode:[perf_event]" ] && return 0
	done
	return 1
}
for ((i = 0; i < 600; i++)); do
	perf_fd && sleep 0.5 && perf_fd && break
	sleep 0.05
done
kill -INT $pid
wait $pid; rc=$?
is "$rc" 1 "interrupted run exits 1"
n=$(jq '[.statistics[] | select(.op == "read") | .n][0]' "$T/out" 2>/dev/null)
complete=$(jq '.complete' "$T/out" 2>/dev/null)
assert "partial report: complete=$complete, $n samples kept" \
	'[ "$complete" = false ] && [ -n "$n" ] && [ "$n" -gt 0 ] 2>/dev/null && [ "$n" -lt 10000000 ]'
done_testing
