#!/bin/bash
# probes --binary BIN --probe PROV:NAME -- CMD: a user's own USDT program (here probecost
# itself running one stanford kernel), hits checked against --hits; bad input refused
# with one line, exit 2, nothing registered.
P="${PROBECOST:-./probecost}"
# Only what this binary registers: other probecosts (other trees, other
# passes) may be using tracefs at the same time.
BINP=$(readlink -f "$P")
pids=
ours_ev() { grep -F " $BINP:" /sys/kernel/tracing/uprobe_events 2>/dev/null; }
ours_in() { [ -n "$pids" ] && ls /sys/kernel/tracing/instances 2>/dev/null | grep -E "^pcost_(${pids// /|})_"; }
ours_pl() { perf probe -l 2>/dev/null | grep -F "in $BINP "; }
T=/sys/kernel/tracing
echo "1..8"
BIN=$(readlink -f "$P")
one_line_exit2() { # $1 test number, $2 description, rest: command
	local t=$1 d=$2; shift 2
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	if [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [ -n "$err" ]; then
		echo "ok $t - $d: exit 2, one line ($err)"
	else
		echo "not ok $t - $d: exit $rc, stderr: $err"
	fi
}
before_ev=$(ours_ev)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$BIN" "$tmp/noexec"; chmod -x "$tmp/noexec"
mkdir "$tmp/a b"; cp "$BIN" "$tmp/a b/probecost"
run=(workload stanford variant=plain kernel=towers scale=1)
one_line_exit2 1 "no such probe" "$P" probes --binary "$BIN" --probe stanford_plain:nope --via uprobe -- "$BIN" "${run[@]}"
one_line_exit2 2 "not executable" "$P" probes --binary "$tmp/noexec" --probe stanford_plain:towers -- "$BIN" "${run[@]}"
one_line_exit2 3 "a path tracefs cannot take" "$P" probes --binary "$tmp/a b/probecost" --probe stanford_plain:towers -- "$BIN" "${run[@]}"
one_line_exit2 4 "a binary without SDT notes" "$P" probes --binary /bin/true --probe a:b -- /bin/true
one_line_exit2 5 "a malformed probe name" "$P" probes --binary "$BIN" --probe 'x y' -- /bin/true
[ "$(ours_ev)" = "$before_ev" ] && echo "ok 6 - nothing registered by bad input" \
	|| echo "not ok 6 - uprobe_events changed"
if [ "$(id -u)" != 0 ]; then
	echo "ok 7 # skip needs root (uprobes)"; echo "ok 8 # skip needs root (uprobes)"; exit 0
fi
out=$("$P" probes --binary "$BIN" --probe stanford_plain:towers --hits 16383 --via uprobe \
	--runs 2 --warmup 0 --cpu 0 --no-store --format csv -- "$BIN" "${run[@]}" 2>&1)
row=$(echo "$out" | awk -F, '$2 == "uprobe"')
[ "$(echo "$row" | cut -d, -f12-14)" = "16383,16383,0" ] && echo "ok 7 - uprobe counted the 16383 hits expected" \
	|| { echo "not ok 7 - row '$row'"; echo "$out" | sed 's/^/# /'; }
# Expecting more hits than the program makes is reported loudly.
out=$("$P" probes --binary "$BIN" --probe stanford_plain:towers --hits 20000 --via uprobe \
	--runs 1 --warmup 0 --cpu 0 --no-store -- "$BIN" "${run[@]}" 2>&1)
echo "$out" | grep -q "16383 / 20000  3617 HITS LOST" && echo "ok 8 - 3617 HITS LOST reported" \
	|| { echo "not ok 8 - no loss reported"; echo "$out" | sed 's/^/# /'; }
