#!/bin/bash
# -w server: throughput and latency quantiles of every run become figures (throughput
# req/s higher-better, p50/p99/p999_us lower-better), analysed with their intervals and
# each monitor's change.  Known answer: the service spins work= ns per request, so the
# median latency is at least that, and one connection is at most 1/work requests a
# second; a wrapper that doubles work makes p50 at least 1.5x (+50%).  As a --service
# (role=serve) loaded by role=load, the service forms of the monitors watch it.
. "$(dirname "$0")/lib.bash"
plan 9
have jq || skip_rest "jq is not installed (apt-get install jq)"
W=server:conns=1,requests=300,work=300000
run_pc run --no-store --runs 3 --warmup 1 --seed 2 --cpu 0 --format json -w "$W" \
	-m "$F/arg-swap work=300000 work=600000 {}"
is "$rc" 0 "exit 0"
j() { jq -r "$1" <<< "$out"; }
fig() { j ".statistics[$1].metrics[] | select(.name == \"$2\") | .$3"; }
is "$(j '[.statistics[0].metrics[] | "\(.name):\(.unit):\(.better)"] | join(" ")')" \
	"throughput:req/s:higher p50_us:us:lower p99_us:us:lower p999_us:us:lower" \
	"the server's figures, units and directions"
p50=$(fig 0 p50_us mean); tp=$(fig 0 throughput mean)
assert "p50 >= the 300 us spin ($p50), throughput <= 3333/s on one connection ($tp)" \
	'ratio_in "$p50" 300 1 100 && ratio_in "$tp" 3333.4 0 1'
raw=$(j '[.session.configs[0].samples[] | select((.warmup or .failed) | not) | .metrics[2]] | add / length')
assert "p99's mean is the mean of the runs' p99 ($(fig 0 p99_us mean), $raw)" \
	'ratio_in "$(fig 0 p99_us mean)" "$raw" 0.999999 1.000001'
assert "an interval around each mean ($(fig 0 p50_us mean_lo) .. $(fig 0 p50_us mean_hi))" \
	'ratio_in "$(fig 0 p50_us mean_lo)" "$p50" 0 1 && ratio_in "$(fig 0 p50_us mean_hi)" "$p50" 1 100'
assert "work doubled: p50 change >= +50% ($(fig 1 p50_us change)), throughput down ($(fig 1 throughput change))" \
	'ratio_in "$(fig 1 p50_us change)" 0.5 1 100 && ratio_in "$(fig 1 throughput change)" -1 0.2 1'

# As a service: role=serve on a port, role=load as the workload.
if ! have strace; then
	skip_rest "strace is not installed (apt-get install strace)"
fi
for _ in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 40000))
	run_pc run --no-store --runs 3 --warmup 1 --seed 2 --cpu 0 --format json \
		--service "$(readlink -f "$P") workload server role=serve port=$port" --ready 'listening on' \
		-w "server:role=load,port=$port,requests=2000" -m strace
	[[ $err == *"exited before it was ready"* ]] || break
done
is "$rc $(j '[.statistics[].service_cpu_ns.mean > 0] | all')" "0 true" \
	"-w server as a --service: its CPU measured in every configuration"
# strace stops the service at each of its syscalls (4 a request): the service pays for the
# stops in CPU time (2026-12-06, counted in 10-ms ticks: 13-17 ms a run plain, 57-100 ms
# under strace at load 2-2.5, 120-133 ms quiet), which waiting for a CPU does not add to.
assert "strace -f -p on the service: its CPU time up by half or more ($(j '[.statistics[].service_cpu_ns.mean / 1e6] | join(" -> ")') ms)" \
	'ratio_in "$(j .statistics[1].service_cpu_ns.mean)" "$(j .statistics[0].service_cpu_ns.mean)" 1.5 1e9'
# Its median latency rises by far more than the noise of three blocks on a machine with a
# CPU to spare (quiet: +116% to +346% in four runs; the interval, not yet narrow, is not
# asked).  With every CPU taken, the plain runs' p50 is the wait for CPU 0 (it read -2% in
# the serial group beside a lint of 2 CPUs).
if machine_quiet; then
	assert "strace -f -p on the service: p50 up by over 20% ($(fig 1 p50_us change))" \
		'ratio_in "$(fig 1 p50_us change)" 0.2 1 1e9'
else
	skip "$(busy_why): strace's p50 change $(fig 1 p50_us change) not checked"
fi
done_testing
