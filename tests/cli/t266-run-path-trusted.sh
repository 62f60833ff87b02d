#!/bin/bash
# parallel-safe
# t266: as root, programs are looked up only in directories nobody but root can change (as
# sudo's secure_path): a directory of nobody's first in $PATH, holding an strace of
# nobody's, is left out with one warning, and the real strace runs (before: nobody's ran,
# as root).  A root-owned directory stays.
. "$(dirname "$0")/lib.bash"
plan 4
is_root || skip_rest "needs root"
have strace || skip_rest "strace not installed"
id nobody >/dev/null 2>&1 || skip_rest "needs user nobody"
tmpdir
chmod 755 "$T"
mkdir -m 1777 "$T/ww"
mkdir "$T/ww/bin" "$T/rootbin"
chown nobody "$T/ww/bin"
# nobody's strace: says so in a file, then runs the real one.
printf '#!/bin/sh\ntouch %s/ran\nexec /usr/bin/strace "$@"\n' "$T" > "$T/ww/bin/strace"
chmod 755 "$T/ww/bin/strace"
chown nobody "$T/ww/bin/strace"
printf '#!/bin/sh\nexit 0\n' > "$T/rootbin/pcost-t266-true"
chmod 755 "$T/rootbin/pcost-t266-true"
# LeakSanitizer cannot run under ptrace, and the empty program strace wraps beside the
# command (its start-up) is this binary.
[ -n "${PROBECOST_SAN:-}" ] && export ASAN_OPTIONS=detect_leaks=0
PATH="$T/ww/bin:$T/rootbin:$PATH" run_pc run --runs 1 --warmup 0 -m strace --no-store --format json -- pcost-t266-true
is "$rc" 0 "run -m strace with nobody's directory first in PATH: exit 0"
ok "$([ ! -e "$T/ran" ]; echo $?)" "nobody's strace did not run"
is "$(printf '%s\n' "$err" | grep -c "warning: left out of \$PATH, as users other than root can change them: $T/ww/bin ")" 1 \
	"one warning names the directory left out"
is "$(jq -r '.statistics[] | select(.monitor == "strace" and .workload == "command") | .outcome' <<< "$out")" ok \
	"a command in a root-owned directory of PATH still runs, under the real strace"
done_testing
