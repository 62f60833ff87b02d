#!/bin/bash
# t308-store-probe-rows: what a live probes or run session prints survives the store.
# Probes rows' site, threads and optimized, run rows' threads and placement, in show,
# report and export/import; a schema 4 store made by the probecost before schema 5
# (tests/cli/data/store-v4.sql) is migrated in place with nothing lost, and its runs'
# optimized reads as unknown (n/a, null), never as "no".
. tests/cli/lib.bash
D=tests/cli/data
plan 23
tmpdir
# table_cols AWK-FIELDS: those fields of every row of the first table of probes text on stdin.
table_cols() { awk "/^  variant +method/ { t = 1; next } t && NF == 0 { exit } t { print $1 }"; }

# ---- a schema 4 store (1-10): needs the sqlite3 shell to build it from the dump ----------
if ! have sqlite3 || ! have jq; then
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "the sqlite3 shell and jq are needed (apt-get install sqlite3 jq)"; done
else
	sq() { sqlite3 -batch "$T/v4.db" "$@"; }
	sqlite3 -batch "$T/v4.db" < "$D/store-v4.sql"
	# Every column schema 4 had, every row, before and after the migration.
	rows_v4() {
		local t cols
		for t in session config run_sample series; do
			cols=$(sqlite3 -batch "$T/cols.db" "SELECT group_concat(name, ',') FROM pragma_table_info('$t')")
			sq "SELECT $cols FROM $t ORDER BY 1, 2, 3" | md5sum
		done
	}
	sqlite3 -batch "$T/v4.db" .schema | sqlite3 -batch "$T/cols.db"
	before=$(rows_v4)
	is "$(sq 'PRAGMA user_version')" 4 "the fixture is a schema 4 store"
	run_pc history --db "$T/v4.db" --format json
	"$P" run -w null --runs 2 --warmup 0 --db "$T/latest.db" > /dev/null 2>&1
	latest=$(sqlite3 -batch "$T/latest.db" 'PRAGMA user_version')
	is "$rc:$(sq 'PRAGMA user_version'):$(jq -c '[.[].kind]' <<< "$out")" "0:$latest:[\"probes\",\"run\",\"counters\"]" \
		"opening it migrates it to the latest schema ($latest) in place; its three sessions are listed"
	is "$(rows_v4)" "$before" "every row and column schema 4 held is unchanged"
	is "$(sq 'SELECT count(*) || "/" || count(optimized) FROM run_sample')" "28/0" \
		"the new column is NULL (unknown) in every old run, never 0"
	is "$(sq 'SELECT count(*) || "/" || count(fault) || "/" || count(self_check) || "/" || count(note) FROM run_sample')" \
		"28/0/0/0" "schema 6's columns (how each run ended) are NULL (not recorded) in every old run"
	run_pc report 2 --format json --db "$T/v4.db"
	is "$(jq -c '[.statistics[] | [.outcome, .outcome_why]] | unique' <<< "$out")" \
		'[["ok","2 runs ok"]]' "the old run session's outcome is derived from what it has: every run exited 0, ok"
	"$P" export --all --db "$T/v4.db" > "$T/v4-now.json"
	ok $(cmp -s "$T/v4-now.json" "$D/store-v4.json"; echo $?) \
		"export --all of the migrated store is byte for byte what the schema 4 probecost exported"
	run_pc report 1 --format json --db "$T/v4.db"
	is "$(jq -c '[.statistics[] | [.site, .threads, .optimized, .optimized_runs]] | unique' <<< "$out")" \
		'[["nop",1,null,null],["nop5",1,null,null],["push",1,null,null],["ret",1,null,null]]' \
		"report --format json of the old probes session: sites and threads as stored, optimized null"
	run_pc show 1 --db "$T/v4.db"
	is "$(table_cols '$(NF - 1)' <<< "$out" | sort -u)" \
		"n/a" "show of the old probes session: the optimized column says n/a in every row"
	run_pc report 2 --format json --db "$T/v4.db"
	is "$(jq -r '.statistics[] | "\(.threads)|\(.placement // "")"' <<< "$out")" \
		"$(sq "SELECT threads || '|' || coalesce(placement, '') FROM config WHERE session_id = 2 ORDER BY idx")" \
		"report --format json of the old run session: threads and placement of every row as stored"
fi

# ---- an export without optimized (11): imports as unknown, never as false ------------------
if ! have jq; then
	skip "jq is needed (apt-get install jq)"
else
	"$P" import --db "$T/old-import.db" "$D/store-v4.json" > /dev/null
	is "$("$P" report 1 --format json --db "$T/old-import.db" | jq -c '[.statistics[].optimized] | unique')" \
		"[null]" "an export without 'optimized' (schema 4 probecost) imports with optimized null, never false"
fi

# ---- a run with --threads and --placement (12-13) ------------------------------------------
if [ "$(nproc)" -lt 2 ] || ! have jq; then
	skip "--placement split needs 2 CPUs and jq"
	skip "--placement split needs 2 CPUs and jq"
else
	RUN=(run -w syscall:loops=2000 --threads 1,2 --placement same,split -m 'env {}' --cpu 0 --runs 2 --warmup 0)
	run_pc "${RUN[@]}" --format json --db "$T/run.db"
	live=$out
	run_pc report last --format json --db "$T/run.db"
	ok $([ "$out" = "$live" ] && [ "$(jq -c '[.statistics[] | [.threads, .placement]]' <<< "$live")" = \
		'[[1,null],[1,"same"],[1,"split"],[2,null],[2,"same"],[2,"split"]]' ]; echo $?) \
		"run --threads 1,2 --placement same,split: report --format json is the live JSON, threads and placement in it"
	run_pc "${RUN[@]}" --db "$T/run.db"
	live=$out
	run_pc show last --db "$T/run.db"
	is "$out" "$live" "... and show prints what the live run printed"
fi

# ---- a live probes session with nop and nop5 sites (14-21) ---------------------------------
if ! is_root || ! have_uprobe_pmu || ! have jq; then
	skip_rest "needs root, the uprobe PMU (/sys/bus/event_source/devices/uprobe) and jq"
fi
PROBES=(probes --workload uprobe --sites nop,nop5 --threads 1,2 --via uprobe --scale 1 -r 2 --warmup 0 --cpu 0)
run_pc "${PROBES[@]}" --format json --db "$T/p.db"
live=$out live_json=$out
is "$rc:$(jq -c '[.statistics[] | select(.method == "uprobe") | .optimized | select(. != null)] | length > 0' <<< "$live")" \
	"0:true" "the live session says, for some armed row, whether the kernel optimized it"
run_pc report last --format json --db "$T/p.db"
is "$out" "$live" "report --format json of the stored session is the live JSON (site, threads, optimized)"
# The text's optimized column from the live JSON: yes, no, k/n (mixed) or n/a.
want=$(jq -r '.statistics[] | "\(.site) \(.threads) " + (if .optimized == true then "yes"
	elif .optimized == false then "no" elif .optimized_runs != null then "\(.optimized_runs)/"
	else "n/a" end)' <<< "$live")
run_pc show last --db "$T/p.db"
got=$(table_cols '$3, $4, $(NF - 1)' <<< "$out" | sed -E 's|/[0-9]+$|/|')
is "$got" "$want" "show: every row's site, threads and optimized column are the live JSON's"
run_pc report last --format csv --db "$T/p.db"
is "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ print $col["site"], $col["threads"], $col["optimized_runs"] }' <<< "$out")" \
	"$(jq -r '.statistics[] | "\(.site) \(.threads) \(.optimized_runs // "")"' <<< "$live")" \
	"report --format csv: site, threads and optimized runs of every row as live"
"$P" export last --db "$T/p.db" > "$T/p.json"
is "$(jq -c '[.configs[] | select(.monitor == "uprobe") | [.samples[].optimized] | unique | .[]] | map(type) | unique' "$T/p.json")" \
	'["boolean"]' "export: every armed run carries optimized as true or false"
"$P" import --db "$T/p2.db" "$T/p.json" > /dev/null
is "$("$P" report 1 --format json --db "$T/p2.db")" "$live" \
	"export, then import into another store: report --format json is still the live JSON"
run_pc "${PROBES[@]}" --db "$T/p.db"
live=$out
run_pc show last --db "$T/p.db"
is "$out" "$live" "a live probes session in text: show prints it again unchanged"
run_pc report last --format html --db "$T/p.db"
is "$(grep -o '^<tr><td>.*</td></tr>$' <<< "$out" | sed -E 's|^<tr><td>||; s|</td></tr>$||' |
	awk -F'</td><td[^>]*>' 'NF >= 10 { print $3, $4, $(NF - 1) }')" \
	"$(table_cols '$3, $4, $(NF - 1)' <<< "$live")" \
	"report --format html: every row's site, threads and optimized cells are the live text's"
# compare: the old session (optimized unknown) against the live one, row by row.
"$P" import --db "$T/p.db" "$D/store-v4.json" > /dev/null
old_id=$("$P" history --db "$T/p.db" --format json | jq '[.[] | select(.kind == "probes")] | last | .id')
new_id=$(jq .session.id <<< "$live_json")
run_pc compare "$old_id" "$new_id" --format json --db "$T/p.db"
is "$(jq -c '[.rows[] | select(.in == "both") | [.name, .optimized_a, .optimized_b]] | sort' <<< "$out")" \
	"$(jq -c '[.statistics[] | select(.threads == 1) | ["\(.workload) \(.workload_args) / \(.method) / \(.variant)",
	null, .optimized]] | sort' <<< "$live_json")" \
	"compare --format json: optimized on each side of every matched row (null where unknown)"
run_pc compare "$old_id" "$new_id" --db "$T/p.db"
is "$(sed -n '/^uprobe optimized by the kernel/,/^$/p' <<< "$out" | grep -c ': n/a -> \(yes\|no\)$')" \
	"$(jq '[.statistics[] | select(.threads == 1 and .optimized != null)] | length' <<< "$live_json")" \
	"compare: the rows whose optimization went from unknown to known are listed"
done_testing
