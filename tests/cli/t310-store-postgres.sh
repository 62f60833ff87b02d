#!/bin/bash
# parallel-safe: a cluster of its own on a free port, nothing timed
# long: a PostgreSQL cluster of its own and many writers at once (15-20 s)
# t310-store-postgres: --db postgresql://... on a throwaway cluster: the SQLite store's
# commands and schema, lossless both ways, many writers at once, errors without passwords.
. tests/cli/lib.bash
C=tests/fuzz/import_corpus
NTESTS=46
plan $NTESTS
skip_all() {
	for ((i = 0; i < NTESTS; i++)); do skip "$1"; done
	exit 0
}

# ---- the throwaway cluster: initdb + pg_ctl in a temp dir, its own socket and port ----
PGBIN=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -1)
# shellcheck disable=SC2015 # (A && B && C) || skip_all, as meant
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] && [ -x "$PGBIN/psql" ] ||
	skip_all "no PostgreSQL server binaries (ls /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql"
command -v jq > /dev/null || skip_all "jq is not installed (apt-get install jq)"
command -v sqlite3 > /dev/null || skip_all "the sqlite3 shell is not installed (apt-get install sqlite3)"
AS=()
if [ "$(id -u)" = 0 ]; then
	# The server refuses to run as root.
	id postgres > /dev/null 2>&1 || skip_all "no 'postgres' user to run the server as (apt-get install postgresql)"
	AS=(runuser -u postgres --)
fi
T=$(mktemp -d)
PGD="$T/pg"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	[ -f "$PGD/data/postmaster.pid" ] && "${AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -m immediate stop > /dev/null 2>&1
	rm -rf "$T"
}
on_exit cleanup
trap 'exit 130' INT TERM
chmod 0711 "$T"
mkdir -m 0700 "$PGD"
[ ${#AS[@]} -gt 0 ] && chown postgres: "$PGD"
"${AS[@]}" "$PGBIN/initdb" -D "$PGD/data" -U postgres -E UTF8 --locale=C --no-sync \
	--auth-local=trust --auth-host=scram-sha-256 > "$T/initdb.log" 2>&1 ||
	skip_all "initdb failed: $(tail -1 "$T/initdb.log")"
started=
for _ in 1 2 3 4 5; do
	PORT=$((20000 + RANDOM % 40000))
	if "${AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/log" -w -t 60 start \
		-o "-p $PORT -k $PGD -c listen_addresses=127.0.0.1 -F" > /dev/null 2>&1; then
		started=1
		break
	fi
done
[ -n "$started" ] || skip_all "the throwaway server did not start: $(tail -1 "$PGD/log" 2> /dev/null)"
psql_() { "${AS[@]}" "$PGBIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$PGD" -p "$PORT" -U postgres "$@"; }
for d in pc rt par empty alien v4 v5 pr; do psql_ -c "CREATE DATABASE $d"; done
SECRET='Pw-s3cret:x?y'
psql_ -c "CREATE ROLE fleet LOGIN PASSWORD '$SECRET'" -c "CREATE DATABASE fleetdb OWNER fleet"
url() { echo "postgresql://postgres@/$1?host=$PGD&port=$PORT"; }
U=$(url pc)
sq() { sqlite3 -batch "$@"; }

# ---- the commands against one database -------------------------------------------
RUN=(run -w null --runs 2 --warmup 1 --seed 7 --cpu 0)
run_pc -v "${RUN[@]}" --db "$U"
ok "$({ [ $rc = 0 ] && [[ $err == *"stored as session 1;"* ]]; } && echo 0 || echo 1)" \
	"run --db postgresql://: exit 0, stored as session 1"
live_txt=$out
run_pc "${RUN[@]}" --format json --db "$U"
live_json=$out
run_pc history --db "$U" --format json
is "$(jq -c '[.[] | [.id, .kind, .complete, .configs, .samples]]' <<< "$out")" \
	'[[1,"run",true,1,3],[2,"run",true,1,3]]' "history: two run sessions, complete, 1 config x 3 samples"
run_pc show 1 --db "$U"
is "$out" "$live_txt" "show prints exactly what the live run printed"
run_pc report 2 --db "$U" --format json
is "$out" "$live_json" "report --format json is exactly the live JSON"
is "$(jq .session.id <<< "$live_json")" 2 "the live JSON carries the id the server gave"

# The other measuring commands store through the same sink.
live=$("$PROBECOST" counters --interfaces rdtsc,clock_gettime --events 1 --iterations 64 --warmup 8 \
	--format json --db "$U" 2> /dev/null)
is "$("$PROBECOST" report last --format json --db "$U")" "$live" "counters: the stored session reports exactly as measured (every counter sample)"
live=$("$PROBECOST" probes --via dormant --variants plain --kernel towers --scale 1 --runs 1 --warmup 0 \
	--format json --db "$U" 2> /dev/null)
is "$("$PROBECOST" report last --format json --db "$U")" "$live" "probes: the stored session reports exactly as measured"

# The same sessions in SQLite answer every command the same way.
"$PROBECOST" export --all --db "$U" > "$T/pc.json"
"$PROBECOST" import --db "$T/pc.db" "$T/pc.json" > /dev/null
for cmd in "history --format json" "show 1" "report 2 --format json" "compare 1 2" \
	"compare 1 2 --format json" "export --all"; do
	# shellcheck disable=SC2086 # $cmd: a command line, split into words on purpose
	a=$("$PROBECOST" $cmd --db "$U" 2>&1)
	# shellcheck disable=SC2086 # the same
	b=$("$PROBECOST" $cmd --db "$T/pc.db" 2>&1)
	is "$a" "$b" "'$cmd' prints the same from PostgreSQL and from SQLite"
done

# ---- lossless both ways ----------------------------------------------------------
"$PROBECOST" import --db "$T/a.db" "$C/array.json" > /dev/null
"$PROBECOST" import --db "$T/a.db" "$C/session_3.json" > /dev/null
"$PROBECOST" export --db "$T/a.db" --all > "$T/e1.json"
run_pc import --db "$(url rt)" "$T/e1.json"
is "$rc:$(grep -c '^imported session' <<< "$out")" 0:3 "import of three sessions into PostgreSQL"
"$PROBECOST" export --db "$(url rt)" --all > "$T/e2.json"
ok "$(cmp -s "$T/e1.json" "$T/e2.json"; echo $?)" "SQLite -> PostgreSQL -> export is identical (raw samples, 64-bit seed, counter series)"
"$PROBECOST" import --db "$T/b.db" "$T/e2.json" > /dev/null
"$PROBECOST" export --db "$T/b.db" --all > "$T/e3.json"
ok "$(cmp -s "$T/e1.json" "$T/e3.json"; echo $?)" "... -> SQLite again -> export is identical"
# A row the server refuses in the middle of a session: nothing of the import remains.
psql_ -d rt -c "ALTER TABLE run_sample ADD CONSTRAINT t310_refuse CHECK (seq < 1) NOT VALID"
before=$(psql_ -d rt -c "SELECT (SELECT count(*) FROM session) || '/' || (SELECT count(*) FROM run_sample)")
run_pc import --db "$(url rt)" "$T/e1.json"
ok "$({ [ $rc = 1 ] && [[ $err == *'violates check constraint "t310_refuse"; nothing imported'* ]] &&
	[ "$(psql_ -d rt -c "SELECT (SELECT count(*) FROM session) || '/' || (SELECT count(*) FROM run_sample)")" = "$before" ]; } &&
	echo 0 || echo 1)" "a row refused mid-session: exit 1, the server's reason, nothing written"
