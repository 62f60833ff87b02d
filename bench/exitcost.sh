#!/bin/bash
# bench/exitcost: what a messaging worker's end costs, by the binary it was
# forked from.  perf bench sched messaging's protocol (bench/exitcost.c) at
# loops=1, where starting and ending the 40 x GROUPS workers is most of the
# time, built twice: with the C library alone, and linked with every library
# ./probecost links (the same DT_NEEDED list, in ldd's order); its workers end
# in exit() (as perf's do: every library's destructors run inside the timed
# region) or _exit() (as probecost's messaging workload's do).  Beside them:
# perf bench sched messaging -l 1 and `probecost workload messaging loops=1`.
# Median ms of the timed region over ROUNDS interleaved rounds (default 11).
# shellcheck disable=SC2086 # V[...]: space-separated numbers, split on purpose
set -u
cd "$(dirname "$0")/.." || exit
PC=${PROBECOST:-./probecost}
ROUNDS=${ROUNDS:-11}
GROUPS_=${GROUPS_:-10}
if ! perf bench sched pipe -l 10 >/dev/null 2>&1; then
	echo "skip: 'perf bench' is not available (install Debian package linux-perf)"
	exit 0
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
libs=$(ldd "$PC" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | grep -v -e '/libc\.so' -e 'ld-linux')
cc -O2 -o "$d/lean" bench/exitcost.c || exit 1
# shellcheck disable=SC2086
cc -O2 -o "$d/fat" bench/exitcost.c -Wl,--no-as-needed $libs || exit 1
ms() { awk '{ printf "%.2f\n", $1 / 1e6 }'; }
declare -A V
for ((r = 1; r <= ROUNDS; r++)); do
	V[lean_exit]+="$("$d/lean" "$GROUPS_" 1 exit | ms) "
	V[lean__exit]+="$("$d/lean" "$GROUPS_" 1 _exit | ms) "
	V[fat_exit]+="$("$d/fat" "$GROUPS_" 1 exit | ms) "
	V[fat__exit]+="$("$d/fat" "$GROUPS_" 1 _exit | ms) "
	V[perf]+="$(perf bench sched messaging -g "$GROUPS_" -l 1 2>&1 |
		sed -n 's/.*Total time: *\([0-9.]*\) \[sec\].*/\1/p' | awk '{ printf "%.2f\n", $1 * 1e3 }') "
	V[ours]+="$(PROBECOST_REPORT_FD=3 "$PC" workload messaging groups="$GROUPS_" loops=1 3>&1 >/dev/null |
		tr ' ' '\n' | sed -n 's/^timed_ns=//p' | ms) "
done
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "# bench/exitcost: groups=$GROUPS_ loops=1 ($((GROUPS_ * 40)) workers), median of $ROUNDS rounds, ms | $(uname -r), $(nproc) CPUs"
echo "# libraries: probecost $(echo "$libs" | wc -w) besides libc; perf $(ldd "$(command -v perf)" | awk '$2 == "=>"' | grep -v -c '/libc\.so')"
printf '%-52s %10s %10s\n' "binary the workers were forked from" "exit()" "_exit()"
printf '%-52s %10s %10s\n' "exitcost, C library alone" "$(printf '%s\n' ${V[lean_exit]} | median)" "$(printf '%s\n' ${V[lean__exit]} | median)"
printf '%-52s %10s %10s\n' "exitcost, linked with probecost's libraries" "$(printf '%s\n' ${V[fat_exit]} | median)" "$(printf '%s\n' ${V[fat__exit]} | median)"
printf '%-52s %10s %10s\n' "perf bench sched messaging -l 1 (exit())" "$(printf '%s\n' ${V[perf]} | median)" "-"
printf '%-52s %10s %10s\n' "probecost workload messaging loops=1 (_exit())" "-" "$(printf '%s\n' ${V[ours]} | median)"
exit 0
