#!/bin/bash
# parallel-safe
# t020: make install into DESTDIR puts exactly the install list in place (PREFIX
# baked where it must be), and make uninstall removes every file it put there.
# The example is built against the installed copy through pkg-config and run.
# Works on a copy of the tree so the binary under test is not rebuilt.
. "$(dirname "$0")/lib.bash"
plan 20

tmp=$(mktemp -d)
on_exit 'rm -rf "$tmp"'
root=$tmp/root
mkdir "$tmp/src"
tar --exclude=./.git --exclude=./build/deb --exclude=./build/san --exclude=./build/tests --exclude=./build/fuzz -cf - . | tar -xf - -C "$tmp/src"
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C "$tmp/src" PREFIX=/usr DESTDIR="$root" "$@"; }

mk install >"$tmp/install.log" 2>&1
irc=$?
is "$irc" 0 "make install DESTDIR=... PREFIX=/usr succeeds"
[ "$irc" -eq 0 ] || sed 's/^/# /' "$tmp/install.log" | tail -20

installed() { (cd "$root" && find . \( -type f -o -type l \) -printf '/%P\n' | sort); }
mk install-list | sed "s|^$root||" | sort >"$tmp/list"
installed >"$tmp/found"
is "$(diff "$tmp/list" "$tmp/found")" "" "the files installed are exactly 'make install-list'"
is "$(grep -c . "$tmp/list")" "$(sort -u "$tmp/list" | grep -c .)" "no path is installed twice"

for f in /usr/bin/probecost /usr/lib/probecost/libprobecost-delay.so /usr/lib/libprobecost.a \
	/usr/lib/libprobecost.so /usr/include/probecost/counters.h /usr/lib/pkgconfig/probecost.pc \
	/usr/share/man/man1/probecost.1 /usr/share/man/man1/probecost-run.1 \
	/usr/share/bash-completion/completions/probecost; do
	[ -e "$root$f" ] || echo "# missing: $f"
done >"$tmp/missing"
is "$(cat "$tmp/missing")" "" "binary, delay shim, library, header, .pc, man pages and completion are installed"

out=$("$root/usr/bin/probecost" --version 2>&1)
is "$out" "probecost $(cat VERSION)" "the installed binary runs"
like "$(strings "$root/usr/bin/probecost" | grep -x '/usr/lib/probecost')" '^/usr/lib/probecost$' \
	"the installed binary looks for the delay shim under PREFIX=/usr"
like "$(grep '^prefix=' "$root/usr/lib/pkgconfig/probecost.pc")" '^prefix=/usr$' "probecost.pc says prefix=/usr"
is "$(readlink "$root/usr/lib/libprobecost.so")" "libprobecost.so.0" "libprobecost.so links to the soname"
pages=("$root"/usr/share/man/man1/probecost*.1) sources=(docs/man/*.1.scd)
is "${#pages[@]}" "${#sources[@]}" \
	"one man page per docs/man source"

# ---- the example, built against the installed library ----------------------
pc() { PKG_CONFIG_PATH=$root/usr/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root pkg-config "$@" probecost; }
flags=$(pc --cflags --libs | sed "s/ *$//")
is "$flags" "-I$root/usr/include -L$root/usr/lib -lprobecost" "pkg-config --cflags --libs probecost points into DESTDIR"
is "$(pc --modversion)" "$(cat VERSION)" "pkg-config --modversion is the project's version"
ex=$root/usr/share/doc/probecost/examples/time-region.c
# shellcheck disable=SC2086 # flags are words
cc -O2 -Wall -Werror -o "$tmp/ex-shared" "$ex" $flags 2>"$tmp/cc.log"
is "$?" 0 "the installed example builds against the shared library"
like "$(readelf -d "$tmp/ex-shared" 2>/dev/null | grep NEEDED)" 'libprobecost\.so\.0' "and needs libprobecost.so.0"
# shellcheck disable=SC2046,SC2086
cc -O2 -Wall -Werror -o "$tmp/ex-static" "$ex" $(pc --cflags) "$root/usr/lib/libprobecost.a" \
	$(pc --static --libs) 2>>"$tmp/cc.log"
ok $? "and against the static one ($(pc --static --libs | grep -o -- '-lpfm'))"
[ -s "$tmp/cc.log" ] && sed 's/^/# /' "$tmp/cc.log"

small=$(LD_LIBRARY_PATH=$root/usr/lib "$tmp/ex-shared" 100000 2>&1)
large=$(LD_LIBRARY_PATH=$root/usr/lib "$tmp/ex-shared" 10000000 2>&1)
like "$small" $'^method: (rdpmc|perf-read|clock_gettime) \\(' "the example says which read it used"
n_small=$(printf '%s\n' "$small" | sed -n 's/^region: \([0-9]*\) .*/\1/p')
n_large=$(printf '%s\n' "$large" | sed -n 's/^region: \([0-9]*\) .*/\1/p')
ok "$([ "${n_small:-0}" -gt 0 ] && [ "${n_large:-0}" -gt $((n_small * 10)) ]; echo $?)" \
	"it measured the region: 100k iterations $n_small, 10M iterations $n_large (> 10x)"
method=$(printf '%s\n' "$small" | sed -n 's/^method: \([a-z_-]*\).*/\1/p')
rdpmc=$(cat /sys/bus/event_source/devices/cpu/rdpmc 2>/dev/null)
if [ ! -e /sys/bus/event_source/devices/cpu ]; then
	like "$method" '^(perf-read|clock_gettime)$' "no CPU PMU in sysfs: rdpmc not claimed (got $method)"
elif [ "${rdpmc:-0}" != 0 ]; then
	is "$method" rdpmc "a CPU PMU with rdpmc=$rdpmc in sysfs: the example reads with rdpmc"
else
	like "$method" '^(perf-read|clock_gettime)$' "rdpmc disabled in sysfs: rdpmc not claimed (got $method)"
fi
static=$("$tmp/ex-static" 100000 2>&1)
like "$static" $'^method: .*\nregion: [1-9][0-9]* ' "the statically linked example runs and measures"

mk uninstall >"$tmp/uninstall.log" 2>&1
is "$(installed)" "" "make uninstall leaves no file or link behind"
left=""
for d in /usr/include/probecost /usr/lib/probecost /usr/share/doc/probecost; do
	[ -d "$root$d" ] && left="$left $d"
done
is "$left" "" "and removes probecost's own directories"
done_testing
