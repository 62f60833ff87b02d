#!/bin/bash
# parallel-safe
# t405: csv and markdown carry the same series as json; text shows the skipped list.
. "$(dirname "$0")/lib.bash"
plan 3
args=(counters --interfaces perf-group,rdtsc --events 1 --iterations 16 --warmup 2 --no-store)
csv=$("$P" "${args[@]}" --format csv 2>/dev/null)
is "$(printf '%s\n' "$csv" | head -1) $(printf '%s\n' "$csv" | tail -n +2 | wc -l)" \
	"interface,op,k,events,timer,n,min_ns,median_ns,mean_ns,sd_ns,p99_ns,max_ns,min_cyc,median_cyc,mean_cyc,sd_cyc,p99_cyc,max_cyc,per_read_ns,note 5" \
	"csv header and 5 rows"
md=$("$P" "${args[@]}" --format markdown 2>/dev/null)
is "$(printf '%s\n' "$md" | grep -c '^| perf-group | ')" 4 "markdown: 4 perf-group rows"
# shellcheck disable=SC2034 # $txt: read by assert's eval
txt=$("$P" counters --interfaces perf-mmap,empty --events 1 --iterations 8 --no-store 2>/dev/null)
assert "text lists the empty row and perf-mmap (measured or skipped)" \
	'printf "%s\n" "$txt" | grep -q "^  empty " && [[ "$txt" == *perf-mmap* ]]'
done_testing