psql_ -d rt -c "ALTER TABLE run_sample DROP CONSTRAINT t310_refuse"
a=$("$PROBECOST" history --db "$(url rt)" --kernel 6.1 --monitor strace --workload pipe --format csv)
b=$("$PROBECOST" history --db "$T/a.db" --kernel 6.1 --monitor strace --workload pipe --format csv)
is "$a" "$b" "history filters (--kernel, --monitor, --workload) select the same rows"

# Same tables and columns as SQLite's, and the schema version recorded.
cols_sq=$(for t in session config run_sample series cost_table cost_entry; do
	echo "$t: $(sq "$T/a.db" "SELECT group_concat(name, ',') FROM pragma_table_info('$t')")"; done)
cols_pg=$(for t in session config run_sample series cost_table cost_entry; do
	echo "$t: $(psql_ -d rt -c "SELECT string_agg(column_name, ',' ORDER BY ordinal_position)
		FROM information_schema.columns WHERE table_name = '$t'")"; done)
is "$cols_pg" "$cols_sq" "the tables and their columns are SQLite's"
is "$(psql_ -d rt -c 'SELECT max(version) FROM probecost_schema')" "$(sq "$T/a.db" 'PRAGMA user_version')" \
	"probecost_schema holds SQLite's user_version"

# ---- a schema 4 store (made by the probecost before schema 5) migrates in place --------
psql_ -d v4 -f tests/cli/data/store-v4-pg.sql > /dev/null
V4=$(url v4)
run_pc history --db "$V4" --format json
LATEST=$(psql_ -d rt -c 'SELECT max(version) FROM probecost_schema')
is "$rc:$(psql_ -d v4 -c 'SELECT max(version) FROM probecost_schema'):$(psql_ -d v4 -c \
	"SELECT count(*) || '/' || count(optimized) || '/' || count(fault) || '/' || count(self_check) || '/' || count(note) || '/' || count(service_user_ns) FROM run_sample")" \
	"0:$LATEST:28/0/0/0/0/0" \
	"a schema 4 store is migrated to the latest ($LATEST) when opened; its old runs' optimized, fault, check, note and service CPU are NULL (not recorded)"
