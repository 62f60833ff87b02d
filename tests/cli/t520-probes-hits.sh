#!/bin/bash
# probes: every available arming method counts the hits of the stanford probes exactly,
# with and without semaphores, and leaves tracefs and perf probe as it found them.
P="${PROBECOST:-./probecost}"
# Only what this binary registers: other probecosts (other trees, other
# passes) may be using tracefs at the same time.
BINP=$(readlink -f "$P")
pids=
ours_ev() { grep -F " $BINP:" /sys/kernel/tracing/uprobe_events 2>/dev/null; }
ours_in() { [ -n "$pids" ] && ls /sys/kernel/tracing/instances 2>/dev/null | grep -E "^pcost_(${pids// /|})_"; }
ours_pl() { perf probe -l 2>/dev/null | grep -F "in $BINP "; }
T=/sys/kernel/tracing
methods=(uprobe ftrace perf-probe bpftrace)
echo "1..$(( ${#methods[@]} * 2 + 3 ))"
line=$(PROBECOST_REPORT_FD=1 "$P" workload stanford variant=plain-sem kernel=towers scale=1 2>/dev/null)
case "$line" in
*"events=16383 unit=hit"*hits_towers=16383*) echo "ok 1 - workload stanford reports 16383 hits ($line)";;
*) echo "not ok 1 - workload stanford says: '$line'";;
esac
if [ "$(id -u)" != 0 ]; then
	for i in $(seq 2 $(( ${#methods[@]} * 2 + 3 ))); do echo "ok $i # skip needs root (uprobes, tracefs)"; done
	exit 0
fi
avail=$("$P" probes --list "$P" >/dev/null 2>&1; for m in "${methods[@]}"; do
	"$P" probes --via "$m" --variants none --runs 1 --warmup 0 --scale 1 --no-store >/dev/null 2>&1 && echo "$m"; done)
before_ev=$(ours_ev); before_pl=$(ours_pl)
via=$(echo $avail | tr ' ' ,)
csv=$(mktemp); trap 'rm -f "$csv"' EXIT
if [ -n "$via" ]; then
	"$P" probes --via "$via" --variants plain,plain-sem --kernel towers --scale 1 --runs 1 \
		--warmup 0 --cpu 0 --no-store --format csv >"$csv" 2>/dev/null
fi
t=2
for v in plain plain-sem; do
	for m in "${methods[@]}"; do
		if ! echo "$avail" | grep -qx "$m"; then
			why=$("$P" probes --via "$m" --variants none --runs 1 --no-store 2>&1 >/dev/null | head -1)
			echo "ok $t # skip $m unavailable: $why"
		else
			row=$(awk -F, -v v=$v -v m=$m '$1 == v && $2 == m' "$csv")
			exp=$(echo "$row" | cut -d, -f12); got=$(echo "$row" | cut -d, -f13)
			[ "$exp" = 16383 ] && [ "$got" = 16383 ] \
				&& echo "ok $t - $v/$m counted $got of $exp hits" \
				|| echo "not ok $t - $v/$m: row '$row'"
		fi
		t=$((t + 1))
	done
done
[ "$(ours_ev)" = "$before_ev" ] && echo "ok $t - uprobe_events as before" \
	|| echo "not ok $t - uprobe_events changed: $(ours_ev)"
t=$((t + 1))
[ "$(ours_pl)" = "$before_pl" ] && echo "ok $t - perf probe -l as before" \
	|| echo "not ok $t - perf probe -l changed"
