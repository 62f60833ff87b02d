#!/bin/bash
# A monitor that crashes is reported and dropped; the other configurations go on.
P="${PROBECOST:-./probecost}"
F=tests/cli/fake
echo "1..4"
out=$("$P" run --no-store --runs 3 --warmup 0 -m "$F/crash-wrap" -m "$F/slow-wrap 0 {}" -- /bin/true 2>/dev/null); rc=$?
[ "$rc" = 0 ] && echo "ok 1 - exit 0" || echo "not ok 1 - exit $rc"
printf '%s\n' "$out" | grep -q "crash-wrap.*failed: killed by SIGSEGV" \
	&& echo "ok 2 - the crash is shown with its signal" || echo "not ok 2 - $out"
js=$("$P" run --no-store --runs 3 --warmup 0 --format json -m "$F/crash-wrap" -m "$F/slow-wrap 0 {}" -- /bin/true 2>/dev/null)
fails=$(printf '%s' "$js" | jq '.statistics[1].failed'); okc=$(printf '%s' "$js" | jq '.statistics[1].ok')
[ "$fails" = 2 ] && [ "$okc" = 0 ] && echo "ok 3 - dropped after 2 failed runs, none averaged in" \
	|| echo "not ok 3 - failed=$fails ok=$okc"
ok2=$(printf '%s' "$js" | jq '.statistics[2].ok')
[ "$ok2" = 3 ] && echo "ok 4 - the other monitor got all its runs" || echo "not ok 4 - ok=$ok2"