"$PROBECOST" export --all --db "$V4" > "$T/v4.json"
ok "$(cmp -s "$T/v4.json" tests/cli/data/store-v4.json; echo $?)" \
	"export --all of the migrated store is byte for byte what the schema 4 probecost exported"
is "$("$PROBECOST" report 1 --format json --db "$V4" | jq -c '[.statistics[].optimized] | unique')" "[null]" \
	"its probes session reports optimized null, never false"
# ---- a schema 5 store (made by the probecost before schema 6: no figures, no service) ---
psql_ -d v5 -f tests/cli/data/store-v5-pg.sql > /dev/null
V5=$(url v5)
run_pc history --db "$V5" --format json
is "$rc:$(psql_ -d v5 -c 'SELECT max(version) FROM probecost_schema'):$(psql_ -d v5 -c \
	"SELECT count(*) || '/' || count(service_user_ns) FROM run_sample"):$(psql_ -d v5 -c \
	'SELECT count(*) FROM metric') $(psql_ -d v5 -c 'SELECT count(*) FROM run_metric')" "0:$LATEST:8/0:0 0" \
	"a schema 5 store is migrated when opened: no figures, the service's CPU NULL in every run"
"$PROBECOST" export --all --db "$V5" > "$T/v5.json"
ok "$(cmp -s "$T/v5.json" tests/cli/data/store-v5.json; echo $?)" \
	"export --all of it is byte for byte what the schema 5 probecost exported"
# A session with figures and a service's CPU, both ways through the server.
live=$("$PROBECOST" run --runs 2 --warmup 0 --seed 3 --format json --metric 'v=^v=([0-9]+)' \
	--service 'sh -c "echo up; exec sleep 100"' --ready up -m 'env X=1' --db "$(url pr)" \
	-- sh -c 'echo v=$((RANDOM % 50))' 2> /dev/null)
is "$("$PROBECOST" report last --format json --db "$(url pr)")" "$live" \
	"a session with figures and a service: report --format json from the server is the live JSON"
# A probes session whose rows have sites, threads and the kernel's optimization.
if [ "$(id -u)" = 0 ] && [ -e /sys/bus/event_source/devices/uprobe/format/ref_ctr_offset ]; then
	live=$("$PROBECOST" probes --workload uprobe --variants nop --sites nop,nop5 --threads 1,2 --via uprobe --scale 1 \
		-r 1 --warmup 0 --cpu 0 --format json --db "$(url pr)" 2> /dev/null)
	ok "$([ "$("$PROBECOST" report last --format json --db "$(url pr)")" = "$live" ] &&
		[ "$(jq '[.statistics[] | select(.optimized != null)] | length' <<< "$live")" -gt 0 ]; echo $?)" \
		"probes --sites nop,nop5 --threads 1,2: the stored session reports exactly as measured, optimized included"
else
	skip "needs root and the uprobe PMU (/sys/bus/event_source/devices/uprobe)"
fi

# ---- errors: one line naming the URL, never the password ---------------------------
FLEET="postgresql://fleet:$SECRET@127.0.0.1:$PORT/fleetdb"
MASKED="postgresql://fleet:***@127.0.0.1:$PORT/fleetdb"
run_pc history --db "postgresql://fleet:$SECRET@127.0.0.1:notaport/fleetdb"
ok "$({ [ $rc = 2 ] && [ "$(wc -l <<< "$err")" = 1 ] && [[ $err == *"fleet:***@127.0.0.1:notaport"* ]] &&
	[[ $err != *s3cret* ]]; } && echo 0 || echo 1)" "a bad URL: exit 2, one line, the URL without its password"
run_pc history --db "postgresql://fleet:wrong-$SECRET@127.0.0.1:$PORT/fleetdb"
ok "$({ [ $rc = 2 ] && [ "$(wc -l <<< "$err")" = 1 ] && [[ $err == *"could not log in to '$MASKED'"* ]] &&
	[[ $err != *s3cret* ]]; } && echo 0 || echo 1)" "a wrong password: exit 2, one line, says log in failed"
