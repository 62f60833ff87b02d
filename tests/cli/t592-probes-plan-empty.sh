#!/bin/bash
# A method asked for with --via that can arm none of the --variants built measured
# nothing: `probes --via lttng --variants plain` printed a table of dormant rows alone
# and exited 0.  Now one line naming the method and the variants, exit 2.
. tests/cli/lib.bash
plan 2
if ! is_root || ! have lttng-sessiond || ! have babeltrace2 || ! pkg-config --exists lttng-ust; then
	skip_rest "lttng must be available (root, lttng-tools, babeltrace2, liblttng-ust-dev) to be asked for"
fi
one_line_exit2 "probes --via lttng --variants plain" timeout 60 "$P" probes --no-store --via lttng \
	--variants plain --scale 1 -r 1 --warmup 0
err=$("$P" probes --no-store --via lttng --variants plain --scale 1 -r 1 --warmup 0 2>&1 >/dev/null)
like "$err" "lttng.*--variants.*lttng" "it says which build lttng arms ($err)"
done_testing
