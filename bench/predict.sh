#!/bin/bash
# bench/predict (second version): does `probecost predict` foresee what monitors cost
# programs nobody here wrote, run as users run them?  For each program, `probecost predict
# --verify` counts its events, predicts each monitor's extra time from the cost table,
# then measures the monitors as `run` does (interleaved blocks).  Unpinned by default, as
# `probecost run -- COMMAND` and every service run: the table's unpinned costs price them.
# The same programs pinned (--cpu, with the table's pinned costs) follow as a second table.
#
# Programs (inputs generated here, deterministic): gzip -9 and xz -1 on a 20 MB text file;
# xz -1 -T2 and sort --parallel=2 (threads side by side); sqlite3 running a generated SQL
# script; python3 importing a generated module tree; git log and git status on a generated
# repository; make -j2 of a generated C project (processes side by side); tar of a source
# tree (/usr/include) to /dev/null; readloop (tests/fixtures/predict/readloop.c: a 64-byte
# read, a getppid and 3 us of work, 20,000 times); pgbench -S against PostgreSQL started
# by probecost as --service (where predict has --service; else against a throwaway
# cluster started here, the client's events alone), skipped with the reason without
# PostgreSQL's server binaries.
# Monitors: strace, strace-seccomp:trace=openat, perf-stat, perf-record,
# bpftrace-syscalls.  ltrace has no model (it pays per library call, which predict does not
# count) and is left out: on gzip -9 it measured 40x the plain run, 51 s a run, for nothing
# to compare (LTRACE=1 adds it on git status, where its row shows the measurement alone).
#
# The verdict is consistency: z = (predicted - measured) / sqrt(se_p^2 + se_m^2), each
# standard error its 95% interval's half-width over 1.96.  Targets, among the pairs the
# measurement resolves (its 95% half-width under half the predicted extra): |z| <= 1.96 in
# >= 90% of them, and a median absolute error of the predicted extra time <= 15%.  How
# many pairs resolved is printed.
#
#   DB (default: a fresh store here, calibrated first, both placements), RUNS (5 blocks for
#   the programs of a second or more, twice as many for the short ones), CPU (the pinned
#   placement's CPUs, default 0), PINNED=0 (no pinned table), UNPINNED=0 (the pinned table
#   alone, e.g. with the DB of an earlier run), ONLY="gzip xz" (a subset of
#   the programs), KEEP=1 (keep the work directory), LOAD=N (N niced busy loops, unpinned,
#   from before the calibration to the end: a machine at load N, its table measured
#   there as a user calibrates where the tracer will run).
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
RUNS=${RUNS:-5}
command -v jq >/dev/null || { echo "skip: jq not installed (Debian package jq)"; exit 0; }
W=$(mktemp -d /tmp/pcost-predict.XXXXXX)
chmod 0755 "$W"
PG_STOP=
loadpids=()
cleanup() {
	[ -n "$PG_STOP" ] && eval "$PG_STOP" >/dev/null 2>&1
	[ ${#loadpids[@]} -gt 0 ] && kill "${loadpids[@]}" 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
DB=${DB:-$W/store.db}
PY=/usr/bin/python3
say() { printf '%s\n' "$*" >&2; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# ---- the inputs -----------------------------------------------------------------------
gen_text() { # 20 MB of word-like text, a fixed seed
	"$PY" - "$1" <<'EOF'
import random, sys
r = random.Random(18)
words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 11)))
         for _ in range(5000)]
with open(sys.argv[1], "w") as f:
    n = 0
    while n < 20 * 1024 * 1024:
        line = " ".join(r.choice(words) for _ in range(r.randint(4, 16))) + "\n"
        f.write(line)
        n += len(line)
EOF
}
gen_sql() { # a table, 40,000 inserts in one transaction, an index, aggregates
	"$PY" - "$1" <<'EOF'
import random, sys
r = random.Random(18)
with open(sys.argv[1], "w") as f:
    f.write("CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);\nBEGIN;\n")
    for i in range(40000):
        f.write("INSERT INTO t VALUES (%d, %d, 'k%05d', %.4f);\n" % (i, r.randint(0, 999), r.randint(0, 99999), r.random()))
    f.write("COMMIT;\nCREATE INDEX ta ON t(a);\n")
    for q in range(200):
        f.write("SELECT count(*), sum(c) FROM t WHERE a BETWEEN %d AND %d;\n" % (q * 5, q * 5 + 40))
    f.write("SELECT b, count(*) FROM t GROUP BY substr(b, 1, 3) ORDER BY 2 DESC LIMIT 5;\n")
EOF
}
gen_pytree() { # a package of 12 subpackages x 25 modules, byte-compiled
	"$PY" - "$1" <<'EOF'
import os, sys
root = os.path.join(sys.argv[1], "pctree")
os.makedirs(root)
subs = []
for s in range(12):
    d = os.path.join(root, "sub%02d" % s)
    os.makedirs(d)
    mods = []
    for m in range(25):
        with open(os.path.join(d, "m%02d.py" % m), "w") as f:
            f.write("import os, re, json\nK = %d\n" % (s * 100 + m))
            for k in range(8):
                f.write("def f%d(x):\n    return [x * i + K for i in range(%d)]\n" % (k, k + 3))
            f.write("class C%d:\n    def __init__(self):\n        self.v = f1(K)\n" % m)
        mods.append("m%02d" % m)
    with open(os.path.join(d, "__init__.py"), "w") as f:
        f.write("".join("from . import %s\n" % m for m in mods))
    subs.append("sub%02d" % s)
with open(os.path.join(root, "__init__.py"), "w") as f:
    f.write("".join("from . import %s\n" % s for s in subs))
EOF
	"$PY" -m compileall -q "$1/pctree" >/dev/null
}
gen_repo() { # 1,500 files in 30 directories, 60 commits of 25 files each
	local r=$1
	git init -q "$r"
	git -C "$r" config user.email bench@example.invalid
	git -C "$r" config user.name bench
	"$PY" - "$r" <<'EOF'
import os, random, subprocess, sys
r = random.Random(18)
root = sys.argv[1]
files = []
for d in range(30):
    os.makedirs(os.path.join(root, "d%02d" % d))
    for i in range(50):
        files.append(os.path.join("d%02d" % d, "f%02d.txt" % i))
for f in files:
    with open(os.path.join(root, f), "w") as h:
        h.write("".join("line %d of %s\n" % (k, f) for k in range(40)))
subprocess.run(["git", "-C", root, "add", "-A"], check=True)
subprocess.run(["git", "-C", root, "commit", "-q", "-m", "initial"], check=True)
for c in range(60):
    for f in r.sample(files, 25):
        with open(os.path.join(root, f), "a") as h:
            h.write("change %d\n" % c)
    subprocess.run(["git", "-C", root, "commit", "-q", "-a", "-m", "change %d" % c], check=True)
EOF
	git -C "$r" gc -q
}
gen_cproj() { # 16 C files and a Makefile
	local d=$1
	mkdir -p "$d"
	for i in $(seq -w 1 16); do
		{
			echo "#include <stdio.h>"
			echo "#include <string.h>"
			echo "int f$i(int x);"
			for k in $(seq 1 30); do
				echo "static int g${k}(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * $k ^ (s >> 3); return s; }"
			done
			echo "int f$i(int x) { return g1(x) + g7(x) + g30(x); }"
		} >"$d/f$i.c"
	done
	{
		echo "int printf(const char *, ...);"
		for i in $(seq -w 1 16); do echo "int f$i(int x);"; done
		echo "int main(void) { int s = 0;"
		for i in $(seq -w 1 16); do echo "s += f$i(10);"; done
		printf '%s\n' 'printf("%d\n", s); return 0; }'
	} >"$d/main.c"
	# shellcheck disable=SC2016 # make's variables, not the shell's
	printf 'OBJS := $(patsubst %%.c,%%.o,$(wildcard *.c))\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n%%.o: %%.c\n\t$(CC) -O2 -c -o $@ $<\n' >"$d/Makefile"
}
# A throwaway PostgreSQL cluster (the server runs as 'postgres'), its pgbench database.
pg_up() {
	local bin port
	bin=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -1)
	# shellcheck disable=SC2015 # the skip when either test fails is the meaning
	[ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] || { PG_WHY="no PostgreSQL server binaries (apt-get install postgresql)"; return 1; }
	# The server's own pgbench: Debian's /usr/bin/pgbench is a wrapper that wants a
	# postgresql-client-<version> package besides.
	PGBENCH=$bin/pgbench
	[ -x "$PGBENCH" ] || { PG_WHY="no $PGBENCH (apt-get install postgresql)"; return 1; }
	id postgres >/dev/null 2>&1 || { PG_WHY="no 'postgres' user to run the server as"; return 1; }
	mkdir -m 0700 "$W/pg" && chown postgres: "$W/pg"
	runuser -u postgres -- "$bin/initdb" -D "$W/pg/data" -U postgres --no-sync --auth-local=trust >"$W/pg.log" 2>&1 ||
		{ PG_WHY="initdb failed: $(tail -1 "$W/pg.log")"; return 1; }
	port=$((20000 + RANDOM % 40000))
	runuser -u postgres -- "$bin/pg_ctl" -D "$W/pg/data" -l "$W/pg/log" -w -t 60 start \
		-o "-p $port -k $W/pg -c listen_addresses= -F" >/dev/null 2>&1 ||
		{ PG_WHY="the server did not start: $(tail -1 "$W/pg/log")"; return 1; }
	PG_STOP="runuser -u postgres -- '$bin/pg_ctl' -D '$W/pg/data' -m immediate stop"
	PG_BIN=$bin
	PG_PORT=$port
	PGARGS=(-h "$W/pg" -p "$port" -U postgres)
	# shellcheck disable=SC2015 # either step failing is the failure
	"$bin/psql" "${PGARGS[@]}" -q -c "CREATE DATABASE bench" postgres >/dev/null &&
		"$PGBENCH" "${PGARGS[@]}" -i -q -s 2 bench >/dev/null 2>&1 ||
		{ PG_WHY="pgbench -i failed"; return 1; }
}

