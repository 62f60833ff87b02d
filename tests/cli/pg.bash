# shellcheck shell=bash
# pg.bash: a throwaway PostgreSQL cluster for tests (and bench/service.sh).
#
# pg_start SKIP_FN: initdb (as postgres when root) in $T/pg and start it on its own socket
# directory and a free port, stopped on exit; a database "pc" in it.  Sets PGBIN, PGD, PORT,
# PG_AS (the prefix that runs a command as the server's user; empty unless root) and PG_URL
# (a postgresql:// URL of "pc").  Calls SKIP_FN REASON when the machine cannot.  Needs $T,
# and lib.bash's have, is_root and on_exit.
pg_start() {
	local skip=$1 started=
	PGBIN=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2> /dev/null | sort -V | tail -1)
	# shellcheck disable=SC2015 # the skip runs when any test fails: that is the meaning
	[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/postgres" ] && [ -x "$PGBIN/pg_ctl" ] ||
		{ $skip "no PostgreSQL server binaries (ls /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql"; return 1; }
	PG_AS=()
	if is_root; then
		# The server refuses to run as root.
		id postgres > /dev/null 2>&1 || { $skip "no 'postgres' user to run the server as (apt-get install postgresql)"; return 1; }
		PG_AS=(runuser -u postgres --)
	fi
	PGD=$T/pg
	chmod 0711 "$T"
	mkdir -m 0700 "$PGD"
	[ ${#PG_AS[@]} -gt 0 ] && chown postgres: "$PGD"
	"${PG_AS[@]}" "$PGBIN/initdb" -D "$PGD/data" -U postgres -E UTF8 --locale=C --no-sync \
		--auth-local=trust > "$T/initdb.log" 2>&1 ||
		{ $skip "initdb failed: $(tail -1 "$T/initdb.log")"; return 1; }
	on_exit '[ -f "$PGD/data/postmaster.pid" ] && "${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -m immediate stop > /dev/null 2>&1'
	for _ in 1 2 3 4 5; do
		PORT=$((20000 + RANDOM % 40000))
		if "${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/log" -w -t 60 start \
			-o "-p $PORT -k $PGD -c listen_addresses= -F" > /dev/null 2>&1; then
			started=1
			break
		fi
	done
	[ -n "$started" ] || { $skip "the throwaway server did not start: $(tail -1 "$PGD/log" 2> /dev/null)"; return 1; }
	"${PG_AS[@]}" "$PGBIN/createdb" -h "$PGD" -p "$PORT" -U postgres pc > /dev/null 2>&1 ||
		{ $skip "createdb failed on the throwaway server"; return 1; }
	# shellcheck disable=SC2034 # read by the tests that source this file
	PG_URL="postgresql://postgres@/pc?host=$PGD&port=$PORT"
}

# pg_cluster SKIP_FN [SCALE]: pg_start's cluster, for a test that measures it as a --service:
# a database "bench" initialised by pgbench -i -s SCALE (1), the server stopped again; sets
# PG_SERVICE (the postgres command to give --service, in the foreground, as postgres, on its
# own socket directory and port), PGBENCH (pgbench's argv prefix, -h PGD -p PORT -U postgres)
# and PG_AS (setpriv to the server's user when root).
pg_cluster() {
	local skip=$1 scale=${2:-1}
	have pgbench || { $skip "pgbench is not installed (apt-get install postgresql-client)"; return 1; }
	if is_root; then
		have setpriv || { $skip "setpriv is not installed (apt-get install util-linux)"; return 1; }
	fi
	pg_start "$skip" || return 1
	PGBENCH=(pgbench -h "$PGD" -p "$PORT" -U postgres)
	# shellcheck disable=SC2015 # the skip runs when either step fails: that is the meaning
	"${PG_AS[@]}" "$PGBIN/createdb" -h "$PGD" -p "$PORT" -U postgres bench > /dev/null 2>&1 &&
		"${PGBENCH[@]}" -i -s "$scale" -q bench > "$T/pgbench-i.log" 2>&1 ||
		{ $skip "pgbench -i failed: $(tail -1 "$T/pgbench-i.log")"; return 1; }
	"${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -w -m fast stop > /dev/null 2>&1
	# The server refuses to run as root; setpriv changes user and execs (no fork), so the
	# service's pid is the postmaster's.
	is_root && PG_AS=(setpriv --reuid=postgres --regid=postgres --init-groups --)
	# fsync off: the tests measure the CPU path, not this machine's disk.
	# shellcheck disable=SC2034 # read by the tests that source this file
	PG_SERVICE="${PG_AS[*]} $PGBIN/postgres -D $PGD/data -p $PORT -k $PGD -c listen_addresses= -F"
}
