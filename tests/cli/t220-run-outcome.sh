#!/bin/bash
# parallel-safe
# t220: the outcome of every run.  A monitor under which the workload fails (dies of a
# signal, exits non-zero, fails its own check) where its plain runs did not: the row is
# changed-program, with what happened and where, the session says so in one line before
# its table and exits 1; text, JSON and CSV carry outcome and outcome_why, the store
# keeps them (export, import, show), compare flags the row whose outcome changed.  A
# monitor that crashes itself is tool-failed, and the session exits 0.  Known answers:
# inject:fault=segv|exit|check makes the spin workload fail as asked (monitors/inject.c);
# a preloaded shim corrupts one int of the pipe workload (tests/fixtures/outcome/corrupt.c).
. "$(dirname "$0")/lib.bash"
plan 19
have jq || skip_rest "jq not installed"
tmpdir
RUN=(run -w 'spin:loops=200,work=1000' --runs 2 --warmup 1 --cpu 0)
# jrow MONITOR-REGEX JQ: the statistics row of that monitor, through JQ.
jrow() { jq -r --arg m "$1" ".statistics[] | select(.monitor | test(\$m)) | $2" <<< "$out"; }

run_pc "${RUN[@]}" -m inject:fault=segv --no-store
is "$rc" 1 "a changed program: run exits 1"
changed=$(grep -n '^# CHANGED PROGRAM in 1 of 2 rows (inject:event=0,fixed=0,fault=segv): ' <<< "$out" | cut -d: -f1)
table=$(grep -n '^  monitor ' <<< "$out" | cut -d: -f1)
ok "$([ -n "$changed" ] && [ -n "$table" ] && [ "$changed" -lt "$table" ]; echo $?)" \
	"the text says so in one line before the table (line ${changed:-none}, table at ${table:-none})"
like "$out" "inject:event=0,fixed=0,fault=segv on spin: changed-program: 2 of 2 runs: killed by SIGSEGV at spin_fault\+0x[0-9a-f]+ \(.+\), address 0x8; its none runs: 3 of 3 ok" \
	"the row's outcome line: how many runs, the signal, the function+offset and instruction, the address (0x8)"
like "$err" "error: the program changed under inject:event=0,fixed=0,fault=segv: 1 row ended changed-program" \
	"and one error line on stderr"

run_pc "${RUN[@]}" -m inject:fault=segv --no-store --format json
is "$rc/$(jrow . .outcome | tr '\n' ' ')" "1/ok changed-program " "JSON: outcome of each row (exit 1 there too)"
like "$(jrow fault .outcome_why)" '^2 of 2 runs: killed by SIGSEGV at spin_fault\+0x[0-9a-f]+ \(.*\), address 0x8; its none runs: 3 of 3 ok$' \
	"JSON: outcome_why"
run_pc "${RUN[@]}" -m inject:fault=exit --no-store --format csv
# outcome and outcome_why are the last two columns (the monitor's name is quoted: it has commas).
is "$(head -1 <<< "$out" | awk -F, '{ print $(NF - 1) "," $NF }')" "outcome,outcome_why" "CSV: the header"
is "$rc/$(tail -n +2 <<< "$out" | awk -F, '{ print $(NF - 1) "," $NF }' | tr '\n' ' ')" \
	"1/ok,3 runs ok changed-program,2 of 2 runs: exit 3; its none runs: 3 of 3 ok " \
	"CSV: outcome and outcome_why columns; a non-zero exit is a changed program"
run_pc "${RUN[@]}" -m inject:fault=check --no-store --format json
is "$rc/$(jrow fault .outcome_why)" \
	"1/2 of 2 runs: failed its own check: PCOST_INJECT_FAULT=check: failing as asked; its none runs: 3 of 3 ok" \
	"a failed check (check=bad on the report line) is a changed program"

# A wrapper monitor: its exit status is the program's or its own, but the workload's report
# says which.  The shim changes one int in flight under the wrapper only.
have cc && cc -shared -fPIC -o "$T/corrupt.so" tests/fixtures/outcome/corrupt.c -ldl
if [ -n "${PROBECOST_SAN:-}" ]; then
	skip "AddressSanitizer must be the first library loaded: no LD_PRELOAD shim before it"
