#!/bin/bash
# parallel-safe
# t302-store-robust: corrupt, foreign, newer, read-only and busy stores give clear errors; writers coexist.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
C=tests/fuzz/import_corpus
tmpdir
on_exit 'chattr -i "$T/ro.db" 2>/dev/null; umount "$T/full" 2>/dev/null'
plan 11

head -c 4096 /dev/urandom > "$T/junk.db"
"$P" history --db "$T/junk.db" 2> "$T/e"; rc=$?
assert "a corrupt file: exit 2, 'corrupt or not a database'" '[ $rc = 2 ] && grep -q "junk.db.* is corrupt or not a database" "$T/e"'
sqlite3 "$T/other.db" "CREATE TABLE t(x)"
"$P" import --db "$T/other.db" "$C/session_1.json" 2> "$T/e"; rc=$?
assert "another program's database is refused untouched" '[ $rc = 2 ] && grep -q "another program" "$T/e" && [ "$(sqlite3 "$T/other.db" "SELECT count(*) FROM sqlite_master")" = 1 ]'
"$P" import --db "$T/new.db" "$C/session_1.json" > /dev/null
cur=$(sqlite3 "$T/new.db" "PRAGMA user_version")
sqlite3 "$T/new.db" "PRAGMA user_version = 99"
"$P" history --db "$T/new.db" 2> "$T/e"; rc=$?
assert "a newer schema is refused with versions named" '[ $rc = 2 ] && grep -q "schema version 99, newer than this probecost reads ($cur); upgrade probecost" "$T/e"'

"$P" import --db "$T/ro.db" "$C/session_1.json" > /dev/null
if is_root && ! chattr +i "$T/ro.db" 2>/dev/null; then
	skip "cannot make a file read-only for root here (no chattr +i)"
	skip "same"
else
	is_root || chmod 0400 "$T/ro.db"
	"$P" import --db "$T/ro.db" "$C/session_2.json" 2> "$T/e"; rc=$?
	assert "a read-only store: import fails clearly (exit 1)" '[ $rc = 1 ] && grep -q "could not open .*ro.db.* for writing" "$T/e"'
	"$P" history --db "$T/ro.db" --format json > "$T/h"
	assert "a read-only store still reads" '[ "$(jq length "$T/h")" = 1 ]'
	chattr -i "$T/ro.db" 2>/dev/null
fi

# Two importers at once, 20 sessions each, into one store: all 40 land.
jq -c '[range(20) as $i | .]' "$C/session_1.json" > "$T/twenty.json"
"$P" import --db "$T/busy.db" "$C/session_2.json" > /dev/null
( for i in 1 2 3; do "$P" import --db "$T/busy.db" "$T/twenty.json" > /dev/null || echo fail; done ) > "$T/f1" 2>&1 &
( for i in 1 2 3; do "$P" import --db "$T/busy.db" "$T/twenty.json" > /dev/null || echo fail; done ) > "$T/f2" 2>&1 &
wait
assert "two concurrent importers both succeed" '[ ! -s "$T/f1" ] && [ ! -s "$T/f2" ] && [ "$("$P" history --db "$T/busy.db" --format json | jq length)" = 121 ]'
mode=$(stat -c %a "$T/busy.db")
assert "the store file is private (0600)" '[ "$mode" = 600 ]'
XDG_DATA_HOME="$T/xdg" PROBECOST_DB='' "$P" import "$C/session_3.json" > /dev/null
assert "default path is \$XDG_DATA_HOME/probecost/probecost.db, directory 0700" '[ -f "$T/xdg/probecost/probecost.db" ] && [ "$(stat -c %a "$T/xdg/probecost")" = 700 ]'

# A full disk: a 256 KiB tmpfs (root only; skipped elsewhere).
mkdir -p "$T/full"
is_root || skip_rest "mounting a small tmpfs needs root"
mount -t tmpfs -o size=256k tmpfs "$T/full" || { not_ok "as root, mount a 256 KiB tmpfs on $T/full"; skip_rest "no small tmpfs"; }
"$P" import --db "$T/full/p.db" "$C/session_1.json" > /dev/null
jq -c '.configs[0].samples = [range(3000) as $i | .configs[0].samples[1]]' "$C/session_1.json" > "$T/big.json"
"$P" import --db "$T/full/p.db" "$T/big.json" > /dev/null 2> "$T/e"; rc=$?
assert "a full disk: import fails with exit 1, 'is full', nothing imported" \
   '[ $rc = 1 ] && grep -q "the disk holding .*full/p.db.* is full; nothing imported" "$T/e"'
assert "a full disk: the store still holds exactly what it held" '[ "$("$P" history --db "$T/full/p.db" --format json | jq length)" = 1 ]'
if have strace; then
	dd if=/dev/zero of="$T/full/filler" bs=4k 2>/dev/null
	ASAN_OPTIONS=detect_leaks=0 "$P" run -w syscall:loops=200 -m strace -r 2 --warmup 0 --db "$T/full/p.db" > "$T/o" 2> "$T/e"; rc=$?
	assert "a full disk during run: one warning, the measurement printed, exit 3 (not stored)" \
	   '[ $rc = 3 ] && [ "$(grep -c "warning: not storing this session: .*is full" "$T/e")" = 1 ] && grep -q "^  strace" "$T/o"'
else
	skip "strace is not installed (package strace)"
fi
done_testing
