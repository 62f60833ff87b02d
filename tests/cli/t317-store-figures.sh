#!/bin/bash
# parallel-safe
# t317-store-figures: schema 7 keeps a run session's figures (--metric values, a
# workload's facts) and its service's CPU per run; a schema 5 store made by the probecost
# before it (tests/cli/data/store-v5.sql) migrates in place with nothing lost and exports
# byte for byte as before; an export with figures is validated on import.
. tests/cli/lib.bash
D=tests/cli/data
plan 8
{ have sqlite3 && have jq; } || skip_rest "the sqlite3 shell and jq are needed (apt-get install sqlite3 jq)"
tmpdir
sq() { sqlite3 -batch "$T/v5.db" "$@"; }
sqlite3 -batch "$T/v5.db" < "$D/store-v5.sql"
rows_v5() {
	local t cols
	for t in session config run_sample; do
		cols=$(sqlite3 -batch "$T/cols.db" "SELECT group_concat(name, ',') FROM pragma_table_info('$t')")
		sq "SELECT $cols FROM $t ORDER BY 1, 2, 3" | md5sum
	done
}
sqlite3 -batch "$T/v5.db" .schema | sqlite3 -batch "$T/cols.db"
before=$(rows_v5)
is "$(sq 'PRAGMA user_version')" 5 "the fixture is a schema 5 store"
run_pc history --db "$T/v5.db" --format json
is "$rc:$(sq 'PRAGMA user_version'):$(jq -c '[.[].kind]' <<< "$out")" '0:9:["run","run"]' \
	"opening it migrates it to the current schema, 9 (6: each run's ending, 7: the figures, 8: cost tables, 9: their placement); its two sessions are listed"
is "$(rows_v5)|$(sq 'SELECT count(*) || "/" || count(service_user_ns) FROM run_sample')|$(sq \
	'SELECT count(*) FROM metric')|$(sq 'SELECT count(*) FROM run_metric')" "$before|8/0|0|0" \
	"every row and column schema 5 held is unchanged; no figures, no service CPU (NULL)"
"$P" export --all --db "$T/v5.db" > "$T/v5-now.json"
ok "$(cmp -s "$T/v5-now.json" "$D/store-v5.json"; echo $?)" \
	"export --all of the migrated store is byte for byte what the schema 5 probecost exported"

# A session with figures: stored in the new tables, one row per value the runs gave.
run_pc run --runs 2 --warmup 1 --seed 3 --format json --db "$T/new.db" --metric 'v:lower=^v=([0-9]+) ms' \
	--metric 'w=^w=([0-9]+)' -- sh -c 'echo v=$((RANDOM % 9 + 1)) ms; echo w=3'
live=$out
is "$(sqlite3 -batch "$T/new.db" "SELECT group_concat(name || ':' || unit || ':' || better, ' ') FROM metric")|$(sqlite3 \
	-batch "$T/new.db" 'SELECT count(*) FROM run_metric')" "v:ms:-1 w::1|6" \
	"schema 7: the figures (name, unit found, direction) and a value per run and figure"
is "$("$P" report last --format json --db "$T/new.db")" "$live" "report --format json is the live JSON"
# Import validation: a sample's values must match the session's figures.
"$P" export last --db "$T/new.db" > "$T/f.json"
jq '.configs[0].samples[0].metrics = [1]' "$T/f.json" > "$T/bad.json"
run_pc import "$T/bad.json" --db "$T/imp.db"
like "$rc: $err" "^2: .*configs\[0\]\.samples\[0\]\.metrics: 1 values for the session's 2 figures" \
	"an import whose run has the wrong number of values: refused, saying where"
jq '.metrics[0].name = "1x"' "$T/f.json" > "$T/bad.json"
run_pc import "$T/bad.json" --db "$T/imp.db"
like "$rc: $err" "^2: .*metrics\[0\]\.name: not a letter then letters, digits or _" \
	"an import with a figure named against the rules: refused"
done_testing
