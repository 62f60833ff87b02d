#!/bin/bash
# parallel-safe
# t011: bash completion.  Sources completion/probecost.bash, calls _probecost
# with COMP_WORDS/COMP_CWORD split as bash splits them (at ':' and '='), and
# checks COMPREPLY against what probecost itself lists (--help, list --format json).
# completion/probecost.bash has a local array db; this file's $db is a plain string.
# shellcheck disable=SC2178,SC2128
. "$(dirname "$0")/lib.bash"

if ! command -v jq >/dev/null; then
	plan 1
	skip "jq not installed (the completion reads probecost list --format json with it)"
	done_testing
fi
plan 32
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
is "$(comp report -)" "$("$PROBECOST" report --list-options | cut -f1 | words)" \
	"report - offers exactly the options of its table (report --list-options)"
is "$(comp run --metric '')" "$("$PROBECOST" run --help | sed -n 's/^ *presets: //p' | tr ' ' '\n' | words)" \
	"run --metric offers the presets run --help names"
is "$(comp run -w '')" "$(names workloads)" "run -w offers every workload of list --format json"
is "$(comp run --workload sta)" "stanford" "run --workload sta offers stanford"
is "$(comp run -w pipe :)" "cpu= loops= mode=" "run -w pipe: offers the keys of pipe"
is "$(comp run -w pipe : mode = '')" "process thread" "run -w pipe:mode= offers its choices"
is "$(comp run -w pipe : mode = th)" "thread" "run -w pipe:mode=th completes to thread"
is "$(comp run -w messaging : loops = 5,ip)" "5,ipc=" "after a comma, the next key (messaging:loops=5,ip)"
like "$(comp run -m '')" '(^| )delay( .*)? none( .*)? perf-stat( |$)' "run -m offers the monitors (delay, none, perf-stat, ...)"
is "$(comp run -m delay :)" "ns=" "run -m delay: offers the delay monitor's key"
is "$(comp predict -m perf-record :)" "freq=" "predict -m perf-record: offers its key, as run -m does"
# shellcheck disable=SC2046 # the names, one a line on purpose
is "$(comp calibrate --monitor stra)" "$(printf '%s\n' $(names monitors) | grep '^stra' | words)" \
	"calibrate --monitor offers the monitors"
is "$(comp counters --interfaces perf-read,perf-g)" "perf-read,perf-group" "counters --interfaces completes the last item of a list"
is "$(comp probes --via '')" "$(names probes)" "probes --via offers every probe arming method"
is "$(comp probes --variants plain,vol)" "plain,volatile plain,volatile-sem" "probes --variants offers the stanford builds"
wl=$(comp probes --workload '')
like "$wl" '(^| )stanford( |$)' "probes --workload offers stanford ($wl)"
# shellcheck disable=SC2086,SC2046 # word lists, split into lines on purpose
is "$(comm -23 <(printf '%s\n' $wl) <(printf '%s\n' $(names workloads) | sort) | tr '\n' ' ')" "" \
	"and only workloads list knows"
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
# shellcheck disable=SC2086 # $ids: a word list, split on purpose
is "$(comp report --db "$db" '')" "$(printf '%s\n' last $ids | words)" "report --db DB offers last and the stored ids"
rm -rf "$(dirname "$db")"

# The same through readline itself: an interactive bash on a pseudo-terminal
# sources the script, the line is typed with a TAB, and the line bash shows
# after it is read back (waiting up to 20 s for each step: the machine may be busy).
if ! command -v python3 >/dev/null; then
	for i in 1 2 3; do skip "python3 not installed (drives bash on a pseudo-terminal)"; done
	done_testing
fi
tab() { # tab TYPED WANT: the line bash shows after TYPED<TAB>, once WANT has come (or by the deadline)
	python3 - "$PROBECOST" "$1" "$2" <<'PY'
import os, pty, select, sys, time
exe, typed, want = sys.argv[1], sys.argv[2], sys.argv[3]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update(PS1="$ ", INPUTRC="/dev/null", HISTFILE="/dev/null", PATH=os.path.dirname(os.path.abspath(exe)) + ":" + os.environ["PATH"])
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
buf, pos = b"", 0
def read_until(marker, secs=20):
    """Read until marker appears after the previous marker (at most secs); what came since."""
    global buf, pos
    start, end = pos, time.time() + secs
    while time.time() < end and marker not in buf[pos:]:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                buf += os.read(fd, 65536)
            except OSError:
                break
    if marker in buf[pos:]:
        pos = buf.index(marker, pos) + len(marker)
    return buf[start:]
read_until(b"$ ")
# Completion is registered for "probecost"; the binary under test may be named otherwise.
os.write(fd, (". completion/probecost.bash; complete -F _probecost %s; echo so''urced\n"
              % os.path.basename(exe)).encode())
read_until(b"sourced\r\n")
read_until(b"$ ")
os.write(fd, ("%s %s\t" % (os.path.basename(exe), typed)).encode())
out = read_until(want.encode())
os.write(fd, b"\x15exit\n")
text = out.decode(errors="replace").replace("\a", "").rstrip()
print(text.splitlines()[-1] if text else "")
os.waitpid(pid, 0)
PY
}
like "$(tab 'run -w pipe:mo' 'mode=')" 'run -w pipe:mode=$' "readline: run -w pipe:mo<TAB> gives pipe:mode="
like "$(tab 'run -w pipe:mode=th' 'thread ')" 'run -w pipe:mode=thread$' "readline: pipe:mode=th<TAB> gives pipe:mode=thread"
like "$(tab 'run -m delay:' 'ns=')" 'run -m delay:ns=$' "readline: -m delay:<TAB> gives delay:ns="
done_testing
