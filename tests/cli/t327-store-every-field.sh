#!/bin/bash
# t327-store-every-field: one session with every stored field set, each to its own value,
# goes SQLite -> export -> PostgreSQL -> export and comes back field for field, the two
# exports byte for byte equal; the PostgreSQL schema a new store gets is the description of
# the stored tables (store/columns.c).  test_store_columns does both, on a throwaway server.
# parallel-safe: a cluster of its own on a free port, nothing timed
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pg.bash"
plan 3
B=build/tests/test_store_columns
[ -x "$B" ] || skip_rest "$B is not built (make $B)"
tmpdir
pg_start skip_rest
out=$(PCOST_TEST_PG="$PG_URL" "$B" 2>&1)
rc=$?
ok "$rc" "test_store_columns passes against the server (exit $rc)" || diag "$out"
like "$out" '\[       OK \] test_roundtrip_pg' "every field: SQLite -> export -> PostgreSQL -> export, unchanged"
like "$out" '\[       OK \] test_pg_schema' "PostgreSQL's columns are the description's, types and NOT NULLs"
