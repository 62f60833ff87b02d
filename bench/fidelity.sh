#!/bin/bash
# bench/fidelity: our pipe, syscall and messaging workloads side by side with
# perf bench at the same sizes, interleaved, ROUNDS rounds (default 11).  For
# each pair it prints the median over rounds of the per-round ratio ours/perf
# of time per operation, with a distribution-free 95% interval for that median
# (order statistics); target 0.95-1.05 (our workloads add nothing inside the
# loop).  Verdict: "within" when the whole interval lies in the band, "OUTSIDE"
# when none of it does, "unresolved" when the interval is wider than the
# machine lets this many rounds decide.
#
# syscall is compared through the C library (via=libc: getppid(), as perf
# bench does); the bare instruction (via=raw, the default) is shown beside it.
# pipe and syscall are pinned to one CPU (taskset -c 0): cross-CPU wake-ups on
# a VM vary +-33% run to run.
#
# messaging is judged by what a message costs, apart from what a worker costs
# to start and end (perf's workers run its libraries' destructors at exit();
# ours do not: src/workloads/messaging.c):
#   per message (slope)  (T(loops=MSG_LONG) - T(loops=1)) / messages between
#   thread mode          mode=thread against perf's -t: no process ends at all
# and shows, unjudged, the time per message at loops=MSG_LOOPS (start and end
# included) and the time per worker at loops=1 (mostly start and end).
set -u
cd "$(dirname "$0")/.." || exit
PC=${PROBECOST:-./probecost}
ROUNDS=${ROUNDS:-11}
PIPE_LOOPS=${PIPE_LOOPS:-200000}
SYS_LOOPS=${SYS_LOOPS:-5000000}
MSG_GROUPS=${MSG_GROUPS:-10}
MSG_LOOPS=${MSG_LOOPS:-100}
MSG_LONG=${MSG_LONG:-300}

if ! perf bench sched pipe -l 10 >/dev/null 2>&1; then
	echo "skip: 'perf bench' is not available (install Debian package linux-perf)"
	exit 0
fi

# Nanoseconds of our workload's timed region (from its report line).
ours() { # ours PIN WORKLOAD ARGS...
	local pin=$1 f
	shift
	f=$(mktemp)
	PROBECOST_REPORT_FD=3 $pin "$PC" workload "$@" 3>"$f" >/dev/null
	tr ' ' '\n' <"$f" | sed -n 's/^timed_ns=//p'
	rm -f "$f"
}
# Nanoseconds of perf bench's "Total time".
theirs() { # theirs PIN perf bench ARGS...
	local pin=$1
	shift
	$pin "$@" 2>&1 | sed -n 's/.*Total time: *\([0-9.]*\) \[sec\].*/\1/p' |
		awk '{ printf "%.0f\n", $1 * 1e9 }'
}
div() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f\n", a / b }'; }
# slope NS_SHORT NS_LONG MESSAGES_BETWEEN
slope() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.4f\n", (b - a) / n }'; }
. bench/lib-median.bash

