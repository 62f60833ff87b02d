#!/bin/bash
# probes --sites / --workload uprobe|sdtargs / --threads: the site encodings in
# the binary, exact hits of every new configuration, the kernel's nop5
# optimization as the workload saw it, and bad input.
. tests/cli/lib.bash
P=$PROBECOST
plan 16

# 1-3: every site of a provider holds its encoding's bytes in the file.
csv=$("$P" probes --list "$P" --format csv)
bytes_at_sites() { # provider nbytes: the distinct byte strings at its sites
	printf '%s\n' "$csv" | awk -F, -v p="$1" '$1 == p {print $4}' | while read -r off; do
		od -An -tx1 -j $((off)) -N "$2" "$P" | tr -d ' \n'; echo
	done | sort -u | tr '\n' ' '
}
is "$(bytes_at_sites stanford_plain 1)" "90 " "nop sites (sdt.h) hold 90"
is "$(bytes_at_sites stanford_volatile_sem_nop5 5)" "0f1f440000 " "nop5 sites hold 0f 1f 44 00 00"
is "$(bytes_at_sites stanford_plain_nop10 10)" "66660f1f840000000000 " \
	"nop10 sites hold 66 66 0f 1f 84 00 00 00 00 00"

# 4-6: the workloads' own counts.
report_of uprobe insn=push loops=1000 threads=3
is "$(field events "$report")" 3000 "uprobe: 3 threads x 1000 calls = 3000 hits"
report_of sdtargs variant=none loops=500
is "$(field events "$report")" 0 "sdtargs variant=none passes no probe"
report_of stanford variant=plain site=nop10 kernel=towers scale=2
is "$(field hits_towers "$report")" 32766 "stanford site=nop10: 2 x 16383 towers hits"

# 7-10: bad input is one line, exit 2.
bad() { # description, expected fragment, args
	run_pc probes "${@:3}" --via dormant --no-store
	ok "$([ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *"$2"* ]]; echo $?)" \
		"$1: exit 2, '$err'"
}
bad "unknown encoding" "--sites: 'nop7' is not nop, nop5 or nop10" --sites nop7
bad "no thread count" "--threads '0': expected" --threads 0
bad "sdtargs has one encoding" "built with sdt.h's nop only" --workload sdtargs --sites nop5
bad "unknown workload" "--workload: 'nope'" --workload nope

# 11-16: armed, exact counts (root, the uprobe PMU and tracefs).
if [ "$(id -u)" != 0 ] || [ ! -r /sys/bus/event_source/devices/uprobe/type ] ||
	[ ! -w /sys/kernel/tracing/uprobe_events ] || ! command -v jq >/dev/null; then
	for i in 11 12 13 14 15 16; do skip "needs root, the uprobe PMU, tracefs and jq"; done
	done_testing
fi
run_pc probes --workload uprobe --sites nop,nop5,nop10 --via uprobe,ftrace --scale 1 -r 1 \
	--warmup 0 --cpu 0 --no-store --format json
rows=$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method != "dormant")]')
is "$(printf '%s' "$rows" | jq 'length')" 10 \
	"uprobe workload: (nop, nop5, nop10, push, ret) x (uprobe, ftrace) rows"
is "$(printf '%s' "$rows" | jq '[.[] | select(.hits_counted != 100000 or .hits_lost != 0)] | length')" 0 \
	"every row counted its 100000 hits (return probes too)"
is "$(printf '%s' "$rows" | jq -r '[.[] | .site] | unique | join(",")')" "nop,nop10,nop5,push,ret" \
	"rows name the instruction probed"
is "$(printf '%s' "$rows" | jq -r '[.[] | select(.site == "nop" or .site == "push") | .optimized] | unique | join(",")')" \
	"false" "a uprobe on a 1-byte nop or a push is never optimized"
# Linux 6.18 optimizes uprobes on a 5-byte nop (arch_uprobe_optimize in kallsyms).
if grep -qw arch_uprobe_optimize /proc/kallsyms; then
	is "$(printf '%s' "$rows" | jq -r '[.[] | select(.site == "nop5") | .optimized] | unique | join(",")')" \
		"true" "nop5: the workload saw [uprobes-trampoline] while armed"
else
	skip "the kernel has no arch_uprobe_optimize"
fi
run_pc probes --workload sdtargs --variants a6 --threads 1,2 --via uprobe --scale 1 -r 1 \
	--warmup 0 --cpu 0 --no-store --format json
is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "uprobe") | [.threads, .hits_counted]]')" \
	"[[1,100000],[2,200000]]" "sdtargs --threads 1,2: every thread's hits counted"
done_testing
