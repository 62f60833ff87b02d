#!/bin/bash
# parallel-safe
# t211: what a session that did not finish says about itself: a session killed before its
# first block still prints its header, marked incomplete; configurations with only a
# warm-up say so (not "all 0 runs failed: "); a session whose every run failed is FAILED,
# not INTERRUPTED.
. "$(dirname "$0")/lib.bash"
plan 5
tmpdir
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
D=tests/cli/data
jq '.complete = false | .configs = []' "$D/run-a.json" > "$T/empty.json"
jq '.complete = false | .configs[].samples |= map(.warmup = true)' "$D/run-a.json" > "$T/warm.json"
"$P" import --db "$T/p.db" "$T/empty.json" > /dev/null
"$P" import --db "$T/p.db" "$T/warm.json" > /dev/null
run_pc show 1 --db "$T/p.db"
assert "a session killed before its first block: a header marked INCOMPLETE, nothing measured" \
	'[ $rc = 0 ] && [[ "$out" == "# probecost run: "*INCOMPLETE* ]] && [[ "$out" == *"nothing was measured"* ]]' ||
	diag "rc=$rc: $out $err"
run_pc show 2 --db "$T/p.db"
assert "configurations with only a warm-up say 'no measured run', never 'all 0 runs failed: '" \
	'[ $rc = 0 ] && [[ "$out" == *"no measured run"* ]] && [[ "$out" != *"all 0 runs"* ]] && [[ "$out" == *INTERRUPTED* ]]' ||
	diag "$out"
# A command that starts and fails every run (one that cannot start stops before the session: t210).
run_pc run --db "$T/p.db" --runs 2 --warmup 0 -- sh -c 'echo no-such-input >&2; exit 3'
assert "every run failed: the report says FAILED, not INTERRUPTED" \
	'[[ "$out" == *FAILED* ]] && [[ "$out" != *INTERRUPTED* ]]' || diag "$out"
assert "... and names the reason of the failed runs" '[[ "$out" == *"failed: exit 3: no-such-input"* ]]' || diag "$out"
run_pc show 3 --db "$T/p.db"
assert "show of it: FAILED too" '[[ "$out" == *FAILED* ]] && [[ "$out" != *INTERRUPTED* ]]' || diag "$out"
done_testing
