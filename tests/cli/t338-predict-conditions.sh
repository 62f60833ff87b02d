#!/bin/bash
# slow: a calibration beside two busy loops and a prediction after them (about 40 s): the busy loops would slow the parallel group's timings
# no-sanitizer: timings of a real tracer
# t338-predict-conditions: a ptrace tracer's stop costs what waking the tracer costs, a
# quarter of it beside busy CPUs of what it costs beside idle ones (docs/predict.md).
# predict reads how many CPUs other processes took while the cost table was measured
# (the stored runs of its sessions) beside the plain runs' figure, prints both, and warns,
# naming the ptrace tracers, when they are half a CPU or more apart.  Here the table is
# measured beside two busy loops of the test's own, and the command predicted after
# they are gone.
. "$(dirname "$0")/lib.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
have cc || { plan 1; skip "no C compiler (apt-get install gcc): the fixture is built here"; done_testing; }
skip_unless_counting
have strace || { plan 1; skip "strace is not installed (apt-get install strace)"; done_testing; }
plan 7
tmpdir
DB=$T/c.db
cc -O2 -o "$T/readloop" tests/fixtures/predict/readloop.c

loops=()
stop_loops() { [ ${#loops[@]} -eq 0 ] || { kill "${loops[@]}" 2>/dev/null; wait "${loops[@]}" 2>/dev/null; }; loops=(); }
on_exit stop_loops
for _ in 1 2; do
	bash -c 'while :; do :; done' &
	loops+=($!)
done
run_pc calibrate -m strace --placement unpinned --runs 5 --seed 3 --db "$DB"
stop_loops
is "$rc" 0 "calibrate -m strace beside two busy loops: exit 0"

# 20,000 iterations: 3 plain runs of about 80 ms, enough of /proc/stat's 10 ms ticks.
run_pc predict -m strace --db "$DB" --format json -- "$T/readloop" 20000
is "$rc" 0 "predict after the loops are gone: exit 0"
tab=$(jq .table_other_cpus <<< "$out")
oth=$(jq .other_cpus <<< "$out")
assert "the table's runs had the loops beside them: $tab CPUs taken by other processes, 0.5 to $(nproc)" \
	'awk -v t="$tab" -v n="$(nproc)" "BEGIN { exit !(t >= 0.5 && t <= n) }"'
# Whatever the machine's other work did to the plain runs, the warning follows the two figures.
apart=$(awk -v a="$tab" -v b="$oth" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d >= 0.5) ? 1 : 0 }')
is "$(jq -c '[(.warnings | length), ((.warnings[0] // "") | test("the figures of strace hold"))]' <<< "$out")" \
	"$([ "$apart" = 1 ] && echo '[1,true]' || echo '[0,false]')" \
	"a warning naming strace exactly when the figures are half a CPU apart (table $tab, plain runs $oth)"
if [ "$apart" = 1 ]; then
	pass "... and they were apart (the loops are gone)"
elif machine_quiet; then
	not_ok "... and they were apart (the loops are gone)" "the plain runs read $oth CPUs taken by others on a quiet machine"
else
	skip "busy machine (load $(cut -d" " -f1 /proc/loadavg) on $(nproc) CPUs): the plain runs' others ($oth CPUs) came near the table's"
fi

run_pc predict -m strace --db "$DB" -- "$T/readloop" 20000
like "$out" "CPUs taken by other processes \\(the cost table's runs: [0-9]+\\.[0-9]{2}\\)" \
	"text: the table's figure beside the plain runs' in the header"
if grep -q "CPUs taken by other processes" <<< "$out" && [ "$(grep -c '^warning: the cost table' <<< "$out")" = 1 ]; then
	pass "text: the warning, once"
elif machine_quiet; then
	not_ok "text: the warning, once" "$out"
else
	skip "busy machine (load $(cut -d" " -f1 /proc/loadavg) on $(nproc) CPUs): the plain runs' others may have come near the table's"
fi
done_testing
