#!/bin/bash
# parallel-safe
# Tool outputs of wrapper monitors go to a private 0700 directory (mkdtemp), files
# 0600, removed at exit: a link planted where older versions wrote
# ($TMPDIR/probecost-MONITOR-XXXXXX, re-created by the tool before each run) is
# never followed, so root's perf cannot be made to overwrite another file.
. tests/cli/lib.bash
F=tests/cli/fake
plan 8
tmp=$(mktemp -d /tmp/t262.XXXXXX)
on_exit 'kill $planter 2>/dev/null; rm -rf "$tmp"'
mkdir "$tmp/t" "$tmp/victim"
echo "precious" >"$tmp/victim/file"

# 1-4. While it runs: where the output is, the directory's mode and owner, the file's mode.
PEEK_LOG=$tmp/peek TMPDIR=$tmp/t run_pc run --no-store --runs 2 --warmup 0 -m "$F/tmp-peek {TMP} {}" -- /bin/true
is "$rc" 0 "a custom wrapper with {TMP} ran"
read -r f mode uid fmode <"$tmp/peek"
like "$f" "^$tmp/t/probecost-[A-Za-z0-9]{6}/out$" "the output file is inside a mkdtemp directory under \$TMPDIR"
is "$mode $uid $fmode" "700 $(id -u) 600" "the directory is 0700 and ours, the file 0600"
is "$(ls -A "$tmp/t")" "" "nothing is left in \$TMPDIR after the run"

# 5-8. A planter replaces every name of the old scheme with a link to the victim.
# shellcheck disable=SC2015 # (A && B) || C: skip when either is missing, as meant
command -v perf >/dev/null && command -v strace >/dev/null || {
	for i in 5 6 7 8; do skip "perf and strace needed (linux-perf, strace)"; done; done_testing; }
( seen=()
while :; do
	for n in "$tmp"/t/probecost-perf-stat-* "$tmp"/t/probecost-strace-count-*; do
		[ -e "$n" ] && [ ! -L "$n" ] && seen+=("$n")
	done
	# The old code unlinked its file before each run and the tool made it again by name.
	for n in "${seen[@]}"; do [ -L "$n" ] || ln -sfn "$tmp/victim/file" "$n"; done
done ) &
planter=$!
# LeakSanitizer cannot run under ptrace, and the workload under strace-count is this binary:
# its exit 1 would be the program's, changed under strace (strace passes it on).
[ -n "${PROBECOST_SAN:-}" ] && export ASAN_OPTIONS=detect_leaks=0
# --timeout 120: unpinned beside the planter, strace-count on 20,000 calls can pass the
# default first-run limit (300 x the plain run + 10 s; t260 says why).
TMPDIR=$tmp/t run_pc run --no-store --runs 5 --warmup 0 --timeout 120 -m perf-stat -m strace-count -w syscall:loops=20000
kill $planter; wait $planter 2>/dev/null
is "$rc" 0 "perf-stat and strace-count ran"
is "$(cat "$tmp/victim/file")" "precious" "the planted link's target is untouched"
ok $(( $(find "$tmp/t" -maxdepth 1 -name 'probecost-perf-stat-*' -o -maxdepth 1 -name 'probecost-strace-count-*' | wc -l) )) \
	"no output file at the old, predictable names"
is "$(find "$tmp/t" -mindepth 1 ! -type l | wc -l)" 0 "the private directories are removed at exit"
done_testing
