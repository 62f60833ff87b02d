#!/bin/bash
# parallel-safe
# A workload run loads none of the libraries probecost loads on first use
# (src/core/dynlib.h): the binary does not name libpq, Capstone, cairo, PAPI or
# libpfm, and a running `probecost workload` has none of them mapped, nor what they
# pull in.  They cost 9 of the 11 ms every start took, a workload run's included
# (bench/startup-level.sh).  Each still works where its command needs it: t310 (a
# PostgreSQL store), t511 (site safety, decoded by Capstone), t303 (plots), t400s
# (counters; PAPI and event names where the machine has a PMU).
. tests/cli/lib.bash
plan 3
have readelf || skip_rest "readelf is needed (apt-get install binutils)"
is "$(readelf -d "$PROBECOST" | grep '(NEEDED)' | grep -c -e '\[libpq\.' -e '\[libcapstone\.' -e '\[libcairo\.' -e '\[libpapi\.' \
	-e '\[libpfm\.')" 0 "the binary does not name libpq, Capstone, cairo, PAPI or libpfm (DT_NEEDED)"
# A report fd makes the workload install its fault handlers, the last step of its start-up
# that wait_started sees: without one it waited its whole 10 s while the spin burned a CPU.
PROBECOST_REPORT_FD=3 "$PROBECOST" workload spin loops=1000000000 3>/dev/null 2>/dev/null &
pid=$!
on_exit "kill $pid 2>/dev/null"
wait_started "$pid" pc-spin || diag "the workload did not start within 10 s"
maps=$(awk '{ print $6 }' "/proc/$pid/maps" | sort -u)
ok "$(grep -q '/libcjson\.so' <<< "$maps"; echo $?)" \
	"a running workload has its linked libraries mapped (libcjson: the check can see one)"
is "$(grep -c -e '/libpq\.so' -e '/libcapstone\.so' -e '/libgnutls' -e '/libkrb5' -e '/libcairo\.so' \
	-e '/libfontconfig\.so' -e '/libpapi\.so' -e '/libpfm\.so' <<< "$maps")" 0 \
	"... and not libpq, Capstone, cairo, PAPI or libpfm, nor GnuTLS, Kerberos or fontconfig"
kill "$pid"
wait "$pid" 2>/dev/null
done_testing
