#!/bin/bash
# parallel-safe: a server of its own on a free port; strace (ptrace) only; the one timing it
#   compares is strace's -90% on redis, far beyond what load on the other tests moves
# redis-server and redis-benchmark: redis as a --service on a free loopback port (redis
# takes no --port 0: a random one, again when taken), in a temp directory, nothing saved;
# redis-benchmark as the load generator, its preset's requests per second; strace -f -p
# on the server costs them; the server is gone after probecost.
. "$(dirname "$0")/lib.bash"
plan 4
have jq || skip_rest "jq is not installed (apt-get install jq)"
have redis-server || skip_rest "redis-server is not installed (apt-get install redis-server)"
have redis-benchmark || skip_rest "redis-benchmark is not installed (apt-get install redis-tools)"
have strace || skip_rest "strace is not installed (apt-get install strace)"
tmpdir
for _ in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 40000))
	run_pc run --no-store --runs 3 --warmup 1 --seed 4 --cpu 0 --format json \
		--service "redis-server --port $port --bind 127.0.0.1 --save '' --appendonly no --dir $T --daemonize no" \
		--ready 'Ready to accept connections' --metric redis-benchmark -m strace \
		-- redis-benchmark -p "$port" -n 2000 -c 2 -t get,set -q
	[[ $err == *"exited before it was ready"* ]] || break
done
is "$rc" 0 "exit 0 ($(tail -1 <<< "$err"))"
j() { jq -r "$1" <<< "$out"; }
fig() { j ".statistics[$1].metrics[] | select(.name == \"$2\") | .$3"; }
is "$(j '[.statistics[0].metrics[].name] | join(" ")')" "set_rps get_rps" \
	"the tests run, and only those, as figures (req/s)"
# strace stops redis at each of its syscalls: the rate falls by far more than the noise.
assert "strace -f -p on redis: GET rate down by over 30% ($(fig 1 get_rps change))" \
	'ratio_in "$(fig 1 get_rps change)" -1 0.3 1'
is "$(pgrep -f "redis-server .*:$port" | wc -l)" 0 "the server is gone"
done_testing
