#!/bin/bash
# slow: a service forking every 10 ms under perf-stat and perf-record, several runs each (about 25 s)
# A --service that starts a short-lived process every 10 ms (a shell loop of sleeps): the
# list of its processes perf -p is given always holds one that may exit before perf opens
# it, and perf then exits ("Couldn't create thread/CPU maps: No such process").  The service
# forms of perf-stat and perf-record start again on a fresh list, without processes that
# are ending or young: no run fails (before, about half of them did).
. "$(dirname "$0")/lib.bash"
plan 3
have jq || skip_rest "jq is not installed (apt-get install jq)"
have perf || skip_rest "perf is not installed (apt-get install linux-perf)"
perf_events_usable || skip_rest "perf_event_open is not allowed here"
run_pc run --no-store --runs 5 --warmup 0 --seed 3 --format json \
	--service "sh -c 'echo ready; while :; do sleep 0.01; done'" --ready ready \
	-m perf-stat -m perf-record -- sleep 0.2
is "$rc" 0 "exit 0 ($(tail -1 <<< "$err"))"
row() { jq -r ".statistics[] | select(.monitor == \"$1\") | \"\(.ok) \(.failed) \(.outcome_why)\"" <<< "$out"; }
for m in perf-stat perf-record; do
	read -r ok failed why <<< "$(row $m)"
	assert "$m: every run ok ($ok ok, $failed failed: $why)" '[ "$ok" = 5 ] && [ "$failed" = 0 ]'
done
done_testing
