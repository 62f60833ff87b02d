#!/bin/bash
# parallel-safe
# t312: two hand-made sessions with known answers (tests/cli/data/gen-carry-skew.py made them):
# run-carry-over.json, where every run right after a strace run takes 5% longer and perf-stat
# leaves nothing behind; run-skew.json, where strace costs 20% in 15 blocks of 16 and 200% in
# one.  The carry-over figure recovers the 5% and warns; the robust companion recovers the
# 20% the mean misses, and the text says the cost is skewed.
. tests/cli/lib.bash
D=tests/cli/data
plan 8
have jq || skip_rest "jq is needed (apt-get install jq)"
tmpdir
run_pc import "$D/run-carry-over.json" --db "$T/c.db"
run_pc show 1 --db "$T/c.db" --format json
co() { printf '%s' "$out" | jq -r --arg m "$1" '.statistics[] | select(.monitor == $m) |
	"\(.carry_over) \(.carry_over_lo) \(.carry_over_hi) \(.carry_over_runs)"'; }
read -r c lo hi n <<<"$(co strace)"
assert "strace: runs after it +$c [$lo, $hi] ($n runs), the 5% put there" \
	'awk -v c="$c" -v l="$lo" -v h="$hi" "BEGIN { exit !(c > 0.045 && c < 0.055 && l > 0.04 && l <= 0.05 && h >= 0.05 && h < 0.06) }"'
read -r c lo hi n <<<"$(co perf-stat)"
assert "perf-stat: runs after it $c [$lo, $hi], nothing put there: the interval holds 0 within 1%" \
	'awk -v c="$c" -v l="$lo" -v h="$hi" "BEGIN { exit !(l < 0 && h > 0 && l > -0.01 && h < 0.01) }"'
run_pc show 1 --db "$T/c.db"
like "$out" "warning: strace on pipe: carry-over: runs right after it took \\+5\\.[0-9]% \\[\\+4\\.[0-9], \\+5\\.[0-9]\\] longer than after none or first" \
	"text: a carry-over warning for strace"
like "$out" "strace on pipe: carry-over: .*overhead is understated \(--washout N runs N plain runs between, unmeasured\)" \
	"... naming --washout, which this session did not use"
assert "text: none for perf-stat" '! printf "%s" "$out" | grep -q "perf-stat on pipe: carry-over"'
run_pc show 1 --db "$T/c.db" --format csv
col=$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | grep -n '^carry_over$' | cut -d: -f1)
c=$(printf '%s\n' "$out" | awk -F, -v c="${col:-999}" '$3 == "strace" { print $c }')
assert "CSV: carry_over $c for strace" 'awk -v c="$c" "BEGIN { exit !(c > 0.045 && c < 0.055) }"'

run_pc import "$D/run-skew.json" --db "$T/s.db"
run_pc show 1 --db "$T/s.db" --format json
read -r m r rlo rhi < <(printf '%s' "$out" | jq -r '.statistics[1] |
	"\(.overhead) \(.overhead_robust) \(.overhead_robust_lo) \(.overhead_robust_hi)"')
assert "skewed: the mean $m is carried by the one 200% block, the robust $r [$rlo, $rhi] holds the 20%" \
	'awk -v m="$m" -v r="$r" -v l="$rlo" -v h="$rhi" "BEGIN { exit !(m > 0.25 && r > 0.19 && r < 0.21 && l < 0.2 && h > 0.2 && h < 0.22) }"'
run_pc show 1 --db "$T/s.db"
like "$out" "warning: strace on pipe: overhead mean \\+3[0-9]\\.[0-9]% \\[[^]]*\\], robust \\+20\\.[0-9]% \\[\\+19\\.[0-9], \\+20\\.[0-9]\\] \\(Hodges-Lehmann\\): the cost is skewed, and the extra time a run with it; rare slow runs carry the mean" \
	"text: the skew warning with both figures, naming the extra time (the same block's 200%)"
done_testing
