#!/bin/bash
# named-files.sh [ROOT]: every source file a comment under ROOT/src/ names by
# its path (ROOM/NAME.c or .h, ROOM a folder of src/, or tests/, bench/) exists,
# under src/ or at the root, so that a comment does not point at a file that
# moved.  Paths under other first folders (linux/, sys/, kernel/) name files of
# other projects and are not checked.  Exit 1 naming each one missing.
set -eu
cd "${1:-$(dirname "$0")/..}"

declare -A ours=([tests]=1 [bench]=1)
for d in src/*/; do
	d=${d%/}
	ours[${d#src/}]=1
done

bad=0
while IFS=: read -r file line path; do
	top=${path%%/*}
	[ -n "${ours[$top]+x}" ] || continue
	[ -e "src/$path" ] || [ -e "$path" ] || {
		echo "named-files: $file:$line names $path, which does not exist" >&2
		bad=1
	}
done < <(grep -rnoE --include='*.[ch]' '(^|[^A-Za-z0-9_./-])[a-z_]+/[A-Za-z0-9_./-]+\.[ch]\b' src |
	sed -E 's/^([^:]*:[0-9]+:)[^a-z_]?/\1/')
[ $bad -eq 0 ] || { echo "named-files: FAILED: rename the path in the comment" >&2; exit 1; }
