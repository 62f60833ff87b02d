#!/bin/bash
# parallel-safe
# A monitor that crashes is reported and dropped; the other configurations go on.
. "$(dirname "$0")/lib.bash"
plan 4
run_pc run --no-store --runs 3 --warmup 0 -m "$F/crash-wrap" -m "$F/slow-wrap 0 {}" -- /bin/true
is "$rc" 0 "exit 0"
like "$out" "crash-wrap.*failed: killed by SIGSEGV" "the crash is shown with its signal"
js=$("$P" run --no-store --runs 3 --warmup 0 --format json -m "$F/crash-wrap" -m "$F/slow-wrap 0 {}" -- /bin/true 2>/dev/null)
is "$(printf '%s' "$js" | jq -c '[.statistics[1].failed, .statistics[1].ok]')" "[2,0]" \
	"dropped after 2 failed runs, none averaged in"
is "$(printf '%s' "$js" | jq '.statistics[2].ok')" 3 "the other monitor got all its runs"
done_testing