msgs=$((MSG_GROUPS * 20 * 20))		# messages per loop
workers=$((MSG_GROUPS * 40))
pin="taskset -c 0"
declare -A O T R
add() { # add KEY OURS_NS_PER_OP PERF_NS_PER_OP
	O[$1]+="$2 "
	T[$1]+="$3 "
	R[$1]+="$(div "$2" "$3") "
}
for ((r = 1; r <= ROUNDS; r++)); do
	# Alternate which side goes first so drift falls on both equally.
	for side in $([ $((r % 2)) -eq 1 ] && echo "o t" || echo "t o"); do
		if [ "$side" = o ]; then
			o_pipe=$(ours "$pin" pipe loops="$PIPE_LOOPS")
			o_libc=$(ours "$pin" syscall loops="$SYS_LOOPS" via=libc)
			o_raw=$(ours "$pin" syscall loops="$SYS_LOOPS" via=raw)
			o_m1=$(ours "" messaging groups="$MSG_GROUPS" loops=1)
			o_m=$(ours "" messaging groups="$MSG_GROUPS" loops="$MSG_LOOPS")
			o_ml=$(ours "" messaging groups="$MSG_GROUPS" loops="$MSG_LONG")
			o_mt=$(ours "" messaging groups="$MSG_GROUPS" loops="$MSG_LOOPS" mode=thread)
		else
			t_pipe=$(theirs "$pin" perf bench sched pipe -l "$PIPE_LOOPS")
			t_sys=$(theirs "$pin" perf bench syscall basic -l "$SYS_LOOPS")
			t_m1=$(theirs "" perf bench sched messaging -g "$MSG_GROUPS" -l 1)
			t_m=$(theirs "" perf bench sched messaging -g "$MSG_GROUPS" -l "$MSG_LOOPS")
			t_ml=$(theirs "" perf bench sched messaging -g "$MSG_GROUPS" -l "$MSG_LONG")
			t_mt=$(theirs "" perf bench sched messaging -g "$MSG_GROUPS" -l "$MSG_LOOPS" -t)
		fi
	done
	add pipe "$(div "$o_pipe" "$PIPE_LOOPS")" "$(div "$t_pipe" "$PIPE_LOOPS")"
	add libc "$(div "$o_libc" "$SYS_LOOPS")" "$(div "$t_sys" "$SYS_LOOPS")"
	add slope "$(slope "$o_m1" "$o_ml" $((msgs * (MSG_LONG - 1))))" \
		"$(slope "$t_m1" "$t_ml" $((msgs * (MSG_LONG - 1))))"
	add thread "$(div "$o_mt" $((msgs * MSG_LOOPS)))" "$(div "$t_mt" $((msgs * MSG_LOOPS)))"
	add total "$(div "$o_m" $((msgs * MSG_LOOPS)))" "$(div "$t_m" $((msgs * MSG_LOOPS)))"
	add worker "$(div "$o_m1" "$workers")" "$(div "$t_m1" "$workers")"
	add raw "$(div "$o_raw" "$SYS_LOOPS")" "$(div "$t_sys" "$SYS_LOOPS")"
done

keys=(pipe libc slope thread total worker raw)
declare -A names=([pipe]="pipe loops=$PIPE_LOOPS (pinned)" [libc]="syscall via=libc (pinned)"
	[slope]="messaging per message (slope 1..$MSG_LONG)" [thread]="messaging mode=thread loops=$MSG_LOOPS"
	[total]="messaging loops=$MSG_LOOPS (info)" [worker]="messaging per worker, loops=1 (info)"
	[raw]="syscall via=raw (pinned; info)")
declare -A peers=([pipe]="sched pipe" [libc]="syscall basic" [slope]="sched messaging"
	[thread]="sched messaging -t" [total]="sched messaging" [worker]="sched messaging -l 1"
	[raw]="syscall basic")
declare -A notes=([total]="(includes each worker's start and end)"
	[worker]="(start and end: perf runs its libraries' destructors)"
	[raw]="(the bare instruction vs perf's glibc call)")
echo "# bench/fidelity: ns per operation, median of $ROUNDS interleaved rounds, 95% interval of the median ratio | $(uname -r), $(nproc) CPUs, groups=$MSG_GROUPS"
printf '%-42s %-22s %11s %11s %7s %-17s %s\n' workload "perf bench" "ours ns/op" "perf ns/op" ratio "[95%]" verdict
# shellcheck disable=SC2086 # O, T, R[k]: space-separated numbers, split on purpose
for k in "${keys[@]}"; do
	read -r mo _ _ <<<"$(printf '%s\n' ${O[$k]} | median_ci)"
	read -r mt _ _ <<<"$(printf '%s\n' ${T[$k]} | median_ci)"
	read -r mr lo hi <<<"$(printf '%s\n' ${R[$k]} | median_ci)"
	v=${notes[$k]:-}
	if [ -z "$v" ]; then
		v=$(awk -v l="$lo" -v h="$hi" 'BEGIN {
			if (l == "nan") print "unresolved (too few rounds for an interval)"
			else if (l >= 0.95 && h <= 1.05) print "within 0.95-1.05"
			else if (h < 0.95 || l > 1.05) print "OUTSIDE 0.95-1.05"
			else print "unresolved (interval wider than the band)" }')
	fi
	printf '%-42s %-22s %11.1f %11.1f %7.3f %-17s %s\n' "${names[$k]}" "${peers[$k]}" "$mo" "$mt" "$mr" \
		"[$(printf '%.3f' "$lo"), $(printf '%.3f' "$hi")]" "$v"
done
echo "# per-round ratios:"
for k in "${keys[@]}"; do echo "#   $k ${R[$k]% }"; done
# A benchmark reports; it does not fail the build on a noisy machine.
exit 0
