#!/bin/bash
# run --service: a server started once per session (or per block), ready on its line,
# stopped with SIGTERM at the end, on a failed run, on Ctrl-C and on SIGTERM of
# probecost, killed after a SIGKILL of probecost; {pid} is its pid; its CPU time (a
# child it reaps burns a known 0.2 s per run) is its own, never other processes'.
. "$(dirname "$0")/lib.bash"
plan 26
have jq || skip_rest "jq is not installed (apt-get install jq)"
have perl || skip_rest "perl is not installed (apt-get install perl)"
tmpdir
# A name no other process has: pgrep finds what is left of this test's services.
SVC=$T/pcsvc-$$-$RANDOM
cp "$F/svc-fake" "$SVC"
left() { pgrep -f "$SVC" | tr '\n' ' '; }
on_exit 'pkill -KILL -f "$SVC" 2> /dev/null'
RUN=(run --no-store --seed 5 --cpu 0 --service "$SVC $T" --ready '^svc ready on')
export BURN=0.2

# ---- once per session, stopped with SIGTERM; figures, its CPU ---------------------
run_pc "${RUN[@]}" --runs 3 --warmup 1 --format json --metric 'tps:higher=^tps = ([0-9.]+)' \
	-m 'env BURN=0 TPS=90' -- "$F/svc-load" "$T"
is "$rc $(grep -c 'without --ready' <<< "$err")" "0 0" "exit 0, no warning about --ready"
is "$(grep -c start "$T/starts")" 1 "the service started once for the session"
is "$(grep -c term "$T/signals" 2> /dev/null)" 1 "it was stopped with SIGTERM (it said so)"
is "$(left)" "" "nothing of it is left running"
j() { jq -r "$1" <<< "$out"; }
is "$(j '[.statistics[].metrics[0].mean] | join(" ")')" "100 90" \
	"the load generator's figure, under each configuration"
svc0=$(j '.statistics[0].service_cpu_ns.mean'); svc1=$(j '.statistics[1].service_cpu_ns.mean')
assert "its CPU per run: 0.2 s burned by its child ($svc0 ns), none asked ($svc1 ns)" \
	'ratio_in "$svc0" 0.2e9 0.95 1.5 && ratio_in "$svc1" 0.2e9 0 0.4'
# The CPU time of a run's CPU (--cpu 0) is the run's, the service's and the others':
# counted as other processes' too, the service's 0.2 s would be counted twice and the
# three would pass the run's wall time by about that much.
over=$(jq '[.session.configs[0].samples[] | select((.warmup or .failed) | not) |
	(.other_cpu_ns + .user_ns + .sys_ns + .service_user_ns + .service_sys_ns - .wall_ns)] | max' <<< "$out")
assert "the service's CPU is not other processes': run + service + others <= wall + 30 ms (+$over ns)" \
	'[ "$(awk -v x="$over" "BEGIN { print (x < 30e6) }")" = 1 ]'