run_pc history --db "postgresql://fleet:$SECRET@127.0.0.1:1/fleetdb"
ok "$({ [ $rc = 1 ] && [ "$(wc -l <<< "$err")" = 1 ] && [[ $err == *"could not connect to 'postgresql://fleet:***@"* ]] &&
	[[ $err != *s3cret* ]]; } && echo 0 || echo 1)" "no server there: exit 1, one line naming the URL"
run_pc history --db "$(url nosuchdb)"
ok "$({ [ $rc = 2 ] && [[ $err == *"does not exist; create it"* ]]; } && echo 0 || echo 1)" \
	"a database that does not exist: exit 2 (the URL names none), says to create it"
run_pc history --db "$(url empty)"
ok "$({ [ $rc = 2 ] && [[ $err == *"no store at '$(url empty)' yet"* ]]; } && echo 0 || echo 1)" \
	"reading a database without a store: exit 2, 'no store yet', nothing created"
psql_ -d alien -c "CREATE TABLE session (x int)"
run_pc import --db "$(url alien)" "$C/session_1.json"
ok "$({ [ $rc = 2 ] && [[ $err == *"of another program"* ]]; } && echo 0 || echo 1)" \
	"a database with another program's 'session' table is refused (exit 2)"
run_pc run -w null --runs 1 --db "postgresql://fleet:$SECRET@127.0.0.1:1/fleetdb"
ok "$({ [ $rc = 3 ] && [ "$(grep -c 'warning: not storing this session' <<< "$err")" = 1 ] &&
	[[ $out == *"none"* ]] && [[ $err != *s3cret* ]]; } && echo 0 || echo 1)" \
	"run with an unreachable store: one warning, the measurement printed, exit 3, not stored (as SQLite)"
run_pc run -w null --runs 1 --db "$FLEET"
hist=$("$PROBECOST" history --db "$FLEET" --format json)
ok "$({ [ $rc = 0 ] && [[ $(jq -r '.[0].cmdline' <<< "$hist") == *"'$MASKED'"* ]] &&
	[[ $hist != *s3cret* ]] && [[ $out$err != *s3cret* ]]; } && echo 0 || echo 1)" \
	"a password in --db is neither stored with the session nor printed"

# A role that may only read: history works, a write is refused whole with the grants to give.
psql_ -c "CREATE ROLE viewer LOGIN" -d rt -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO viewer"
V="postgresql://viewer@/rt?host=$PGD&port=$PORT"
n_rt=$("$PROBECOST" history --db "$(url rt)" --format json | jq length)
run_pc import --db "$V" "$C/session_1.json"
ok "$({ [ $rc = 1 ] && [[ $err == *"permission denied for sequence session_id_seq"*"a writer also INSERT"*"nothing imported" ]] &&
	[ "$("$PROBECOST" history --db "$V" --format json | jq length)" = "$n_rt" ]; } && echo 0 || echo 1)" \
	"a read-only role: history reads, import exits 1 naming the grants, nothing written"
psql_ -d rt -c "GRANT INSERT ON ALL TABLES IN SCHEMA public TO viewer" -c "GRANT USAGE ON SEQUENCE session_id_seq TO viewer"
run_pc import --db "$V" "$C/session_1.json"
is "$rc:$("$PROBECOST" history --db "$V" --format json | jq length)" "0:$((n_rt + 1))" \
	"with INSERT and USAGE on session_id_seq granted, the same role stores"

