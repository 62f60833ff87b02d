#!/bin/bash
# parallel-safe: it arms probes only on a copy of probecost of its own (own_probecost),
#   and compares no timings
# probes --binary BIN --probe PROV:NAME -- CMD: a user's own USDT program (here probecost
# itself running one stanford kernel), hits checked against --hits; bad input refused
# with one line, exit 2, nothing registered.
. "$(dirname "$0")/lib.bash"
own_probecost || { plan 1; not_ok "a copy of $PROBECOST of its own"; done_testing; }
plan 8
BIN=$(readlink -f "$P")
before_ev=$(ours_ev)
tmpdir
tmp=$T
cp "$BIN" "$tmp/noexec"; chmod -x "$tmp/noexec"
mkdir "$tmp/a b"; cp "$BIN" "$tmp/a b/probecost"
run=(workload stanford variant=plain kernel=towers scale=1)
one_line_exit2 "no such probe" "$P" probes --binary "$BIN" --probe stanford_plain:nope --via uprobe -- "$BIN" "${run[@]}"
one_line_exit2 "not executable" "$P" probes --binary "$tmp/noexec" --probe stanford_plain:towers -- "$BIN" "${run[@]}"
one_line_exit2 "a path tracefs cannot take" "$P" probes --binary "$tmp/a b/probecost" --probe stanford_plain:towers -- "$BIN" "${run[@]}"
one_line_exit2 "a binary without SDT notes" "$P" probes --binary /bin/true --probe a:b -- /bin/true
one_line_exit2 "a malformed probe name" "$P" probes --binary "$BIN" --probe 'x y' -- /bin/true
is "$(ours_ev)" "$before_ev" "nothing registered by bad input"
{ is_root && have_uprobe_pmu; } || skip_rest "needs root and the uprobe PMU"
out=$("$P" probes --binary "$BIN" --probe stanford_plain:towers --hits 16383 --via uprobe \
	--runs 2 --warmup 0 --cpu 0 --no-store --format csv -- "$BIN" "${run[@]}" 2>&1)
row=$(echo "$out" | awk -F, '$2 == "uprobe"')
is "$(echo "$row" | cut -d, -f12-14)" "16383,16383,0" "uprobe counted the 16383 hits expected" || diag "$out"
# Expecting more hits than the program makes is reported loudly, but not as the tracer's
# loss: the tracer did not say it lost any (SHORT; HITS LOST is for a loss the tracer owns).
out=$("$P" probes --binary "$BIN" --probe stanford_plain:towers --hits 20000 --via uprobe \
	--runs 1 --warmup 0 --cpu 0 --no-store -- "$BIN" "${run[@]}" 2>&1)
like "$out" "16383 / 20000  3617 SHORT" "3617 SHORT reported, not HITS LOST"
done_testing
