#!/bin/bash
# parallel-safe
# long: 10 s of fuzzing
# no-sanitizer: the fuzz target is its own ASan/UBSan build
# The importer under libFuzzer + ASan/UBSan for 10 s (make fuzz-import-run), on a corpus of real
# exports and near misses: no crash, no leak, no out-of-bounds read, and every session it
# accepts exports and imports again to the same shape (the target aborts otherwise).  Bounded
# so `make check` stays fast; once per `make check`: the sanitizer pass skips.  10 s rather
# than 30 s: from the seed corpus alone (a fresh clone), 10 s reached 879 of the 893 edges
# 30 s reached (76k of 229k inputs, at load 11); build/fuzz/import_work keeps what each run
# found, so a tree that runs make check again goes on from there, and a longer hunt is
# `make fuzz-import-run FUZZ_SECS=N`.
. "$(dirname "$0")/lib.bash"
plan 2
[ -z "$PROBECOST_SAN" ] || skip_rest "fuzzed in the first pass already"
{ have clang && have make; } || skip_rest "needs clang (libFuzzer) and make"
tmpdir
t0=$(date +%s)
if timeout 120 make -s fuzz-import-run STORE_FUZZ_SECS=10 >"$T/log" 2>&1; then
	runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$T/log" | grep -o '[0-9]*$')
	ok "$([ "${runs:-0}" -gt 1000 ]; echo $?)" "$runs inputs in $(($(date +%s) - t0)) s, no crash, no leak, re-export stable" ||
		diag "$(tail -20 "$T/log")"
else
	not_ok "the fuzzer failed" "$(tail -30 "$T/log")"
fi
is "$(grep -c 'ERROR: \(AddressSanitizer\|libFuzzer\)' "$T/log")" 0 "no sanitizer or libFuzzer error in its log"
done_testing
