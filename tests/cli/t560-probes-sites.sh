#!/bin/bash
# parallel-safe: it arms probes only on a copy of probecost of its own (own_probecost),
#   and compares no timings
# long: probes armed and counted on its own copy of probecost (13-15 s)
# probes --sites / --workload uprobe|sdtargs / --threads: the site encodings in
# the binary, exact hits of every new configuration, the kernel's nop5
# optimization as the workload saw it, and bad input.
. tests/cli/lib.bash
own_probecost || { plan 1; not_ok "a copy of $PROBECOST of its own"; done_testing; }
P=$PROBECOST
plan 24

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
is "$(bytes_at_sites stanford_volatile_nop5_nrz 5)$(bytes_at_sites pcost_args_nop5_nrz 5)" \
	"0f1f440000 0f1f440000 " "nop5-nrz sites (stanford, sdtargs) hold 0f 1f 44 00 00"
# 5: built with -mno-red-zone, no function keeps data below rsp at a site; nop5's fft does.
rz() { # the distinct red_zone_live of the sites of providers matching $1 (awk regex), probe $2
	printf '%s\n' "$csv" | awk -F, -v p="$1" -v n="$2" '$1 ~ p && $2 ~ n {print $9}' | sort -u |
		tr '\n' ' '
}
# The sanitizer build (-O1, ASan) keeps locals in a frame: nothing below rsp there, at any
# site, neither data (fft's) nor arguments (the volatile builds').
fft_rz=true
[ -z "${PROBECOST_SAN:-}" ] || fft_rz=false
is "$(rz '_nop5_nrz$' .)/$(rz '^stanford_.*_nop5$' '^fft$')" "false /$fft_rz " \
	"red_zone_live: false at every nop5-nrz site, $fft_rz at the nop5 builds' fft"

# 6: where a volatile build reads its arguments from below rsp (towers: -24(%rsp)), the
# optimized call's pushes land on them; the -mno-red-zone builds read none from there.
below() { # the distinct args_below_rsp of providers matching $1, probe matching $2
	printf '%s\n' "$csv" | awk -F, -v p="$1" -v n="$2" '$1 ~ p && $2 ~ n {print $NF}' | sort -u |
		tr '\n' ' '
}
is "$(below '^stanford_volatile_nop5$' '^towers$')/$(below '_nop5_nrz$' .)" "$fft_rz /false " \
	"args_below_rsp: $fft_rz at volatile nop5 towers (-24(%rsp) in the -O2 build), false at every nop5-nrz site"

# 7-9: the workloads' own counts.
report_of uprobe insn=push loops=1000 threads=3
is "$(field events "$report")" 3000 "uprobe: 3 threads x 1000 calls = 3000 hits"
report_of sdtargs variant=none loops=500
is "$(field events "$report")" 0 "sdtargs variant=none passes no probe"
report_of stanford variant=plain site=nop10 kernel=towers scale=2
is "$(field hits_towers "$report")" 32766 "stanford site=nop10: 2 x 16383 towers hits"

# 10-13: bad input is one line, exit 2.
bad() { # description, expected fragment, args
	run_pc probes "${@:3}" --via dormant --no-store
	ok "$([ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ $err == *"$2"* ]]; echo $?)" \
		"$1: exit 2, '$err'"
}
bad "unknown encoding" "--sites: 'nop7' is not nop, nop5, nop10 or nop5-nrz" --sites nop7
bad "no thread count" "--threads '0': expected" --threads 0
bad "uprobe's targets have no -mno-red-zone build" "built with nop,nop5,nop10 only" \
	--workload uprobe --sites nop5-nrz
bad "unknown workload" "--workload: 'nope'" --workload nope

# 14-24: armed, exact counts (root, the uprobe PMU and tracefs).
if [ "$(id -u)" != 0 ] || [ ! -r /sys/bus/event_source/devices/uprobe/type ] ||
	[ ! -w /sys/kernel/tracing/uprobe_events ] || ! command -v jq >/dev/null; then
	skip_rest "needs root, the uprobe PMU, tracefs and jq"
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
run_pc probes --workload sdtargs --variants a3 --sites nop,nop5,nop5-nrz,nop10 --via uprobe \
	--scale 1 -r 1 --warmup 0 --cpu 0 --no-store --format json
is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "uprobe") | [.site, .encoding, .hits_counted]]')" \
	'[["nop","nop",100000],["nop5","nop5",100000],["nop5-nrz","nop5",100000],["nop10","nop10",100000]]' \
	"sdtargs in every site encoding: each counted its 100000 hits"
# fft keeps data below rsp across its site: its nop5 build is flagged before arming; its
# -mno-red-zone build is optimized all the same, and the kernels' own checks pass armed.
run_pc probes --variants plain --kernel fft --sites nop5,nop5-nrz --via uprobe --scale 1 -r 1 \
	--warmup 0 --cpu 0 --no-store --format json
is "$(printf '%s\n' "$err" | grep -c 'warning: stanford_plain_nop5:fft at fft+0x[0-9a-f]* may change the program')" \
	"$([ $fft_rz = true ] && echo 1 || echo 0)" "a warning before arming stanford_plain_nop5:fft where it is live"
if grep -qw arch_uprobe_optimize /proc/kallsyms; then
	is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "uprobe" and .site == "nop5-nrz") |
		.failed, .hits_counted, .optimized, .red_zone_live, .optimizable]')" \
		'[0,20480,true,false,true]' \
		"fft at nop5-nrz: no run failed, every hit counted, optimized, nothing in the red zone"
else
	skip "the kernel has no arch_uprobe_optimize"
fi
# towers' first argument (from) is 1, 2 or 3.  Optimized at nop5, the volatile build's
# arguments are read from where the call pushed registers; at nop5-nrz they are right.
if grep -qw arch_uprobe_optimize /proc/kallsyms && have bpftrace; then
	from_values() { # SITE: the distinct values bpftrace saw for towers' arg0, sorted
		local prov=stanford_volatile${1:+_$1}
		timeout 120 bpftrace -e "usdt:$BINP:$prov:towers { @[arg0] = count(); }" \
			-c "$BINP workload stanford variant=volatile site=${2:-nop} kernel=towers scale=1" \
			2>/dev/null | sed -n 's/^@\[\(-*[0-9]*\)\].*/\1/p' | sort -n | tr '\n' ' '
	}
	nrz=$(from_values nop5_nrz nop5-nrz) n5=$(from_values nop5 nop5)
	n5_want="not 1 2 3"
	[ $fft_rz = true ] || n5_want="1 2 3 "
	ok "$([ "$nrz" = "1 2 3 " ] && [ -n "$n5" ] &&
		{ [ "$n5" = "$n5_want" ] || { [ "$n5_want" = "not 1 2 3" ] && [ "$n5" != "1 2 3 " ]; }; }
		echo $?)" \
		"towers' from argument, optimized: nop5-nrz sees $nrz; nop5 sees $n5"
	run_pc probes --variants volatile --kernel towers --sites nop5 --via uprobe --scale 1 -r 1 \
		--warmup 0 --cpu 0 --no-store
	is "$(printf '%s\n' "$err" | grep -c 'warning: stanford_volatile_nop5:towers at move+0x[0-9a-f]* will report wrong arguments')" \
		"$([ $fft_rz = true ] && echo 1 || echo 0)" "a warning before arming a site whose arguments the call overwrites"
else
	skip "needs arch_uprobe_optimize and bpftrace"
	skip "needs arch_uprobe_optimize and bpftrace"
fi
done_testing
