#!/bin/bash
# parallel-safe
# t237: a --service that daemonizes (forks a process into a session of its own, and its
# first process exits) is followed: probecost is the child subreaper while the service
# starts, so the daemon becomes its child, is measured as the service and stopped at the
# end, and a warning says so.  A service that exits non-zero leaves no daemon behind either.
# Known answers: a fake daemon (sh forking `setsid sleep`) and, where installed,
# redis-server --daemonize yes (before: "the service exited during block 0", exit 1, and the
# daemon kept running with ppid 1).
. "$(dirname "$0")/lib.bash"
plan 7
have setsid || skip_rest "needs setsid(1)"
tmpdir
tok="29$$.5"
alive() { pgrep -f "sleep $tok" | wc -l; }
on_exit 'pkill -f "sleep $tok" 2>/dev/null; true'
# daemon STATUS: says it started, leaves `sleep TOK` in a session of its own, then exits STATUS.
printf '#!/bin/sh\necho started\nsetsid sleep %s </dev/null >/dev/null 2>&1 &\nsleep 0.2\nexit "$1"\n' "$tok" > "$T/daemon"
chmod +x "$T/daemon"

# Each run lasts 0.5 s: the first process exits during the first one.
RUN=(run --runs 2 --warmup 0 --no-store -m none)
run_pc "${RUN[@]}" --service "$T/daemon 0" --ready started -- sleep 0.5
is "$rc" 0 "a service that daemonizes: measured, exit 0"
like "$err" "warning: the service 'daemon' daemonized: its first process \\(pid [0-9]+\\) exited 0 and left pid [0-9]+ \\(sleep\\), which is measured and stopped as the service" \
	"the warning names the daemon it followed"
is "$(alive)" 0 "and the daemon is gone afterwards"

run_pc "${RUN[@]}" --service "$T/daemon 1" --ready started -- sleep 0.5
like "$rc/$(printf %s "$err" | tr "\n" " ")" "^1/.*the service .daemon. ended and left pid [0-9]+ \\(sleep\\) running: killed.*the service exited during block 0" \
	"a service that exits 1 leaving a daemon: exit 1, both said"
is "$(alive)" 0 "and its daemon is gone too"

if have redis-server && have redis-cli; then
	port=$((20000 + $$ % 20000))
	run_pc run --runs 2 --warmup 0 --no-store -m none --ready-port "$port" \
		--service "redis-server --port $port --bind 127.0.0.1 --save '' --appendonly no --dir $T --daemonize yes --pidfile $T/redis.pid" \
		-- redis-cli -p "$port" ping
	like "$rc/$err" "^0/.*the service 'redis-server' daemonized: .* left pid [0-9]+ \\(redis-server\\)" \
		"redis-server --daemonize yes: followed, exit 0"
	is "$(pgrep -f "redis-server 127.0.0.1:$port" | wc -l)" 0 "and the daemonized redis-server is gone"
else
	skip "redis-server not installed"
	skip "redis-server not installed"
fi
done_testing
