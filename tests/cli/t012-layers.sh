#!/bin/bash
# parallel-safe
# t012: `make layers` (scripts/layers.sh) passes on this tree and fails on a tree
# whose include runs back up the order, naming the file and the rooms; a room on
# one level may include another, but not in a loop (a includes b, b includes a:
# it fails naming the loop and the files); nor may the files of one room (a file
# and its header counting as one); a room the order does not name fails.
# And no two .c files under src/ share a basename (a stack trace names one file).
. "$(dirname "$0")/lib.bash"
plan 14
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
# variant NAME FILE HEADER...: the small tree plus FILE's include of HEADER (and of
# each further pair); layers.sh's exit status in rc, its stderr in err (one line).
variant() {
	local name=$1
	mk "$name"
	shift
	while [ $# -ge 2 ]; do
		echo "#include \"$2\"" >>"$T/$name/src/$1"
		shift 2
	done
	err=$(scripts/layers.sh "$T/$name" 2>&1 >/dev/null)
	rc=$?
	err=${err//$'\n'/ }
}
mk good
scripts/layers.sh "$T/good" >/dev/null 2>&1
ok $? "down and sideways includes pass"
variant up low/l.c top/t.h
is "$rc" 1 "an include that runs back up fails"
like "$err" 'src/low/l.c includes "top/t.h": low may not include top' "it names the file and the rooms"
variant loop mid_a/a.c mid_b/b.h
is "$rc" 1 "a loop between two rooms of one level fails"
like "$err" 'rooms of one level include each other: mid_(a -> mid_b -> mid_a|b -> mid_a -> mid_b)' "it names the loop"
like "$err" 'src/mid_a/a.c includes "mid_b/b.h".*src/mid_b/b.c includes "mid_a/a.h"|src/mid_b/b.c includes "mid_a/a.h".*src/mid_a/a.c includes "mid_b/b.h"' "and the include of each step"
variant files low/l.c low/m.h low/m.c low/l.h
is "$rc" 1 "a loop of two files of one room fails"
like "$err" 'files of one room include each other: low/(l -> low/m -> low/l|m -> low/l -> low/m)' "it names the loop"
like "$err" 'src/low/l.c includes "low/m.h".*src/low/m.c includes "low/l.h"|src/low/m.c includes "low/l.h".*src/low/l.c includes "low/m.h"' "and the include of each step"
variant unknown mid_b/b.c nowhere/x.h
is "$rc" 1 "a room the order does not name fails"
variant generated low/l.c pcost_args.h
is "$rc" 0 "a generated header (no room) is not a layer"
dups=$(find src -name '*.c' -printf '%f\n' | sort | uniq -d | tr '\n' ' ')
is "$dups" "" "no two .c files under src/ share a basename"
done_testing
