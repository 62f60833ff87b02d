# shellcheck shell=bash
# lib.bash: a tiny TAP producer for the CLI tests (sourced).  Run from the repo root.
PROBECOST=${PROBECOST:-./probecost}
_n=0
_fail=0
plan() { echo "1..$1"; }
ok() { # ok COND-EXIT-STATUS DESCRIPTION
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; _fail=1; fi
}
is() { # is GOT WANT DESCRIPTION
	_n=$((_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; _fail=1; fi
}
like() { # like GOT REGEX DESCRIPTION
	_n=$((_n + 1))
	if printf '%s' "$1" | grep -Eq -- "$2"; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want match: '$2'"; _fail=1; fi
}
skip() { # skip REASON
	_n=$((_n + 1)); echo "ok $_n # skip $1"
}
# run_pc ARGS...: runs probecost, sets $out (stdout), $err (stderr), $rc.
run_pc() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$PROBECOST" "$@" >"$o" 2>"$e"
	rc=$?
	out=$(cat "$o") err=$(cat "$e")
	rm -f "$o" "$e"
}
# report_of WORKLOAD ARGS...: the PROBECOST_REPORT_FD line of one workload run.
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
done_testing() { exit $_fail; }
# need_tracefs ARGS...: a test that reads tracefs itself (uprobe_events, instances) runs,
# where tracefs is not mounted (a freshly booted machine), again in a private mount
# namespace with tracefs mounted there: the machine's own mounts stay as they are.  Call
# it before any output, with the script's arguments.  Returns 1 when it cannot.
need_tracefs() {
	grep -q ' /sys/kernel/tracing tracefs ' /proc/self/mounts && return 0
	[ -z "$PCOST_TEST_TRACEFS_NS" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
		grep -qw tracefs /proc/filesystems || return 1
	PCOST_TEST_TRACEFS_NS=1 exec unshare --mount --propagation private bash -c \
		'mount -t tracefs nodev /sys/kernel/tracing && exec bash "$0" "$@"' "$0" "$@"
}
