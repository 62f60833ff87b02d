#!/bin/bash
# t316: a PostgreSQL password never shows in an error, and masking it does not garble
# libpq's message: with the password "p", "port 1 failed" stays as it is (it read
# "***ort 1 failed"); a longer password that libpq echoes is masked.  Port 1 on
# loopback refuses at once: no server is needed.
. "$(dirname "$0")/lib.bash"
plan 4
run_pc history --db 'postgresql://u:p@127.0.0.1:1/x'
like "$err" 'port 1 failed' "a one-letter password leaves libpq's words alone"
like "$err" "postgresql://u:\*\*\*@127\.0\.0\.1:1/x" "the URL shows the password masked"
run_pc history --db 'postgresql://u:s3cretpw@127.0.0.1:1/x'
assert "a long password appears nowhere" '! printf "%s" "$err" | grep -q s3cretpw'
run_pc history --db 'postgresql://u:s3cretpw@127.0.0.1:1/x?sslmode=bogus'
assert "nor in a bad-URL message ($err)" '! printf "%s" "$err" | grep -q s3cretpw'
done_testing
