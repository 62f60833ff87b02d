#!/bin/bash
# t300-store-history: sessions imported into a fresh store are listed, filtered and shown.
P="${PROBECOST:-./probecost}"
C=tests/fuzz/import_corpus
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
DB="$T/p.db"
n=0
ok() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo 1..12

for f in session_1 session_2 session_3; do "$P" import --db "$DB" "$C/$f.json" >> "$T/imp" 2>&1; done
ok "three imports print new ids 1..3" '[ "$(grep -c "^imported session" "$T/imp")" = 3 ] && grep -q "imported session 3 as 3 (counters" "$T/imp"'
"$P" history --db "$DB" > "$T/h"
ok "history lists three sessions with kinds" '[ "$(awk "NR>1{print \$2}" "$T/h" | tr "\n" " ")" = "run probes counters " ]'
ok "history shows kernel and monitors" 'grep -q "6.18.0 .*none,strace" "$T/h"'
"$P" history --db "$DB" --kind counters --format csv > "$T/c"
ok "--kind counters --format csv: one row, id 3" '[ "$(wc -l < "$T/c")" = 2 ] && [ "$(tail -1 "$T/c" | cut -d, -f1)" = 3 ]'
"$P" history --db "$DB" --since 2030-01-01 > "$T/s"
ok "--since in the future matches nothing" 'grep -q "no stored sessions match" "$T/s"'
"$P" history --db "$DB" --until 2025-11-29 --format json > "$T/u"
ok "--until a bare date includes that day" '[ "$(jq length "$T/u")" = 3 ]'
"$P" history --db "$DB" --kernel 6.1 --monitor strace --workload pipe --format json > "$T/k"
ok "--kernel/--monitor/--workload filters combine" '[ "$(jq length "$T/k")" = 3 ]'
"$P" history --db "$DB" --monitor perf-stat --format json > "$T/m"
ok "--monitor with no match gives an empty list" '[ "$(jq length "$T/m")" = 0 ]'
"$P" history --db "$DB" --since yesterday 2> "$T/e"; rc=$?
ok "a bad date is a usage error (exit 2)" '[ $rc = 2 ] && grep -q "is not a date" "$T/e"'
"$P" history --db "$T/none.db" 2> "$T/e"; rc=$?
ok "no store yet: exit 1 with the path" '[ $rc = 1 ] && grep -q "no store at .*none.db" "$T/e"'
"$P" show --db "$DB" 99 2> "$T/e"; rc=$?
ok "show of a missing id: exit 1, says so" '[ $rc = 1 ] && grep -q "no session 99" "$T/e"'
"$P" show --db "$DB" abc 2> "$T/e"; rc=$?
ok "show of a non-id: exit 2" '[ $rc = 2 ] && grep -q "is not a session id" "$T/e"'