say "generating the inputs in $W (load $(load))"
gen_text "$W/big.txt"
gen_sql "$W/script.sql"
gen_pytree "$W/py"
gen_repo "$W/repo"
gen_cproj "$W/cproj"
make -s -C "$W/cproj" -j2 >/dev/null 2>&1

cc -O2 -o "$W/readloop" tests/fixtures/predict/readloop.c

MONS=(-m strace -m strace-seccomp:trace=openat -m perf-stat -m perf-record -m bpftrace-syscalls)
declare -a NAMES CMDS EXTRA BLOCKS
# add NAME EXTRA-OPTIONS BLOCKS COMMAND...: the CPU-bound programs of a second or more get
# RUNS blocks, the short ones twice as many (cheap, and their costs are a few ms).
add() { NAMES+=("$1"); EXTRA+=("$2"); BLOCKS+=("$3"); shift 3; CMDS+=("$(printf '%q ' "$@")"); }
add gzip "" "$RUNS" gzip -9 -c "$W/big.txt"
# xz -1: its default level takes 20 s a run on this machine (40 runs of it: a quarter hour).
add xz "" "$RUNS" xz -1 -T1 -c "$W/big.txt"
add xz-T2 "" "$RUNS" xz -1 -T2 -c "$W/big.txt"
add sort-par2 "" "$RUNS" sort --parallel=2 -S 64M -o /dev/null "$W/big.txt"
add readloop "" "$((2 * RUNS))" "$W/readloop" 20000
add sqlite3 "" "$RUNS" sqlite3 :memory: ".read $W/script.sql"
add python3 "" "$((2 * RUNS))" "$PY" -c "import sys; sys.path.insert(0, '$W/py'); import pctree"
add git-log "" "$((2 * RUNS))" git -C "$W/repo" log --stat -n 60
add git-status "${LTRACE:+-m ltrace}" "$((2 * RUNS))" git -C "$W/repo" status --porcelain
add make-j2 "" "$RUNS" make -s -B -j2 -C "$W/cproj"
add tar "" "$((2 * RUNS))" tar -cf /dev/null -C /usr include
PG_WHY=
if pg_up; then
	if "$PC" predict --help 2>&1 | grep -q -- '--service'; then
		# The server as the service of the runs, started by probecost: its backends'
		# events are counted and paid in the service, the client's in the client.
		eval "$PG_STOP"
		PG_STOP=
		# setpriv changes user and execs (runuser forks): the service's pid is the
		# postmaster's.  It listens on its socket only (no TCP port): ready on its line.
		add pgbench-service "--service $(printf '%q' "setpriv --reuid=postgres --regid=postgres --init-groups -- $PG_BIN/postgres -D $W/pg/data -p $PG_PORT -k $W/pg -c listen_addresses= -F") --ready $(printf '%q' 'database system is ready to accept connections')" \
			"$((2 * RUNS))" "$PGBENCH" "${PGARGS[@]}" -S -n -c 1 -t 3000 bench
	else
		PG_WHY="predict has no --service in this build: pgbench against a cluster started here, the client's events alone"
		add pgbench "" "$((2 * RUNS))" "$PGBENCH" "${PGARGS[@]}" -S -n -c 1 -t 3000 bench
	fi
