#!/bin/bash
# parallel-safe
# t015: a command's option table and its man page cannot drift apart.  The rows
# the command parses by (`probecost CMD --list-options`, printed from its struct
# pcost_option table) and the term lines of the OPTIONS section of
# docs/man/probecost-CMD.1.scd name the same options, long and short: an option
# added to the table without a page entry, or an entry for an option the
# command does not take, fails here.
. "$(dirname "$0")/lib.bash"

# The options a page documents: the *-x* and *--long* of its OPTIONS term lines.
man_opts() {
	sed -n '/^# OPTIONS/,/^# /p' "$1" | grep -E '^\*-' |
		grep -oE -- '\*--?[a-zA-Z][a-z0-9-]*\*' | tr -d '*' | grep -vxE -- '--help|-h' | sort -u
}
# The options of a --list-options dump (--long TAB -s TAB ARGH), long and short.
table_opts() { printf '%s\n' "$1" | cut -f1,2 | tr '\t' '\n' | grep . | grep -vxE -- '--help|-h' | sort -u; }
set_diff() { # set_diff A B: "only in the table: ...; only in the man page: ..." or empty
	local a b
	a=$(comm -23 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | grep . | tr '\n' ' ')
	b=$(comm -13 <(printf '%s\n' "$1") <(printf '%s\n' "$2") | grep . | tr '\n' ' ')
	[ -n "$a$b" ] && echo "only in the table: ${a:-none}; only in the man page: ${b:-none}"
}

mapfile -t cmds < <("$PROBECOST" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
plan $((${#cmds[@]} * 2 + 2))

run_pc report --list-options
assert "report --list-options: one row an option, --long TAB -s TAB ARGH" \
	'[ $rc = 0 ] && grep -qxP -- "--output\t-o\tFILE" <<<"$out" && grep -qxP -- "--db\t\tPATH\\|URL" <<<"$out"' ||
	diag "exit $rc: $out$err"
run_pc report --help
assert "--list-options is not an option --help shows" '[ $rc = 0 ] && [[ "$out" != *list-options* ]]'

for c in "${cmds[@]}"; do
	page=docs/man/probecost-$c.1.scd
	dump=$("$PROBECOST" "$c" --list-options 2>&1)
	bad=$(printf '%s\n' "$dump" | grep -vP -- '^--[a-z][a-z0-9-]*\t(-[a-zA-Z])?\t[^\t]*$')
	is "$bad" "" "every row of '$c --list-options' is --long TAB -s TAB ARGH"
	is "$(set_diff "$(table_opts "$dump")" "$(man_opts "$page")")" "" \
		"probecost-$c(1) documents exactly the options of $c's table"
done
done_testing
