#!/bin/bash
# parallel-safe
# long: make deb, lintian, apt-get install, a playbook run and purge (45-110 s; man-db's triggers)
# no-sanitizer: the package holds the tree's plain build, not $PROBECOST
# t025: make deb builds build/deb/probecost_VERSION_amd64.deb (lintian: no errors) with the
# binary, man pages, completion, library, header and probecost.pc; its Depends are
# computed and name none of the libraries probecost loads at run time; apt-get installs
# it, /usr/bin/probecost runs (and finds its delay shim under /usr/lib/probecost), and
# the fleet playbook, given the .deb, copies it over and calibrates with the installed
# binary; it is purged again, leaving the machine as it was.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/fleet.bash"
plan 16

V=$(cat VERSION)
DEB=build/deb/probecost_${V}_amd64.deb
is_root || skip_rest "not root: apt-get install needs root"
for t in dpkg-buildpackage dh lintian apt-get; do
	have "$t" || skip_rest "$t is not installed (apt-get install debhelper lintian)"
done
# A probecost installed by anyone else (a package, make install PREFIX=/usr) stays as it was.
dpkg-query -W -f='${Status}' probecost 2>/dev/null | grep -q 'install ok' &&
	skip_rest "the probecost package is installed already: the test would replace it"
[ -e /usr/bin/probecost ] && skip_rest "/usr/bin/probecost exists (not from a package): the test would replace it"
tmpdir

# ---- the package ---------------------------------------------------------------
env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s deb >"$T/deb.log" 2>&1
rc=$?
is "$rc" 0 "make deb builds the package and lintian reports no error" ||
	sed 's/^/# /' "$T/deb.log" | tail -20
[ -f "$DEB" ] || skip_rest "no $DEB"
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' >"$T/files"
for f in /usr/bin/probecost /usr/lib/probecost/libprobecost-delay.so /usr/include/probecost/counters.h \
	/usr/lib/x86_64-linux-gnu/pkgconfig/probecost.pc /usr/lib/x86_64-linux-gnu/libprobecost.so.0 \
	/usr/lib/x86_64-linux-gnu/libprobecost.a /usr/share/bash-completion/completions/probecost \
	/usr/share/doc/probecost/copyright $(for m in docs/man/*.scd; do
		m=${m##*/} m=${m%.scd}; echo "/usr/share/man/man${m##*.}/$m.gz"; done); do
	grep -qxF "$f" "$T/files" || echo "$f"
done >"$T/missing"
is "$(cat "$T/missing")" "" "it holds the binary, the delay shim, header, library, probecost.pc, completion and every man page"

debf() { dpkg-deb -f "$DEB" "$1"; }
# The libraries probecost dlopens, by the package names its sources give them.
loaded=$(sed -n 's/^PCOST_DL_LIBRARY(\([a-z0-9_]*\), "[^"]*", "\([^"]*\)".*/\2/p' src/*/*_dl.c | grep -vx libpfm4)
hard=$(for p in $loaded liblttng-ust1; do debf Depends | tr ',' '\n' | grep -qw "$p" && echo "$p"; done)
is "$hard" "" "no library loaded at run time (${loaded//$'\n'/ }, liblttng-ust1) is a Depends"
soft=$(for p in $loaded; do debf Recommends | tr ',' '\n' | grep -qw "$p" || debf Suggests | tr ',' '\n' | grep -qw "$p" || echo "$p"; done)
is "$soft" "" "each of them is recommended or suggested"
like "$(debf Depends)" 'libsqlite3-0 \(>= [0-9.]+\).*libtracefs1 \(>= ' "Depends is computed from the linked libraries (versioned)"
like "$(debf Recommends)" '(^|, )strace, linux-perf, bpftrace(,|$)' "the tracers are recommended"

# ---- installed ------------------------------------------------------------------
inst=$(apt-get -s install --no-install-recommends "./$DEB" 2>&1 | sed -n 's/^Inst \([^ ]*\).*/\1/p' | tr '\n' ' ')
[ "$inst" = "probecost " ] || skip_rest "apt-get would install more than probecost ($inst): this machine lacks its libraries"
# Purged below; again on exit where a failure left dpkg any state of it (apt-get is slow
# to start: a second purge took 0.6 s when there was nothing to do).
# shellcheck disable=SC2317 # run by the EXIT trap
held() { case $(dpkg-query -W -f='${db:Status-Status}' probecost 2>/dev/null) in "" | not-installed) return 1 ;; esac; }
on_exit 'held && apt-get purge -y -q -o DPkg::Lock::Timeout=120 probecost >/dev/null 2>&1'
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=120 \
	"./$DEB" >"$T/apt.log" 2>&1
is "$?" 0 "apt-get install ./$DEB" || sed 's/^/# /' "$T/apt.log" | tail -10
is "$(/usr/bin/probecost --version 2>&1)" "probecost $V" "/usr/bin/probecost --version"
list=$(/usr/bin/probecost list 2>&1)
like "$list" '^  delay +preload +yes ' "/usr/bin/probecost list runs and finds the delay shim in /usr/lib/probecost"
is "$(readelf -d /usr/bin/probecost | grep -cE 'NEEDED.*(libpq|capstone|cairo|papi|pfm)')" 0 \
	"the binary links none of the libraries it loads at run time"
is "$(pkg-config --modversion probecost 2>&1)" "$V" "pkg-config finds the installed probecost.pc"

# ---- the playbook, given the package (installed already: apt changes nothing) -------
if have ansible-playbook; then
	[ -e /var/cache/probecost ] || on_exit 'rm -rf /var/cache/probecost'
	fleet_setup
	playbook 1 -e "{\"probecost_deb\": \"$PWD/$DEB\", \"probecost_tracers\": [], \"probecost_db_url\": \"$T/s.db\",
		\"probecost_monitors\": [\"inject:event=2000,fixed=0\"], \"probecost_calibrate_args\": [\"--runs\", 2]}"
	is "$rc $(said 1)" "0 localhost: cost table 1 (calibrated now)" \
		"the playbook with probecost_deb calibrates with /usr/bin/probecost"
	is "$(task 1 'Copy the package') $(task 1 'Install the package') $(task 1 Calibrate)" "changed ok changed" \
		"it copied the package over, apt left it as installed, calibrate ran"
	cmp -s "$DEB" "/var/cache/probecost/${DEB##*/}"
	ok $? "the package is in /var/cache/probecost"
else
	for i in 1 2 3; do skip "ansible-playbook is not installed (apt-get install ansible-core)"; done
fi
DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o DPkg::Lock::Timeout=120 probecost >"$T/purge.log" 2>&1
is "$?" 0 "apt-get purge probecost" || sed 's/^/# /' "$T/purge.log" | tail -10
left=$(for f in /usr/bin/probecost /usr/lib/probecost /usr/include/probecost /usr/share/doc/probecost; do
	[ -e "$f" ] && echo "$f"; done)
is "$left$(dpkg-query -W -f='${Status}' probecost 2>/dev/null | grep 'install ok')" "" \
	"purged: no file left, the package not installed"
done_testing
