#!/bin/bash
# parallel-safe
# long: 8 s of fuzzing
# The SDT note reader under libFuzzer + ASan/UBSan for a few seconds, on a corpus of
# real SDT binaries (make fuzz-sdt-run).  Once per `make check`: the sanitizer pass skips.
. "$(dirname "$0")/lib.bash"
plan 1
[ -z "$PROBECOST_SAN" ] || skip_rest "fuzzed in the first pass already"
{ have clang && have make; } || skip_rest "needs clang (libFuzzer) and make"
tmpdir
if make -s fuzz-sdt-run FUZZ_SECS=8 >"$T/log" 2>&1; then
	runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$T/log" | grep -o '[0-9]*$')
	assert "$runs inputs, no crash, no out-of-bounds read" '[ "${runs:-0}" -gt 1000 ]' || diag "$(tail -20 "$T/log")"
else
	not_ok "the fuzzer failed" "$(tail -30 "$T/log")"
fi
done_testing
