#!/bin/bash
# parallel-safe
# t015: `make named-files` (scripts/named-files.sh) passes on this tree, and on a
# made-up tree fails on a comment naming ROOM/NAME.c of a file that is not there,
# naming the file, the line and the path; paths of other projects (linux/...)
# and files that exist pass.
. "$(dirname "$0")/lib.bash"
plan 5
tmpdir

scripts/named-files.sh
ok $? "this tree: every file a comment names exists"

mkdir -p "$T/src/core" "$T/src/run"
printf '/* the runner (run/runner.c) and linux/perf_event.h */\n' >"$T/src/core/a.h"
: >"$T/src/run/runner.c"
scripts/named-files.sh "$T" 2>/dev/null
ok $? "an existing file and another project's path pass"
printf '/*\n * moved: see run/figures.h\n */\n' >"$T/src/core/b.c"
err=$(scripts/named-files.sh "$T" 2>&1 >/dev/null)
is "$?" 1 "a comment naming a file that is not there fails"
like "$err" 'src/core/b.c:2 names run/figures.h, which does not exist' "it names the file, the line and the path"
ok "$(grep -cvE 'b\.c:2|FAILED' <<<"$err")" "only that one"
done_testing
