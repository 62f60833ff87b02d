#!/bin/bash
# t326: nothing is written through a link another user planted.  As root, with
# fs.protected_symlinks=0 (as in many containers; set for the test, restored on exit), user
# nobody plants links in a mode-1777 directory at the names root's probecost is told to
# write: the store (and its -wal), export -o, report -o and --plot.  Known answers: every
# victim file stays as it was (absent, or its own bytes); the store there is refused in one
# line naming the link (run: exit 3, not stored; history: exit 1); the outputs replace the link with a regular file of root's.
# Before: the store was created through the link (the victim appeared), and export -o
# overwrote the victim.
. "$(dirname "$0")/lib.bash"
plan 10
is_root || skip_rest "needs root (to become nobody and set fs.protected_symlinks)"
{ have setpriv && id nobody >/dev/null 2>&1; } || skip_rest "needs setpriv(1) and user nobody"
[ -w /proc/sys/fs/protected_symlinks ] || skip_rest "cannot set fs.protected_symlinks here"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
tmpdir
old=$(cat /proc/sys/fs/protected_symlinks)
on_exit "echo $old > /proc/sys/fs/protected_symlinks"
echo 0 > /proc/sys/fs/protected_symlinks
chmod 755 "$T"
mkdir -m 1777 "$T/ww" "$T/open"
chmod 0777 "$T/open"
mkdir "$T/root"
printf 'victim\n' > "$T/root/victim"
DB="$T/root/p.db"
run_pc run --runs 2 --warmup 0 -w null -m none -m "env {}" --db "$DB"
[ "$rc" = 0 ] || skip_rest "run failed: $err"

# 1-2: the store at a planted link: refused, nothing created at the link's target.
as_nobody ln -s "$T/root/x.db" "$T/ww/c.db"
run_pc run --runs 1 --warmup 0 -w null -m none --db "$T/ww/c.db"
like "$rc/$(printf '%s\n' "$err" | grep -c .)/$err" "^3/1/.*'$T/ww/c.db' is a link in a directory others can write" \
	"run with its store at nobody's link: not stored, exit 3, one line naming the link"
ok "$([ ! -e "$T/root/x.db" ]; echo $?)" "and nothing created through it"
# 3: a store of root's in the sticky directory, with nobody's link at its -wal.
run_pc run --runs 1 --warmup 0 -w null -m none --db "$T/ww/s.db"
as_nobody ln -s "$T/root/victim" "$T/ww/s.db-wal"
run_pc history --db "$T/ww/s.db"
like "$rc/$err" "^1/.*'$T/ww/s.db-wal' is a link in a directory others can write" \
	"root's store with nobody's link at its -wal: refused, naming it"
# 4: a store in a directory anyone can write and that is not sticky: refused.
run_pc run --runs 1 --warmup 0 -w null -m none --db "$T/open/o.db"
like "$rc/$err" "^3/.*'$T/open/o.db' is in '$T/open', which others can write" \
	"a store in a non-sticky world-writable directory: refused"
# 5: a store of root's alone in the sticky directory works.
rm -f "$T/ww/s.db-wal"
run_pc history --db "$T/ww/s.db"
is "$rc" 0 "root's own store in the sticky directory, nothing planted: read"
# 6-7: export -o at a link: the victim keeps its bytes, the name is root's file.
as_nobody ln -s "$T/root/victim" "$T/ww/e.json"
run_pc export 1 --db "$DB" -o "$T/ww/e.json"
is "$rc/$(cat "$T/root/victim")" "0/victim" "export -o through nobody's link: the victim unchanged"
is "$(stat -c '%F %U' "$T/ww/e.json")/$(jq -r '.id' "$T/ww/e.json" 2>/dev/null)" "regular file root/1" \
	"the export is a regular file of root's where the link was"
# 8: report -o (written beside and renamed before this change too).
as_nobody ln -s "$T/root/victim" "$T/ww/r.md"
run_pc report 1 --db "$DB" --format markdown -o "$T/ww/r.md"
is "$rc/$(cat "$T/root/victim")/$(stat -c %F "$T/ww/r.md")" "0/victim/regular file" "report -o: the same"
# 9-10: --plot (SVG, and PNG, which cairo writes by name).
for ext in svg png; do
	as_nobody ln -s "$T/root/victim" "$T/ww/p.$ext"
	run_pc report 1 --db "$DB" --plot "$T/ww/p.$ext"
	if printf '%s\n' "$err" | grep -q cairo; then
		skip "no cairo here: $err"
		continue
	fi
	is "$rc/$(cat "$T/root/victim")/$(stat -c %F "$T/ww/p.$ext")" "0/victim/regular file" "--plot FILE.$ext: the same"
done
done_testing
