#!/bin/bash
# stap-bpf (SystemTap's BPF runtime): `probecost list` names exactly what the
# machine lacks; where those needs are met (here: debugfs in a private mount
# namespace, and stapbpf's RLIMIT_MEMLOCK demand waved through by a preloaded
# setrlimit that succeeds), an armed run counts every hit and removes the
# build tree it wrote from /proc/config.gz.
. tests/cli/lib.bash
P=$PROBECOST
plan 4
if ! command -v stap >/dev/null; then
	for i in 1 2 3 4; do skip "no stap (Debian package systemtap)"; done
	done_testing
fi
row=$("$P" list probes 2>/dev/null | grep -A1 -E '^  stap-bpf ')
if [ -w /sys/kernel/debug/tracing/uprobe_events ]; then
	ok "$(! printf '%s' "$row" | grep -q debugfs; echo $?)" "debugfs is there: not given as a reason"
else
	like "$row" "mount debugfs on /sys/kernel/debug" "no debugfs here: the reason says so"
fi
if prlimit --memlock=unlimited:unlimited true 2>/dev/null; then
	ok "$(! printf '%s' "$row" | grep -q CAP_SYS_RESOURCE; echo $?)" "RLIMIT_MEMLOCK can be raised: not a reason"
else
	like "$row" "needs CAP_SYS_RESOURCE" "RLIMIT_MEMLOCK cannot be raised here: the reason says so"
fi
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || ! command -v gcc >/dev/null ||
	[ ! -r /proc/config.gz ] || [ -n "${PROBECOST_SAN:-}" ]; then
	skip "an armed run needs root, unshare, gcc, /proc/config.gz (and no sanitizer: LD_PRELOAD)"
	skip "idem"
	done_testing
fi
tmp=$(mktemp -d); on_exit 'rm -rf "$tmp"'
printf '#include <sys/resource.h>\nint setrlimit(__rlimit_resource_t r, const struct rlimit *l)\n{ (void)r; (void)l; return 0; }\n' >"$tmp/shim.c"
gcc -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c"
before=$(ls -d /tmp/probecost-stapbpf-* 2>/dev/null)
# debugfs in the private namespace, unless the machine has it mounted already.
out=$(unshare --mount --propagation private bash -c '{ mountpoint -q /sys/kernel/debug || mount -t debugfs nodev /sys/kernel/debug; } &&
	LD_PRELOAD="$1" "$2" probes --via stap-bpf --variants plain --kernel towers --scale 2 -r 1 \
		--warmup 0 --cpu 0 --no-store --format json' _ "$tmp/shim.so" "$P" 2>/dev/null)
is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "stap-bpf") | .hits_counted, .hits_lost]')" \
	"[32766,0]" "stap --runtime=bpf counted 2 x 16383 towers hits"
is "$(ls -d /tmp/probecost-stapbpf-* 2>/dev/null)" "$before" "the synthesized build tree is gone"
done_testing
