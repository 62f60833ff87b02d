#!/bin/bash
# parallel-safe: counts, not timings, each of its own workload's syscalls (the tracepoint
#   monitor in a trace instance of its own); perf trace's bound, under 5% lost, saw none lost
#   beside prove -j4 at load 4-25
# long: seven studies under four counting tracers (5 s, 25 s at load 25)
# Events seen versus made: every monitor that counts (strace-count, perf trace,
# bpftrace, tracefs tracepoints) counts the workload's own syscall, in its own
# process; lost_events = made - seen; null (JSON) / empty (CSV) when not counted.
. tests/cli/lib.bash
# LeakSanitizer stops the world with ptrace at exit, which a workload that strace
# already traces cannot do: it spins.  No leak check where a ptrace tool wraps it.
[ -n "${PROBECOST_SAN:-}" ] && export ASAN_OPTIONS=detect_leaks=0
plan 11
command -v jq >/dev/null || { for i in $(seq 11); do skip "jq not installed"; done; done_testing; }
N=4000
# seen MONITOR THREADS: "made seen lost" of that row in $out
seen() { printf '%s' "$out" | jq -r --arg m "$1" --argjson t "$2" \
	'.statistics[] | select(.monitor == $m and .threads == $t) | "\(.events) \(.monitor_events) \(.lost_events)"'; }

mons=()
command -v strace >/dev/null && mons+=(-m strace-count)
command -v bpftrace >/dev/null && [ "$(id -u)" = 0 ] && mons+=(-m bpftrace-syscalls)
[ -w /sys/kernel/tracing/instances ] && [ -e /sys/kernel/tracing/events/raw_syscalls ] && mons+=(-m tracepoint-syscalls)
command -v perf >/dev/null && [ "$(id -u)" = 0 ] && mons+=(-m perf-trace)
run_pc run --no-store --format json -w syscall:loops=$N --threads 1,2 --cpu 0 --runs 2 --warmup 0 "${mons[@]}"
is "$rc" 0 "run with every counting monitor available exits 0"
is "$(seen none 1)" "$N null null" "none: nothing counted, null"
for m in strace-count bpftrace-syscalls tracepoint-syscalls; do
	case " ${mons[*]} " in
	*" $m "*) is "$(seen $m 1) / $(seen $m 2)" "$N $N 0 / $((2 * N)) $((2 * N)) 0" \
		"$m saw every getppid of 1 and 2 threads, none of other processes'";;
	*) skip "$m not usable here (tool missing, not root or no tracefs)";;
	esac
done
case " ${mons[*]} " in
*" perf-trace "*)
	# Known: 2 threads made 2 x N getppid (what they were asked); perf trace sees most of
	# them (it lost about 0.1% when measured by hand): the row's lost is made - seen, at
	# least 0 and under 5% of what was made.
	read -r made s l <<<"$(seen perf-trace 2)"
	assert "perf trace: made $made (2 x $N), seen $s, lost $l = made - seen, in [0, 5%)" \
		'[ "$made" = $((2 * N)) ] && [ "$l" = $((made - s)) ] && [ "$l" -ge 0 ] && [ $((20 * l)) -lt "$made" ]'
	bad=$(printf '%s' "$out" | jq '[.session.configs[] | select(.monitor == "perf-trace") | .samples[]
		| select(.failed | not) | select(.monitor_events > .events or .monitor_events < 0)] | length')
	is "$bad" 0 "perf trace never saw more getppid calls than were made, nor none"
	;;
*) skip "perf trace not usable here"; skip "perf trace not usable here";;
esac
if command -v strace >/dev/null; then
	run_pc run --no-store --format json -w pipe:loops=200 --runs 1 --warmup 0 -m strace-count
	is "$(printf '%s' "$out" | jq -c '[.statistics[1] | .lost_events, (.monitor_events > 400)]')" '[null,true]' \
		"pipe (round trips, not syscalls): syscalls counted, nothing called lost"
	run_pc run --no-store --format csv -w syscall:loops=300 --runs 1 --warmup 0 -m strace-count
	c=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^lost_events$' | cut -d: -f1)
	m=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^monitor_events$' | cut -d: -f1)
	is "$(printf '%s\n' "$out" | tail -n +2 | cut -d, -f"${m:-99},${c:-99}" | tr '\n' ' ')" ", 300,0 " \
		"CSV: empty for none, 300 seen and 0 lost for strace-count"
	run_pc run --no-store -w syscall:loops=300 --runs 1 --warmup 0 -m strace-count
	like "$out" "strace-count .* 300 / 300( |$)" "text: seen / made beside the monitor, no loss"
	# A command's syscalls are counted in another run (its counting run): seen in a measured
	# run may be more or fewer, and neither is a loss (it once printed "lost -63").
	run_pc run --no-store --format json --runs 2 --warmup 0 -m strace-count -- sh -c 'ls / > /dev/null'
	is "$(printf '%s' "$out" | jq -c '[.statistics[1] | .lost_events, (.monitor_events > 0)]')" '[null,true]' \
		"a command under strace-count: syscalls seen, nothing called lost"
else
	for i in 1 2 3 4; do skip "strace not installed"; done
fi
done_testing
