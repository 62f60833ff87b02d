#!/bin/bash
# parallel-safe
# import --check validates and writes nothing (a new store is not even created; an existing one
# keeps its sessions); compare --threshold moves the REGRESSION mark to the points asked, on the
# hand-made run-a/run-b pair whose overhead growths are known: strace +250 points (500% -> 750%),
# valgrind about +2400, ltrace about +18, perf-stat about +1.
. "$(dirname "$0")/lib.bash"
D=tests/cli/data
plan 9
have jq || skip_rest "jq not installed"
tmpdir
run_pc import --check "$D/run-a.json" --db "$T/new.db"
is "$rc:$out" "0:'$D/run-a.json': 1 valid session" "--check: a valid export, exit 0, says what it holds"
is "$(ls "$T")" "" "--check writes nothing: no store created"
"$P" import --db "$T/s.db" "$D/run-a.json" >/dev/null
before=$(sha256sum <"$T/s.db")
run_pc import --check "$D/run-b.json" --db "$T/s.db"
is "$rc $(sha256sum <"$T/s.db" | cut -c1-16)" "0 $(printf '%s' "$before" | cut -c1-16)" \
	"--check on an existing store leaves it byte for byte"
jq '.configs[0].samples[0].wall_ns = -5' "$D/run-b.json" >"$T/bad.json"
one_line_exit2 "--check of a session with a negative wall time" "$P" import --check "$T/bad.json" --db "$T/s.db"
"$P" import --db "$T/s.db" "$D/run-b.json" >/dev/null
reg() { # reg THRESHOLD: the monitors marked as regressions at it
	"$P" compare 1 2 --db "$T/s.db" --threshold "$1" --format json |
		jq -r '[.rows[] | select(.regression) | .name | sub(".* / "; "")] | sort | join(",")'
}
is "$(reg 5)" "ltrace,strace,valgrind" "--threshold 5 (the default's): strace, valgrind and ltrace grew"
is "$(reg 300)" "valgrind" "--threshold 300: only valgrind's +2400 points"
is "$(reg 3000)" "" "--threshold 3000: nothing grew that much"
is "$(reg 0.5 | tr , '\n' | grep -c perf-stat)" 1 "--threshold 0.5: perf-stat's +1 point counts"
one_line_exit2 "--threshold -1" "$P" compare 1 2 --db "$T/s.db" --threshold -1
done_testing