# ---- a session is one transaction -----------------------------------------------
# Runs of a known length (spin: 10 ms of work each), so the 1,000 blocks outlast the
# signals however fast the start-up is (null's runs took 3 ms once the libraries loaded
# on first use, and the whole session ended before the Ctrl-C).  Each signal comes 0.5 s
# after the run's connection shows in pg_stat_activity: runs are under way by then
# (under the sanitizers too, whose start-up is slower).
LONG=(run -w spin:loops=500,work=20000 --runs 1000 --warmup 0 --cpu 0 --db "$U")
conns() { psql_ -d pc -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'probecost' AND datname = 'pc'"; }
long_run() { # long_run: start LONG in the background (pid), return 0.5 s after it connected
	"$PROBECOST" "${LONG[@]}" > /dev/null 2> "$T/long.err" &
	pid=$!
	for _ in $(seq 100); do [ "$(conns)" = 1 ] && break; sleep 0.1; done
	sleep 0.5
}
long_run
kill -KILL $pid
wait $pid 2> /dev/null
is "$("$PROBECOST" history --db "$U" --format json | jq length)" 4 "a run killed by SIGKILL leaves nothing half-written"
long_run
kill -INT $pid
wait $pid 2> /dev/null
is "$("$PROBECOST" history --db "$U" --format json | jq -c '.[4] | [.complete, .samples > 0]')" \
	'[false,true]' "a run stopped by Ctrl-C stores what it measured, marked incomplete"

# The server drops the connection while the run measures: it reconnects once and stores.
long_run
dropped=$(psql_ -d pc -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
	WHERE application_name = 'probecost' AND datname = 'pc'")
sleep 0.5
kill -INT $pid
wait $pid 2> /dev/null
is "$dropped:$("$PROBECOST" history --db "$U" --format json | jq -c '[length, .[5].samples > 0]')" \
	'1:[6,true]' "a connection the server dropped mid-run is made again and the session stored"

# ---- many writers at once ------------------------------------------------------------
# Eight writers at once, three runs and an import each (the sanitizer pass's count, which
# kept them overlapping; six took 2 CPU s more, and the server's share).
W=8 K=3
P=$(url par)
t0=$(date +%s.%N)
: > "$T/par.err"
for ((w = 0; w < W; w++)); do
	(
		for ((i = 0; i < K; i++)); do
			"$PROBECOST" run -w null --runs $((1 + w % 3)) --warmup 1 --seed $((w * 1000 + i)) \
				--db "$P" > /dev/null 2>> "$T/par.err" || echo "run $w.$i failed" >> "$T/par.err"
		done
		"$PROBECOST" import --db "$P" "$C/array.json" > /dev/null 2>> "$T/par.err" ||
			echo "import $w failed" >> "$T/par.err"
	) &
done
wait
t1=$(date +%s.%N)
want=$((W * K + W * 2))
"$PROBECOST" history --db "$P" --format json > "$T/par.json"
echo "# $W writers at once: $want sessions ($((W * K)) runs, $W two-session imports) in $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
is "$(jq length "$T/par.json"):$(jq -c '[.[].id] == [range(1; length + 1)]' "$T/par.json")" "$want:true" \
	"$W concurrent writers: all $want sessions stored, ids 1..$want without gaps"
got=$("$PROBECOST" export --all --db "$P" | jq -r '.[] | select(.kind == "run" and (.cmdline | contains("-w null")))
	| "\(.seed) \(.complete) \(.configs | length) \([.configs[].samples[]] | length)"' | sort -n)
want_rows=$(for ((w = 0; w < W; w++)); do for ((i = 0; i < K; i++)); do
	echo "$((w * 1000 + i)) true 1 $((2 + w % 3))"; done; done | sort -n)
is "$got" "$want_rows" "every run session present exactly once, complete, with its own writer's sample count"
n_imp=$(jq '[.[] | select(.cmdline | contains("-w null") | not)] | length' "$T/par.json")
# Warnings about the busy machine are expected; a store error or a failed command is not.
is "$n_imp:$(grep -c -E 'error|not storing|failed' "$T/par.err")" "$((W * 2)):0" \
	"every imported session stored once per writer; no writer saw an error"

# ---- cost tables: the fleet's store ------------------------------------------------------
# Two machines' tables (the fixture, and it again from a machine on another kernel) through
# a server print as they do from SQLite, side by side with the field that differs.
CD=$(url pc)
jq '.kernel = "6.18.0-other" | .host = "fixture-b" | .env.fields."kernel.release" = "6.18.0-other" |
	.entries[1].cost_ns = 5000 | .entries[1].cost_ns_lo = 4800 | .entries[1].cost_ns_hi = 5200' \
	tests/cli/data/costs-a.json > "$T/costs-b.json"
for db in "$CD" "$T/c.db"; do
	"$PROBECOST" costs --import tests/cli/data/costs-a.json --db "$db" > /dev/null
	"$PROBECOST" costs --import "$T/costs-b.json" --db "$db" > /dev/null
done
run_pc costs --db "$CD"
like "$out" 'strace +per syscall +cpu=0 +5000 \[4800, 5200\] ns +7100 \[6900, 7300\] ns' \
	"costs --db postgresql://: the two machines side by side, each entry's placement"
like "$out" 'kernel\.release: \[1\] 6\.18\.0-other; \[2\] 6\.1\.0-fixture' "... with the fingerprint field that differs"
is "$("$PROBECOST" costs --db "$CD" --format json | jq -c '.tables | map(del(.id))')" \
	"$("$PROBECOST" costs --db "$T/c.db" --format json | jq -c '.tables | map(del(.id))')" \
	"the tables read back from the server are SQLite's, figure for figure (NULL where unmeasured)"

done_testing
