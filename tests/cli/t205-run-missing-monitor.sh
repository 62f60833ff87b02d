#!/bin/bash
# parallel-safe
# A monitor that is not installed is skipped with its package; fatal only when nothing is left.
. "$(dirname "$0")/lib.bash"
P=$(cd "$(dirname "$P")" && pwd)/$(basename "$P")
F=$(pwd)/tests/cli/fake
plan 4
tmpdir
err=$(PATH=$T "$P" run --no-store --runs 2 --warmup 0 -m strace -- /bin/true 2>&1 >/dev/null); rc=$?
is "$rc" 1 "nothing left to measure: exit 1"
like "$err" "skipping monitor strace: 'strace' not found: install package strace" "the reason names the Debian package"
out=$(PATH=$T "$P" run --no-store --runs 2 --warmup 0 -m strace -m "$F/slow-wrap 0 {}" -- /bin/true 2>/dev/null); rc=$?
is "$rc" 0 "the available monitor is still measured"
is "$(printf '%s\n' "$out" | grep -cE "^  (none|/.*slow-wrap)")" 2 "rows: none and the wrapper only"
done_testing
