# shellcheck shell=bash
# tracefs.bash (sourced by lib.bash, before any output): where tracefs is not mounted
# (a freshly booted machine) and we are root, run the test again in a private mount
# namespace with tracefs mounted there, so that the tests that read tracefs themselves
# (uprobe_events, instances) run instead of skipping, and the machine's own mounts
# stay as they are.  PCOST_TEST_NO_TRACEFS_NS=1 keeps the machine's state (t260 makes
# its own unmounted namespace).
if ! grep -q ' /sys/kernel/tracing tracefs ' /proc/self/mounts && [ -z "$PCOST_TEST_TRACEFS_NS" ] &&
	[ -z "$PCOST_TEST_NO_TRACEFS_NS" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	grep -qw tracefs /proc/filesystems; then
	PCOST_TEST_TRACEFS_NS=1 exec unshare --mount --propagation private bash -c \
		'mount -t tracefs nodev /sys/kernel/tracing && exec bash "$0" "$@"' "$0" "$@"
fi
