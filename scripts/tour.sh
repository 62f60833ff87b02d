#!/bin/bash
# The README's tour, as a new user on a freshly booted machine: in a private mount namespace
# with tracefs unmounted, a fresh store, a throwaway PostgreSQL cluster and Redis server (what
# scripts/setup.sh installs).  As root, from anywhere: writes each step's output and its
# time to OUTDIR (default: a new directory under /tmp) and prints where.
#   scripts/tour.sh [OUTDIR]
set -u
cd "$(dirname "$0")/.." || exit 2
[ "$(id -u)" = 0 ] || { echo "scripts/tour.sh: run it as root (it mounts, and starts PostgreSQL as postgres)" >&2; exit 2; }
[ -x ./probecost ] || { echo "scripts/tour.sh: build first (scripts/setup.sh)" >&2; exit 2; }
T=${1:-$(mktemp -d /tmp/probecost-tour.XXXXXX)}
mkdir -p "$T" && chmod 0711 "$T" || exit 2
PGB=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2> /dev/null | sort -V | tail -1)
export PROBECOST_DB=$T/probecost.db T PGB D=$T/pgb REPO=$PWD
: > "$T/times"
# step NAME COMMAND...: its output in $T/NAME.out, its exit status and time in $T/times.
step() {
	local n=$1 t0 rc
	shift
	printf '$ %s\n' "$*" > "$T/$n.out"
	t0=$(date +%s.%N)
	"$@" >> "$T/$n.out" 2>&1
	rc=$?
	printf '%-10s exit %s  %6.1f s  load %s\n' "$n" "$rc" \
		"$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" >> "$T/times"
}
export -f step
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount bash -c '
umount /sys/kernel/tracing 2> /dev/null
grep -c " tracefs " /proc/mounts > "$T/tracefs-before"
step default ./probecost run
step command ./probecost run -m strace -m bpftrace-syscalls --cpu 0 -- git -C "$REPO" status --porcelain
step probes ./probecost probes --via uprobe --variants plain --sites nop5,nop5-nrz --kernel fft --scale 1 --runs 3
step counters ./probecost counters --events 1,4
if [ -x "$PGB/postgres" ] && command -v pgbench > /dev/null; then
	install -d -o postgres -m 0700 "$D"
	runuser -u postgres -- "$PGB/initdb" -D "$D/data" -U postgres --auth-local=trust -E UTF8 --locale=C > /dev/null
	runuser -u postgres -- "$PGB/pg_ctl" -D "$D/data" -o "-p 5499 -k $D -c listen_addresses=" -w start > /dev/null
	runuser -u postgres -- "$PGB/createdb" -h "$D" -p 5499 bench && pgbench -h "$D" -p 5499 -U postgres -i -q bench 2> /dev/null
	runuser -u postgres -- "$PGB/pg_ctl" -D "$D/data" -w stop > /dev/null
	step pgbench ./probecost run --cpu 0 --metric pgbench \
		--service "setpriv --reuid=postgres --regid=postgres --init-groups -- $PGB/postgres -D $D/data -p 5499 -k $D -c listen_addresses=" \
		--ready "ready to accept connections" -m strace -m bpftrace-syscalls \
		-- pgbench -h "$D" -p 5499 -U postgres -n -S -c 1 -T 1 bench
fi
if command -v redis-server > /dev/null; then
	step redis ./probecost run --cpu 0 --metric redis-benchmark \
		--service "redis-server --port 7777 --bind 127.0.0.1 --save \"\" --appendonly no --daemonize no" \
		--ready "Ready to accept connections" -m strace -m perf-record-system \
		-- redis-benchmark -p 7777 -n 20000 -c 2 -t get,set -q
fi
step calibrate ./probecost calibrate
step predict ./probecost predict -m strace -m bpftrace-syscalls -m perf-record -- git -C "$REPO" status --porcelain
step history ./probecost history
step report ./probecost report 1 --plot "$T/plot.png"
grep -c " tracefs " /proc/mounts > "$T/tracefs-after"
'
cat "$T/times"
echo "tracefs mounts in the namespace: $(cat "$T/tracefs-before") before, $(cat "$T/tracefs-after") after; outputs in $T"
