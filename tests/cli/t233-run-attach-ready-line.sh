#!/bin/bash
# parallel-safe: --attach tools of its own (sh, sleep, strace -p on a service of its own),
#   nothing timed but --ready-timeout's waits of 1 s; 5 s, mostly waiting
# --attach CMD --ready RE: a line on the tool's stderr makes it ready too (strace says
# "Process N attached" there), a tool that stops with exit 128+SIGINT on our SIGINT
# (strace) stopped cleanly, and a wait that times out says what it waited for and what
# the tool printed meanwhile (a wait that timed out silently left nothing to go on).
# bpftrace-syscalls as an attach monitor: t223.
. "$(dirname "$0")/lib.bash"
plan 5
have jq || skip_rest "jq is not installed (apt-get install jq)"
RUN=(run --no-store --runs 2 --warmup 0 --format json --ready-timeout 3)
ok_runs() { jq -r '[.statistics[1].ok, .statistics[1].failed] | join(" ")' <<< "$out"; }
run_pc "${RUN[@]}" --attach "sh -c 'echo set and ready >&2; exec sleep 30'" --ready 'and ready' -- true
is "$rc $(ok_runs)" "0 2 0" "a ready line on stderr: ready, every run measured"
run_pc "${RUN[@]}" --attach "sh -c 'trap \"exit 130\" INT; echo ready; while :; do sleep 0.05; done'" \
	--ready ready -- true
is "$rc $(ok_runs)" "0 2 0" "a tool that exits 130 on SIGINT stopped cleanly"
run_pc "${RUN[@]}" --runs 1 --ready-timeout 1 --attach "sh -c 'echo hello there; exec sleep 30'" \
	--ready 'never said' -- true
why=$(jq -r '.session.configs[1].samples[0].fail_reason' <<< "$out")
like "$why" "^monitor not ready after 1 s: waited for a line of its output \(stdout or stderr\) matching --ready 'never said' from 'sh'; its last line: hello there$" \
	"a timed-out --ready wait says what it waited for and the tool's last line"
run_pc "${RUN[@]}" --runs 1 --ready-timeout 1 --attach "sleep 30" --ready 'x' -- true
why=$(jq -r '.session.configs[1].samples[0].fail_reason' <<< "$out")
like "$why" "matching --ready 'x' from 'sleep'; it printed nothing$" "and says when it printed nothing"
if have strace; then
	run_pc "${RUN[@]}" --service "sh -c 'echo up; exec sleep 60'" --ready up \
		--attach 'strace -f -o /dev/null -p {pid}' --ready 'Process [0-9]+ attached' -- true
	is "$rc $(ok_runs)" "0 2 0" "strace -p {pid} --ready 'attached' (on its stderr), stopped by SIGINT (130)"
else
	skip "strace is not installed (apt-get install strace)"
fi
done_testing
