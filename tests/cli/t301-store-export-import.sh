#!/bin/bash
# parallel-safe
# t301-store-export-import: export -> import -> export is lossless; hostile input is refused whole.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
C=tests/fuzz/import_corpus
tmpdir
A="$T/a.db"; B="$T/b.db"
count() { "$P" history --db "$1" --format json | jq length; }
plan 14

"$P" import --db "$A" "$C/array.json" > /dev/null
"$P" import --db "$A" "$C/session_3.json" > /dev/null
"$P" export --db "$A" 1 2 3 > "$T/e1.json"
assert "export of three ids is an array of three" '[ "$(jq length "$T/e1.json")" = 3 ]'
"$P" import --db "$B" - < "$T/e1.json" > /dev/null
"$P" export --db "$B" 1 2 3 -o "$T/e2.json"
assert "export -> import -> export is identical" 'cmp -s "$T/e1.json" "$T/e2.json"'
assert "raw samples survive: counter samples equal the corpus" \
  '[ "$(jq -c ".[2].series[0].ns" "$T/e2.json")" = "$(jq -c ".series[0].ns" "$C/session_3.json")" ]'
assert "the seed keeps all 64 bits" '[ "$(jq -r ".[0].seed" "$T/e2.json")" = 18364758544493064720 ]'

"$P" export --db "$A" --all | "$P" import --db "$T/c.db" - > /dev/null
"$P" export --db "$T/c.db" --all > "$T/e3.json"
assert "export --all gathers every session; the copy exports the same" 'cmp -s "$T/e1.json" "$T/e3.json"'

# Hostile inputs: each refused with exit 2, and the store unchanged.
before=$(count "$B")
bad() {
	printf '%s' "$2" > "$T/bad.json"
	"$P" import --db "$B" "$T/bad.json" > /dev/null 2> "$T/err"; rc=$?
	assert "refuses $1" '[ $rc = 2 ] && grep -q "nothing imported" "$T/err" && grep -q "$3" "$T/err" && [ "$(count "$B")" = "$before" ]'
}
bad "truncated JSON" "$(head -c 700 "$C/session_1.json")" "not valid JSON"
bad "a second session with an error (all or nothing)" \
    "$(jq -c '.[1].configs[0].samples[0].block = -1' "$T/e1.json")" "session 1: configs\[0\].samples\[0\].block"
bad "an unknown member" "$(jq -c '.evil = 1' "$C/session_1.json")" "evil: unknown member"
bad "deep nesting" "$(python3 -c 'print("["*5000 + "]"*5000)')" "not valid JSON"
bad "terminal escapes in a name" "$(jq -c '.configs[0].monitor = "x\u001b[2J"' "$C/session_1.json")" "control characters"
bad "a number out of range" "$(jq -c '.started = 1e300' "$C/session_1.json")" "started"
bad "trailing garbage" "$(cat "$C/session_1.json") x" "trailing data"
bad "an empty array" "[]" "1 to 10000 sessions"
printf '{"format":"probecost-session"\0}' > "$T/nul.json"
"$P" import --db "$B" "$T/nul.json" 2> "$T/err"; rc=$?
assert "refuses a NUL byte" '[ $rc = 2 ] && grep -q "NUL byte" "$T/err"'
done_testing
