#!/bin/bash
# layers.sh [ROOT]: check that no #include under ROOT/src/ (default: this tree)
# runs back up the layer order of src/README.md (its "layer:" lines, top to
# bottom), and print the include graph by room: "FROM -> TO (N includes)".
# Exit 1 on an include that runs up, on a room the order does not know, and on
# a loop between rooms of one level (a includes b, b includes a, directly or
# through others on that level): sideways includes go one way only.  Nor may the
# files of one room include each other in a loop, a file and its header counting
# as one (a.c includes b.h, b.c includes a.h): what is shared goes one way.
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

# loops < "FROM TO" lines: each loop tsort(1) finds, as "A -> B -> A".
loops() {
	tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | awk '
		/input contains a loop:$/ { if (n) print path " -> " first; n = 0; next }
		{ if (!n) { first = $0; path = $0 } else path = path " -> " $0; n++ }
		END { if (n) print path " -> " first }'
}

bad=0
declare -A edges=() via=() fedges=() fvia=()
while IFS=: read -r file _ inc; do
	inc=${inc#*\"}
	inc=${inc%%\"*}
	case $inc in */*) ;; *) continue ;; esac # generated headers (build/gen) have no room
	from=$(room_of "$file")
	to=${inc%%/*}
	f=${file#src/} t=$inc
	f=${f%.[ch]} t=${t%.[ch]}
	if [ "$from" = "$to" ] && [ "$f" != "$t" ]; then
		fedges["$f $t"]=1
		[ -n "${fvia["$f -> $t"]+x}" ] || fvia["$f -> $t"]="$file includes \"$inc\""
	fi
	if [ -z "${level[$from]+x}" ] || [ -z "${level[$to]+x}" ]; then
		echo "layers: $file includes \"$inc\": room '$from' or '$to' is not in src/README.md" >&2
		bad=1
		continue
	fi
	if [ "${level[$to]}" -lt "${level[$from]}" ]; then
		echo "layers: $file includes \"$inc\": $from may not include $to (it is above)" >&2
		bad=1
	fi
	[ "$from" = "$to" ] && continue
	edges["$from -> $to"]=$((${edges["$from -> $to"]:-0} + 1))
	[ -n "${via["$from -> $to"]+x}" ] || via["$from -> $to"]="$file includes \"$inc\""
done < <(grep -rn --include='*.[ch]' -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src)

# Sideways includes: a loop between rooms of one level fails, with the files
# that make each step of it.
while read -r cycle; do
	echo "layers: rooms of one level include each other: $cycle" >&2
	read -ra r <<<"${cycle// -> / }"
	for ((i = 0; i + 1 < ${#r[@]}; i++)); do
		echo "layers:   ${via["${r[i]} -> ${r[i + 1]}"]}" >&2
	done
	bad=1
done < <(for e in "${!edges[@]}"; do
	f=${e%% -> *} t=${e##* -> }
	[ "${level[$f]}" = "${level[$t]}" ] && echo "$f $t"
done | loops)

# Files of one room in a loop (FILE: the file and its header, without .c/.h).
while read -r cycle; do
	read -ra r <<<"${cycle// -> / }"
	echo "layers: files of one room include each other: $cycle" >&2
	for ((i = 0; i + 1 < ${#r[@]}; i++)); do
		echo "layers:   ${fvia["${r[i]} -> ${r[i + 1]}"]}" >&2
	done
	bad=1
done < <(printf '%s\n' "${!fedges[@]}" | loops)

echo "# include graph by room (make layers)"
for e in "${!edges[@]}"; do
	f=${e%% -> *}
	echo "${level[$f]} $e (${edges[$e]})"
done | sort -n -k1,1 -k2,2 -k4,4 | cut -d' ' -f2-
if [ $bad -ne 0 ]; then
	echo "layers: FAILED: includes run back up the order of src/README.md, or in a loop" >&2
	exit 1
fi
echo "# layers: ok, nothing runs back up, no loop"
