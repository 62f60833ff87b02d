#!/bin/bash
# bench/fidelity: our pipe, syscall and messaging workloads side by side with
# perf bench at the same sizes, interleaved, ROUNDS rounds (default 7).  Prints
# the median ratio ours/perf of time per operation; target 0.95-1.05 (our
# workloads add nothing inside the loop).  syscall is compared through the C
# library (via=libc: getppid(), as perf bench does); the bare instruction
# (via=raw, the default) is shown beside it.  pipe and syscall are pinned to one
# CPU (taskset -c 0): cross-CPU wake-ups on a VM vary +-33% run to run.
set -u
cd "$(dirname "$0")/.."
PC=${PROBECOST:-./probecost}
ROUNDS=${ROUNDS:-7}
PIPE_LOOPS=${PIPE_LOOPS:-200000}
SYS_LOOPS=${SYS_LOOPS:-5000000}
MSG_GROUPS=${MSG_GROUPS:-10}
MSG_LOOPS=${MSG_LOOPS:-100}

if ! perf bench sched pipe -l 10 >/dev/null 2>&1; then
	echo "skip: 'perf bench' is not available (install Debian package linux-perf)"
	exit 0
fi

# ns per op of our workload (from its report line), of perf bench (Total time / ops).
ours() { # ours PIN WORKLOAD ARGS...
	local pin=$1 f line ev ns
	shift
	f=$(mktemp)
	PROBECOST_REPORT_FD=3 $pin "$PC" workload "$@" 3>"$f" >/dev/null
	line=$(cat "$f")
	rm -f "$f"
	ev=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^events=//p')
	ns=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n 's/^timed_ns=//p')
	awk -v n="$ns" -v e="$ev" 'BEGIN { printf "%.3f\n", n / e }'
}
theirs() { # theirs PIN OPS perf bench ARGS...
	local pin=$1 ops=$2 secs
	shift 2
	secs=$($pin "$@" 2>&1 | sed -n 's/.*Total time: *\([0-9.]*\) \[sec\].*/\1/p')
	awk -v s="$secs" -v o="$ops" 'BEGIN { printf "%.3f\n", s * 1e9 / o }'
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -A R O T
pin="taskset -c 0"
msg_ops=$((MSG_GROUPS * 20 * 20 * MSG_LOOPS))
for ((r = 1; r <= ROUNDS; r++)); do
	# Alternate which side goes first so drift falls on both equally.
	for side in $([ $((r % 2)) -eq 1 ] && echo "o t" || echo "t o"); do
		if [ "$side" = o ]; then
			o1=$(ours "$pin" pipe loops="$PIPE_LOOPS")
			o2=$(ours "$pin" syscall loops="$SYS_LOOPS" via=libc)
			o4=$(ours "$pin" syscall loops="$SYS_LOOPS" via=raw)
			o3=$(ours "" messaging groups="$MSG_GROUPS" loops="$MSG_LOOPS")
		else
			t1=$(theirs "$pin" "$PIPE_LOOPS" perf bench sched pipe -l "$PIPE_LOOPS")
			t2=$(theirs "$pin" "$SYS_LOOPS" perf bench syscall basic -l "$SYS_LOOPS")
			t4=$t2
			t3=$(theirs "" "$msg_ops" perf bench sched messaging -g "$MSG_GROUPS" -l "$MSG_LOOPS")
		fi
	done
	for k in 1 2 3 4; do
		eval "o=\$o$k t=\$t$k"
		O[$k]+="$o "
		T[$k]+="$t "
		R[$k]+="$(awk -v a="$o" -v b="$t" 'BEGIN { printf "%.4f", a / b }') "
	done
done

names=([1]="pipe loops=$PIPE_LOOPS (pinned)" [2]="syscall via=libc (pinned)" [3]="messaging groups=$MSG_GROUPS loops=$MSG_LOOPS" [4]="syscall via=raw (pinned; info)")
peers=([1]="perf bench sched pipe" [2]="perf bench syscall basic" [3]="perf bench sched messaging" [4]="perf bench syscall basic")
echo "# bench/fidelity: ns per operation, median of $ROUNDS interleaved rounds | $(uname -r), $(nproc) CPUs"
printf '%-36s %-28s %12s %12s %8s  %s\n' workload peer "ours ns/op" "perf ns/op" ratio verdict
status=0
for k in 1 2 3 4; do
	mo=$(printf '%s\n' ${O[$k]} | median)
	mt=$(printf '%s\n' ${T[$k]} | median)
	mr=$(printf '%s\n' ${R[$k]} | median)
	v=$(awk -v r="$mr" 'BEGIN { print (r >= 0.95 && r <= 1.05) ? "within 0.95-1.05" : "OUTSIDE 0.95-1.05" }')
	# The raw instruction is not what perf bench does: shown, not judged.
	[ "$k" = 4 ] && v="(the bare instruction vs perf's glibc call)"
	[ "${v#OUTSIDE}" != "$v" ] && status=1
	printf '%-36s %-28s %12.1f %12.1f %8.3f  %s\n' "${names[$k]}" "${peers[$k]}" "$mo" "$mt" "$mr" "$v"
done
echo "# per-round ratios: pipe ${R[1]}| syscall via=libc ${R[2]}| messaging ${R[3]}| syscall via=raw ${R[4]}"
# A benchmark reports; it does not fail the build on a noisy machine.
exit 0
