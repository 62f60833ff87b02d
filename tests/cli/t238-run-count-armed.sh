#!/bin/bash
# parallel-safe: it arms probes only on a copy of the redzone fixture of its own (t511 arms
#   build/fixtures/redzone), with /run, the probes lock's and the journal's directory, of
#   its own (private_run_tmp); exact counts, no timings
# t238: run --count measures without changing what it counts.  Known answers from the
# redzone fixture (tests/fixtures/redzone): its events are counted with no probe armed (an
# optimized uprobe enters the kernel through the `uprobe` syscall, 336 on 6.18, once a hit:
# before, 200000 hits of redzone:dead added 200000 syscalls), its hits in a run of their own
# (200000 of redzone:dead, exactly); a red-zone-live site is warned about before it is
# armed, and the program that changed under it (exit 3) makes --count exit 1; and --count
# waits for a probes session on the machine (before, each counted the other's hits).  In a
# private mount namespace with tmpfs on /run (the probes lock's directory).
. tests/cli/lib.bash
if ! is_root || ! have_tracefs || ! have unshare || ! have jq; then
	plan 8
	skip_rest "needs root, tracefs at $TRACEFS, unshare(1) and jq"
fi
private_run_tmp "$@" || { plan 8; skip_rest "cannot mount tmpfs on /run and /tmp"; }
plan 8
make -s build/fixtures/redzone >/dev/null || skip_rest "cannot build the fixture here"
tmpdir
cp build/fixtures/redzone "$T/redzone" || skip_rest "cannot copy the fixture to $T"
FIX=$T/redzone
hits() { jq -r --arg p "$1" '.probes.hits[] | select(.name == $p) | .hits' <<< "$out"; }

run_pc run --count --format json -- "$FIX" 200000 dead
is "$rc/$(hits dead)" "0/200000" "redzone:dead: exit 0, 200000 hits"
ok "$(jq -e '.counts.syscalls < 1000' <<< "$out" >/dev/null; echo $?)" \
	"its syscalls are the program's alone: $(jq .counts.syscalls <<< "$out") (not 200000 more)"
is "$(jq '[.syscalls_by_nr.counts[] | select(.nr == 336)] | length' <<< "$out")" 0 "no uprobe syscall (336) among them"

if grep -q ' arch_uprobe_optimize$' /proc/kallsyms; then
	run_pc run --count -- "$FIX" 200000 live
	like "$(printf '%s\n' "$err" | grep 'warning: redzone:live ')" "redzone:live at rz_live\\+0x9 may change the program once armed" \
		"a red-zone-live site is warned about before it is armed"
	like "$rc/$(printf '%s\n' "$err" | grep 'error:')" \
		"^1/.*ran differently with its probes armed \\(exit 3\\) than without \\(exit 0\\)" \
		"the program changed while counted: exit 1, said"
else
	skip "this kernel does not optimize nop5 uprobes"
	skip "this kernel does not optimize nop5 uprobes"
fi

# Beside a probes session on the same file: --count waits for it; both count exactly.
"$P" probes --binary "$FIX" --probe redzone:dead --via uprobe -r 2 --warmup 0 --no-store \
	--format json -- "$FIX" 3000000 dead >"$T/p.json" 2>"$T/p.err" &
p=$!
for _ in $(seq 100); do [ -n "$(find /proc/$p/fd -lname '*perf_event*' 2>/dev/null)" ] && break; sleep 0.1; done
run_pc run --count --format json -- "$FIX" 200000 dead
wait $p
like "$err" "waiting for the probes session of pid $p" "--count waited for the probes session, naming it"
is "$rc/$(hits dead)" "0/200000" "and counted its own 200000 hits"
is "$(jq -r '.statistics[] | select(.method == "uprobe") | "\(.outcome) \(.hits_counted)"' "$T/p.json")" "ok 3000000" \
	"the probes session counted its own 3000000 hits a run, none of ours"
done_testing
