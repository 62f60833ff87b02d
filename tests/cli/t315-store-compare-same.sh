#!/bin/bash
# compare of a session with itself (compare 1 1, or 1 and last when 1 is the last)
# exited 0 with a table of zero differences: now one line, exit 2.
. tests/cli/lib.bash
C=tests/fuzz/import_corpus
plan 3
tmpdir
"$P" import --db "$T/s.db" "$C/session_1.json" >/dev/null
one_line_exit2 "compare 1 1" "$P" compare 1 1 --db "$T/s.db"
one_line_exit2 "compare 1 last (the same one)" "$P" compare 1 last --db "$T/s.db"
"$P" import --db "$T/s.db" "$C/session_1.json" >/dev/null
run_pc compare 1 2 --db "$T/s.db"
is "$rc" 0 "compare 1 2 (two sessions, alike) still compares"
done_testing
