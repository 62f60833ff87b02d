# shellcheck shell=bash
# pg.bash: a throwaway PostgreSQL cluster for tests (and bench/service.sh) that measure
# it as a --service.
# pg_cluster SKIP_FN [SCALE]: initdb (as postgres when root) in $T/pg, a database "bench"
# initialised by pgbench -i -s SCALE (1); sets PGBIN, PGD, PORT, PG_SERVICE (the postgres
# command to give --service, in the foreground, as postgres, on its own socket directory
# and port) and PGBENCH (pgbench's argv prefix, -h PGD -p PORT -U postgres).  Calls
# SKIP_FN REASON when the machine cannot.  Needs $T, and lib.bash's have, is_root and
# on_exit (the cluster is stopped on exit).
pg_cluster() {
	local skip=$1 scale=${2:-1} as=() started=
	PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
	[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/postgres" ] && [ -x "$PGBIN/pg_ctl" ] ||
		{ $skip "no PostgreSQL server binaries (ls /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql"; return 1; }
	have pgbench || { $skip "pgbench is not installed (apt-get install postgresql-client)"; return 1; }
	PG_AS=()
	if is_root; then
		# The server refuses to run as root; setpriv changes user and execs (no fork), so
		# the service's pid is the postmaster's.
		id postgres > /dev/null 2>&1 || { $skip "no 'postgres' user to run the server as (apt-get install postgresql)"; return 1; }
		have setpriv || { $skip "setpriv is not installed (apt-get install util-linux)"; return 1; }
		as=(runuser -u postgres --)
		PG_AS=(setpriv --reuid=postgres --regid=postgres --init-groups --)
	fi
	PGD=$T/pg
	chmod 0711 "$T"
	mkdir -m 0700 "$PGD"
	[ ${#as[@]} -gt 0 ] && chown postgres: "$PGD"
	"${as[@]}" "$PGBIN/initdb" -D "$PGD/data" -U postgres -E UTF8 --locale=C --no-sync \
		--auth-local=trust > "$T/initdb.log" 2>&1 ||
		{ $skip "initdb failed: $(tail -1 "$T/initdb.log")"; return 1; }
	on_exit '[ -f "$PGD/data/postmaster.pid" ] && "${PG_AS[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -m immediate stop > /dev/null 2>&1'
	for _ in 1 2 3 4 5; do
		PORT=$((20000 + RANDOM % 40000))
		if "${as[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -l "$PGD/log" -w -t 60 start \
			-o "-p $PORT -k $PGD -c listen_addresses= -F" > /dev/null 2>&1; then
			started=1
			break
		fi
	done
	[ -n "$started" ] || { $skip "the throwaway server did not start: $(tail -1 "$PGD/log" 2> /dev/null)"; return 1; }
	PGBENCH=(pgbench -h "$PGD" -p "$PORT" -U postgres)
	"${as[@]}" "$PGBIN/createdb" -h "$PGD" -p "$PORT" -U postgres bench > /dev/null 2>&1 &&
		"${PGBENCH[@]}" -i -s "$scale" -q bench > "$T/pgbench-i.log" 2>&1 ||
		{ $skip "pgbench -i failed: $(tail -1 "$T/pgbench-i.log")"; return 1; }
	"${as[@]}" "$PGBIN/pg_ctl" -D "$PGD/data" -w -m fast stop > /dev/null 2>&1
	# fsync off: the tests measure the CPU path, not this machine's disk.
	PG_SERVICE="${PG_AS[*]} $PGBIN/postgres -D $PGD/data -p $PORT -k $PGD -c listen_addresses= -F"
}
