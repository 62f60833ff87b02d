#!/bin/bash
# bench/start-after: is a run's start-up slower right after a long-lived process?
#
# Part 1, probecost's own runs: the spin workload's plain run (loops=500 work=10000,
# about 10 ms) timed from here, right after (a) nothing but the previous plain run, (b)
# the inject monitor's run that spins 60 ms first (the 'high' scenario of
# bench/coverage.sh), (c) a wrapper that sleeps 60 ms and then execs the same plain
# run (its address space lives 10 ms), (d) (b) and then one /bin/true, (e) (b) and
# then three plain runs; each after three plain runs that wash out the one before.  The plain
# run's start-up and exit is its wall time less its own timed loop (PCOST_SPIN_LOG):
# median of ROUNDS with its 95% interval (bench/lib-median.bash), and its difference to (a).
# Part 2, the kernel entries behind it: a small process (bench/fault-after.c) times
# 200 getppid calls and 200 first writes to fresh pages at its start, right after a
# process that lived 0, 20, 40, 80 or 160 ms spinning, or 80 ms asleep.
# Everything runs on CPU $CPU, one process after another.
#   ROUNDS (30)  CPU (0)  PROBECOST (./probecost)
set -u
cd "$(dirname "$0")/.." || exit 1
PC=$(realpath "${PROBECOST:-./probecost}")
CPU=${CPU:-0}
ROUNDS=${ROUNDS:-30}
command -v taskset >/dev/null || { echo "skip: taskset not installed (Debian package util-linux)"; exit 0; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cc -O2 -o "$d/fault-after" bench/fault-after.c || exit 1
printf '#!/bin/sh\nsleep 0.06\nexec "$@"\n' >"$d/wrap"
chmod +x "$d/wrap"
plain=("$PC" workload spin loops=500 work=10000)
# One timed plain run: its wall time (from here) less its loop, in us, into $d/$1.
timed() {
	local t0 t1 loop
	: >"$d/log"
	t0=$EPOCHREALTIME
	PCOST_SPIN_LOG=$d/log "${plain[@]}" >/dev/null 2>&1
	t1=$EPOCHREALTIME
	loop=$(sed -n 's/.* timed_ns=\([0-9]*\) .*/\1/p' "$d/log")
	awk -v a="$t0" -v b="$t1" -v l="${loop:-0}" 'BEGIN { printf "%.1f\n", (b - a) * 1e6 - l / 1e3 }' >>"$d/$1"
}
# shellcheck source=bench/lib-median.bash
. bench/lib-median.bash
# Three plain runs first, so that what a condition leaves behind has washed out.
washout() { for _ in 1 2 3; do "$@" >/dev/null 2>&1; done; }
run_rounds() {
	for ((r = 1; r <= ROUNDS; r++)); do
		washout "${plain[@]}"
		timed a
		washout "${plain[@]}"
		PCOST_INJECT_FIXED_NS=60000000 "${plain[@]}" >/dev/null 2>&1
		timed b
		washout "${plain[@]}"
		"$d/wrap" "${plain[@]}" >/dev/null 2>&1
		timed c
		washout "${plain[@]}"
		PCOST_INJECT_FIXED_NS=60000000 "${plain[@]}" >/dev/null 2>&1
		/bin/true
		timed d
		washout "${plain[@]}"
		PCOST_INJECT_FIXED_NS=60000000 "${plain[@]}" >/dev/null 2>&1
		washout "${plain[@]}"
		timed e
	done
}
echo "# bench/start-after: $ROUNDS rounds on CPU $CPU | $(uname -r), $(nproc) CPUs"
echo "# 1. the plain spin run's start-up and exit (wall less its loop), median us [95%], right after:"
# Pin this shell itself, so that every process it starts runs on $CPU.
taskset -pc "$CPU" $$ >/dev/null || exit 1
run_rounds
read -r base _ < <(median_ci <"$d/a")
for k in a b c d e; do
	case $k in
	a) what="the previous plain run" ;;
	b) what="a run that spun 60 ms (inject fixed=60ms)" ;;
	c) what="a wrapper that slept 60 ms, then the plain run" ;;
	d) what="the 60-ms run, then /bin/true" ;;
	e) what="the 60-ms run, then three plain runs" ;;
	esac
	read -r m lo hi < <(median_ci <"$d/$k")
	printf '  %-48s %8.1f us [%.1f, %.1f]  %+7.1f us\n' "$what" "$m" "$lo" "$hi" \
		"$(awk -v m="$m" -v b="$base" 'BEGIN { print m - b }')"
done
echo "# 2. a process's own kernel entries at its start (mean of 200 each), median ns [95%], right after a process that:"
for ((r = 1; r <= ROUNDS; r++)); do
	for how in 0:spin 20:spin 40:spin 80:spin 160:spin 80:sleep; do
		washout "$d/fault-after" 0 -
		"$d/fault-after" "${how%%:*}000000" - "${how#*:}"
		"$d/fault-after" 0 "$d/f_${how/:/_}"
	done
done
for how in 0:spin 20:spin 40:spin 80:spin 160:spin 80:sleep; do
	f=$d/f_${how/:/_}
	cut -d' ' -f1 "$f" >"$f.sys"
	cut -d' ' -f2 "$f" >"$f.pf"
	read -r sm slo shi < <(median_ci <"$f.sys")
	read -r pm plo phi < <(median_ci <"$f.pf")
	printf '  lived %3s ms (%-5s): getppid %s [%s, %s] ns, first write to a page %s [%s, %s] ns\n' \
		"${how%%:*}" "${how#*:}" "$sm" "$slo" "$shi" "$pm" "$plo" "$phi"
done
