#!/bin/bash
# parallel-safe
# probes --list: the SDT notes of probecost itself and of a system library, and bad input.
. "$(dirname "$0")/lib.bash"
plan 11
out=$("$P" probes --list "$P" --format csv)
# 4 stanford providers x 9 kernels and the 6 probes of sdtargs, in 4 site encodings each.
is "$(echo "$out" | tail -n +2 | wc -l)" 168 "168 probes ((4 providers x 9 kernels + 6) x 4 encodings)"
# The semaphore variants have a semaphore and its file offset; the others none.
sem=$(echo "$out" | awk -F, '$1 ~ /_sem$/ && $5 != "0x0" && $6 != "0x0"' | wc -l)
nosem=$(echo "$out" | awk -F, '($1 == "stanford_plain" || $1 == "stanford_volatile") && $5 == "0x0"' | wc -l)
is "$sem/$nosem" 18/18 "semaphores on exactly the *_sem providers"
# The pc offset points at the probe's nop (0x90) in the file.
off=$(echo "$out" | awk -F, '$1 == "stanford_plain" && $2 == "towers" {print $4}')
is "$(od -An -tx1 -j $((off)) -N1 "$P" | tr -d ' ')" 90 "stanford_plain:towers offset $off holds a nop"
lib=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
if [ -r "$lib" ] && readelf -n "$lib" 2>/dev/null | grep -q stapsdt; then
	want=$(readelf -n "$lib" | grep -c 'Provider:')
	got=$("$P" probes --list "$lib" --format csv | tail -n +2 | wc -l)
	is "$got" "$want" "$lib: as many probes as readelf -n"
else
	skip "no libstdc++ with SDT notes here"
fi
tmpdir
tmp=$T
printf '#!/bin/sh\necho hi\n' > "$tmp/script"; chmod +x "$tmp/script"
one_line_exit2 "not an ELF file" "$P" probes --list "$tmp/script"
one_line_exit2 "no SDT notes" "$P" probes --list /bin/true
one_line_exit2 "no such file" "$P" probes --list "$tmp/nonexistent"
head -c 3000 "$P" > "$tmp/truncated"
one_line_exit2 "truncated ELF" "$P" probes --list "$tmp/truncated"
one_line_exit2 "--list with a command" "$P" probes --list "$P" -- /bin/true
# A command that cannot be executed: refused before any probe is registered (it
# registered them, ran nothing and exited 1, "every configuration failed").
one_line_exit2 "--binary with a command that cannot be executed" "$P" probes --no-store \
	--binary "$P" --probe pcost_args:a0 -- "$tmp/nonexistent"
# 2 *_sem providers x 9 kernels x 4 encodings; dtrace -G gives sdtargs' 6 probes one each,
# in each of its 4 encodings.
is "$("$P" probes --list "$P" --format json | jq '[.[] | select(.semaphore_offset > 0)] | length')" 96 \
	"JSON list: 96 probes with a semaphore offset"
done_testing
