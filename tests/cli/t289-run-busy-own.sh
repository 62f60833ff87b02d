#!/bin/bash
# The busy-machine figure (JSON other_cpu_ns, the "busy machine" warning) counts the CPU
# time of processes outside the study: an attach monitor that spins beside each run on
# the workload's CPU is the study's own and adds nothing to it; the same spin started
# by the test, outside the study, is another process and takes about half that CPU
# from the runs.  Both sides run interleaved beside a plain config, which sees the
# machine's own load, so the comparison holds on a loaded machine too.
# shellcheck disable=SC2034 # the variables set for assert's eval'd expressions
. "$(dirname "$0")/lib.bash"
plan 4
have jq || skip_rest "jq not installed (Debian package jq)"
have taskset || skip_rest "taskset not installed (Debian package util-linux)"
tmpdir
# The first CPU this test may use: the workload, the monitor and the test's spin share it.
cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')
study() { # study ATTACH READY: a JSON study of the syscall workload with an attach monitor
	"$P" run --no-store --format json -w syscall:loops=20000 --cpu "$cpu" --placement same \
		--runs 6 --seed 7 --attach "$PWD/$F/$1" --ready "$2" >"$T/s.json" 2>"$T/err"
}
# share CONFIG: the config's other processes' CPU time over its mean wall time (0 the plain
# config, 1 the monitored one); "" when missing.
share() { jq -r ".statistics[$1] | if .other_cpu_ns == null then \"\" else .other_cpu_ns / .wall_ns.mean end" "$T/s.json"; }

study attach-spin '^spin-monitor ready'
own_none=$(share 0) own_mon=$(share 1)
own_warn=$(jq -r '.warnings[] | select(startswith("busy machine"))' "$T/s.json")
diag "the study's own spin: other processes' share $own_none (plain), $own_mon (monitored);" \
	"load $(cut -d' ' -f1 /proc/loadavg)"
# Counted as other, the spin would take about half the CPU: +0.5 over the plain config on a
# quiet machine, a third of it with one other busy process there.
assert "the study's own spinning monitor is not another process (within 0.15 of plain)" \
	'awk -v a="$own_mon" -v b="$own_none" "BEGIN { exit !(a != \"\" && b != \"\" && a - b < 0.15) }"'
# A quiet machine, as the plain runs saw it (under 10%): then the spin alone does not warn.
assert "no busy-machine warning from the study's own spin where plain runs saw none" \
	'awk -v b="$own_none" "BEGIN { exit !(b > 0.10) }" || [ -z "$own_warn" ]'

# The same spin outside the study, pinned to the same CPU.
taskset -c "$cpu" bash -c 'while :; do :; done' &
hog=$!
on_exit "kill $hog 2>/dev/null"
study attach-ready '^fake-monitor ready'
kill "$hog"
wait "$hog" 2>/dev/null
ext_none=$(share 0) ext_mon=$(share 1)
diag "a spin beside the study: other processes' share $ext_none (plain), $ext_mon (monitored)"
# It takes at least a third of the CPU from every run (half beside the workload alone;
# more load only adds others), less the tick resolution of one reading.
assert "a spin outside the study is another process: >= 0.3 of every config's wall time" \
	'awk -v a="$ext_none" -v b="$ext_mon" "BEGIN { exit !(a != \"\" && b != \"\" && a >= 0.3 && b >= 0.3) }"'
like "$(jq -r '.warnings[]' "$T/s.json")" '^busy machine: processes outside this study took CPU time' \
	"the study beside the spin warns of a busy machine"
done_testing
