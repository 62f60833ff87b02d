#!/bin/bash
# parallel-safe
# t303-store-report-plot: `report --plot` draws every session kind, and the drawing shows the
# session's values: each SVG is read back through the axes on its root (svgvals.pl) and its
# bars and points must be report --format json's figures, one per row.  PNG and PDF by
# extension; bad plot names are usage errors.
. tests/cli/lib.bash
D=tests/cli/data
T=$(mktemp -d)
on_exit 'rm -rf "$T"'
DB="$T/p.db"
plan 12

# same A B: the two lists of numbers (a line each, several columns) agree line by line after
# sorting, each number within 0.1% or 0.001 (the SVG keeps 1/256 of a pixel).
same() {
	paste -d'|' <(printf '%s\n' "$1" | sort -g) <(printf '%s\n' "$2" | sort -g) | awk -F'|' '
		{ na = split($1, a, " "); nb = split($2, b, " "); if (na != nb || na == 0) bad = 1
		  for (i = 1; i <= na; i++) { d = a[i] - b[i]; m = (a[i] < 0 ? -a[i] : a[i])
		    if ((d < 0 ? -d : d) > 1e-3 * m + 1e-3) bad = 1 } }
		END { exit bad || NR == 0 }' && [ "$(printf '%s\n' "$1" | wc -l)" = "$(printf '%s\n' "$2" | wc -l)" ]
}
json() { "$PROBECOST" report "$1" --db "$DB" --format json; }

for f in run-a probes counters run-scale; do "$PROBECOST" import --db "$DB" "$D/$f.json" > /dev/null; done

run_pc report 1 --db "$DB" --plot "$T/run.svg"
ok $(( rc != 0 )) "run: --plot FILE.svg exits 0"
same "$(perl tests/cli/svgvals.pl bars "$T/run.svg")" \
	"$(json 1 | jq '.statistics[] | select(.baseline != null) | 100 * .overhead')"
ok $? "run: a bar per monitored row at its overhead (%)"
"$PROBECOST" report 2 --db "$DB" --plot "$T/probes.svg"
same "$(perl tests/cli/svgvals.pl bars "$T/probes.svg")" \
	"$(json 2 | jq '.statistics[] | select(.per_hit_ns != null) | .per_hit_ns')"
ok $? "probes: a bar per armed row at its cost per hit (ns)"
"$PROBECOST" report 3 --db "$DB" --plot "$T/counters.svg"
same "$(perl tests/cli/svgvals.pl points "$T/counters.svg")" \
	"$(json 3 | jq -r '.statistics[] | select(.op == "start+stop+read" and .n > 0) | "\(.k) \(.ns.mean)"')"
ok $? "counters: a point per start+stop+read series at (k, mean ns)"
"$PROBECOST" report 4 --db "$DB" --plot "$T/fit.svg"
same "$(perl tests/cli/svgvals.pl points "$T/fit.svg")" \
	"$(json 4 | jq -r '.statistics[] | select(.baseline != null) | "\(.events) \(.extra_ns)"')"
ok $? "--scale (measured): a point per monitored row at (events, extra time), in its monitor's panel"
is "$(grep -o 'data-pcost-panel-[0-9]*=' "$T/fit.svg" | wc -l)" 2 "... two panels: perf-stat and strace"

"$PROBECOST" report 1 --db "$DB" --plot "$T/run.png"
is "$(od -An -tu1 -j16 -N8 "$T/run.png" | tr -s ' ' | sed 's/^ //')" "0 0 3 192 0 0 2 48" "PNG by extension: 960x560 (IHDR)"
"$PROBECOST" report 1 --db "$DB" --plot "$T/run.PDF"
is "$(head -c 5 "$T/run.PDF")" "%PDF-" "PDF by extension (any case)"
run_pc report 1 --db "$DB" --plot "$T/run.gif"
ok $(( rc != 2 )) "an unknown plot extension is a usage error"
like "$err" "must end in .svg, .png or .pdf" "... that names the extensions"
run_pc report 1 --db "$DB" --plot "$T/nodir/x.png"
ok $(( rc != 1 )) "an unwritable plot path: exit 1"
like "$err" "could not plot session 1 to .*nodir/x.png" "... naming the path"
done_testing
