#!/bin/bash
# parallel-safe
# t321-costs-formats: probecost costs prints a stored cost table in every format with the
# figures of the table (a hand-made fixture, imported), unmeasured entries as n/a / null /
# empty and never 0, and a fleet (two tables, two kernels) side by side with the
# fingerprint field that differs; --import refuses a bad file whole.
. "$(dirname "$0")/lib.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
plan 18
tmpdir
DB=$T/c.db
A=tests/cli/data/costs-a.json

run_pc costs --db "$DB"
is "$rc" 2 "no store there: exit 2 (as every store command)"
run_pc costs --import "$A" --db "$DB"
is "$rc:$out" "0:imported cost table 7 as 1 (fixture-a, Linux 6.1.0-fixture, 14 entries)" \
	"--import stores the fixture as table 1"

# text: the strace rows with their intervals, the unavailable one with its reason.
run_pc costs --db "$DB"
like "$out" 'strace +per syscall +cpu=0 +7100 \[6900, 7300\] ns +syscall loops=20000 +timed region' \
	"text: strace per syscall, its placement (the table's pinning: the file has none), interval, workload and method"
like "$out" 'bpftrace-syscalls +per syscall +cpu=0 +n/a \(unavailable\) .*install package bpftrace' \
	"text: an unavailable entry is n/a with its reason"
like "$(head -1 <<< "$out")" 'table 1, quick, Linux 6\.1\.0-fixture on fixture-a, pinned to CPU 0' \
	"text: the headline names the table, kernel, host and pinning"

# json: the same figures, null for the unavailable entry, and it reads back.
run_pc costs --db "$DB" --format json
is "$(jq -c '[.statistics[] | select(.subject == "strace" and .event == "task") |
	.cost_ns, .cost_ns_lo, .cost_ns_hi, .status]' <<< "$out")" '[250000,200000,300000,"derived"]' \
	"json: strace per task with its interval and status"
is "$(jq -c '[.statistics[] | select(.status == "unavailable") | .cost_ns] | unique' <<< "$out")" \
	'[null]' "json: unavailable entries have a null cost"
is "$(jq '.tables[0].entries | length' <<< "$out")" 14 "json: the table with its 14 entries"
printf '%s' "$out" > "$T/back.json"

# csv: empty fields for what was not measured, plain decimals.
run_pc costs --db "$DB" --format csv
is "$(grep -c . <<< "$out")" 15 "csv: a header and 14 rows"
is "$(grep '^1,fixture-a,6.1.0-fixture,bpftrace-syscalls,monitor,run,' <<< "$out" | cut -d, -f7-11)" \
	"unavailable,,,," "csv: an unavailable entry has empty cost fields"
like "$out" ',perf-read,counter,read,derived,1100.00,1050.00,1150.00,' "csv: a counter read, plain decimals"

# markdown and html.
run_pc costs --db "$DB" --format markdown
like "$out" '\| uprobe@nop5 \| per probe hit \| cpu=0 \| 520 \[500, 540\] ns \| measured \|' "markdown: the probe row"
run_pc costs --db "$DB" --format html
is "$(grep -c '<tr>' <<< "$out")" 15 "html: a page with a table of 14 rows and its header"

# The fleet: the same table again from a machine on another kernel (imported back).
jq '.tables[0] | .kernel = "6.18.0-other" | .env.fields."kernel.release" = "6.18.0-other" |
	.entries[1].cost_ns = 5000 | .entries[1].cost_ns_lo = 4800 | .entries[1].cost_ns_hi = 5200' \
	"$T/back.json" > "$T/b.json"
run_pc costs --import "$T/b.json" --db "$DB"
run_pc costs --db "$DB"
like "$out" 'strace +per syscall +cpu=0 +5000 \[4800, 5200\] ns +7100 \[6900, 7300\] ns' \
	"fleet: one column per machine and kernel, newest first"
like "$out" 'kernel\.release: \[1\] 6\.18\.0-other; \[2\] 6\.1\.0-fixture' \
	"fleet: the fingerprint field in which they differ"

# Bad input: a file with one bad entry is refused whole; an unknown table.
jq '.tables[0].entries[3].event = "per-banana"' "$T/back.json" > "$T/bad.json"
run_pc costs --import "$T/bad.json" --db "$DB"
n=$("$PROBECOST" costs --all --db "$DB" --format json | jq '.tables | length')
is "$rc:$n:$(grep -c . <<< "$err")" "2:2:1" "a bad entry: exit 2, one line, nothing imported (still 2 tables)"
run_pc costs --table 99 --db "$DB"
is "$rc" 2 "--table 99: no such table, exit 2"
"$PROBECOST" run -w null --runs 1 --warmup 0 --db "$T/e.db" > /dev/null 2>&1
run_pc costs --db "$T/e.db"
is "$rc" 1 "a store with no cost table yet: exit 1, calibrate first"
done_testing
