#!/bin/bash
# parallel-safe: it arms probes only on its own fixture (build/fixtures/redzone, which no
#   other test of that group runs), through a uprobe event of its own group, t511_PID, in
#   a state directory of its own
# long: probes armed and counted on its fixture (13 s)
# probes --list on tests/fixtures/redzone (build/fixtures/redzone): every site's encoding,
# red_zone_live and optimizable against the known answers of redzone.S; the warning
# before arming a site both optimizable and red-zone live; and, armed on a kernel that
# optimizes nop5, the verdicts against what the kernel really does to the fixture.
. "$(dirname "$0")/lib.bash"
plan 15
have make || skip_rest "needs make (the fixture is built from tests/fixtures/redzone)"
make -s build/fixtures/redzone >/dev/null || skip_rest "cannot build the fixture here"
FIX=$(readlink -f build/fixtures/redzone)
# Machine fact, not probecost's: Linux 6.18's nop5 uprobe optimizer.
if grep -qw arch_uprobe_optimize /proc/kallsyms 2>/dev/null; then opt5=true; else opt5=false; fi

# 1-4: the facts, CSV.
csv=$("$P" probes --list "$FIX" --format csv)
col() { # col PROBE COLUMN-NAME: the value in the CSV
	printf '%s\n' "$csv" | awk -F, -v p="$1" -v c="$2" \
		'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } $2 == p { print $k }'
}
facts=
PROBES="live dead frame nonleaf pushlive loop rbp align noret switch live1 live10"
for p in $PROBES; do
	facts="$facts $p=$(col "$p" red_zone_live)"
done
is "$facts" " live=true dead=false frame=false nonleaf=false pushlive=true loop=true rbp=true align= noret=true switch=true live1=true live10=true" \
	"red_zone_live of every site (align: rsp not followed, unknown)"
# The encodings from the bytes at each site's offset, read here with od.
enc_ok=0
for p in $PROBES; do
	bytes=$(od -An -tx1 -j $(($(col "$p" pc_offset))) -N10 "$FIX" | tr -d ' \n')
	case $bytes in
	0f1f440000*) want=nop5 ;; 66660f1f840000000000) want=nop10 ;; 90*) want=nop ;; *) want=other ;;
	esac
	[ "$(col "$p" encoding)" = "$want" ] || { enc_ok=1; diag "$p: $(col "$p" encoding), bytes $bytes"; }
done
ok $enc_ok "each site's encoding is what its bytes are"
is "$(col live optimizable),$(col live1 optimizable),$(col live10 optimizable)" "$opt5,false,false" \
	"optimizable: nop5 where the kernel has arch_uprobe_optimize; nop and nop10 never"
# The function and offset: from nm, not from probecost.
fn=$(nm "$FIX" | awk '$3 == "rz_loop" {print $1}')
is "$(col loop function)" "rz_loop+0x$(printf '%x' $(($(col loop pc) - 0x$fn)))" \
	"the site's function and offset (nm: rz_loop at 0x$fn)"

# 5-7: JSON and text say the same; a stripped copy cannot tell.
json=$("$P" probes --list "$FIX" --format json)
is "$(printf '%s' "$json" | jq -c '[.[] | [.name, .encoding, .red_zone_live, .function_offset]] | .[0:2] + [.[7]]')" \
	'[["live","nop5",true,9],["dead","nop5",false,8],["align","nop5",null,17]]' "JSON: the same facts (null: unknown)"
txt=$("$P" probes --list "$FIX")
like "$(printf '%s\n' "$txt" | grep -E '^redzone +live ')" ' nop5 +true +'"$opt5"' +rz_live\+0x9 ' \
	"text: encoding, red zone, optimizable, function+offset"
tmpdir
# A state directory of its own: its probes sessions never wait for another's lock (the
# wait's warning would be counted below), nor another for them.
mkdir -m 700 "$T/state"
export PROBECOST_STATE_DIR=$T/state
strip -o "$T/stripped" "$FIX"
is "$("$P" probes --list "$T/stripped" --format json | jq -c '[.[0] | .red_zone_live, .function, .encoding]')" \
	'[null,null,"nop5"]' "stripped: no function to read, red_zone_live unknown; the encoding stays"

