#!/bin/bash
# parallel-safe
# t012: `make layers` (scripts/layers.sh) passes on this tree and fails on a tree
# whose include runs back up the order, naming the file and the rooms; rooms on
# one level may include each other; a room the order does not name fails.
# And no two .c files under src/ share a basename (a stack trace names one file).
. "$(dirname "$0")/lib.bash"
plan 8
tmpdir

out=$(scripts/layers.sh 2>&1)
ok $? "this tree: nothing runs back up"
like "$out" 'cmd -> run \([0-9]+\)' "it prints the include graph by room"

# A small tree: top > mid_a mid_b > low.
mk() { mkdir -p "$T/$1/src/top" "$T/$1/src/mid_a" "$T/$1/src/mid_b" "$T/$1/src/low"
	printf '    layer: top\n    layer: mid_a mid_b\n    layer: low\n' >"$T/$1/src/README.md"
	echo '#include "mid_a/a.h"' >"$T/$1/src/top/t.c"
	echo '#include "low/l.h"' >"$T/$1/src/mid_a/a.c"
	echo '#include "mid_a/a.h"' >"$T/$1/src/mid_b/b.c"; }
mk good
scripts/layers.sh "$T/good" >/dev/null 2>&1
ok $? "down and sideways includes pass"
mk up
echo '#include "top/t.h"' >>"$T/up/src/low/l.c"
err=$(scripts/layers.sh "$T/up" 2>&1 >/dev/null)
rc=$?
is "$rc" 1 "an include that runs back up fails"
like "$err" 'src/low/l.c includes "top/t.h": low may not include top' "it names the file and the rooms"
mk unknown
echo '#include "nowhere/x.h"' >>"$T/unknown/src/mid_b/b.c"
scripts/layers.sh "$T/unknown" >/dev/null 2>&1
is "$?" 1 "a room the order does not name fails"
mk generated
echo '#include "pcost_args.h"' >>"$T/generated/src/low/l.c"
scripts/layers.sh "$T/generated" >/dev/null 2>&1
ok $? "a generated header (no room) is not a layer"
dups=$(find src -name '*.c' -printf '%f\n' | sort | uniq -d | tr '\n' ' ')
is "$dups" "" "no two .c files under src/ share a basename"
done_testing
