#!/bin/bash
# parallel-safe
# t021: libprobecost is the counters library alone: its shared object exports
# exactly the functions include/probecost/*.h declares, needs no symbol of the
# CLI, and carries the soname the .pc and the links name.
. "$(dirname "$0")/lib.bash"
plan 5

so=build/lib/libprobecost.so
a=build/lib/libprobecost.a
if [ ! -e "$so" ] || [ ! -e "$a" ]; then
	for i in 1 2 3 4 5; do skip "build/lib not built (make)"; done
	done_testing
fi
declared=$(perl -0pe 's{/\*.*?\*/}{}gs' include/probecost/*.h | grep -oE '\bpcost_[a-z0-9_]+\(' | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$so" | awk '$2 == "T" {print $3}' | sed 's/@.*//' | sort -u)
is "$exported" "$declared" "the .so exports exactly the functions the public headers declare"
is "$(nm -D --undefined-only "$so" | grep -c ' pcost_')" 0 "the .so needs no other pcost_ symbol"
is "$(nm -u "$a" | grep ' pcost_' | awk '{print $2}' | sort -u | comm -23 - <(nm --defined-only "$a" | awk '{print $3}' | sort -u) | tr '\n' ' ')" "" \
	"every pcost_ symbol the .a uses, it defines (no CLI code pulled in)"
like "$(readelf -d "$so" | grep SONAME)" '\[libprobecost\.so\.0\]' "soname libprobecost.so.0"
like "$(readelf -d "$so" | grep NEEDED | tr '\n' ' ')" 'libpfm\.so' "it links libpfm4 itself (no undefined libpfm symbols left to the program)"
done_testing
