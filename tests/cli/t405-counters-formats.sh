#!/bin/bash
# t405: csv and markdown carry the same series as json; text shows the skipped list.
P="${PROBECOST:-./probecost}"
echo "1..3"
args=(counters --interfaces perf-group,rdtsc --events 1 --iterations 16 --warmup 2 --no-store)
csv=$("$P" "${args[@]}" --format csv 2>/dev/null)
hdr=$(echo "$csv" | head -1)
rows=$(echo "$csv" | tail -n +2 | wc -l)
if [ "$hdr" = "interface,op,k,events,timer,n,min_ns,median_ns,mean_ns,sd_ns,p99_ns,max_ns,min_cyc,median_cyc,mean_cyc,sd_cyc,p99_cyc,max_cyc,per_read_ns,note" ] && [ "$rows" = 5 ]; then
	echo "ok 1 - csv header and 5 rows"
else
	echo "not ok 1 - csv: '$hdr' with $rows rows"
fi
md=$("$P" "${args[@]}" --format markdown 2>/dev/null)
n=$(echo "$md" | grep -c '^| perf-group | ')
[ "$n" = 4 ] && echo "ok 2 - markdown: 4 perf-group rows" || echo "not ok 2 - markdown has $n perf-group rows"
txt=$("$P" counters --interfaces perf-mmap,empty --events 1 --iterations 8 --no-store 2>/dev/null)
if echo "$txt" | grep -q "^  empty "; then
	if echo "$txt" | grep -q "perf-mmap"; then echo "ok 3 - text lists perf-mmap (measured or skipped)"
	else echo "not ok 3 - perf-mmap missing from text"; fi
else
	echo "not ok 3 - no empty row in text"
fi