# 8: while a uprobe is registered on the file, every new mapping of it holds an int3 at
# the site (uprobe_mmap), a mapping probecost's own reader included: the facts are the
# file's all the same.  Armed here through tracefs (group t511_PID, not probecost's).
if is_root && have_tracefs; then
	ev=t511_$$/live
	# shellcheck disable=SC2016 # expanded when the cleanup runs
	on_exit '[ ! -e "$TRACEFS/events/$ev" ] ||
		{ echo 0 > "$TRACEFS/events/$ev/enable"; echo "-:$ev" >> "$TRACEFS/uprobe_events"; } 2>/dev/null'
	echo "p:$ev $FIX:$(col live pc_offset)" >> "$TRACEFS/uprobe_events" &&
		echo 1 > "$TRACEFS/events/$ev/enable"
	armed_csv=$("$P" probes --list "$FIX" --format csv)
	echo 0 > "$TRACEFS/events/$ev/enable"; echo "-:$ev" >> "$TRACEFS/uprobe_events"
	is "$armed_csv" "$csv" "--list while a uprobe is registered on the file: the same facts"
else
	skip "needs root and tracefs"
fi

# 9-15: armed.  Root, the uprobe PMU, a kernel that optimizes nop5.
{ is_root && have_uprobe_pmu && [ $opt5 = true ] && have jq; } ||
	skip_rest "needs root, the uprobe PMU, jq and a kernel with arch_uprobe_optimize"
armed() { # armed PROBE: probes --binary the fixture (100000 calls), arming redzone:PROBE
	run_pc probes --binary "$FIX" --probe "redzone:$1" --via uprobe -r 1 --warmup 0 --no-store \
		--format json -- "$FIX" 100000 "$1"
}
armed live
warn=$(printf '%s\n' "$err" | grep -c 'warning:')
like "$(printf '%s\n' "$err" | grep 'warning:')" 'redzone:live at rz_live\+0x9 may change the program once armed.*keeps -0x10\(%rsp\) across the site' \
	"one warning before arming redzone:live, naming the site and why"
is "$warn" 1 "exactly one warning line"
is "$(printf '%s' "$out" | jq -c '[.statistics[] | select(.method == "uprobe") | .encoding, .red_zone_live, .optimizable]')" \
	'["nop5",true,true]' "the armed row carries the three facts"
run_pc probes --binary "$FIX" --probe redzone:pushlive --via uprobe -r 1 --warmup 0 --db "$T/p.db" \
	-- "$FIX" 1000 pushlive
run_pc report last --format csv --db "$T/p.db"
like "$(printf '%s\n' "$out" | awk -F, 'NR > 1 && $2 == "uprobe"')" ",nop5,true,true," \
	"stored and read back: the row still says nop5, red-zone live, optimizable"
armed dead
is "$(printf '%s\n' "$err" | grep -c 'warning:')" 0 "no warning for a site that keeps nothing below rsp"
armed live1
is "$(printf '%s\n' "$err" | grep -c 'warning:')" 0 "no warning for a live site the kernel does not optimize"
# The verdicts against the kernel: a site both live and optimizable (and align, which is
# live but unknown to the analysis) changes the answers once armed; the others do not.
got="" want=""
for p in $PROBES; do
	armed "$p"
	f=$(printf '%s' "$out" | jq '[.statistics[] | select(.method == "uprobe") | .failed] | add')
	got="$got $p=$([ "$f" = 0 ] && echo same || echo changed)"
	want="$want $p=$([ "$(col "$p" red_zone_live)" != false ] && [ "$(col "$p" optimizable)" = true ] &&
		echo changed || echo same)"
done
is "$got" "$want" "armed, each function's answers change exactly where the site is live (or unknown) and optimizable"
done_testing
