#!/bin/bash
# no-sanitizer: valgrind cannot run a binary built with AddressSanitizer
# The valgrind monitors: valgrind --tool=none (the JIT alone) and memcheck run the stanford
# kernels faithfully (every run passes the kernels' own result checks and makes exactly the
# hits the plain build makes), and cost what a JIT costs: more than doubling the run, a start-up
# of at least 100 ms (valgrind translates probecost's code before main), memcheck more than none.
. "$(dirname "$0")/lib.bash"
plan 5
have valgrind || skip_rest "valgrind not installed (Debian package valgrind)"
have jq || skip_rest "jq not installed"
run_pc run --no-store --runs 5 --warmup 0 --cpu 0 --format json -w stanford:kernel=intmm,scale=2 \
	-m valgrind -m memcheck
is "$rc" 0 "run -m valgrind -m memcheck: exit 0"
row() { printf '%s' "$out" | jq -r --arg m "$1" ".statistics[] | select(.monitor == \$m) | $2"; }
is "$(row valgrind '"\(.failed) \(.events)"') $(row memcheck '"\(.failed) \(.events)"')" \
	"0 $(row none .events) 0 $(row none .events)" \
	"no run failed its result check, and each made the $(row none .events) hits the plain run made"
is "$(row valgrind '.overhead > 1 and .significant') $(row memcheck '.overhead > 1 and .significant')" \
	"true true" "both more than double the run, significantly: +$(row valgrind .overhead), +$(row memcheck .overhead)"
ok "$(awk -v a="$(row valgrind .fixed_ns)" -v b="$(row memcheck .fixed_ns)" \
	'BEGIN { exit !(a > 1e8 && b > 1e8) }'; echo $?)" \
	"start-up above 100 ms: $(row valgrind .fixed_ns) and $(row memcheck .fixed_ns) ns"
ok "$(awk -v a="$(row valgrind .wall_ns.mean)" -v b="$(row memcheck .wall_ns.mean)" \
	'BEGIN { exit !(b > a) }'; echo $?)" "memcheck's runs take longer than the JIT alone's"
done_testing
