#!/bin/bash
# probes --scale 1,3: hits expected and counted scale exactly, and the fit section appears.
P="${PROBECOST:-./probecost}"
echo "1..3"
if [ "$(id -u)" != 0 ]; then
	for i in 1 2 3; do echo "ok $i # skip needs root (uprobes)"; done; exit 0
fi
args=(--via uprobe --variants plain --kernel towers --scale 1,3 --runs 2 --warmup 0 --cpu 0 --no-store)
csv=$("$P" probes "${args[@]}" --format csv 2>/dev/null)
one=$(echo "$csv" | awk -F, '$2 == "uprobe" {print $12 "/" $13}' | sort | tr '\n' ' ')
[ "$one" = "16383/16383 49149/49149 " ] && echo "ok 1 - 16383 and 3 x 16383 hits expected and counted" \
	|| echo "not ok 1 - got '$one'"
txt=$("$P" probes "${args[@]}" 2>/dev/null)
echo "$txt" | grep -qE "^  plain x3 +uprobe " && echo "ok 2 - rows labelled by scale" \
	|| { echo "not ok 2 - no 'plain x3' row"; echo "$txt" | sed 's/^/# /'; }
echo "$txt" | grep -A2 "^# fit over the scales" | grep -qE "^  plain +uprobe +-?[0-9.]+ ms +[0-9]+ ns" \
	&& echo "ok 3 - fit: fixed + per hit" || { echo "not ok 3 - no fit row"; echo "$txt" | sed 's/^/# /'; }
