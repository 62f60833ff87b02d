# shellcheck shell=bash
# lib.bash: the TAP producer and machine checks every CLI test sources.  Run from the repo root.
#
#   plan N                     the plan line; done_testing at the end gives the exit status
#                              (each assertion returns 1 when it fails, for `|| diag ...`)
#   ok STATUS DESC             ok when STATUS is 0          assert DESC EXPR  ok when EXPR (eval'd) is true
#   is GOT WANT DESC           like GOT REGEX DESC          pass DESC / not_ok DESC [DIAG]
#   skip REASON                one skipped test             skip_rest REASON  every test left in the plan
#   diag TEXT...               a comment line per line of TEXT
#   one_line_exit2 DESC CMD... CMD exits 2 with exactly one non-empty line on stderr
#   run_pc ARGS...             probecost ARGS: sets $out, $err, $rc
#   report_of WORKLOAD ARGS... a workload's PROBECOST_REPORT_FD line in $report; field KEY LINE
#   tmpdir                     $T: a temporary directory removed on exit; on_exit CMD adds cleanup
#   own_probecost              run a copy of probecost of the test's own, probes armed on it
#                              its alone (probecost_copy DEST: one copy, a build id of its own)
#   perf_probe_lock            one test at a time adds `perf probe` definitions (their names)
#
# Whether the machine can do something is decided from machine facts only, never
# from probecost's own verdict (a broken probecost must not turn a test into a skip):
#   is_root, have CMD, have_tracefs, have_pmu, have_uprobe_pmu, perf_events_usable
PROBECOST=${PROBECOST:-./probecost}
# P, F, T, out, err, rc, report, armed: set here for the tests that source this file.
# shellcheck disable=SC2034
P=$PROBECOST
# shellcheck disable=SC2034
F=tests/cli/fake
TRACEFS=/sys/kernel/tracing
# Tests run beside other tests (and, on a shared machine, other people's) that arm
# tracers: probecost's refusal to measure under a foreign tracer would make them fail at
# random.  t264 tests the refusal itself (it unsets this).
export PROBECOST_ALLOW_TRACERS=1
_n=0
_plan=0
_fail=0
plan() { _plan=$1; echo "1..$1"; }
_result() { # _result STATUS DESC
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; _fail=1; return 1; fi
}
ok() { _result "$1" "$2"; } # ok COND-EXIT-STATUS DESCRIPTION
assert() { # assert DESCRIPTION EXPR: EXPR is eval'd in the caller's variables
	if eval "$2"; then _result 0 "$1"; else _result 1 "$1"; fi
}
pass() { _result 0 "$1"; }
not_ok() { _result 1 "$1"; [ $# -lt 2 ] || _why "$2"; return 1; }
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }
# _why LINE...: a failure's diagnostics, on stderr too, where prove shows them without -v
# (a failed CI run keeps nothing else of a test).
_why() { local t; t=$(printf '%s\n' "$@" | sed 's/^/# /'); printf '%s\n' "$t"; printf '%s\n' "$t" >&2; }
is() { # is GOT WANT DESCRIPTION
	_n=$((_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; _why "  got:  '$1'" "  want: '$2'"; _fail=1; return 1; fi
}
like() { # like GOT REGEX DESCRIPTION
	_n=$((_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; _why "  got:  '$1'" "  want match: '$2'"; _fail=1; return 1; fi
}
# todo DESCRIPTION REASON EXPR: a known miss, still run and reported (TAP's TODO): its
# "not ok" does not fail the suite, and prove lists it as unexpectedly passing once it holds.
todo() {
	_n=$((_n + 1))
	if eval "$3"; then echo "ok $_n - $1 # TODO $2"; else echo "not ok $_n - $1 # TODO $2"; fi
}
skip() { # skip REASON
	_n=$((_n + 1)); echo "ok $_n # skip $1"
}
skip_rest() { # skip_rest REASON: skips every test left in the plan and ends the script
	while [ "$_n" -lt "$_plan" ]; do skip "$1"; done
	done_testing
}
# one_line_exit2 DESCRIPTION CMD...: CMD must exit 2 with one non-empty line on stderr.
one_line_exit2() {
	local d=$1 e r
	shift
	e=$("$@" 2>&1 >/dev/null)
	r=$?
	if [ $r = 2 ] && [ -n "$e" ] && [ "$(printf '%s\n' "$e" | wc -l)" = 1 ]; then
		pass "$d: exit 2, one line ($e)"
	else
		not_ok "$d: exit $r, stderr: $e"
	fi
}

# Machine facts.
is_root() { [ "$(id -u)" = 0 ]; }
have() { command -v "$1" >/dev/null 2>&1; }
# A CPU to spare (/proc/loadavg below the CPU count): a latency bound of a few ms holds
# only there; busy_why says why not, for a skip.
machine_quiet() { awk -v n="$(nproc)" '{ exit !($1 < n) }' /proc/loadavg; }
busy_why() { echo "busy machine (load $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs): a wake-up waits longer than the bound"; }
have_tracefs() { [ -e "$TRACEFS/uprobe_events" ]; }
have_pmu() { [ -d /sys/bus/event_source/devices/cpu ] || [ -d /sys/bus/event_source/devices/cpu_core ]; }
have_uprobe_pmu() { [ -e /sys/bus/event_source/devices/uprobe/format/ref_ctr_offset ]; }
# perf_event_open of a software event: the kernel has it, and root or paranoid <= 2 allows it.
perf_events_usable() {
	[ -r /proc/sys/kernel/perf_event_paranoid ] &&
		{ is_root || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ]; }
}
# predict and calibrate count a command's events with perf_event tracepoints: a test of them
# is one skip where root or the tracepoint PMU is missing.
skip_unless_counting() {
	if ! is_root || ! perf_events_usable || [ ! -e /sys/bus/event_source/devices/tracepoint ]; then
		plan 1
		skip "not root, or no perf_event tracepoints (/sys/bus/event_source/devices/tracepoint): nothing counts the events"
		done_testing
	fi
}

# Temporary files.
_cleanups=()
on_exit() { _cleanups+=("$1"); trap _run_cleanups EXIT; }
_run_cleanups() {
	local i
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do eval "${_cleanups[i]}"; done
}
# shellcheck disable=SC2034
tmpdir() { T=$(mktemp -d); on_exit 'rm -rf "$T"'; }

# Every test has a store of its own: what a test prints (a level between sessions read
# from stored sessions, `history`) never depends on what the user stored before, and a
# test never writes into the user's store.  A test that names a store (--db,
# PROBECOST_DB) uses that one; the directory is readable by all, so that a test that
# runs probecost as another user (nobody) may still reach the default path's parent.
_PC_SEAL=$(mktemp -d)
chmod 0755 "$_PC_SEAL"
unset PROBECOST_DB
export XDG_DATA_HOME=$_PC_SEAL/data
on_exit 'rm -rf "$_PC_SEAL"'

# Probe tests: only what this binary registers, since other probecosts (other
# trees, other passes) may be using tracefs at the same time.  Add the PIDs of
# the probecosts a test starts to $pids.
BINP=$(readlink -f "$PROBECOST")
pids=
ours_ev() { grep -F " $BINP:" "$TRACEFS/uprobe_events" 2>/dev/null; }
ours_in() { [ -n "$pids" ] && find "$TRACEFS/instances" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | grep -E "^pcost_(${pids// /|})_" | sort; }
ours_pl() { perf probe -l 2>/dev/null | grep -F "in $BINP "; }
# interrupt_armed SECS: once some probecost has uprobe events registered (10 s at most),
# wait SECS, SIGINT probecost $pid and wait for it; sets $armed (the events seen), $rc.
# shellcheck disable=SC2034,SC2154
interrupt_armed() {
	for i in $(seq 100); do ours_ev | grep -q pcost_ && break; sleep 0.1; done
	armed=$(ours_ev | grep -c .)
	sleep "$1"
	kill -INT "$pid"
	wait "$pid"; rc=$?
}

# binary_copy SRC DEST: a copy of SRC with a fresh random build id (perf's build-id cache
# keys on it; needs perf and perl, else the id stays); prints the id.
binary_copy() {
	local old new
	cp "$1" "$2" || return 1
	old=$(perf buildid-list -i "$2" 2>/dev/null)
	if [ -z "$old" ] || ! have perl; then echo "$old"; return 0; fi
	new=$(od -An -tx1 -N$((${#old} / 2)) /dev/urandom | tr -d ' \n')
	perl -0777 -pi -e 'BEGIN { $o = pack("H*", shift); $n = pack("H*", shift) } s/\Q$o\E/$n/g' \
		"$old" "$new" "$2" && echo "$new"
}
# probecost_copy DEST: binary_copy of the probecost under test.
probecost_copy() { binary_copy "$(readlink -f "$PROBECOST")" "$1"; }
# own_probecost: from here on this test runs a copy of probecost of its own (P, PROBECOST
# and BINP name it; probecost_copy) with a state directory of its own (the journal, and the
# lock that keeps one probes session at a time).  The probes it arms, their definitions in
# uprobe_events and `perf probe -l`, its trace instances and its build-id cache entries are
# then its alone, whatever other probecosts run beside it: what make check's parallel-safe
# group asks.
own_probecost() {
	local d so src
	src=$(readlink -f "$PROBECOST")
	d=$(mktemp -d)
	on_exit "perf buildid-cache --remove '$d/pc' >/dev/null 2>&1; rm -rf '$d'"
	probecost_copy "$d/pc" >/dev/null || return 1
	mkdir -m 700 "$d/state"
	# The LTTng-UST provider is looked up beside the binary: the build's, not the copy's.
	for so in "${src%/*}/build/lttng/pcost-lttng.so" "${src%/*}/lttng/pcost-lttng.so"; do
		[ -r "$so" ] && export PROBECOST_LTTNG_SO=$so && break
	done
	export PROBECOST=$d/pc PROBECOST_STATE_DIR=$d/state
	# shellcheck disable=SC2034 # P: read by the tests that source this file
	P=$PROBECOST BINP=$(readlink -f "$PROBECOST")
}

# perf_probe_lock "$@", first thing (before plan): this test runs again under flock(1), so
# that it is the only one of those that call it running: `perf probe` names each
# definition it adds after the first free name of its group in the one uprobe_events list
# all share (NAME, NAME_1, ...), so two tests adding at once, even on binaries of their
# own, could both take the same name.  The others wait for it to end.  The lock is a file
# in the checkout's build directory (/tmp and /run may be private to a test), held by
# flock alone (-o: nothing the test starts, or leaves behind, holds it).
perf_probe_lock() {
	local dir
	[ -n "${PCOST_PERF_PROBE_LOCKED:-}" ] && return 0
	dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build
	mkdir -p "$dir" || return 1
	PCOST_PERF_PROBE_LOCKED=1 exec flock -o "$dir/.perf-probe.lock" bash "$0" "$@"
}

# private_run_tmp "$@" (root): run this test again in a private mount namespace with fresh
# tmpfs on /run and /tmp, so that what it plants or leaves there is never the machine's
# (its /run/lttng, /run/probecost); non-zero when the mounts fail.  A checkout or a
# binary under test that lives below /tmp or /run (a clone in /tmp) is bound back at its
# own path on the fresh tmpfs, which would hide it otherwise.
private_run_tmp() {
	local d fd i keep=() fds=()
	if [ -z "$PCOST_TEST_PRIVATE_RUN" ]; then
		rm -rf "$_PC_SEAL"
		PCOST_TEST_PRIVATE_RUN=1 exec unshare --mount --propagation private bash "$0" "$@"
	fi
	for d in "$PWD" "$(cd "$(dirname "$PROBECOST")" && pwd -P)"; do
		case $d in /tmp | /tmp/* | /run | /run/*) exec {fd}<"$d" && keep+=("$d") fds+=("$fd") ;; esac
	done
	rm -rf "$_PC_SEAL"
	mount -t tmpfs tmpfs /run && mount -t tmpfs -o mode=1777 tmpfs /tmp || return 1
	mkdir -m 0755 "$_PC_SEAL" || return 1
	for ((i = 0; i < ${#keep[@]}; i++)); do
		[ -d "${keep[i]}" ] || { mkdir -p "${keep[i]}" &&
			mount --no-canonicalize --bind "/proc/self/fd/${fds[i]}" "${keep[i]}"; } || return 1
		fd=${fds[i]} && exec {fd}<&-
	done
}

# run_pc ARGS...: runs probecost, sets $out (stdout), $err (stderr), $rc.
# shellcheck disable=SC2034
run_pc() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$PROBECOST" "$@" >"$o" 2>"$e"
	rc=$?
	out=$(cat "$o") err=$(cat "$e")
	rm -f "$o" "$e"
}
# side NAME CMD...: CMD in the background, beside what follows (runs that mostly wait on
# limits), its stdout in $T/NAME.out, stderr in $T/NAME.err (tmpdir first); side_wait NAME:
# until it ends, then $rc, $out and $err as run_pc sets them.
declare -A _side_pids
side() {
	local name=$1
	shift
	"$@" >"$T/$name.out" 2>"$T/$name.err" &
	_side_pids[$name]=$!
}
# shellcheck disable=SC2034
side_wait() {
	wait "${_side_pids[$1]}"
	rc=$?
	out=$(cat "$T/$1.out") err=$(cat "$T/$1.err")
}
# report_of WORKLOAD ARGS...: the PROBECOST_REPORT_FD line of one workload run.
# shellcheck disable=SC2034
report_of() {
	local f
	f=$(mktemp)
	PROBECOST_REPORT_FD=3 "$PROBECOST" workload "$@" 3>"$f" >/dev/null 2>&1
	rc=$?
	report=$(cat "$f")
	rm -f "$f"
}
field() { # field KEY LINE
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
# ratio_in X Y LO HI: X / Y lies within [LO, HI]; false unless both are numbers (an empty
# X and Y once passed: awk's "" == 0 is a string comparison, and 0/0 compared true).
ratio_in() {
	awk -v x="$1" -v y="$2" -v lo="$3" -v hi="$4" 'BEGIN { num = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
		if (x !~ num || y !~ num || y + 0 == 0) exit 1; r = x / y; exit !(r >= lo && r <= hi) }'
}
# wait_started PID COMM: until the workload PID has named itself COMM and installed its
# fault handlers (SIGABRT, the last it installs, caught: SigCgt bit 5), 10 s at most; then
# its start-up is over (the ASan build's alone can take longer than 0.3 s at load).
wait_started() {
	local cgt
	for _ in $(seq 200); do
		cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] && [ -n "$cgt" ] && (((0x$cgt & 0x20) != 0)) && return 0
		sleep 0.05
	done
	return 1
}
done_testing() { exit $_fail; }
# A freshly booted machine has tracefs unmounted: tests then run in a private mount
# namespace with it mounted (tracefs.bash), so none skips for it.
. "$(dirname "${BASH_SOURCE[0]}")/tracefs.bash"
