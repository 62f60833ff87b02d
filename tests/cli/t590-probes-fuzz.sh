#!/bin/bash
# The SDT note reader under libFuzzer + ASan/UBSan for a few seconds, on a corpus of
# real SDT binaries (make fuzz-sdt-run).  Once per `make check`: the sanitizer pass skips.
echo "1..1"
if [ -n "$PROBECOST_SAN" ]; then
	echo "ok 1 # skip fuzzed in the first pass already"; exit 0
fi
if ! command -v clang >/dev/null || ! command -v make >/dev/null; then
	echo "ok 1 # skip needs clang (libFuzzer) and make"; exit 0
fi
log=$(mktemp); trap 'rm -f "$log"' EXIT
if make -s fuzz-sdt-run FUZZ_SECS=8 >"$log" 2>&1; then
	runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
	[ "${runs:-0}" -gt 1000 ] && echo "ok 1 - $runs inputs, no crash, no out-of-bounds read" \
		|| { echo "not ok 1 - only '${runs}' inputs ran"; sed 's/^/# /' "$log" | tail -20; }
else
	echo "not ok 1 - the fuzzer failed:"; sed 's/^/# /' "$log" | tail -30
fi
