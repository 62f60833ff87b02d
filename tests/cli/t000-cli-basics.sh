#!/bin/bash
# parallel-safe
# t000: the binary's entry points: help, version, exit codes, list.
. "$(dirname "$0")/lib.bash"
plan 14

run_pc --version
is "$rc" 0 "--version exits 0"
like "$out" '^probecost [0-9]+\.[0-9]+\.[0-9]+$' "--version prints probecost X.Y.Z"
run_pc --help
is "$rc" 0 "--help exits 0"
like "$out" 'workload +run one built-in workload' "--help lists the subcommands"
run_pc frobnicate
is "$rc" 2 "an unknown command exits 2"
is "$err" "probecost: 'frobnicate' is not a probecost command; see 'probecost --help'" "and says so in one line"
run_pc
is "$rc" 2 "no command exits 2"
run_pc --bogus
is "$rc" 2 "an unknown global option exits 2"
fails=0
for c in workload list env; do
	"$PROBECOST" $c --help >/dev/null 2>&1 || fails=$((fails + 1))
done
is "$fails" 0 "each foundation command answers --help with exit 0"
run_pc list workloads
like "$out" 'pipe +round-trip +yes' "list workloads shows pipe with its unit and availability"
is "$(printf '%s\n' "$out" | grep -cE '^  (pipe|messaging|syscall|spawn|null) ')" 5 "list workloads shows the five foundation workloads"
run_pc list --format json
is "$(printf '%s' "$out" | jq -r '.workloads | map(select(.available)) | length >= 5')" true "list --format json parses and marks workloads available"
run_pc list nonsense
is "$rc" 2 "list of an unknown table exits 2"
like "$err" "unknown table 'nonsense'" "and names it"
done_testing
