#!/bin/bash
# Exit status as the table says (probecost(1), each command's EXIT STATUS): 2 when the
# input names nothing (no such session, no store at --db, --db a directory, an import
# file that does not exist), 1 when what it names cannot be reached or read (a server
# that does not answer), 3 when a measurement could not be stored.  Each with one line.
# report 999999 and import /nonexistent exited 1; a missing --db directory exited 1.
. tests/cli/lib.bash
C=tests/fuzz/import_corpus
plan 12
tmpdir
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
S=$T/s.db
"$P" import --db "$S" "$C/session_1.json" >/dev/null
one_line_exit2 "report 999999" "$P" report 999999 --db "$S"
one_line_exit2 "show 999999" "$P" show 999999 --db "$S"
one_line_exit2 "export 999999" "$P" export 999999 --db "$S"
one_line_exit2 "compare 1 999999" "$P" compare 1 999999 --db "$S"
one_line_exit2 "history --db in a directory that does not exist" "$P" history --db "$T/missing/dir/s.db"
one_line_exit2 "report 1 --db in a directory that does not exist" "$P" report 1 --db "$T/missing/dir/s.db"
one_line_exit2 "history --db DIRECTORY" "$P" history --db "$T"
one_line_exit2 "import --db DIRECTORY" "$P" import --db "$T" "$C/session_1.json"
one_line_exit2 "import /nonexistent" "$P" import --db "$S" "$T/nonexistent.json"
# A server that does not answer (nothing listens on port 1): the store cannot be read.
run_pc history --db postgresql://probecost@127.0.0.1:1/x
is "$rc $(printf '%s\n' "$err" | grep -c .)" "1 1" "history, unreachable postgresql:// URL: exit 1, one line"
run_pc import --db postgresql://probecost@127.0.0.1:1/x "$C/session_1.json"
is "$rc" 1 "import to an unreachable postgresql:// URL: exit 1"
run_pc run -w null -r 1 --warmup 0 --db postgresql://probecost@127.0.0.1:1/x
is "$rc" 3 "run with an unreachable store: measured, printed, not stored: exit 3"
done_testing
