#!/bin/bash
# no-sanitizer: costs per call side by side, which ASan's slower runs distort
# The ltrace monitor beyond a smoke test, side by side in the same interleaved blocks (load
# stretches both sides alike).  Known answers: ltrace -f stops the program at every syscall,
# as strace does (its cost per raw getppid is strace's, within a factor of 2), and at each
# library call besides (a breakpoint, and one at its return): getppid() through the C library
# costs it more than the bare syscall instruction, with the two intervals apart.
. "$(dirname "$0")/lib.bash"
plan 4
have ltrace || skip_rest "ltrace not installed (Debian package ltrace)"
have strace || skip_rest "strace not installed (Debian package strace)"
have jq || skip_rest "jq not installed"
LIBC=loops=1000,via=libc RAW=loops=10000,via=raw
run_pc run --no-store --runs 4 --warmup 1 --cpu 0 --format json \
	-w "syscall:$LIBC" -w "syscall:$RAW" -m ltrace -m strace
is "$rc" 0 "run -m ltrace -m strace on getppid via libc and raw: exit 0"
# pe VIA MONITOR FIELD: that row's figure (per_event_ns, _lo, _hi).
pe() { jq -r --arg v "via=$1" --arg m "$2" \
	".statistics[] | select(.monitor == \$m and (.workload_args | contains(\$v))) | .$3" <<< "$out"; }
is "$(jq -c '[.statistics[] | [.monitor, .events, .outcome]] | sort' <<< "$out")" \
	'[["ltrace",1000,"ok"],["ltrace",10000,"ok"],["none",1000,"ok"],["none",10000,"ok"],["strace",1000,"ok"],["strace",10000,"ok"]]' \
	"every row ran its 1000 or 10000 calls, ok"
assert "ltrace per raw syscall ($(pe raw ltrace per_event_ns) ns) is strace's ($(pe raw strace per_event_ns) ns), 0.5..2" \
	'ratio_in "$(pe raw ltrace per_event_ns)" "$(pe raw strace per_event_ns)" 0.5 2'
assert "ltrace per libc call [$(pe libc ltrace per_event_ns_lo), $(pe libc ltrace per_event_ns_hi)] ns is above its raw syscall's [$(pe raw ltrace per_event_ns_lo), $(pe raw ltrace per_event_ns_hi)]" \
	'awk -v a="$(pe libc ltrace per_event_ns_lo)" -v b="$(pe raw ltrace per_event_ns_hi)" "BEGIN { exit !(a + 0 == a && b + 0 == b && a > b) }"'
done_testing