fi

# The load generator: LOAD busy loops, niced (a run's processes take a CPU before them,
# but every wake-up meets a busy CPU), left to the scheduler as the runs are.
for _ in $(seq "${LOAD:-0}"); do
	nice -n 19 bash -c 'while :; do :; done' &
	loadpids+=($!)
done
[ "${LOAD:-0}" -gt 0 ] && say "load generator: ${LOAD} niced busy loops"

# The cost table first (unless DB already has one of this machine), retried while another
# tracer is armed on the syscall path (calibrate refuses to measure under it).
if ! "$PC" costs --db "$DB" >/dev/null 2>&1; then
	for try in $(seq 20); do
		say "calibrating (try $try, load $(load))"
		# --thorough: 10 blocks a term, so the table's intervals are not what limits;
		# both placements (the default): unpinned for the first table, pinned for the second.
		"$PC" calibrate --thorough --cpu "${CPU:-0}" --db "$DB" >"$W/calibrate.txt" \
			2>"$W/calibrate.err" && break
		grep -q 'is armed on what it would measure' "$W/calibrate.err" || { cat "$W/calibrate.err" >&2; exit 1; }
		say "  $(grep -o 'process [0-9]* has [^;]*' "$W/calibrate.err" | head -1): waiting 30 s"
		sleep 30
	done
	grep -q 'stored as cost table' "$W/calibrate.err" || { say "could not calibrate"; exit 1; }
	say "$(grep 'stored as cost table' "$W/calibrate.err")"
