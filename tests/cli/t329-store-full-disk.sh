#!/bin/bash
# parallel-safe
# t329: an intact store on a full disk is read: history and show answer as ever (SQLite
# finds no room for its -shm when it opens the store writable: it is read as a read-only
# store then); a run that cannot store says so and exits 3.  Before, history and show said
# "could not open the store: the disk ... is full", exit 1.  On a 2 MiB tmpfs filled up.
. "$(dirname "$0")/lib.bash"
plan 4
is_root || skip_rest "needs root (mounts a tmpfs)"
tmpdir
mkdir "$T/m"
mount -t tmpfs -o size=2m tmpfs "$T/m" || skip_rest "cannot mount a tmpfs"
on_exit 'umount "$T/m"'
run_pc run --runs 2 --warmup 0 -w null -m none --db "$T/m/s.db"
[ "$rc" = 0 ] || skip_rest "could not make the store: $err"
dd if=/dev/zero of="$T/m/fill" bs=4k 2>/dev/null
[ "$(df --output=avail "$T/m" | tail -1 | tr -d ' ')" = 0 ] || skip_rest "the disk did not fill"
run_pc history --db "$T/m/s.db"
like "$rc/$(printf '%s\n' "$out" | awk '$1 == 1 { print $2, $6 }')" "^0/run 1$" "history on a full disk: session 1, a run of 1 config"
run_pc show 1 --db "$T/m/s.db" --format json
is "$rc/$(jq -r '.statistics[0].monitor' <<< "$out" 2>/dev/null)" "0/none" "show on a full disk: its rows"
run_pc run --runs 1 --warmup 0 -w null -m none --db "$T/m/s.db"
like "$rc/$err" "^3/.*not storing this session: .*is full" "a run that cannot store it: exit 3, said"
run_pc history --db "$T/m/s.db"
is "$rc" 0 "and the store still reads after"
done_testing