elif [ -e "$T/corrupt.so" ]; then
	run_pc run -w pipe:loops=2000 -m "env LD_PRELOAD=$T/corrupt.so PCOST_CORRUPT=write:10 {}" \
		--runs 2 --warmup 0 --cpu 0 --no-store --format json
	is "$rc/$(jrow env .outcome)/$(jrow env .outcome_why)" \
		"1/changed-program/2 of 2 runs: failed its own check: the partner received other ints than 0, 1, 2, ... in order; its none runs: 2 of 2 ok" \
		"a program that ran differently under a wrapper (its check says so): changed-program"
else
	skip "no C compiler (cc) to build the fixture shim"
fi

# A monitor that crashes itself: tool-failed, not the program's doing; exit 0.
run_pc run --runs 3 --warmup 0 -m "$F/crash-wrap" --no-store --format json -- /bin/true
is "$rc/$(jrow . .outcome | tr '\n' ' ')/$(jrow crash .outcome_why)" \
	"0/ok tool-failed /2 of 2 runs: killed by SIGSEGV" "a crashing wrapper is tool-failed and the session exits 0"

# An attach monitor that dies at stop or during the run: the monitor's failure (it marks the
# run failed in its stop), not the program's, though nothing stands between it and the program.
for how in stop run; do
	arg="" wait=0.2; [ "$how" = run ] && arg=" run" wait=0.6
	run_pc run --no-store --runs 2 --warmup 0 --attach "$F/attach-segv$arg" --ready '^segv-monitor ready' \
		--format json -- sleep $wait
	is "$rc/$(jrow attach .outcome)" "0/tool-failed" "an attach monitor killed by SIGSEGV at $how: tool-failed, exit 0"
done

# The store keeps it: show prints the live text, export and import keep the runs' endings.
run_pc "${RUN[@]}" -m inject:fault=segv --db "$T/a.db"
live=$out
run_pc show last --db "$T/a.db"
is "$rc/$out" "0/$live" "show prints what the live run printed, the CHANGED PROGRAM line and outcomes included"
"$PROBECOST" export last --db "$T/a.db" > "$T/a.json"
is "$(jq -c '[.configs[] | [.samples[] | .fault] | unique]' "$T/a.json")" '[["none"],["program"]]' \
	"export: every run says whose failure it was"
"$PROBECOST" import --db "$T/b.db" "$T/a.json" > /dev/null
run_pc report 1 --format json --db "$T/b.db"
is "$(jrow . .outcome | tr '\n' ' ')" "ok changed-program " "imported into another store: the same outcomes"
run_pc report 1 --format html --db "$T/b.db"
like "$out" "CHANGED PROGRAM in 1 of 2 rows" "report --format html: the line in the headline"

# compare: the same monitor, whose runs ended well in A and not in B.
printf '#!/bin/sh\nexec "$@"\n' > "$T/wrap"
chmod +x "$T/wrap"
run_pc "${RUN[@]}" -m "$T/wrap {}" --db "$T/c.db"
printf '#!/bin/sh\nPCOST_INJECT_FAULT=segv exec "$@"\n' > "$T/wrap"
run_pc "${RUN[@]}" -m "$T/wrap {}" --db "$T/c.db"
run_pc compare 1 2 --db "$T/c.db" --format json
is "$(jq -c --arg w "$T/wrap {}" '.rows[] | select(.name | endswith($w)) | [.outcome_a, .outcome_b, .outcome_changed]' <<< "$out")" \
	'["ok","changed-program",true]' "compare: the row whose outcome changed is flagged (JSON)"
run_pc compare 1 2 --db "$T/c.db"
like "$(grep -A1 '^outcome changed (A -> B):$' <<< "$out" | tail -1)" "wrap \{\}: ok -> changed-program \(2 of 2 runs: killed by SIGSEGV at spin_fault" \
	"compare text: the outcome change, with B's one line"
done_testing
