#!/bin/bash
# parallel-safe
# t010: --help and the man pages cannot drift apart.  For every command, the
# long options its --help lists and the options its man page documents (the
# OPTIONS term lines of docs/man/probecost-CMD.1.scd) are the same set, and every
# option of the command's table (`CMD --list-options`) is in its --help.  Every
# command has a page, every page renders without a groff warning.  t015 checks
# each table against its page row by row.
. "$(dirname "$0")/lib.bash"

# Long options named anywhere in a text (--help itself is everyone's).
long_opts() { grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u; }
# Options a man page documents: the term lines (starting with *-) of its OPTIONS section.
man_opts() { sed -n '/^# OPTIONS/,/^# /p' "$1" | grep -E '^\*-' | long_opts; }
# Options a command accepts: its table's rows.
code_opts() { "$PROBECOST" "$1" --list-options | cut -f1 | grep -vx -- '--help' | sort -u; }
set_diff() { # set_diff A B: "only in help: ...; only in man: ..." or empty
	local a b
	a=$(comm -23 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | tr '\n' ' ')
	b=$(comm -13 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | tr '\n' ' ')
	[ -n "$a$b" ] && echo "only in --help: ${a:-none}; only in the man page: ${b:-none}"
}

mapfile -t cmds < <("$PROBECOST" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
plan $((${#cmds[@]} * 3 + 10))

like "${cmds[*]}" '^run .*import$' "probecost --help lists the commands (${#cmds[@]})"
help=$("$PROBECOST" --help | long_opts)
is "$(set_diff "$help" "$(man_opts docs/man/probecost.1.scd)")" "" "probecost(1) documents the global options --help lists"

for c in "${cmds[@]}"; do
	page=docs/man/probecost-$c.1.scd
	if [ ! -f "$page" ]; then
		ok 1 "$c has a man page ($page)"
		skip "no page for $c"
		continue
	fi
	help=$("$PROBECOST" "$c" --help 2>&1 | long_opts)
	doc=$(man_opts "$page")
	like "$help" '^--[a-z]' "$c --help lists its long options"
	is "$(set_diff "$help" "$doc")" "" "probecost-$c(1) documents exactly the options '$c --help' lists"
done
for c in "${cmds[@]}"; do
	code=$(code_opts "$c")
	help=$("$PROBECOST" "$c" --help 2>&1 | long_opts)
	missing=$(comm -23 <(printf '%s\n' "$code") <(printf '%s\n' "$help") | grep . | tr '\n' ' ')
	is "$missing" "" "every option $c accepts is in '$c --help'"
done

# --db takes a postgresql:// URL as well as a file: every --help and page that has it says so.
bare=""
for c in "${cmds[@]}"; do
	h=$("$PROBECOST" "$c" --help 2>&1)
	grep -q -- '--db' <<<"$h" && ! grep -q -- '--db PATH|URL' <<<"$h" && bare="$bare $c"
	grep -q -- '\*--db\* _PATH_' "docs/man/probecost-$c.1.scd" 2>/dev/null &&
		grep -- '\*--db\* _PATH_' "docs/man/probecost-$c.1.scd" | grep -qv '_PATH_|_URL_' && bare="$bare $c(1)"
done
is "$bare" "" "every --help and man page with --db says PATH|URL"

pages=$(cd docs/man && printf '%s\n' probecost-*.1.scd | sed 's/^probecost-//; s/\.1\.scd$//' | sort)
is "$pages" "$(printf '%s\n' "${cmds[@]}" | sort)" "there is a man page for each command and none for a command that is not"
# Every registry row is described in its page (as *name* or *name:...*).
json=$("$PROBECOST" list --format json)
for pair in monitors:run workloads:workload probes:probes counters:counters; do
	table=${pair%%:*} page=docs/man/probecost-${pair#*:}.1.scd
	missing=""
	for n in $(printf '%s' "$json" | jq -r ".${table}[].name | select(test(\"^[a-z][a-z0-9_-]*\$\"))"); do
		grep -qE "\\*$n(\\*|:)" "$page" || missing="$missing $n"
	done
	is "$missing" "" "every row of list $table is described in $(basename "$page" .scd)"
done
warn=""
for p in build/man/*.1; do
	w=$(groff -man -ww -z "$p" 2>&1) || w="$w (groff failed)"
	[ -n "$w" ] && warn="$warn $p: $w"
done
is "$warn" "" "every built page ($(find build/man -maxdepth 1 -name '*.1' 2>/dev/null | wc -l)) renders without a groff warning"
like "$(MANWIDTH=80 man -l build/man/probecost-run.1 2>/dev/null | head -5)" 'probecost-run - measure' \
	"man ./build/man/probecost-run.1 works from the tree"
done_testing
