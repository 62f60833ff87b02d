#!/bin/bash
# parallel-safe
# t014-tests-sealed: a test's default store is its own, never the user's, so what a test
# prints cannot depend on what the user stored before (lib.bash sets XDG_DATA_HOME).
. "$(dirname "$0")/lib.bash"
tmpdir
plan 4
# The user's store, as a user has it: $HOME/.local/share/probecost, one session in it.
home=$T/home
mkdir -p "$home"
HOME=$home XDG_DATA_HOME='' "$P" import tests/cli/data/run-a.json > /dev/null 2>&1
assert "the user's default store holds the imported session" \
	'[ -s "$home/.local/share/probecost/probecost.db" ]'
HOME=$home XDG_DATA_HOME='' run_pc history --format csv
like "$(printf '%s\n' "$out" | sed -n 2p)" '^1,' "history with the user's default store lists it"
# The same user, inside a test: the sealed store is empty.
HOME=$home run_pc history --format csv
is "$(printf '%s\n' "$out" | grep -c '^[0-9]')" 0 "history inside a test lists none of the user's sessions"
assert "PROBECOST_DB is not inherited from the user" '[ -z "${PROBECOST_DB:-}" ]'
done_testing
