#!/bin/bash
# t305-store-run-e2e: real `run` sessions are stored as measured, shown identically, and compared.
P="${PROBECOST:-./probecost}"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
DB="$T/p.db"
n=0
ok() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo 1..10
if ! "$P" run --help > /dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "ok $i # skip the run command is not built into this tree"; done
	exit 0
fi
if ! command -v strace > /dev/null; then
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "ok $i # skip strace is not installed (apt-get install strace)"; done
	exit 0
fi
# LeakSanitizer cannot run under ptrace, and the workload under strace is this binary.
[ -n "$PROBECOST_SAN" ] && export ASAN_OPTIONS=detect_leaks=0
RUN=(run -w syscall:loops=2000 -m strace -r 3 --warmup 1 --cpu 0 --seed 11 --db "$DB")

"$P" "${RUN[@]}" > "$T/live.txt" 2> /dev/null
"$P" "${RUN[@]}" --format json > "$T/live.json" 2> /dev/null
"$P" history --db "$DB" --format json > "$T/h.json"
ok "two run sessions stored, complete, 2 configs x 4 samples each" \
   '[ "$(jq -c "[.[] | [.kind, .complete, .configs, .samples]]" "$T/h.json")" = "[[\"run\",true,2,8],[\"run\",true,2,8]]" ]'
"$P" show 1 --db "$DB" > "$T/show.txt"
ok "show prints exactly what the live run printed (text)" 'cmp -s "$T/live.txt" "$T/show.txt"'
"$P" report 2 --db "$DB" --format json > "$T/show.json"
ok "report --format json is exactly the live JSON" 'cmp -s "$T/live.json" "$T/show.json"'
ok "the live JSON carries the stored id" '[ "$(jq .session.id "$T/live.json")" = 2 ]'
"$P" export 2 --db "$DB" > "$T/e.json"
ok "the export holds every raw sample" '[ "$(jq "[.configs[].samples[]] | length" "$T/e.json")" = 8 ] && [ "$(jq "[.configs[].samples[] | select(.warmup)] | length" "$T/e.json")" = 2 ]'
"$P" compare 1 2 --db "$DB" --format json > "$T/c.json"; rc=$?
ovh=$(jq '.statistics[] | select(.monitor == "strace") | .overhead' "$T/live.json")
ok "compare: B's strace overhead is the one the run printed" \
   '[ $rc = 0 ] && jq -e ".rows[] | select(.name | endswith(\"/ strace\")) | .overhead_b == $ovh" "$T/c.json" > /dev/null'
ok "compare: strace overhead above 25% on both sides (strace stops each of 2000 syscalls)" \
   'jq -e ".rows[] | select(.name | endswith(\"/ strace\")) | .overhead_a > 0.25 and .overhead_b > 0.25" "$T/c.json" > /dev/null'
"$P" run -w syscall:loops=200 -m strace -r 2 --warmup 0 --db /proc/no/such.db > "$T/o" 2> "$T/e"; rc=$?
ok "an unwritable store: one warning, the measurement still printed, exit 0" \
   '[ $rc = 0 ] && [ "$(grep -c "warning: not storing this session" "$T/e")" = 1 ] && grep -q "strace" "$T/o"'

# Ctrl-C: what was measured is stored, marked incomplete, and shows as the live run printed it.
"$P" run -w syscall:loops=2000 -m strace -r 500 --warmup 1 --cpu 0 --db "$T/int.db" > "$T/int.txt" 2> /dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
"$P" history --db "$T/int.db" --format json > "$T/ih.json"
ok "an interrupted run is stored incomplete with its samples" \
   '[ "$(jq ".[0].complete" "$T/ih.json")" = false ] && [ "$(jq ".[0].samples" "$T/ih.json")" -gt 0 ]'
"$P" show 1 --db "$T/int.db" > "$T/ishow.txt"
ok "show of the interrupted session is what the live run printed" 'grep -q INTERRUPTED "$T/int.txt" && cmp -s "$T/int.txt" "$T/ishow.txt"'
