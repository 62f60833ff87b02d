#!/bin/bash
# parallel-safe: counts, not timings (samples = frequency x CPU time, which load does not move;
#   perf-record-system's count of every CPU's samples is bounded below only); no probe armed
# long: matmul under perf record, 6 runs, and a service (12 s, 26-30 s at load 14-30)
# perf-record and perf-record-system on known answers that load does not move: counts, not
# timings.  perf record samples cpu-clock freq times a second of the CPU time it watches, so
# its events seen (the samples it wrote, counted from its perf.data) are freq x the
# workload's CPU time.  The workload is a fixed amount of work (matmul: 12 products of two
# 256 x 256 matrices, counters not read), so its CPU time does not shrink under load as a
# spin timed by the clock does; that CPU time is the plain runs' user+sys: a perf-record
# run's own adds perf's (its start, its writing, the build-id pass at exit: 0.22 s a run
# here, beside 0.43 s of work).  perf-record-system samples every CPU while it is enabled,
# the workload's among them: at least its share.  perf-record's --service form (perf record
# -p) samples the service: perf's 4000 Hz x the CPU time the service used during the runs.
. "$(dirname "$0")/lib.bash"
plan 7
have perf || skip_rest "perf not installed (Debian package linux-perf)"
have jq || skip_rest "jq not installed"
perf_events_usable || skip_rest "perf_event_open refused: run as root or set kernel.perf_event_paranoid <= 2"
mons=(-m perf-record:freq=1000 -m perf-record:freq=100)
# perf record -a needs root or perf_event_paranoid <= 0.
system=false
if is_root || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	system=true
	mons+=(-m perf-record-system)
fi
# The kernel caps every frequency at perf_event_max_sample_rate (perf throttles to it).
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
hz() { echo $(($1 < max ? $1 : max)); }

run_pc run --no-store --runs 2 --warmup 0 --format json -w matmul:n=256,reps=12,reads=none "${mons[@]}"
is "$rc" 0 "run -m perf-record at 1000 and 100 Hz (and perf-record-system) on matmul: exit 0" ||
	diag "$err"
# seen MONITOR: its events seen (the median over runs); cpu: the plain runs' CPU seconds.
seen() { jq -r --arg m "$1" '.statistics[] | select(.monitor == $m) | .monitor_events' <<< "$out"; }
cpu=$(jq -r '.statistics[] | select(.monitor == "none") | (.user_ns.median + .sys_ns.median) / 1e9' <<< "$out")
want() { awk -v f="$1" -v c="$cpu" 'BEGIN { printf "%.0f", f * c }'; }

for f in 1000 100; do
	assert "perf-record:freq=$f wrote $(seen "perf-record:freq=$f") samples, $(hz $f) Hz x matmul's $cpu s of CPU time ($(want "$(hz $f)")) within a factor 1.5" \
		'ratio_in "$(seen "perf-record:freq=$f")" "$(want "$(hz $f)")" 0.667 1.5'
done
r=$(awk -v a="$(hz 1000)" -v b="$(hz 100)" 'BEGIN { print a / b }')
assert "the 1000 Hz run's samples ($(seen perf-record:freq=1000)) are ${r}x the 100 Hz run's ($(seen perf-record:freq=100)), within a third" \
	'ratio_in "$(seen perf-record:freq=1000)" "$(awk -v s="$(seen perf-record:freq=100)" -v r="$r" "BEGIN { print s * r }")" 0.75 1.33'
if $system; then
	assert "perf-record-system wrote $(seen perf-record-system) samples: at least half of $(hz 4000) Hz (perf's default) x matmul's $cpu s ($(want "$(hz 4000)"))" \
		'ratio_in "$(seen perf-record-system)" "$(want "$(hz 4000)")" 0.5 1e9'
else
	skip "perf-record-system needs root or kernel.perf_event_paranoid <= 0"
fi

# The service spins all the time; only what it spins while perf is enabled is sampled.
run_pc run --no-store --runs 2 --warmup 0 --format json --service "sh -c 'echo ready; while :; do :; done'" \
	--ready ready -m perf-record -- sleep 0.3
is "$rc" 0 "run --service (a busy shell loop) -m perf-record: exit 0" || diag "$err"
# Summed over the runs: the service's CPU time is read in clock ticks (10 ms).
samples=$(jq '[.session.configs[] | select(.monitor == "perf-record") | .samples[] |
	select(.failed | not) | .monitor_events] | add' <<< "$out")
svc=$(jq '[.session.configs[] | select(.monitor == "perf-record") | .samples[] |
	select(.failed | not) | .service_user_ns + .service_sys_ns] | add / 1e9' <<< "$out")
assert "perf-record -p wrote $samples samples, $(hz 4000) Hz x the service's $svc s of CPU time ($(cpu=$svc want "$(hz 4000)")) within a factor 1.5" \
	'ratio_in "$samples" "$(cpu=$svc want "$(hz 4000)")" 0.667 1.5'
done_testing
