#!/bin/bash
# parallel-safe: it arms nothing (dormant sessions), from a copy of probecost with a state
#   directory of its own (own_probecost: it never waits for another probes session's lock)
# t546: the stanford code layouts really move the code (each copy of a build has bytes of its
# own, and its functions sit elsewhere in their cache lines), and probes --layouts measures
# exactly the layouts asked.
. "$(dirname "$0")/lib.bash"
own_probecost || { plan 1; not_ok "a copy of $PROBECOST of its own"; done_testing; }
plan 6
layouts="a32 a64 a16 a8 noalign pad16 pad24 pad40 bbsimple"
obj=build/obj/stanford
if ! have nm || ! have objcopy; then
	skip "binutils (nm, objcopy) not installed"
	skip "binutils (nm, objcopy) not installed"
elif [ ! -e "$obj/kernels_plain_bbsimple.o" ]; then
	skip "the layout objects are not built here ($obj)"
	skip "the layout objects are not built here ($obj)"
else
	tmpdir
	same='' offsets=''
	for v in none plain volatile plain_sem volatile_sem; do
		sums='' sigs=''
		for l in default $layouts; do
			o=$obj/kernels_$v.o
			[ "$l" = default ] || o=$obj/kernels_${v}_$l.o
			objcopy -O binary -j .text "$o" "$T/text"
			sums+="$(md5sum <"$T/text" | cut -c1-32)"$'\n'
			# Each function's offset in its 64-byte line (the sections are 64-aligned or
			# less, so an equal signature means an equal placement in the binary's lines).
			sigs+="$(nm -n --defined-only "$o" | awk '$2 ~ /^[tT]$/ && $3 !~ /^\./ {
				printf "%s:%d ", $3, ("0x" $1) % 64 }' 2>/dev/null)"$'\n'
		done
		[ "$(printf '%s' "$sums" | sort -u | wc -l)" = 10 ] || same+="$v "
		[ "$(printf '%s' "$sigs" | sort -u | wc -l)" = 10 ] || offsets+="$v "
	done
	is "$same" "" "every build's 10 layout copies have 10 different .text contents"
	is "$offsets" "" "and 10 different placements of their functions in the cache lines"
fi
run_pc probes --via dormant --variants none,plain --kernel towers --scale 1 --layouts a16,pad24 \
	--runs 2 --warmup 0 --cpu 0 --no-store --format json
is "$rc" 0 "probes --layouts a16,pad24: exit 0"
is "$(printf '%s' "$out" | jq -r '[.statistics[].workload_args | capture("layout=(?<l>[a-z0-9]+)").l] | sort | join(",")')" \
	"a16,a16,pad24,pad24" "exactly the layouts asked, for each build"
is "$(printf '%s' "$out" | jq '[.statistics[] | select(.variant == "plain") | .dormant_layouts] | unique | .[0]')" 2 \
	"plain's figure is over those 2 layouts"
one_line_exit2 "--layouts a7" "$P" probes --via dormant --layouts a7 --no-store
done_testing
