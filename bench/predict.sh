#!/bin/bash
# bench/predict: does `probecost predict` foresee what monitors cost programs nobody here
# wrote?  For each program, `probecost predict --verify` counts its events, predicts each
# monitor's extra time from the cost table, then measures the monitors as `run` does
# (interleaved blocks, pinned like the table); this prints program, monitor, predicted,
# measured, and whether each lies in the other's interval.
#
# Programs (inputs generated here, deterministic): gzip -9 and xz on a 20 MB text file;
# sqlite3 running a generated SQL script; python3 importing a generated module tree; git
# log and git status on a generated repository; make -j2 of a generated C project; tar of
# a source tree (/usr/include) to /dev/null; pgbench -S on a throwaway cluster (skipped,
# with the reason, without PostgreSQL's server binaries).
# Monitors: strace, strace-seccomp:trace=openat, perf-stat, perf-record,
# bpftrace-syscalls.  ltrace has no model (it pays per library call, which predict does not
# count) and is left out: on gzip -9 it measured 40x the plain run, 51 s a run, for nothing
# to compare (LTRACE=1 adds it on git status, where its row shows the measurement alone).
# Targets: the measured extra time inside the predicted interval for >= 80% of the pairs
# with a model; the median absolute error of the predicted extra time <= 20%.
#
#   DB (default: a fresh store here, calibrated first with --thorough), RUNS (5 blocks for the
#   programs of a second or more, twice as many for the short ones), CPU (the table's),
#   ONLY="gzip xz" (a subset of the programs), KEEP=1 (keep the work directory).
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
RUNS=${RUNS:-5}
command -v jq >/dev/null || { echo "skip: jq not installed (Debian package jq)"; exit 0; }
W=$(mktemp -d /tmp/pcost-predict.XXXXXX)
chmod 0755 "$W"
PG_STOP=
cleanup() {
	[ -n "$PG_STOP" ] && eval "$PG_STOP" >/dev/null 2>&1
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

MONS=(-m strace -m strace-seccomp:trace=openat -m perf-stat -m perf-record -m bpftrace-syscalls)
declare -a NAMES CMDS EXTRA BLOCKS
# add NAME EXTRA-OPTIONS BLOCKS COMMAND...: the CPU-bound programs of a second or more get
# RUNS blocks, the short ones twice as many (cheap, and their costs are a few ms).
add() { NAMES+=("$1"); EXTRA+=("$2"); BLOCKS+=("$3"); shift 3; CMDS+=("$(printf '%q ' "$@")"); }
add gzip "" "$RUNS" gzip -9 -c "$W/big.txt"
# xz -1: its default level takes 20 s a run on this machine (40 runs of it: a quarter hour).
add xz "" "$RUNS" xz -1 -T1 -c "$W/big.txt"
add sqlite3 "" "$RUNS" sqlite3 :memory: ".read $W/script.sql"
add python3 "" "$((2 * RUNS))" "$PY" -c "import sys; sys.path.insert(0, '$W/py'); import pctree"
add git-log "" "$((2 * RUNS))" git -C "$W/repo" log --stat -n 60
add git-status "${LTRACE:+-m ltrace}" "$((2 * RUNS))" git -C "$W/repo" status --porcelain
add make-j2 "" "$RUNS" make -s -B -j2 -C "$W/cproj"
add tar "" "$((2 * RUNS))" tar -cf /dev/null -C /usr include
PG_WHY=
if pg_up; then
	add pgbench "" "$((2 * RUNS))" "$PGBENCH" "${PGARGS[@]}" -S -n -c 1 -t 3000 bench
fi

# The cost table first (unless DB already has one of this machine), retried while another
# tracer is armed on the syscall path (calibrate refuses to measure under it).
if ! "$PC" costs --db "$DB" >/dev/null 2>&1; then
	for try in $(seq 20); do
		say "calibrating (try $try, load $(load))"
		# --thorough: 10 blocks a term, so the table's intervals are not what limits.
		"$PC" calibrate --thorough ${CPU:+--cpu "$CPU"} --db "$DB" >"$W/calibrate.txt" \
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
for i in "${!NAMES[@]}"; do
	name=${NAMES[i]}
	[ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && continue
	eval "cmd=(${CMDS[i]})"
	# shellcheck disable=SC2206 # EXTRA holds option words
	extra=(${EXTRA[i]})
	before=$(load)
	say "$name: predicting and measuring (load before: $before; $(($(date +%s) - t0)) s so far)"
	# shellcheck disable=SC2154 # cmd is set by eval
	"$PC" predict --verify "${MONS[@]}" "${extra[@]}" --runs "${BLOCKS[i]}" --count-runs 2 --plain-runs 3 \
		--timeout 300 --seed "$((i + 1))" ${CPU:+--cpu "$CPU"} --db "$DB" --format json -- "${cmd[@]}" \
		>"$W/$name.json" 2>"$W/$name.err" || { say "$name failed: $(tail -2 "$W/$name.err")"; continue; }
	jq -r --arg p "$name" --arg load "$before / $(load)" '.statistics[] |
		[$p, .monitor, (.model | tostring), .predicted_extra_ns, .predicted_extra_ns_lo,
		 .predicted_extra_ns_hi, .measured_extra_ns, .measured_extra_ns_lo, .measured_extra_ns_hi,
		 .measured_in_predicted, .predicted_in_measured, .error, (.why // ""),
		 .predicted_overhead, .measured_overhead, $load] | map(tostring) | join("\t")' \
		"$W/$name.json" >>"$rows"
done
[ -n "$PG_WHY" ] && say "pgbench: skipped: $PG_WHY"

# ---- the table and the targets -----------------------------------------------------------
cat "$W/costs.txt"
echo
awk -F'\t' '
function ms(x) { return x == "null" ? "n/a" : sprintf("%.1f", x / 1e6) }
function pct(x) { return x == "null" ? "n/a" : sprintf("%+.0f%%", 100 * x) }
BEGIN {
	printf "%-11s %-28s %-30s %-30s %-6s %-6s %-7s %s\n", "program", "monitor", "predicted extra ms [95%]",
		"measured extra ms [95%]", "m in p", "p in m", "error", "load before / after (1, 5, 15 min)"
}
{
	pred = $3 == "true" ? sprintf("%s [%s, %s]", ms($4), ms($5), ms($6)) : "no model"
	meas = sprintf("%s [%s, %s]", ms($7), ms($8), ms($9))
	mip = $3 == "true" ? ($10 == "true" ? "yes" : "no") : "-"
	pim = $3 == "true" ? ($11 == "true" ? "yes" : "no") : "-"
	printf "%-11s %-28s %-30s %-30s %-6s %-6s %-7s %s\n", $1, $2, pred, meas, mip, pim, pct($12), $16
	if ($3 == "true" && $7 != "null") {
		n++; inside += ($10 == "true")
		e = $12 < 0 ? -$12 : $12; err[n] = e
		# Resolved: the run measured the cost to within half of it (95% half-width), so a
		# miss there is the model, not the noise of the measurement.
		half = ($9 - $8) / 2
		if ($8 != "null" && half < 0.5 * ($4 < 0 ? -$4 : $4)) {
			r++; rin += ($10 == "true"); rerr[r] = e
		}
	} else if ($3 != "true") {
		nomodel = nomodel sprintf("\n  %s %s: %s", $1, $2, $13)
	}
}
END {
	if (!n) { print "no pair with a model was measured"; exit 1 }
	# median absolute error
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (err[j] < err[i]) { t = err[i]; err[i] = err[j]; err[j] = t }
	med = n % 2 ? err[(n + 1) / 2] : (err[n / 2] + err[n / 2 + 1]) / 2
	printf "\npairs with a model: %d; measured inside the predicted interval: %d (%.0f%%, target >= 80%%): %s\n",
		n, inside, 100 * inside / n, (inside / n >= 0.8 ? "met" : "missed")
	printf "median absolute error of the predicted extra time: %.1f%% (target <= 20%%): %s\n",
		100 * med, (med <= 0.2 ? "met" : "missed")
	if (r) {
		for (i = 1; i <= r; i++) for (j = i + 1; j <= r; j++) if (rerr[j] < rerr[i]) { t = rerr[i]; rerr[i] = rerr[j]; rerr[j] = t }
		rmed = r % 2 ? rerr[(r + 1) / 2] : (rerr[r / 2] + rerr[r / 2 + 1]) / 2
		printf "of them resolved by the run (measured half-width under half the predicted extra): %d; " \
			"inside: %d (%.0f%%); median absolute error %.1f%%\n", r, rin, 100 * rin / r, 100 * rmed
	}
	if (nomodel != "") printf "no model:%s\n", nomodel
}' "$rows"
