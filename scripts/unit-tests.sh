#!/bin/sh
# unit-tests.sh [--label TEXT] BIN...: run each cmocka binary, a "== BIN" line before it and
# "FAILED: BIN" after one that fails; exit 1 if any did.  make check runs it in the
# background beside the parallel-safe CLI tests, through `env --default-signal=INT,QUIT`:
# an asynchronous list ignores both, and the tests would outlive a Ctrl-C of make.
label=
[ "$1" = --label ] && { label=" $2"; shift 2; }
rc=0
for t in "$@"; do
	echo "== $t$label"
	"$t" || { echo "FAILED: $t"; rc=1; }
done
exit $rc
