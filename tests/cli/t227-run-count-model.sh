#!/bin/bash
# t227: a user's command gets its events made (one untimed counting run, and one of the
# null workload) and a model-based per-event cost: the command's extra time less the
# same monitor's on the null workload (run in the same blocks), over the events the
# monitor pays for less the null workload's.  Known answer: inject:event=N,fixed=F makes
# `probecost workload syscall loops=L` spin N ns after each of its L calls and F ns once
# (the null workload F once), so the cost per syscall is N x L / (the command's syscalls
# less the null's: its L calls, the start-ups cancelling) and the fixed cost F less the
# null's syscalls at that price (the model charges every syscall alike).  Forgetting the
# null run's fixed cost would add F / syscalls (18 us here) to every event; the bounds
# break on that.
# no-sanitizer: the spins are timed against the wall clock on CPU 1
. "$(dirname "$0")/lib.bash"
plan 8
tmpdir
is_root || skip_rest "the counting run needs root (perf_event tracepoints)"
perf_events_usable || skip_rest "perf_event_open is not allowed here"
N=20000 F=100000000 L=5000
js=$("$P" run --no-store --format json --runs 6 --warmup 1 --cpu 1 --seed 5 \
	-m "inject:event=$N,fixed=$F" -- "$(readlink -f "$P")" workload syscall loops=$L 2>"$T/err")
rc=$?
is "$rc" 0 "run of a user's command under inject (exit 0)" || diag "$(cat "$T/err")"
row() { printf '%s' "$js" | jq -c "[.statistics[] | select(.workload == \"$1\" and .monitor $2)][0]"; }
inj=$(row command '!= "none"')
counted=$(printf '%s' "$js" | jq -r '.session.options.counted.syscall.count')
nulls=$(printf '%s' "$js" | jq -r '.session.options.counted_null.syscall.count')
made=$(printf '%s' "$inj" | jq -r '.events')
assert "the counting run counted the L calls and the start-up's ($counted) by $(printf '%s' "$js" | jq -r '.session.options.counted.syscall.counter')" \
	'[ "$counted" -ge $L ] && [ "$counted" -lt $((L + 5000)) ]'
is "$made" "$counted" "the row's events made are the counted syscalls"
assert "the null workload's syscalls counted too ($nulls: probecost's start-up, as the command's)" \
	'[ "$nulls" -gt 0 ] && [ $((counted - nulls)) -ge $L ] && [ $((counted - nulls)) -lt $((L + 100)) ]'
read -r pe lo hi src fx < <(printf '%s' "$inj" | jq -r '"\(.per_event_ns) \(.per_event_ns_lo) \(.per_event_ns_hi) \(.per_event_source) \(.fixed_ns)"')
want=$(awk -v n=$N -v l=$L -v c="$counted" -v z="$nulls" 'BEGIN { printf "%.0f", n * l / (c - z) }')
is "$src" model "the per-event figure is labelled model-based"
assert "per syscall $pe [$lo, $hi] ns holds N x L / (counted - null's) = $want within 15%" \
	'awk -v p="$pe" -v w="$want" "BEGIN { exit !(p > 0.85 * w && p < 1.15 * w) }"'
assert "its interval [$lo, $hi] is no wider than 40% of it" \
	'awk -v l="$lo" -v h="$hi" -v w="$want" "BEGIN { exit !(h - l < 0.4 * w) }"'
assert "the fixed cost $fx ns is the injected $F within 15% (the null run's)" \
	'awk -v x="$fx" -v f=$F "BEGIN { exit !(x > 0.85 * f && x < 1.15 * f) }"'
done_testing
