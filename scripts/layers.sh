#!/bin/bash
# layers.sh [ROOT]: check that no #include under ROOT/src/ (default: this tree)
# runs back up the layer order of src/README.md (its "layer:" lines, top to
# bottom), and print the include graph by room: "FROM -> TO (N includes)".
# Exit 1 on an include that runs up, or that names a room the order does not know.
set -eu
cd "${1:-$(dirname "$0")/..}"

declare -A level=()
n=0
while read -r _ rooms; do
	for r in $rooms; do level[$r]=$n; done
	n=$((n + 1))
done < <(grep -E '^ *layer:' src/README.md)
[ ${#level[@]} -gt 0 ] || { echo "layers: no 'layer:' lines in src/README.md" >&2; exit 1; }

# The room of a file under src/: its first folder, or "main" for src/main.c.
room_of() {
	local p=${1#src/}
	case $p in */*) echo "${p%%/*}" ;; *) echo "${p%.[ch]}" ;; esac
}

bad=0
declare -A edges=()
while IFS=: read -r file _ inc; do
	inc=${inc#*\"}
	inc=${inc%%\"*}
	case $inc in */*) ;; *) continue ;; esac # generated headers (build/gen) have no room
	from=$(room_of "$file")
	to=${inc%%/*}
	if [ -z "${level[$from]+x}" ] || [ -z "${level[$to]+x}" ]; then
		echo "layers: $file includes \"$inc\": room '$from' or '$to' is not in src/README.md" >&2
		bad=1
		continue
	fi
	if [ "${level[$to]}" -lt "${level[$from]}" ]; then
		echo "layers: $file includes \"$inc\": $from may not include $to (it is above)" >&2
		bad=1
	fi
	[ "$from" = "$to" ] || edges["$from -> $to"]=$((${edges["$from -> $to"]:-0} + 1))
done < <(grep -rn --include='*.[ch]' -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src)

echo "# include graph by room (make layers)"
for e in "${!edges[@]}"; do
	f=${e%% -> *}
	echo "${level[$f]} $e (${edges[$e]})"
done | sort -n -k1,1 -k2,2 -k4,4 | cut -d' ' -f2-
if [ $bad -ne 0 ]; then
	echo "layers: FAILED: includes run back up the order of src/README.md" >&2
	exit 1
fi
echo "# layers: ok, nothing runs back up"
