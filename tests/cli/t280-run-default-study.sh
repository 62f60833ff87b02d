#!/bin/bash
# The default study: `probecost run` with no arguments answers first, one line per monitor
# this machine has (decided from machine facts), in 100 columns, from the figures it stored,
# with 10 measured blocks, no failed run and no warning that contradicts its own defaults.
# It takes up to a minute (two on a loaded machine).
. "$(dirname "$0")/lib.bash"
plan 16
tmpdir
export PROBECOST_DB=$T/store.db
# The study's workload is probecost itself, run under strace: LeakSanitizer cannot run under ptrace.
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
# What this machine can run, from facts: the tools installed, perf events allowed, root for BPF.
want=()
if have perf && perf_events_usable; then want+=(perf-stat perf-record); fi
if have strace; then want+=(strace); fi
if have bpftrace && is_root; then want+=(bpftrace-syscalls); fi
t0=$(date +%s)
"$P" run >"$T/out" 2>"$T/err"
rc=$?
secs=$(($(date +%s) - t0))
diag "the default study took $secs s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
is "$rc" 0 "probecost run with no arguments exits 0"
[ "$rc" = 0 ] || diag "$(cat "$T/err")"
like "$(head -1 "$T/out")" '^# probecost run: what each monitor costs here, on syscall \(20,000 syscalls\)$' \
	"the first line says what it answers"
# The answer block: from the first '  monitor' line to the first blank line.
awk '/^  monitor/ { on = 1; next } on && /^$/ { exit } on' "$T/out" >"$T/answer"
got=$(awk '{ print $1 }' "$T/answer" | paste -sd' ')
is "$got" "${want[*]}" "the answer comes first: one line per monitor this machine has (${#want[@]})"
is "$(awk 'NR <= 5 && /^  monitor/' "$T/out" | wc -l)" 1 "the answer block starts within the first 5 lines"
wide=$(awk 'length($0) > 100' "$T/out" | head -3)
is "$wide" "" "every line of the report fits 100 columns"
# Each answer line reads: monitor, overhead [interval], then costs in words.
bad=$(grep -Ev '^  [a-z-]+ +[+-][0-9,.]+% \[[+-][0-9,.]+, [+-][0-9,.]+\]\?? +.*(per syscall|to start)' \
	"$T/answer")
is "$bad" "" "each answer line is: monitor, overhead [95%], its costs in words"
# The stored session: 10 measured blocks, no failure, and the answer's figures are its own.
"$P" show --format json last >"$T/s.json" 2>/dev/null
blocks=$(jq '[.session.configs[].samples[] | select(.warmup | not) | .block] | unique | length' \
	"$T/s.json")
is "$blocks" 10 "10 measured blocks (the count the intervals are checked at)"
is "$(jq '[.statistics[].failed] | add' "$T/s.json")" 0 "no run failed"
mismatch=
while read -r mon ov _; do
	want_ov=$(jq -r --arg m "$mon" '.statistics[] | select(.monitor == $m) | .overhead * 100' \
		"$T/s.json")
	# the line prints it to one decimal below 10%, whole above (thousands with commas)
	ratio_in "${ov//[,%+]/}" "$want_ov" 0.97 1.03 ||
		awk -v a="${ov//[,%+]/}" -v b="$want_ov" 'BEGIN { exit !(a - b < 0.6 && b - a < 0.6) }' ||
		mismatch+="$mon $ov vs $want_ov; "
done <"$T/answer"
is "$mismatch" "" "each answer's overhead is the stored session's"
# Known answers: the workload made its 20,000 getppid calls under every monitor, and
# strace, which stops the program twice at each (ptrace), costs more per syscall than the
# in-kernel counters beside it: its interval's low end is above their estimates.
is "$(jq -c '[.statistics[].events] | unique' "$T/s.json")" "[20000]" "every row counted the workload's 20000 syscalls"
if [[ " ${want[*]} " == *" strace "* ]] && [ ${#want[@]} -gt 1 ]; then
	pe=$(jq -c '[.statistics[] | select(.monitor != "none") | {(.monitor): [.per_event_ns_lo, .per_event_ns]}] | add' "$T/s.json")
	is "$(jq '.strace[0] as $lo | [to_entries[] | select(.key != "strace" and .key != "perf-record") | .value[1] < $lo] | all' <<< "$pe")" \
		true "strace's cost per syscall is above the in-kernel counters' ($pe)"
else
	skip "needs strace and another monitor"
fi
# perf record -g writes its samples to a file and reads the binaries' build-ids at exit,
# which perf stat does not: its fixed cost's interval is above perf stat's estimate.
if [[ " ${want[*]} " == *" perf-record "* ]]; then
	fx=$(jq -c '[.statistics[] | select(.monitor == "perf-stat" or .monitor == "perf-record") | {(.monitor): [.fixed_ns_lo, .fixed_ns]}] | add' "$T/s.json")
	is "$(jq '.["perf-record"][0] > .["perf-stat"][1]' <<< "$fx")" true "perf-record costs more to start and stop than perf-stat ($fx)"
else
	skip "needs perf and perf events"
fi
# A skew warning (a figure's mean and its robust companion apart, or D'Agostino's test) is a
# finding about the runs' distribution: on a shared virtual machine the host's rare slow
# runs make them, up to one a figure (overhead, per event, fixed), 10 for 4 monitors in one
# clean-clone CI's serial group.  Each is told once a figure.  The others (carry-over, a
# busy machine) are up to two a monitor on a quiet machine; the advisory ones (outliers,
# variation) fold into one note.
# A warning wraps at 100 columns: its lines joined (a continuation starts with spaces).
warns=$(cat "$T/out" "$T/err" | awk '/^warning:/ { if (w != "") print w; w = $0; next }
	/^   / && w != "" { sub(/^ +/, " "); w = w $0; next } { if (w != "") print w; w = "" }
	END { if (w != "") print w }')
skews=$(grep 'the cost is skewed' <<< "$warns")
nskew=$(grep -c . <<< "$skews")
is "$(awk '{ print substr($0, 1, index($0, " mean ")) }' <<< "$skews" | sort | uniq -d)" "" \
	"a skew warning at most once a figure ($nskew of them)"
nwarn=$(( $(grep -c . <<< "$warns") - nskew ))
limit=$((2 * ${#want[@]}))
if [ -n "${PROBECOST_SAN:-}" ]; then
	# The sanitizer pass measures a sanitized workload, whose runs are slower: the count
	# is judged in the plain pass.
	skip "at most $limit warnings: judged in the plain pass, not the sanitizer's ($nwarn warnings)"
elif ! awk -v n="$(nproc)" '{ exit !($1 < n) }' /proc/loadavg; then
	skip "at most $limit warnings on a quiet machine: this one is busy (load $(cut -d' ' -f1 /proc/loadavg), $nwarn warnings)"
else
	ok "$([ "$nwarn" -le "$limit" ]; echo $?)" \
		"at most 2 warnings a monitor besides the skew ones on a quiet machine ($nwarn for ${#want[@]})" ||
		diag "$(grep -v 'the cost is skewed' <<< "$warns" | cut -c1-160)" >&2
fi
is "$(grep -E 'use --runs|--min-runs' "$T/out" "$T/err")" "" "no warning asks for more runs than its default"
# -v: the wide table, from the same store.
"$P" -v show last >"$T/wide" 2>/dev/null
like "$(cat "$T/wide")" 'events seen / made' "-v shows the wide table"
done_testing