# ---- {pid}: the service's pid in -m, --attach and a wrapper --------------------------
rm -f "$T"/starts "$T"/*.argv
run_pc "${RUN[@]}" --runs 1 --warmup 0 -m "$F/argv-rec $T/m.argv {pid}" \
	-m "$F/argv-rec $T/w.argv pid={pid} --exec {}" --attach "$F/argv-rec $T/a.argv -p {pid}" \
	--ready recording -- "$F/svc-load" "$T"
spid=$(awk '{ print $2 }' "$T/starts")
is "$rc $(cat "$T/m.argv") | $(cat "$T/w.argv") | $(cat "$T/a.argv")" \
	"0 $spid | pid=$spid --exec $F/svc-load $T | -p $spid" \
	"{pid} is the service's pid: a -m beside the run, a -m wrapper, --attach"
# Without --ready the service is ready at once: said, since a load generator may then
# start before it listens (redis-benchmark spins for ever).
run_pc run --no-store --runs 1 --warmup 0 --service "sleep 30" -- /bin/true
is "$rc $(grep -c "warning: --service without --ready: 'sleep' counts as ready as soon" <<< "$err")" \
	"0 1" "--service without --ready: measured, with one warning that the load may start first"
one_line_exit2 "{pid} without --service" "$P" run --no-store -m 'strace -p {pid}' -- true
one_line_exit2 "--ready ''" "$P" run --no-store --service "$SVC $T" --ready '' -- true
one_line_exit2 "--ready before --service or --attach" "$P" run --no-store --ready x --service "$SVC $T" -- true

# ---- per block ------------------------------------------------------------------------
rm -f "$T/starts"
run_pc "${RUN[@]}" --runs 2 --warmup 1 --service-per-block -- "$F/svc-load" "$T"
is "$rc $(grep -c start "$T/starts")" "0 3" "--service-per-block: started before each of 3 blocks"

# ---- not ready, exits before ready -------------------------------------------------------
run_pc run --no-store --runs 1 --service "$SVC $T" --ready 'never says this' --ready-timeout 1 \
	-- "$F/svc-load" "$T"
like "$rc: $err" "^1: .*the service 'pcsvc-[0-9-]+' was not ready after 1 s: no line of its output \(stdout and stderr\) matched --ready 'never says this'; its last lines: svc ready on" \
	"not ready in time: exit 1, what it waited for and what the service said"
is "$(left)" "" "nothing left after a service that was not ready"
run_pc run --no-store --runs 1 --service "sh -c 'echo cannot bind >&2; exit 2'" --ready x -- true
like "$rc: $err" "^1: .*exited before it was ready \(a line matching --ready 'x'\): exit 2: cannot bind" \
	"a service that exits first: exit 1 with its status and last line"

# ---- a load generator that cannot connect: a failed run, its first error line -----
refused='echo "pgbench: error: connection to server at \"127.0.0.1\", port 1 failed: Connection refused" >&2
echo "	Is the server running on that host and accepting TCP/IP connections?" >&2
echo "pgbench: error: could not create connection for setup" >&2; exit 1'
run_pc "${RUN[@]}" --runs 2 --warmup 0 -- sh -c "$refused"
like "$rc|$err" '^1\|.*every run failed: exit 1: pgbench: error: connection to server at "127.0.0.1", port 1 failed: Connection refused$' \
	"a load generator refused: its runs fail with its first error line, not its last"

# ---- it dies during the session: the runs after fail with its status ---------------
run_pc run --no-store --seed 5 --cpu 0 --service "$SVC $T 2" --ready '^svc ready on' --runs 50 \
	--warmup 0 --format json -- "$F/svc-load" "$T"
reasons=$(jq -r '[.session.configs[0].samples[].fail_reason | select(. != "")] | unique | .[]' <<< "$out")
like "$rc|$reasons" "^1\|.*the service (had exited|exited during the run) \(exit 3: .*svc: fatal: disk on fire\)" \
	"it died: exit 1, the runs from then on failed with its exit status and last line"
like "$err" "the service exited during block [0-9]+ \(exit 3: .*svc: fatal: disk on fire\): nothing more measured" \
	"the session ends, saying why"
is "$(left)" "" "nothing left running"

# ---- signals to probecost ----------------------------------------------------------------
for sig in INT TERM; do
	rm -f "$T/signals"
	"$P" "${RUN[@]}" --runs 1000 --warmup 0 -- "$F/svc-load" "$T" > /dev/null 2>&1 &
	pid=$!
	for i in $(seq 100); do [ -n "$(left)" ] && break; sleep 0.05; done
	sleep 0.5
	kill -$sig $pid
	wait $pid
	rc=$?
	is "$rc $(grep -c term "$T/signals" 2> /dev/null) $(left)" "$((128 + $(kill -l $sig))) 1 " \
		"SIG$sig to probecost: exit 128+N, the service got its SIGTERM, nothing left"
done
# Its private directory (the service's log) in a TMPDIR of the test's own, to be found.
mkdir "$T/tmp"
TMPDIR=$T/tmp "$P" "${RUN[@]}" --runs 1000 --warmup 0 -- "$F/svc-load" "$T" > /dev/null 2>&1 &
pid=$!
for i in $(seq 100); do [ -n "$(left)" ] && break; sleep 0.05; done
sleep 0.5
logs() { find "$T/tmp" -path "$T/tmp/probecost-*/service.log" | wc -l; }
is "$(logs)" 1 "the service's log is in a private directory while it runs"
# (In braces: bash writes its "Killed" notice to the shell's stderr, not wait's.)
{ kill -KILL $pid; wait $pid; } 2> /dev/null
for i in $(seq 100); do [ -z "$(left)" ] && break; sleep 0.1; done
is "$(left)" "" "SIGKILL of probecost: the service goes with it"
# The counting run started the service before the runner opened the journal: its
# directory must be journaled all the same, and the next probecost sweeps it.
# A command: its counting run opens the journal (and sweeps) before the runner asks.
run_pc run --no-store --runs 1 --warmup 0 -m none -- true
is "$rc $(find "$T/tmp" -mindepth 1 | wc -l) $(left)" "0 0 " \
	"the next probecost removed its private directory; the service is not running"
like "$err" "undid [0-9]+ change" "and said it undid what the killed one left"
done_testing
