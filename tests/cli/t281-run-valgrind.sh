#!/bin/bash
# no-sanitizer: valgrind cannot run a binary built with AddressSanitizer
# The valgrind monitors: valgrind --tool=none (the JIT alone) and memcheck run the stanford
# kernels faithfully (every run passes the kernels' own result checks and makes exactly the
# hits the plain build makes), and cost what a JIT costs: more than doubling the run, a start-up
# of at least 100 ms (valgrind translates probecost's code before main), memcheck more than none.
. "$(dirname "$0")/lib.bash"
plan 6
have valgrind || skip_rest "valgrind not installed (Debian package valgrind)"
have jq || skip_rest "jq not installed"
run_pc run --no-store --runs 5 --warmup 0 --cpu 0 --format json -w stanford:kernel=intmm,scale=2 \
	-m valgrind -m memcheck
is "$rc" 0 "run -m valgrind -m memcheck: exit 0"
row() { printf '%s' "$out" | jq -r --arg m "$1" ".statistics[] | select(.monitor == \$m) | $2"; }
ev=$(row none .events)
# Every figure a number: a run that left them null (no events, no fixed cost) passes nothing.
is "$(row valgrind '"\(.failed) \(.events)"') $(row memcheck '"\(.failed) \(.events)"')" "0 $ev 0 $ev" \
	"no run failed its result check, and each made the $ev hits the plain run made"
assert "... the plain run made hits (a number above 0: $ev)" '[[ $ev =~ ^[1-9][0-9]*$ ]]'
is "$(row valgrind '.overhead > 1 and .significant') $(row memcheck '.overhead > 1 and .significant')" \
	"true true" "both more than double the run, significantly: +$(row valgrind .overhead), +$(row memcheck .overhead)"
is "$(row valgrind '(.fixed_ns | type == "number" and . > 1e8)') $(row memcheck '(.fixed_ns | type == "number" and . > 1e8)')" \
	"true true" "start-up above 100 ms: $(row valgrind .fixed_ns) and $(row memcheck .fixed_ns) ns"
is "$(printf '%s' "$out" | jq '[.statistics[] | select(.monitor == "memcheck" or .monitor == "valgrind") | .wall_ns.mean] |
	(map(type == "number") | all) and .[0] != .[1] and (.[1] > .[0])')" true "memcheck's runs take longer than the JIT alone's"
done_testing
