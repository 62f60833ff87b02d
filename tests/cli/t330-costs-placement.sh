#!/bin/bash
# parallel-safe: the inject monitor only spins in its own workload; no figure is compared
# t330-costs-placement: placement is a condition of every cost.  calibrate measures each
# monitor term unpinned (as run runs a command) and pinned (--cpu), and each entry says
# which; --placement measures one; costs shows the placement as a column in every format;
# a schema 8 store (entries without a placement) takes its table's pinning on migration.
. "$(dirname "$0")/lib.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
plan 12
tmpdir
M="inject:event=2000,fixed=0"

one_line_exit2 "--placement banana" "$PROBECOST" calibrate -m "$M" --placement banana --db "$T/x.db"
assert "... stores nothing" '[ ! -e "$T/x.db" ]'

run_pc calibrate -m "$M" --runs 2 --warmup 0 --seed 3 --db "$T/b.db" --format json
is "$rc:$(jq -c '[.statistics[] | [.event, .placement]]' <<< "$out")" \
	'0:[["syscall","unpinned"],["run","unpinned"],["syscall","cpu=0"],["run","cpu=0"]]' \
	"calibrate: each term unpinned and pinned to CPU 0 (the default), each entry saying which"
is "$(jq -c '[.tables[0].cpu, [.tables[0].entries[].placement]]' <<< "$out")" \
	'["0",["unpinned","unpinned","cpu=0","cpu=0"]]' "json: the table's pinned CPUs and each entry's placement"

run_pc costs --db "$T/b.db"
like "$(head -1 <<< "$out")" 'table 1, custom, .* unpinned and pinned to CPU 0' \
	"text: the headline names both placements"
is "$(grep -cE "^  $M +per syscall +(unpinned|cpu=0) +-?[0-9.]+ " <<< "$out")" 2 \
	"text: a placement column; the same term once a placement"
run_pc costs --db "$T/b.db" --format csv
is "$(awk -F, '{ print $NF }' <<< "$out" | sort | uniq -c | awk '{ printf "%s %s; ", $2, $1 }')" \
	"cpu=0 2; placement 1; unpinned 2; " "csv: a placement column (the last); two entries a placement"

run_pc calibrate -m "$M" --placement unpinned --runs 2 --warmup 0 --no-store --format json
is "$rc:$(jq -c '[.tables[0].cpu, ([.statistics[].placement] | unique)]' <<< "$out")" '0:["",["unpinned"]]' \
	"--placement unpinned: only unpinned entries; the table pinned nothing"
run_pc calibrate -m "$M" --placement unpinned --runs 2 --warmup 0 --no-store
like "$(grep -m1 '^# probecost costs:' <<< "$out")" 'custom, .* on [^,]*, unpinned, [0-9]+ s$' \
	"... and its headline names that placement alone"
run_pc calibrate -m "$M" --placement pinned --cpu 1 --runs 2 --warmup 0 --no-store --format json
is "$rc:$(jq -c '[.tables[0].cpu, ([.statistics[].placement] | unique)]' <<< "$out")" '0:["1",["cpu=1"]]' \
	"--placement pinned --cpu 1: only entries pinned to CPU 1"

# A schema 8 store: its cost entries have no placement; each takes its table's pinning.
if have sqlite3; then
	"$PROBECOST" calibrate -m "$M" --placement pinned --runs 2 --warmup 0 --db "$T/v8.db" > /dev/null 2>&1
	sqlite3 "$T/v8.db" 'ALTER TABLE cost_entry DROP COLUMN placement; PRAGMA user_version = 8;'
	run_pc costs --db "$T/v8.db" --format json
	is "$rc:$(sqlite3 "$T/v8.db" 'PRAGMA user_version'):$(jq -c '[.statistics[].placement] | unique' <<< "$out")" \
		'0:9:["cpu=0"]' "a schema 8 store migrates to 9; its entries take the table's CPU 0"
	sqlite3 "$T/v8.db" "ALTER TABLE cost_entry DROP COLUMN placement; UPDATE cost_table SET cpu = '';
		PRAGMA user_version = 8;"
	run_pc costs --db "$T/v8.db" --format json
	is "$rc:$(jq -c '[.statistics[].placement] | unique' <<< "$out")" '0:["unpinned"]' \
		"... and a table that pinned nothing: unpinned"
else
	skip "sqlite3 is not installed (apt-get install sqlite3): no schema 8 store to migrate"
	skip "sqlite3 is not installed (apt-get install sqlite3)"
fi
done_testing
