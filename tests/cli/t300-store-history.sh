#!/bin/bash
# t300-store-history: sessions imported into a fresh store are listed, filtered and shown.
. "$(dirname "$0")/lib.bash"
C=tests/fuzz/import_corpus
tmpdir
DB="$T/p.db"
plan 12

for f in session_1 session_2 session_3; do "$P" import --db "$DB" "$C/$f.json" >> "$T/imp" 2>&1; done
assert "three imports print new ids 1..3" '[ "$(grep -c "^imported session" "$T/imp")" = 3 ] && grep -q "imported session 3 as 3 (counters" "$T/imp"'
"$P" history --db "$DB" > "$T/h"
assert "history lists three sessions with kinds" '[ "$(awk "NR>1{print \$2}" "$T/h" | tr "\n" " ")" = "run probes counters " ]'
assert "history shows kernel and monitors" 'grep -q "6.18.0 .*none,strace" "$T/h"'
"$P" history --db "$DB" --kind counters --format csv > "$T/c"
assert "--kind counters --format csv: one row, id 3" '[ "$(wc -l < "$T/c")" = 2 ] && [ "$(tail -1 "$T/c" | cut -d, -f1)" = 3 ]'
"$P" history --db "$DB" --since 2030-01-01 > "$T/s"
assert "--since in the future matches nothing" 'grep -q "no stored sessions match" "$T/s"'
"$P" history --db "$DB" --until 2025-11-29 --format json > "$T/u"
assert "--until a bare date includes that day" '[ "$(jq length "$T/u")" = 3 ]'
"$P" history --db "$DB" --kernel 6.1 --monitor strace --workload pipe --format json > "$T/k"
assert "--kernel/--monitor/--workload filters combine" '[ "$(jq length "$T/k")" = 3 ]'
"$P" history --db "$DB" --monitor perf-stat --format json > "$T/m"
assert "--monitor with no match gives an empty list" '[ "$(jq length "$T/m")" = 0 ]'
"$P" history --db "$DB" --since yesterday 2> "$T/e"; rc=$?
assert "a bad date is a usage error (exit 2)" '[ $rc = 2 ] && grep -q "is not a date" "$T/e"'
"$P" history --db "$T/none.db" 2> "$T/e"; rc=$?
assert "no store at --db: exit 2 (the input names none) with the path" '[ $rc = 2 ] && grep -q "no store at .*none.db" "$T/e"'
"$P" show --db "$DB" 99 2> "$T/e"; rc=$?
assert "show of a missing id: exit 2 (no such session), says so" '[ $rc = 2 ] && grep -q "no session 99" "$T/e"'
"$P" show --db "$DB" abc 2> "$T/e"; rc=$?
assert "show of a non-id: exit 2" '[ $rc = 2 ] && grep -q "is not a session id" "$T/e"'
done_testing
