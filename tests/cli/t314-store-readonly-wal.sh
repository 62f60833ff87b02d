#!/bin/bash
# A healthy store whose last commits are still in its write-ahead log (a writer that
# was killed, or a reader that held an old snapshot: nothing was checkpointed), on a
# filesystem remounted read-only, is read whole: the -wal's commits too.  It was
# opened as an immutable snapshot of the main file alone, which showed a stale store
# ("1 session" of 2) or none ("schema version 0 ... read-only"), or "corrupt".  In a
# private mount namespace, on a tmpfs remounted read-only; with its -shm (read through
# it) and without (read from a private copy).
. tests/cli/lib.bash
C=tests/fuzz/import_corpus
if ! is_root || ! have unshare || ! have sqlite3 || ! have jq; then
	plan 8
	skip_rest "needs root (mounts), unshare(1), the sqlite3 shell and jq"
fi
if [ -z "$T311_IN_NS" ]; then
	T311_IN_NS=1 exec unshare --mount --propagation private bash "$0" "$@"
fi
plan 8
tmpdir
# store DIR FIRST: a store in DIR whose sessions after FIRST (imported) live only in its
# -wal: a reader holds the snapshot before them and is then killed (no checkpoint).
store() {
	local d=$1 db=$1/store.db
	mount -t tmpfs tmpfs "$d"
	[ "$2" = 1 ] && "$P" import --db "$db" "$C/session_1.json" >/dev/null
	mkfifo "$T/in"
	sqlite3 "$db" <"$T/in" >/dev/null 2>&1 &
	sq=$!
	exec 9>"$T/in"
	echo "PRAGMA journal_mode=WAL; BEGIN; SELECT count(*) FROM sqlite_master;" >&9
	sleep 0.3
	[ "$2" = 1 ] || "$P" import --db "$db" "$C/session_1.json" >/dev/null
	"$P" import --db "$db" "$C/session_2.json" >/dev/null
	kill -9 $sq; wait $sq 2>/dev/null
	exec 9>&-
	rm -f "$T/in"
}
sessions() { "$P" history --db "$1/store.db" --format json 2>"$T/err" | jq length; }

mkdir "$T/a" "$T/b" "$T/c"
store "$T/a" 1
is "$(stat -c %s "$T/a/store.db-wal" 2>/dev/null | awk '{ print ($1 > 0) }')" 1 "a store with commits in its -wal"
mount -o remount,ro "$T/a"
touch "$T/a/x" 2>/dev/null; is "$?" 1 "its filesystem is read-only"
is "$(sessions "$T/a")" 2 "history reads both sessions, the one in the -wal too ($(cat "$T/err"))"
"$P" show 2 --db "$T/a/store.db" >/dev/null 2>"$T/err"
is "$?" 0 "show reads session 2, which is in the -wal ($(cat "$T/err"))"

store "$T/b" 0
mount -o remount,ro "$T/b"
is "$(sessions "$T/b")" 2 "a store whose schema and sessions are all in the -wal: both sessions ($(cat "$T/err"))"

store "$T/c" 1
rm "$T/c/store.db-shm"
mount -o remount,ro "$T/c"
is "$(sessions "$T/c")" 2 "without its -shm (SQLite cannot build one there): both sessions, from a copy ($(cat "$T/err"))"
is "$(ls "$T/c" | tr '\n' ' ')" "store.db store.db-wal " "the read-only directory is as it was"
is "$(ls -d "${TMPDIR:-/tmp}"/probecost-* 2>/dev/null | while read -r d; do [ "$(stat -c %U "$d")" = "$(id -un)" ] && find "$d" -name 'store.db*'; done)" "" \
	"and no copy is left behind"
umount "$T/a" "$T/b" "$T/c"
done_testing
