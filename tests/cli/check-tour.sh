#!/bin/bash
# check-tour.sh OUTDIR: the README's tour, as scripts/tour.sh OUTDIR left it, checked for
# shape (`make check-tour`, run by `make check-full`): each step exited as it should and
# printed the lines the README shows, with figures where the README has figures.  Timings
# vary from machine to machine: only their form is checked, and that the steps that measure
# a monitor name it.  The optional steps (pgbench, redis) are checked where the tour ran them.
. tests/cli/lib.bash
O=${1:?usage: tests/cli/check-tour.sh OUTDIR (what scripts/tour.sh OUTDIR wrote)}
[ -r "$O/times" ] || { echo "tests/cli/check-tour.sh: no $O/times: run scripts/tour.sh $O first" >&2; exit 2; }
plan 14
# status STEP: the exit status the tour recorded for it, empty when it did not run.
status() { awk -v n="$1" '$1 == n && $2 == "exit" { print $3 }' "$O/times"; }
# has STEP REGEX DESCRIPTION: STEP exited 0 and its output has a line matching REGEX.
has() {
	local s
	s=$(status "$1")
	if [ "$s" = 0 ] && grep -Eq -- "$2" "$O/$1.out"; then pass "$1: $3"; else
		not_ok "$1: $3" "exit '${s:-not run}'; want a line matching: $2" "$(head -c 2000 "$O/$1.out" 2> /dev/null)"
	fi
}
# A row of the wide table: the monitor, its elapsed time (+- %), its overhead [interval].
row() { printf '^  %s +[0-9.]+ (ns|us|ms|s) +\\(\\+- [0-9.]+%%\\) +[+-][0-9.,]+%% \\[[+-][0-9.,]+, [+-][0-9.,]+\\]' "$1"; }

has default '^  (perf-stat|perf-record|strace|bpftrace-syscalls) +[+-][0-9,.]+% \[[+-][0-9,.]+, [+-][0-9,.]+\]\?? +.*per syscall' \
	"the answer: a monitor, its overhead [95%], its cost per syscall"
is "$(grep -m1 '^# ' "$O/default.out")" "# probecost run: what each monitor costs here, on syscall (20,000 syscalls)" \
	"default: its first line says what it answers"
has command "$(row strace)" "strace's row: elapsed, overhead [95%]"
has command "$(row bpftrace-syscalls)" "bpftrace-syscalls' row: elapsed, overhead [95%]"
# A site the kernel's optimization would change is the README's own finding: exit 1, said.
s=$(status probes)
assert "probes: exit 0, or 1 with a changed-program row (exit ${s:-not run})" \
	'[ "$s" = 0 ] || { [ "$s" = 1 ] && grep -q "changed-program" "$O/probes.out"; }'
assert "probes: the nop5-nrz site armed by uprobe, its per hit [95%] and every hit counted" \
	'grep -Eq "^  plain +uprobe +nop5-nrz .*\]\?? +[0-9.-]+ \[[0-9.-]+, [0-9.-]+\] (ns|us|ms) .* ([0-9]+) / \2 +ok" "$O/probes.out"'
has counters '^  perf-read +read +1 +[0-9]+ +[0-9.]+ ' "perf-read's read: count and times"
if [ -n "$(status pgbench)" ]; then
	has pgbench '^  tps \(tps, higher is better\)' "the tps figure beside the overheads"
else
	skip "the tour ran no pgbench step (PostgreSQL or pgbench not installed)"
fi
if [ -n "$(status redis)" ]; then
	has redis "$(row perf-record-system)" "perf-record-system's row on the service"
else
	skip "the tour ran no redis step (redis-server not installed)"
fi
has calibrate '^  strace +per syscall +(unpinned|cpu=[0-9,-]+) +[0-9.]+ \[[0-9.]+, [0-9.]+\] (ns|us|ms)' "strace's cost per syscall, its placement and [95%], stored"
has predict '^  strace +\+[0-9.]+ \[[0-9.]+, [0-9.]+\] (ns|us|ms|s) +\+[0-9.,]+% \[' "strace's predicted extra and overhead"
has history '^ +1 +run ' "the default study is session 1"
is "$(status report) $(od -An -tx1 -N8 "$O/plot.png" 2> /dev/null | tr -d ' \n')" "0 89504e470d0a1a0a" \
	"report --plot wrote a PNG"
is "$(cat "$O/tracefs-before" "$O/tracefs-after" 2> /dev/null | paste -sd' ')" "0 0" \
	"tracefs unmounted before the tour, and again after it (what probecost mounted, it unmounted)"
done_testing
