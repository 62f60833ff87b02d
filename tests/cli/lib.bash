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
# A freshly booted machine has tracefs unmounted: tests then run in a private mount
# namespace with it mounted (tracefs.bash), so none skips for it.
. "$(dirname "${BASH_SOURCE[0]}")/tracefs.bash"
