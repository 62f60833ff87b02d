#!/bin/bash
# A monitor that is not installed is skipped with its package; fatal only when nothing is left.
P="${PROBECOST:-./probecost}"
P=$(cd "$(dirname "$P")" && pwd)/$(basename "$P")
F=$(pwd)/tests/cli/fake
echo "1..4"
empty=$(mktemp -d); trap 'rmdir "$empty"' EXIT
err=$(PATH=$empty "$P" run --no-store --runs 2 --warmup 0 -m strace -- /bin/true 2>&1 >/dev/null); rc=$?
[ "$rc" = 1 ] && echo "ok 1 - nothing left to measure: exit 1" || echo "not ok 1 - exit $rc"
printf '%s\n' "$err" | grep -q "skipping monitor strace: 'strace' not found: install package strace" \
	&& echo "ok 2 - the reason names the Debian package" || echo "not ok 2 - $err"
out=$(PATH=$empty "$P" run --no-store --runs 2 --warmup 0 -m strace -m "$F/slow-wrap 0 {}" -- /bin/true 2>/dev/null); rc=$?
[ "$rc" = 0 ] && echo "ok 3 - the available monitor is still measured" || echo "not ok 3 - exit $rc"
n=$(printf '%s\n' "$out" | grep -cE "^  (none|/.*slow-wrap)")
[ "$n" = 2 ] && echo "ok 4 - rows: none and the wrapper only" || echo "not ok 4 - $n rows: $out"
