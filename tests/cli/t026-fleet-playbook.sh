#!/bin/bash
# parallel-safe
# long: a PostgreSQL cluster and three playbook runs (30-60 s, mostly waiting)
# t026: deploy/ansible/calibrate.yml on an inventory of localhost (local connection) with a
# throwaway PostgreSQL store whose role needs a password: the first run calibrates this
# host (the known answer inject:event=2000,fixed=0) and runs its study, costs --db URL
# shows this host's table; a second run skips calibrate and changes nothing; a forced run
# adds a table.  Another host's table, of this very machine and kernel, is not this
# host's.  The password is in no output, no stored command line and no file left.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pg.bash"
. "$(dirname "$0")/fleet.bash"
plan 18

ROLE=deploy/ansible/roles/probecost
have ansible-playbook || skip_rest "ansible-playbook is not installed (apt-get install ansible-core)"
have jq || skip_rest "jq is not installed (apt-get install jq)"

keys_c=$(sed -n '/cost_keys\[\] = {/,/};/p' src/stats/predict.c | grep -o '"[^"]*"' | tr -d '"')
keys_role=$(sed -n '/^probecost_cost_keys:/,/^$/s/^  - //p' "$ROLE/vars/main.yml")
is "$keys_role" "$keys_c" "the role's fingerprint fields are predict's (src/stats/predict.c cost_keys)"

unset PGPASSWORD PGPASSFILE PROBECOST_DB
tmpdir
fleet_setup
ansible-playbook --syntax-check -i "$T/inventory.ini" "$PB" >"$T/syntax.log" 2>&1
is "$?" 0 "ansible-playbook --syntax-check $PB" || sed 's/^/# /' "$T/syntax.log"

# ---- a store whose role logs in with a password (scram), over the unix socket ----
pg_start skip_rest || exit 0
# The postmaster rereads pg_hba.conf on the signal, before it accepts another connection.
sed -i '1i local all fleet scram-sha-256' "$PGD/data/pg_hba.conf"
"${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" reload >/dev/null 2>&1 ||
	skip_rest "the throwaway server did not reload pg_hba.conf"
SECRET='Fl33t:pw\x'
"${PG_AS[@]}" "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGD" -p "$PORT" -U postgres \
	-c "CREATE ROLE fleet LOGIN PASSWORD '$SECRET'" -c "CREATE DATABASE fleet OWNER fleet" >/dev/null ||
	skip_rest "could not create the role and database"
URL="postgresql://fleet@/fleet?host=$PGD&port=$PORT"
run_pc costs --db "$URL"
like "$rc: $err" '^2: .*password' "without the password the store refuses probecost (exit 2: $err)"
esc=${SECRET//\\/\\\\}
printf '*:*:*:*:%s\n' "${esc//:/\\:}" >"$T/pgpass"
chmod 600 "$T/pgpass"
pc() { PGPASSFILE=$T/pgpass "$PROBECOST" "$@" --db "$URL"; }

# The variables a fleet keeps in its vault: here a plain file, for -e @FILE.
cat >"$T/vars.json" <<EOF
{"probecost_bin": "$(readlink -f "$PROBECOST")", "probecost_tracers": [],
 "probecost_monitors": ["inject:event=2000,fixed=0"], "probecost_calibrate_args": ["--runs", "3"],
 "probecost_studies": [["run", "-w", "null", "--runs", "2", "--warmup", "0", "-m", "inject:event=0,fixed=0"]],
 "probecost_db_url": "$URL", "probecost_db_password": $(jq -Rn --arg s "$SECRET" '$s')}
EOF
host=$(uname -n)

# Another host's table, measured here (the same fingerprint), is in the store first.
"$PROBECOST" calibrate -m inject:event=2000,fixed=0 --runs 2 --no-store --format json 2>/dev/null |
	jq '.tables[0].host = "other-host"' >"$T/other.json"
pc costs --import "$T/other.json" >/dev/null
is "$(pc costs --format json | jq -c '[.tables[] | [.id, .host]]')" '[[1,"other-host"]]' \
	"costs --import stores another host's table"

# ---- first run: calibrate and the study --------------------------------------------
playbook 1 -e "@$T/vars.json"
is "$rc" 0 "the first run succeeds"
is "$(said 1)" "localhost: cost table 2 (calibrated now)" "it calibrates (another host's table is not this one's) and reports the id"
pc costs --format json >"$T/costs-1.json" 2>"$T/costs.err"
is "$(jq -c '[.tables[] | [.id, .host, .kernel, .level, .complete]]' "$T/costs-1.json")" \
	"[[2,\"$host\",\"$(uname -r)\",\"custom\",true],[1,\"other-host\",\"$(uname -r)\",\"custom\",true]]" \
	"costs --db URL shows this host's table, on this kernel, beside the other host's"
like "$(pc costs --table 2)" '^  inject:event=2000,fixed=0 +per syscall +unpinned +[0-9]' "and its per-syscall entry"
is "$(pc history --format json | jq -c '[.[] | .cmdline]')" \
	'["probecost calibrate","probecost calibrate","probecost run -w null --runs 2 --warmup 0 -m inject:event=0,fixed=0"]' \
	"the study ran after the calibration (a session a placement), into the same store"

# ---- second run: nothing to do --------------------------------------------------------
playbook 2 -e "@$T/vars.json"
is "$rc" 0 "the second run succeeds"
is "$(said 2)" "localhost: cost table 2 (stored before: calibrate skipped; probecost_force=true calibrates again)" \
	"it skips calibrate and reports the stored table"
is "$(recap 2)" "changed=0 failed=0" "and changes nothing"
is "$(pc history --format json | jq length)" 3 "no session was added (the two calibration sessions, unpinned and pinned, and the study)"

# ---- forced ---------------------------------------------------------------------------
playbook 3 -e "@$T/vars.json" -e probecost_force=true
is "$rc" 0 "a forced run succeeds"
is "$(said 3)" "localhost: cost table 3 (calibrated now)" "it calibrates again: table 3"
is "$(pc costs --all --format json | jq -c '[.tables[].id]')" "[3,2,1]" "the store holds this host's two tables and the other's"

# ---- the password ---------------------------------------------------------------------
is "$(grep -lF "$SECRET" "$T"/run-*.log)$(pc history --format json | grep -cF "$SECRET")" 0 \
	"the password is in no playbook output and no stored command line"
is "$(find "$T/tmp" -mindepth 1 | head -3)" "" "the passfile is removed after each run"
done_testing
