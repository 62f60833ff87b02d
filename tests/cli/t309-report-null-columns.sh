#!/bin/bash
# parallel-safe
# t309: a store another program wrote (or a hand edit) may hold NULL in any text column:
# report of a counters session whose matmul series has a NULL interface prints in every
# format (it crashed in the matmul pairing, strcmp of NULL) and pairs nothing with it.
. "$(dirname "$0")/lib.bash"
plan 8
perf_events_usable || skip_rest "perf_event_open not allowed here (kernel.perf_event_paranoid, not root)"
{ have sqlite3 && have jq; } || skip_rest "needs the sqlite3 shell and jq (apt-get install sqlite3 jq)"
tmpdir
"$P" counters --matmul --events 1 --interfaces perf-group --iterations 4 --warmup 1 \
	--matmul-runs 2 --db "$T/p.db" >/dev/null 2>&1
is "$?" 0 "counters --matmul stored a session"
is "$("$P" report last --db "$T/p.db" --format json | jq '.matmul | length')" 1 \
	"as measured: one matmul row, paired with its base"
sqlite3 "$T/p.db" "UPDATE series SET interface = NULL WHERE op = 'matmul'"
for f in text json csv markdown html; do
	run_pc report last --db "$T/p.db" --format "$f"
	is "$rc" 0 "a NULL interface: report --format $f exits 0" || diag "$err"
done
run_pc report last --db "$T/p.db" --format json
is "$(printf '%s' "$out" | jq '.matmul | length')" 0 "the series without an interface is paired with no base"
done_testing
