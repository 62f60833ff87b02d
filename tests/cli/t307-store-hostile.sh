#!/bin/bash
# parallel-safe
# t307-store-hostile: what users put in a store comes back out: command lines with a tab,
# 70 KB long or with bytes that are not UTF-8 survive export -> import; show escapes what
# a terminal would obey; huge, endless and non-regular import inputs are refused early;
# a damaged store is one exit status; a store the reader cannot write still reads.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
plan 16
tmpdir
A="$T/a.db"
# LeakSanitizer cannot run under ptrace-free forks of itself either; keep runs short.
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
RUN=(run -r 2 --warmup 0 --db "$A" -- /bin/true)

# round_trip DESCRIPTION ARG: a session of `run -- /bin/true ARG` exports to valid JSON,
# imports into another store, and exports from there identically.
round_trip() {
	local d=$1 id
	"$P" "${RUN[@]}" "$2" > /dev/null 2>&1
	id=$("$P" history --db "$A" --format csv | tail -1 | cut -d, -f1)
	rm -f "$T/b.db"
	"$P" export --db "$A" "$id" > "$T/e1.json" 2> "$T/err"
	"$P" import --db "$T/b.db" "$T/e1.json" > /dev/null 2>> "$T/err"
	"$P" export --db "$T/b.db" 1 > "$T/e2.json" 2>> "$T/err"
	assert "$d: valid JSON, imported, exported again identically" \
		'jq -e .cmdline "$T/e1.json" > /dev/null && cmp -s <(jq -S "del(.id)" "$T/e1.json") <(jq -S "del(.id)" "$T/e2.json")' ||
		diag "$(cat "$T/err")"
}
round_trip "a tab in the command line" "$(printf 'a\tb')"
round_trip "a 70 KB command line" "$(head -c 70000 /dev/zero | tr '\0' x)"
round_trip "bytes that are not UTF-8" "$(printf 'caf\xe9 \xff\xfe')"
is "$(jq -r '.configs[0].workload_args' "$T/e1.json")" "/bin/true \$'caf\\xe9 \\xff\\xfe'" \
	"the bytes are kept as \\xNN escapes, shell-quoted"

"$P" "${RUN[@]}" "$(printf 'x\033[2J\033]0;owned\007y')" > "$T/live.txt" 2>&1
id=$("$P" history --db "$A" --format csv | tail -1 | cut -d, -f1)
"$P" show --db "$A" "$id" > "$T/show.txt" 2>&1
assert "show prints no escape sequence from argv (no ESC or BEL byte)" \
	'! grep -q "$(printf "[\033\007]")" "$T/show.txt" && ! grep -q "$(printf "[\033\007]")" "$T/live.txt" && grep -q "x\\\\x1b\[2J" "$T/show.txt"'

# A NUL in an imported command line is refused, not truncated.
"$P" export --db "$A" 1 | jq '.cmdline = "probecost run \u0000 hidden"' > "$T/nul.json"
"$P" import --db "$T/n.db" "$T/nul.json" > /dev/null 2> "$T/err"; rc=$?
assert "a NUL (\\u0000) in a string is refused (exit 2) with its place" \
	'[ $rc = 2 ] && grep -q "NUL character .* at byte [0-9]" "$T/err" && [ ! -e "$T/n.db" ]' || diag "$(cat "$T/err")"
# The import error names the place, never an empty one ("session 1: : ...").
printf '[5]' > "$T/bad.json"
"$P" import --db "$T/n.db" "$T/bad.json" > /dev/null 2> "$T/err"; rc=$?
assert "an error in an array names the session and what is wrong, no empty field" \
	'[ $rc = 2 ] && ! grep -q ": :" "$T/err" && grep -q "session 0" "$T/err"' || diag "$(cat "$T/err")"

# Huge and endless inputs: refused early, with little memory.
# mem CMD...: runs CMD; $T/kb holds its peak resident memory in KB (kb prints it).
mem() { /usr/bin/time -f %M -o "$T/time" "$@"; local r=$?; tail -1 "$T/time" > "$T/kb"; return $r; }
mem timeout 20 "$P" import --db "$T/n.db" /dev/zero > /dev/null 2> "$T/err"; rc=$?
assert "import /dev/zero: exit 2 at once, 'not a regular file', under 100 MB ($(cat "$T/kb") KB)" \
	'[ $rc = 2 ] && grep -q "not a regular file" "$T/err" && [ "$(cat "$T/kb")" -lt 100000 ]' || diag "$(cat "$T/err")"
