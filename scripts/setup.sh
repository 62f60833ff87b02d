#!/bin/bash
# setup.sh: install the Debian packages probecost needs (from packages.txt), then build.
#
#   scripts/setup.sh          install what is missing, then build ./probecost
#   scripts/setup.sh --deps   only install what is missing
#
# As root it runs apt-get itself; otherwise it prints the exact apt-get line and stops.
set -eu
cd "$(dirname "$0")/.."

deps_only=0
case "${1:-}" in
--deps) deps_only=1 ;;
"") ;;
-h | --help)
	sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
*)
	echo "setup.sh: unknown option '$1' (use --deps or nothing)" >&2
	exit 2
	;;
esac

mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' packages.txt | grep -v '^$')
missing=()
for p in "${wanted[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "probecost needs these Debian packages; as root run:" >&2
		echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	echo "setup.sh: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

[ "$deps_only" -eq 1 ] && exit 0
make -j"$(nproc)" probecost >&2
