#!/bin/bash
# parallel-safe: it arms probes only on copies of probecost with build ids of their own, in a
#   state directory of its own, looks only at their definitions, and compares no timings; one
#   perf-probe test at a time (perf_probe_lock)
# long: 16 s of perf probe and SIGKILLed sessions
# t532: SIGKILL during `probes --via perf-probe`, at several points (the build-id cache
# entry being added, perf probe adding definitions one kernel after another, runs under
# way): the next run removes every definition and the cache entry the dead one made, and
# counts its own hits exactly; after it nothing of either is left (uprobe_events,
# `perf probe -l`, ~/.debug).  Also when other definitions hold NAME..NAME_3, so that
# perf names the killed run's NAME_4.  Function probes (--workload uprobe) are named after
# their owner, pcost_PID_pp, and removed once it is dead even without its journal.
. "$(dirname "$0")/lib.bash"
perf_probe_lock "$@"
plan 17
{ is_root && have perf && have_tracefs && have perl; } ||
	skip_rest "needs root, perf, perl and tracefs at $TRACEFS"
tmpdir
mkdir -m 700 "$T/state" "$T/tmp"
export PROBECOST_STATE_DIR=$T/state TMPDIR=$T/tmp
# Copies of probecost with build ids of their own: their cache entries and definitions are
# this test's alone, whatever other probecosts on the machine do.
PC=$T/pc OTHER=$T/other
id=$(probecost_copy "$PC")
probecost_copy "$OTHER" >/dev/null
link=$HOME/.debug/.build-id/${id:0:2}/${id:2}
defs() { grep -F " $1:" "$TRACEFS/uprobe_events"; } # defs BINARY: definitions on it
# shellcheck disable=SC2317 # run by on_exit
undefine() { # undefine BINARY: remove its definitions
	defs "$1" | sed 's/^[pr]:\([^ ]*\) .*/-:\1/' | while read -r d; do echo "$d" >>"$TRACEFS/uprobe_events"; done
}
on_exit 'undefine "$PC"; undefine "$OTHER"; perf buildid-cache --remove "$PC" --remove "$OTHER" 2>/dev/null'
is "$(perf buildid-list -i "$PC" 2>/dev/null) $([ -e "$link" ]; echo $?)" "$id 1" \
	"the copy has a build id of its own, not in the cache"

# The killed runs' perf lingers 0.2 s after each `perf probe` and `perf buildid-cache`:
# what it added is in place before probecost has seen it, so a kill lands in that window.
mkdir "$T/bin"
printf '#!/bin/sh\n%s "$@"; rc=$?\ncase "$1" in probe|buildid-cache) sleep 0.2;; esac\nexit $rc\n' \
	"$(command -v perf)" >"$T/bin/perf"
chmod +x "$T/bin/perf"

# kill_when DESC COND: start a long perf-probe study, SIGKILL it once COND holds (polled
# every 10 ms), run the next one: exact hits, then nothing of either left.
kill_when() {
	local desc=$1 cond=$2 pid hits left i
	PATH=$T/bin:$PATH "$PC" probes --via perf-probe --variants plain --scale 1 -r 300 --warmup 0 --no-store \
		>/dev/null 2>&1 &
	pid=$!
	for i in $(seq 3000); do eval "$cond" && break; kill -0 $pid 2>/dev/null || break; sleep 0.01; done
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	diag "killed $desc: $(defs "$PC" | wc -l) definitions, cache entry $([ -e "$link" ] && echo left || echo none)"
	"$PC" probes --via perf-probe --variants plain --scale 1 -r 1 --warmup 0 --no-store \
		--format json >"$T/next.json" 2>"$T/next.err"
	hits=$(jq -r '.statistics[] | select(.method == "perf-probe") | "\(.hits_counted)/\(.hits_expected)"' "$T/next.json" 2>/dev/null)
	like "$hits" '^([0-9]+)/\1$' "killed $desc: the next run counts its hits exactly ($hits)" ||
		diag "$(cat "$T/next.err")"
	left="$(defs "$PC")$(perf probe -l 2>/dev/null | grep -F "in $PC ")$([ -e "$link" ] && echo "cache: $link")"
	is "$left" "" "killed $desc: after the next run no definition and no cache entry is left"
}
kill_when "as the build-id cache entry appeared" '[ -e "$link" ]'
kill_when "after 1 definition" '[ "$(defs "$PC" | wc -l)" -ge 1 ]'
kill_when "after 4 definitions" '[ "$(defs "$PC" | wc -l)" -ge 4 ]'
kill_when "after 7 definitions" '[ "$(defs "$PC" | wc -l)" -ge 7 ]'
kill_when "during the runs" '[ "$(defs "$PC" | wc -l)" -ge 9 ] && pgrep -f "perf stat .*-- $PC" >/dev/null'

# Four definitions of perm on another binary: perf names the killed run's perm_4.
perf buildid-cache --add "$OTHER" 2>/dev/null
for i in 1 2 3 4; do perf probe -f -x "$OTHER" -a sdt_stanford_plain:perm >/dev/null 2>&1; done
is "$(defs "$OTHER" | grep -c '/perm')" 4 "another binary holds 4 definitions named perm"
kill_when "after perm_4 was defined" 'defs "$PC" | grep -q "/perm_[4-9] "'
is "$(defs "$OTHER" | grep -c '/perm')" 4 "the other binary's definitions are untouched"

# A function probe: its group names the killed process; a run that has no journal of it
# (another state directory) removes it by that name.
PATH=$T/bin:$PATH "$PC" probes --workload uprobe --via perf-probe -r 300 --warmup 0 --no-store \
	>/dev/null 2>&1 &
pid=$!
for i in $(seq 3000); do defs "$PC" | grep -q . && break; sleep 0.01; done
kill -KILL $pid; wait $pid 2>/dev/null
like "$(defs "$PC" | sed 's/ .*//')" "^p:pcost_${pid}_pp/" "a function probe's group names its owner (pcost_${pid}_pp)"
mkdir -m 700 "$T/state2"
PROBECOST_STATE_DIR=$T/state2 "$PC" probes --via dormant --variants plain --kernel towers --scale 1 \
	-r 1 --warmup 0 --no-store >/dev/null 2>&1
is "$(defs "$PC")" "" "a run without its journal removes it: its owner is dead"
done_testing