mem timeout 20 "$P" import --db "$T/n.db" - < /dev/zero > /dev/null 2> "$T/err"; rc=$?
assert "import - < /dev/zero: refused the same way" \
	'[ $rc = 2 ] && grep -q "not a regular file" "$T/err"' || diag "$(cat "$T/err")"
mem timeout 20 bash -c "cat /dev/zero | '$P' import --db '$T/n.db' -" > /dev/null 2> "$T/err"; rc=$?
assert "an endless pipe of NULs: exit 2 at the first NUL, under 100 MB ($(cat "$T/kb") KB)" \
	'[ $rc = 2 ] && grep -q "NUL" "$T/err" && [ "$(cat "$T/kb")" -lt 100000 ]' || diag "$(cat "$T/err")"
truncate -s 600M "$T/sparse.json"
mem timeout 20 "$P" import --db "$T/n.db" "$T/sparse.json" > /dev/null 2> "$T/err"; rc=$?
assert "a 600 MB file: refused by its size before reading ($(cat "$T/kb") KB)" \
	'[ $rc = 2 ] && grep -q "larger than" "$T/err" && [ "$(cat "$T/kb")" -lt 100000 ]' || diag "$(cat "$T/err")"
rm -f "$T/sparse.json"
"$P" import --db "$T/n.db" "$T" > /dev/null 2> "$T/err"; rc=$?
assert "a directory: exit 2, 'not a regular file'" '[ $rc = 2 ] && grep -q "not a regular file" "$T/err"'

# A store damaged in a page deep inside gives the same exit status as one damaged in its header.
for i in $(seq 30); do "$P" import --db "$T/d.db" tests/fuzz/import_corpus/session_1.json > /dev/null; done
pages=$(( $(stat -c %s "$T/d.db") / 4096 ))
cp "$T/d.db" "$T/deep.db"
dd if=/dev/urandom of="$T/deep.db" bs=4096 seek=$((pages - 2)) count=1 conv=notrunc 2> /dev/null
cp "$T/d.db" "$T/head.db"
dd if=/dev/urandom of="$T/head.db" bs=100 count=1 conv=notrunc 2> /dev/null
r1=$("$P" export --db "$T/deep.db" --all > /dev/null 2> "$T/e1"; echo $?)
r2=$("$P" export --db "$T/head.db" --all > /dev/null 2> "$T/e2"; echo $?)
assert "damaged deep ($r1) or in the header ($r2): both exit 2, both say corrupt" \
	'[ "$r1" = 2 ] && [ "$r2" = 2 ] && grep -q corrupt "$T/e1" && grep -q corrupt "$T/e2"' ||
	diag "$(cat "$T/e1" "$T/e2")"

# A store the reader can write neither (file nor directory) still reads.
if is_root && have setpriv; then
	mkdir "$T/ro"
	"$P" import --db "$T/ro/p.db" tests/fuzz/import_corpus/session_1.json > /dev/null
	chmod 755 "$T" "$T/ro"; chmod 644 "$T/ro/p.db"
	asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent "$@"; }
	asnobody "$P" history --db "$T/ro/p.db" --format json > "$T/h.json" 2> "$T/err"; rc=$?
	assert "another user reads a store it cannot write (history)" \
		'[ $rc = 0 ] && [ "$(jq length "$T/h.json")" = 1 ]' || diag "$(cat "$T/err")"
	asnobody "$P" show --db "$T/ro/p.db" 1 > /dev/null 2> "$T/err"; rc=$?
	assert "... and shows a session of it, leaving no file behind" \
		'[ $rc = 0 ] && [ "$(ls "$T/ro")" = p.db ]' || diag "$(cat "$T/err"; ls "$T/ro")"
	asnobody "$P" import --db "$T/ro/p.db" tests/fuzz/import_corpus/session_2.json > /dev/null 2> "$T/err"; rc=$?
	assert "... and writing to it fails clearly (exit 1)" '[ $rc = 1 ] && grep -q "could not open" "$T/err"' ||
		diag "$(cat "$T/err")"
else
	skip "needs root and setpriv to read as another user"
	skip "same"
	skip "same"
fi
done_testing
