#!/bin/bash
# pgbench-p99: pgbench with its per-transaction log (-l) in a private temporary
# directory, then the 99th percentile of those latencies, printed as
# "latency p99 = X us" after pgbench's own output (pgbench prints no percentile).
# Use: pgbench-p99.bash PGBENCH-ARGS...   (what probecost runs as the load generator)
set -u
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
(cd "$d" && pgbench -l --log-prefix="$d/tx" "$@")
rc=$?
[ $rc = 0 ] || exit $rc
# Each line: client transaction latency_us script epoch_s epoch_us (pgbench(1), -l).
cat "$d"/tx* | awk '{ print $3 }' | sort -n | awk '{ v[NR] = $1 } END {
	if (!NR) exit 1
	k = int(0.99 * NR + 0.999999); if (k < 1) k = 1
	printf "latency p99 = %d us\n", v[k] }'
