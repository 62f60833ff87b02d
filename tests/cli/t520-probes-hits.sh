#!/bin/bash
# parallel-safe: on a copy of probecost of its own (own_probecost: its probes, definitions,
#   instances and journal its alone), one perf-probe test at a time (perf_probe_lock); counts
#   and outcomes, no timings
# probes: every arming method this machine can run counts the hits of the stanford probes
# exactly, with and without semaphores, and leaves tracefs and perf probe as it found them.
. "$(dirname "$0")/lib.bash"
perf_probe_lock "$@"
own_probecost
methods=(uprobe ftrace perf-probe bpftrace)
plan $((${#methods[@]} * 2 + 3))
line=$(PROBECOST_REPORT_FD=1 "$P" workload stanford variant=plain-sem kernel=towers scale=1 2>/dev/null)
like "$line" "events=16383 unit=hit.*hits_towers=16383" "workload stanford reports 16383 hits"
is_root || skip_rest "needs root (uprobes, tracefs)"
# What each method needs, from the machine itself.
needs() {
	case $1 in
	uprobe) have_uprobe_pmu || echo "no uprobe PMU with ref_ctr_offset" ;;
	ftrace) have_tracefs || echo "tracefs is not mounted at $TRACEFS" ;;
	perf-probe) have_tracefs || echo "tracefs is not mounted at $TRACEFS"
		have perf || echo "perf is not installed" ;;
	bpftrace) have bpftrace || echo "bpftrace is not installed" ;;
	esac
}
avail=()
for m in "${methods[@]}"; do [ -n "$(needs "$m")" ] || avail+=("$m"); done
before_ev=$(ours_ev); before_pl=$(ours_pl)
tmpdir
if [ ${#avail[@]} -gt 0 ]; then
	via=$(IFS=,; echo "${avail[*]}")
	"$P" probes --via "$via" --variants plain,plain-sem --kernel towers --scale 1 --runs 1 \
		--warmup 0 --cpu 0 --no-store --format csv >"$T/csv" 2>"$T/err"
fi
for v in plain plain-sem; do
	for m in "${methods[@]}"; do
		why=$(needs "$m")
		if [ -n "$why" ]; then
			skip "$m: $why"
			continue
		fi
		row=$(awk -F, -v v="$v" -v m="$m" '$1 == v && $2 == m' "$T/csv")
		is "$(echo "$row" | cut -d, -f12,13)" "16383,16383" "$v/$m counted the 16383 hits expected" ||
			diag "$(cat "$T/err")"
	done
done
is "$(ours_ev)" "$before_ev" "uprobe_events as before"
is "$(ours_pl)" "$before_pl" "perf probe -l as before"
done_testing
