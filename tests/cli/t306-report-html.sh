#!/bin/bash
# parallel-safe
# t306-report-html: `report --format html` writes one self-contained page per session: every
# table row of the report, every figure, escaped session text, nothing fetched; headless
# Chromium renders it and its DOM is counted.  Other commands refuse html.
. tests/cli/lib.bash
D=tests/cli/data
T=$(mktemp -d)
on_exit 'rm -rf "$T"'
DB="$T/p.db"
plan 39

# Sessions 1-4: run, probes, counters, run --scale; 5: a run whose text is hostile markup.
EVIL='<script>alert(1)</script> & "q" '\''s'\'' | <img src=http://example.invalid/x.png>'
jq --arg e "$EVIL" '.cmdline = ("probecost run -- " + $e) | .configs[1].monitor = $e' \
	"$D/run-a.json" > "$T/evil.json"
for f in run-a.json probes.json counters.json run-scale.json "$T/evil.json"; do
	case $f in /*) ;; *) f="$D/$f" ;; esac
	"$PROBECOST" import --db "$DB" "$f" > /dev/null || echo "# import $f failed"
done

# Body rows of the markdown report's tables: the rows the page must show.
md_rows() { "$PROBECOST" report "$1" --db "$DB" --format markdown |
	grep '^|' | grep -vc '^|[-:| ]*$' | awk -v t="$("$PROBECOST" report "$1" --db "$DB" \
	--format markdown | grep -c '^|[-:| ]*$')" '{ print $1 - t }'; }
# Body rows of the page's results section (one <tr> per line, as the page writes them).
html_rows() { sed -n '/<section id="results">/,/<\/section>/p' "$1" | grep -c '^<tr><td'; }
# Attributes (inside a tag: escaped text has no '<') and CSS that would make a browser fetch.
fetches() {
	grep -Eio '<[a-z][^<>]*[[:space:]](src|href|action|poster|data|srcset)[[:space:]]*=[[:space:]]*["'\'']?[a-z]*:?//|<(link|img|iframe|object|embed)[[:space:]>]' "$1"
	grep -Eio '<[a-z][^<>]*url\([[:space:]]*["'\'']?[^#"'\'' ]' "$1"
	grep -o '<style>.*</style>' "$1" | grep -Eio 'url\(|@import'
}
figs=(x 1 1 1 2 1)
for id in 1 2 3 4 5; do
	run_pc report "$id" --db "$DB" --format html -o "$T/s$id.html"
	ok $(( rc != 0 )) "session $id: report --format html -o FILE exits 0"
done
is "$(md_rows 1)" 5 "the run session's markdown has its 5 configurations"
for id in 1 2 3 4 5; do
	is "$(html_rows "$T/s$id.html")" "$(md_rows "$id")" "session $id: every table row of the report is in the page"
done
is "$(jq '.configs | length' "$D/probes.json")" 8 "the probes fixture has 8 configurations"
is "$(md_rows 4)" 11 "the --scale session: 9 configurations and 2 fit rows"
for id in 1 2 3 4; do
	is "$(grep -c '<figure data-figure=' "$T/s$id.html")" "${figs[$id]}" "session $id: ${figs[$id]} inline SVG figure(s)"
done
is "$(grep -o '<figure data-figure="[a-z-]*"' "$T/s4.html" | tr '\n' ' ')" \
	'<figure data-figure="fit" <figure data-figure="overhead" ' "the --scale session's fit comes first"
fit=$(sed -n '/<figure data-figure="fit">/,/<\/figure>/p' "$T/s4.html")
is "$(printf '%s' "$fit" | grep -c 'fill-opacity:0.2;')" 2 "the fit figure: a band (the cost per event's interval) in each monitor's panel"
all_fetch=$(for id in 1 2 3 4 5; do fetches "$T/s$id.html"; done)
is "$all_fetch" "" "no page names anything to fetch (src=, href=, url(), <link>, <img>)"
is "$(grep -c '<script' "$T/s5.html")" 1 "hostile text: the page's own script is its only one"
ok "$(grep -qF '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;s&#39; | &lt;img' "$T/s5.html"; echo $?)" \
	"hostile text is escaped in the command line and the table"
is "$(grep -c '<img' "$T/s5.html")" 0 "hostile text makes no element"
cells=$(sed -n '/<section id="results">/,/<\/table>/p' "$T/s5.html" | grep '^<tr>' |
	awk '{ print gsub(/<t[dh][ >]/, "&") }' | sort -u)
is "$cells" 10 "hostile text with '|' stays in its cell: every row of the table has the header's 10 cells"
like "$(sed -n '/<header>/,/<\/header>/p' "$T/s1.html")" '<h1>probecost run: syscall' "the headline is the text report's"
like "$(sed -n '/id="environment"/,/<\/section>/p' "$T/s4.html")" '<th>kernel.release</th><td>6.18.44' "the environment table"
like "$(sed -n '/<header>/,/<\/header>/p' "$T/s4.html")" 'class="warnings" id="env-warnings"' "the environment's warnings in the header"

run_pc show 3 --db "$DB" --format html
like "$out" '^<!DOCTYPE html>' "show --format html prints the page"
run_pc report 4 --db "$DB" --plot "$T/fit.svg"
like "$(head -c 2000 "$T/fit.svg")" 'aria-label="Extra time against syscalls, with the fit' "--plot of a --scale session draws the fit"
run_pc report 1 --db "$DB" --format html -o "$T/nodir/x.html"
ok $(( rc != 1 )) "-o into a missing directory: exit 1"
is "$(find "$T" -mindepth 1 -maxdepth 1 -name '*x?html*' | wc -l)" 0 "... and nothing is left behind"
is "$(stat -c %a "$T/s1.html")" "$(printf '%o' $(( 0666 & ~$(umask) )))" "-o creates the file as fopen would (0666 less the umask)"
run_pc run -w null --format html --no-store
ok $(( rc != 2 )) "run --format html: a usage error"
like "$err" "report ID --format html" "... that says where pages come from"
run_pc history --db "$DB" --format html
ok $(( rc != 2 )) "history --format html: a usage error"

# Headless Chromium: the page as a browser builds it.
if ! command -v chromium > /dev/null; then
	for i in 1 2 3 4; do skip "chromium is not installed (Debian package chromium)"; done
	done_testing
fi
dom() { # dom FILE: the DOM after the page's script ran
	local u
	u=$(mktemp -d)
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$u" --dump-dom "file://$1" 2> /dev/null
	rm -rf "$u"
}
bad=""
for id in 1 2 3 4; do
	d=$(dom "$T/s$id.html")
	rows=$(printf '%s' "$d" | grep -o 'data-rows="[0-9]*"' | grep -o '[0-9]*')
	nfig=$(printf '%s' "$d" | grep -o 'data-figures="[0-9]*"' | grep -o '[0-9]*')
	nsvg=$(printf '%s' "$d" | grep -o '<svg [^>]*data-pcost-y' | wc -l)
	[ "$rows" = "$(md_rows "$id")" ] || bad="$bad rows($id: $rows)"
	[ "$nfig" = "${figs[$id]}" ] && [ "$nsvg" = "${figs[$id]}" ] || bad="$bad figures($id: $nfig, $nsvg)"
done
is "$bad" "" "Chromium's DOM: every table row and every figure of sessions 1-4"
d=$(dom "$T/s5.html")
is "$(printf '%s' "$d" | grep -o '<script' | wc -l)" 1 "Chromium's DOM of the hostile page: one script, its own"
is "$(printf '%s' "$d" | grep -o '<img' | wc -l)" 0 "... no image element"
like "$d" 'data-rows="5"' "... and the summary its script computed"
done_testing