fi
"$PC" costs --db "$DB" >"$W/costs.txt"

rows=$W/rows
: >"$rows"
t0=$(date +%s)
# measure PLACEMENT [--cpu LIST]: every program predicted and measured so, into $rows.
measure() {
	local placement=$1 name cmd extra before
	shift
	for i in "${!NAMES[@]}"; do
		name=${NAMES[i]}
		[ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && continue
		eval "cmd=(${CMDS[i]})"
		eval "extra=(${EXTRA[i]})"
		before=$(load)
		say "$name, $placement: predicting and measuring (load before: $before; $(($(date +%s) - t0)) s so far)"
		# shellcheck disable=SC2154 # cmd and extra are set by eval
		"$PC" predict --verify "${MONS[@]}" "${extra[@]}" --runs "${BLOCKS[i]}" --count-runs 2 --plain-runs 3 \
			--timeout 300 --seed "$((i + 1))" "$@" --db "$DB" --format json -- "${cmd[@]}" \
			>"$W/$name.$placement.json" 2>"$W/$name.$placement.err" ||
			{ say "$name failed: $(tail -2 "$W/$name.$placement.err")"; continue; }
		jq -r --arg p "$name" --arg load "$before / $(load)" --arg pl "$placement" '.statistics[] |
			[$p, .monitor, (.model | tostring), .predicted_extra_ns, .predicted_extra_ns_lo,
			 .predicted_extra_ns_hi, .measured_extra_ns, .measured_extra_ns_lo, .measured_extra_ns_hi,
			 .measured_in_predicted, .predicted_in_measured, .error, (.why // ""),
			 .predicted_overhead, .measured_overhead, $load, $pl] | map(tostring) | join("\t")' \
			"$W/$name.$placement.json" >>"$rows"
	done
}
[ "${UNPINNED:-1}" = 0 ] || measure unpinned
[ "${PINNED:-1}" = 0 ] || measure pinned --cpu "${CPU:-0}"
[ -n "$PG_WHY" ] && say "pgbench: $PG_WHY"

# ---- the tables and the targets ------------------------------------------------------------
cat "$W/costs.txt"
# verdict PLACEMENT: the table of that placement's pairs, z, and the targets.
verdict() {
	echo
	echo "## $1"
	echo
	awk -F'\t' -v want="$1" '
function ms(x) { return x == "null" ? "n/a" : sprintf("%.1f", x / 1e6) }
function pct(x) { return x == "null" ? "n/a" : sprintf("%+.0f%%", 100 * x) }
function abs(x) { return x < 0 ? -x : x }
function median(v, k,   i, j, t) {
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
BEGIN {
	printf "%-15s %-28s %-28s %-28s %-6s %-7s %-4s %s\n", "program", "monitor", "predicted extra ms [95%]",
		"measured extra ms [95%]", "z", "error", "res", "load before / after (1, 5, 15 min)"
}
$17 == want {
	pred = $3 == "true" ? sprintf("%s [%s, %s]", ms($4), ms($5), ms($6)) : "no model"
	meas = sprintf("%s [%s, %s]", ms($7), ms($8), ms($9))
	z = "-"; res = "-"
	if ($3 == "true" && $7 != "null" && $8 != "null" && $5 != "null") {
		sp = ($6 - $5) / 2 / 1.96; sm = ($9 - $8) / 2 / 1.96
		zz = sqrt(sp * sp + sm * sm) > 0 ? ($4 - $7) / sqrt(sp * sp + sm * sm) : 0
		z = sprintf("%+.2f", zz)
		n++; nz += (abs(zz) <= 1.96)
		# Resolved: the run measured the cost to within half of it (95% half-width), so a
		# miss there is the model, not the noise of the measurement.
		res = ($9 - $8) / 2 < 0.5 * abs($4) ? "yes" : "no"
		if (res == "yes") { r++; rz += (abs(zz) <= 1.96); rerr[r] = abs($12) }
	} else if ($3 != "true") {
		nomodel = nomodel sprintf("\n  %s %s: %s", $1, $2, $13)
	}
	printf "%-15s %-28s %-28s %-28s %-6s %-7s %-4s %s\n", $1, $2, pred, meas, z, pct($12), res, $16
}
END {
	if (!n) { print "no pair with a model was measured"; exit 1 }
	printf "\npairs with a model, measured: %d; |z| <= 1.96 in %d (%.0f%%)\n", n, nz, 100 * nz / n
	printf "resolved by the run (measured half-width under half the predicted extra): %d of %d\n", r, n
	if (r) {
		med = median(rerr, r)
		printf "among them: |z| <= 1.96 in %d (%.0f%%, target >= 90%%): %s; median absolute error %.1f%% (target <= 15%%): %s\n",
			rz, 100 * rz / r, (rz / r >= 0.9 ? "met" : "missed"), 100 * med, (med <= 0.15 ? "met" : "missed")
	}
	if (nomodel != "") printf "no model:%s\n", nomodel
}' "$rows"
}
[ "${UNPINNED:-1}" = 0 ] || verdict unpinned
[ "${PINNED:-1}" = 0 ] || verdict pinned
