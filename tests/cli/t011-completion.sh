#!/bin/bash
# t011: bash completion.  Sources completion/probecost.bash, calls _probecost
# with COMP_WORDS/COMP_CWORD split as bash splits them (at ':' and '='), and
# checks COMPREPLY against what probecost itself lists (--help, list --format json).
. "$(dirname "$0")/lib.bash"

if ! command -v jq >/dev/null; then
	plan 1
	skip "jq not installed (the completion reads probecost list --format json with it)"
	db=$(mktemp -d)/store.db
"$PROBECOST" run -w null -r 1 --warmup 0 --db "$db" >/dev/null 2>&1
"$PROBECOST" run -w null -r 1 --warmup 0 --db "$db" >/dev/null 2>&1
ids=$("$PROBECOST" history --db "$db" --format csv | sed -n '2,$s/,.*//p' | words)
like "$ids" '^[0-9]+ [0-9]+$' "two sessions stored for the id tests ($ids)"
is "$(comp report --db "$db" '')" "$(printf '%s\n' last $ids | words)" "report --db DB offers last and the stored ids"
rm -rf "$(dirname "$db")"
done_testing
fi
plan 23
# shellcheck source=../../completion/probecost.bash
. completion/probecost.bash

# comp WORD...: complete the last WORD; prints COMPREPLY sorted, one line, blank-separated.
comp() {
	COMP_WORDS=("$PROBECOST" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_probecost
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
words() { sort | tr '\n' ' ' | sed 's/ $//'; }
json=$("$PROBECOST" list --format json)
names() { printf '%s' "$json" | jq -r ".$1[].name | select(test(\"^[a-z][a-z0-9_-]*\$\"))" | words; }

is "$(complete -p probecost)" "complete -F _probecost probecost" "sourcing it registers _probecost for probecost"
is "$(comp '')" "$("$PROBECOST" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | words)" \
	"an empty first word offers every command of probecost --help"
is "$(comp r)" "report run" "'r' offers report and run"
is "$(comp -)" "--help --version -q -v" "'-' offers the global options"
is "$(comp run -)" "$( ("$PROBECOST" run --help | grep -oE -- '--[a-z][a-z0-9-]*'; echo --help) | sort -u | words)" \
	"run - offers exactly the options run --help lists"
is "$(comp run --sc)" "--scale" "run --sc offers --scale"
is "$(comp run -w '')" "$(names workloads)" "run -w offers every workload of list --format json"
is "$(comp run --workload sta)" "stanford" "run --workload sta offers stanford"
is "$(comp run -w pipe :)" "loops= mode=" "run -w pipe: offers the keys of pipe"
is "$(comp run -w pipe : mode = '')" "process thread" "run -w pipe:mode= offers its choices"
is "$(comp run -w pipe : mode = th)" "thread" "run -w pipe:mode=th completes to thread"
is "$(comp run -w messaging : loops = 5,ip)" "5,ipc=" "after a comma, the next key (messaging:loops=5,ip)"
like "$(comp run -m '')" '(^| )delay( .*)? none( .*)? perf-stat( |$)' "run -m offers the monitors (delay, none, perf-stat, ...)"
is "$(comp run -m delay :)" "ns=" "run -m delay: offers the delay monitor's key"
is "$(comp counters --interfaces perf-read,perf-g)" "perf-read,perf-group" "counters --interfaces completes the last item of a list"
is "$(comp probes --via '')" "$(names probes)" "probes --via offers every probe arming method"
is "$(comp probes --variants plain,vol)" "plain,volatile plain,volatile-sem" "probes --variants offers the stanford builds"
is "$(comp report --format '')" "$("$PROBECOST" report --help | grep -owE 'text|json|csv|markdown|html' | sort -u | words)" \
	"report --format offers the formats report --help names"
is "$(comp workload pipe mode = '')" "process thread" "workload pipe mode= offers its choices"
is "$(comp -q workload syscall v)" "via=" "after a global option, workload syscall v offers via="
is "$(comp history --kind '')" "counters probes run" "history --kind offers the kinds its --help spells a|b|c"
db=$(mktemp -d)/store.db
"$PROBECOST" run -w null -r 1 --warmup 0 --db "$db" >/dev/null 2>&1
"$PROBECOST" run -w null -r 1 --warmup 0 --db "$db" >/dev/null 2>&1
ids=$("$PROBECOST" history --db "$db" --format csv | sed -n '2,$s/,.*//p' | words)
like "$ids" '^[0-9]+ [0-9]+$' "two sessions stored for the id tests ($ids)"
is "$(comp report --db "$db" '')" "$(printf '%s\n' last $ids | words)" "report --db DB offers last and the stored ids"
rm -rf "$(dirname "$db")"
done_testing
