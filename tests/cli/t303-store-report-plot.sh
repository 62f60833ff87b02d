#!/bin/bash
# t303-store-report-plot: `report --plot` draws every session kind; bad plot names are usage errors.
. "$(dirname "$0")/lib.bash"
D=tests/cli/data
tmpdir
DB="$T/p.db"
# A PNG of 960x560 (IHDR bytes 16..23) and at least min bytes (a blank one compresses to ~3 KB).
png_ok() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(od -An -tu1 -j16 -N8 "$1" | tr -s ' ' | sed 's/^ //')" = "0 0 3 192 0 0 2 48" ] &&
	[ "$(stat -c %s "$1")" -gt "$2" ]; }
plan 8

for f in run-a probes counters; do "$P" import --db "$DB" "$D/$f.json" > /dev/null; done
"$P" report 1 --db "$DB" --plot "$T/run.png"; rc=$?
assert "run plot: a 960x560 PNG with content" '[ $rc = 0 ] && png_ok "$T/run.png" 15000'
"$P" report 2 --db "$DB" --plot "$T/probes.png"; rc=$?
assert "probes plot: a 960x560 PNG with content" '[ $rc = 0 ] && png_ok "$T/probes.png" 15000'
"$P" report 3 --db "$DB" --plot "$T/counters.png"; rc=$?
assert "counters plot: a 960x560 PNG with content" '[ $rc = 0 ] && png_ok "$T/counters.png" 15000'
"$P" report 1 --db "$DB" --plot "$T/run.svg"
assert "SVG by extension, with the title and axis label" 'grep -q "<svg" "$T/run.svg" && [ "$(stat -c %s "$T/run.svg")" -gt 10000 ]'
"$P" report 1 --db "$DB" --plot "$T/run.PDF"
assert "PDF by extension (any case)" '[ "$(head -c 5 "$T/run.PDF")" = "%PDF-" ]'
"$P" report 1 --db "$DB" --plot "$T/run.gif" 2> "$T/e"; rc=$?
assert "an unknown plot extension is a usage error" '[ $rc = 2 ] && grep -q "must end in .svg, .png or .pdf" "$T/e" && [ ! -e "$T/run.gif" ]'
"$P" report 1 --db "$DB" --plot "$T/nodir/x.png" 2> "$T/e"; rc=$?
assert "an unwritable plot path: exit 1 with the path" '[ $rc = 1 ] && grep -q "could not plot session 1 to .*nodir/x.png" "$T/e"'
"$P" report 1 --db "$DB" --format json > "$T/r.json" 2> "$T/e"; rc=$?
assert "report --format json renders the stored run" '[ $rc = 0 ] && jq -e . "$T/r.json" > /dev/null && grep -q strace "$T/r.json"'
done_testing
