#!/bin/bash
# parallel-safe
# t210: bad input the option parsers used to accept or misreport: each is one line naming
# the input, exit 2 (or the documented status), and nothing measured on a wrong premise.
. "$(dirname "$0")/lib.bash"
plan 29
tmpdir
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
ncpu=$(nproc --all)
one_line_exit2 "--cpu $ncpu on a $ncpu-CPU machine" "$P" run --no-store --cpu "$ncpu" -r 1 -- /bin/true
one_line_exit2 "--cpu 0, (trailing comma)" "$P" run --no-store --cpu 0, -r 1 -- /bin/true
one_line_exit2 "--scale ''" "$P" run --no-store --scale '' -w pipe:loops=10 -r 1
one_line_exit2 "--scale ," "$P" run --no-store --scale , -w pipe:loops=10 -r 1
one_line_exit2 "--scale 1,1,1 (duplicates)" "$P" run --no-store --scale 1,1,1 -w pipe:loops=10 -r 1
one_line_exit2 "probes --via ''" "$P" probes --no-store --via '' --runs 1
one_line_exit2 "repeated workload key loops=5,loops=6" "$P" run --no-store -w pipe:loops=5,loops=6 -r 1
one_line_exit2 "workload pipe loops=5 loops=6" "$P" workload pipe loops=5 loops=6
one_line_exit2 "run --db ''" "$P" run --db '' -r 1 -- /bin/true
one_line_exit2 "run --db of 100 KB" "$P" run --db "$(head -c 100000 /dev/zero | tr '\0' a)" -r 1 -- /bin/true
one_line_exit2 "history --db ''" "$P" history --db ''
one_line_exit2 "counters --db ''" "$P" counters --db '' --iterations 1
one_line_exit2 "probes --db ''" "$P" probes --db '' --runs 1
one_line_exit2 "syscall loops=1e9 at --scale 1000 (past the range)" \
	"$P" run --no-store -w syscall:loops=1000000000 --scale 1,1000 -r 1
one_line_exit2 "env --root /nonexistent" "$P" env --root /nonexistent
run_pc counters --no-store --interfaces ''
assert "counters --interfaces '': exit 2 with one line naming it" \
	'[ $rc = 2 ] && [ "$(printf "%s\n" "$err" | grep -c .)" = 1 ] && [[ "$err" == *--interfaces* ]]' || diag "rc=$rc: $err"
mkfifo "$T/fifo"
run_pc_t() { timeout 10 "$P" "$@" >/dev/null 2>"$T/err"; rc=$?; err=$(cat "$T/err"); }
run_pc_t probes --list "$T/fifo"
assert "probes --list FIFO: exit 2 at once, 'not a regular file'" '[ $rc = 2 ] && [[ "$err" == *"not a regular file"* ]]' ||
	diag "rc=$rc: $err"
# A command that cannot be started is bad input: exit 2 with one line saying why,
# before anything runs or is stored (it exited 1 after a failed run).
for c in /nonexistent/cmd pcost-no-such-command /tmp /etc/passwd; do
	run_pc run --db "$T/x.db" --runs 1 --warmup 0 -- "$c"
	# shellcheck disable=SC2034 # read by the assert's condition
	want="could not execute '$c': "
	assert "run -- $c: exit 2, one line with the reason, no store" \
		'[ $rc = 2 ] && [ "$(printf "%s\n" "$err" | grep -c .)" = 1 ] && [ -z "$out" ] && [ ! -e "$T/x.db" ] &&
		[[ "$err" == *"$want"@(No such file or directory|not found on \$PATH|Is a directory|Permission denied) ]]' ||
		diag "rc=$rc: $err"
done
# The same for --service's program (it exited 1, "the run was interrupted").
run_pc run --db "$T/x.db" --runs 1 --service "/nonexistent/srv --port 1" --ready x -- /bin/true
assert "--service /nonexistent/srv: exit 2, one line, no store" \
	'[ $rc = 2 ] && [ "$(printf "%s\n" "$err" | grep -c .)" = 1 ] && [ ! -e "$T/x.db" ] &&
	[[ "$err" == *"--service: could not execute '"'"'/nonexistent/srv'"'"': No such file"* ]]' || diag "rc=$rc: $err"
# -m none is the baseline alone, as with no -m at all.
run_pc run --no-store --runs 2 --warmup 0 -m none -- /bin/true
assert "-m none: exit 0, the baseline row alone" '[ $rc = 0 ] && printf "%s\n" "$out" | grep -qE "^  none +[0-9.]+ [mun]?s"' ||
	diag "rc=$rc: $err"
# A session measured but not stored: exit 3, the report still printed.
run_pc run --db /proc/no/such.db --runs 2 --warmup 0 -- /bin/true
assert "an unusable --db: exit 3 (measured, not stored), report printed, one warning" \
	'[ $rc = 3 ] && [[ "$out" == *none* ]] && [ "$(printf "%s\n" "$err" | grep -c "not storing")" = 1 ]' || diag "rc=$rc: $err"
# syscall nr: harmless calls and numbers the kernel lacks only.
for nr in getppid getpid gettid getuid 39 99999; do
	"$P" workload syscall loops=10 nr=$nr > /dev/null 2>&1 || bad="$bad $nr"
done
assert "nr= getppid, getpid, gettid, getuid, 39 and 99999 (ENOSYS) are measured" '[ -z "$bad" ]' || diag "refused:$bad"
run_pc workload syscall loops=10 nr=57
assert "nr=57 (fork) is refused: exit 2, names the number and what is allowed" \
	'[ $rc = 2 ] && [[ "$err" == *nr=57* ]] && [[ "$err" == *getppid* ]]' || diag "rc=$rc: $err"
run_pc run --no-store -w syscall:loops=10,nr=62 -r 1
assert "run -w syscall:nr=62 (kill) is refused the same way" '[ $rc = 2 ] && [[ "$err" == *nr=62* ]]' || diag "rc=$rc: $err"
# Small things: --help text, one prefix style.
run_pc run --help
assert "run --help says 95%, not 95%%" '[[ "$out" == *"95% "* ]] && [[ "$out" != *%%* ]]'
bad=
for c in "run --bogus" "counters --bogus" "probes --bogus" "show --bogus" "history --bogus" "import --bogus" \
	"export --bogus" "compare --bogus" "report --bogus" "env --bogus" "list --bogus" "workload frob"; do
	# shellcheck disable=SC2086
	e=$("$P" $c 2>&1 >/dev/null)
	[[ "$e" == "probecost ${c%% *}: "* ]] || bad="$bad [$c: $e]"
done
assert "every command's errors start 'probecost COMMAND: '" '[ -z "$bad" ]' || diag "$bad"
done_testing
