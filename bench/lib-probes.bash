# shellcheck shell=bash
# bench/lib-probes: helpers of bench/sites.sh and bench/threads.sh (sourced).
PC=${PROBECOST:-./probecost}

need_root() {
	if [ "$(id -u)" != 0 ] || ! command -v jq >/dev/null; then
		echo "skip: arming uprobes needs root (and jq to read the results)"
		return 1
	fi
}

# "842 [801, 890]" from a row's per_hit_ns and its 95% interval (n/a when
# unmeasured).  Where the report gives no per-hit interval, the overhead's
# interval scaled to ns per hit: extra = overhead x dormant mean, the dormant
# mean being elapsed / (1 + overhead).
ph_jq='def lohi: if (.per_hit_ns_lo // null) != null then [.per_hit_ns_lo, .per_hit_ns_hi]
	elif (.overhead_lo // null) != null and .hits_expected > 0 then
		(.elapsed_mean_ns / (1 + .overhead) / .hits_expected) as $u |
		[.overhead_lo * $u, .overhead_hi * $u]
	else null end;
	def ph: if .per_hit_ns == null then "n/a" else
	(.per_hit_ns | round | tostring) +
	(lohi as $i | if $i == null then "" else
	 " [" + ($i[0] | round | tostring) + ", " + ($i[1] | round | tostring) + "]" end)
	end;
	def order: . as $x | if type == "number" then $x else
		(["nop", "nop5", "nop5-nrz", "nop10", "push", "ret", "lttng"] | index($x)) // 99 end;'

# site_table JSON COLUMN [ROWKEY]: one line per method (and per ROWKEY value, e.g.
# site), one column per value of COLUMN (site or threads): per hit ns [95%
# interval], whether the kernel optimized the site, and RZ! where a site of the
# build keeps data in the red zone and is optimizable (red_zone_live and
# optimizable: the optimized uprobe's call overwrites them).  A configuration
# whose runs all failed shows "failed" instead.
site_table() {
	local rk=${3:-}
	jq -r "$ph_jq"' def key: .method + (if "'"$rk"'" == "" then "" else " " + (.'"${rk:-method}"' | tostring) end);
		. as $r | [.statistics[] | select(.method != "dormant")] as $rows |
		($rows | map(.'"$2"') | unique | sort_by(order)) as $cols |
		($rows | map(key) | unique) as $keys |
		def pad($w): . + (" " * ($w - length));
		("  " + ("method" + (if "'"$rk"'" == "" then "" else " '"$rk"'" end) | pad(17)) +
		 ([$cols[] | "  " + ("'"$2"'=" + tostring | pad(28))] | add)),
		($keys[] as $k | "  " + ($k | pad(17)) +
		 ([$cols[] as $c | [$rows[] | select(key == $k and .'"$2"' == $c)][0] |
		   if . == null then "  " + ("-" | pad(28)) else
		   "  " + ((if .failed > 0 and .runs == 0 then "failed" else ph + " ns " +
		            (if .optimized == true then "opt" elif .optimized == false then "trap"
		             else "?" end) end) +
		           (if .red_zone_live == true and .optimizable == true then " RZ!" else "" end)
		           | pad(28)) end] | add))' "$1"
	echo "  (per hit: ns [95% interval]; opt: the kernel optimized the site (a call through"
	echo "   [uprobes-trampoline]), trap: it stayed an int3 trap, ?: unknown; RZ!: flagged before"
	echo "   arming: a site keeps data below rsp, which the optimized call overwrites;"
	echo "   failed: every run failed)"
}

# Every armed row counted its hits and has a per-hit figure, but those flagged before
# arming (a site red-zone live and optimizable), which are listed apart.
check_rows() {
	local bad flagged='(.red_zone_live == true and .optimizable == true)'
	jq -r '.statistics[] | select(.method != "dormant" and '"$flagged"' and .failed > 0)
		| "  flagged before arming, and its runs failed: \(.variant) \(.method) site=\(.site): " +
		  "\(.failed) of \(.failed + .runs) runs"' "$1"
	bad=$(jq '[.statistics[] | select(.method != "dormant" and ('"$flagged"' | not) and
		(.failed > 0 or .per_hit_ns == null or .hits_lost != 0))] | length' "$1")
	[ "$bad" = 0 ] && return 0
	echo "  $bad armed configurations failed, lost hits or have no per-hit figure:"
	jq -r '.statistics[] | select(.method != "dormant" and
		(.failed > 0 or .per_hit_ns == null or .hits_lost != 0))
		| "    \(.variant) \(.method) site=\(.site) threads=\(.threads): \(.failed) runs failed, " +
		  "hits counted \(.hits_counted) of \(.hits_expected)"' "$1"
	jq -r '[.session.configs[] | .samples[] | select(.failed) | .fail_reason] | unique[]
		| "    failed run: " + .[0:160]' "$1"
	return 1
}

# Per method: does nop5 (and nop5-nrz) pay?  nop's cost per hit / nop5's over the
# paired blocks (gain_vs_nop, Fieller's 95% interval): pays when the interval lies above 1.
nop5_verdict() {
	jq -r '[.statistics[] | select(.method != "dormant" and (.site == "nop5" or .site == "nop5-nrz"))][] |
		if .gain_vs_nop == null then "  \(.site) vs nop, \(.method): not measured"
		else "  \(.site) vs nop, \(.method): \(.gain_vs_nop * 100 | round / 100)x per hit " +
			(if .gain_vs_nop_lo == null then "(no interval)"
			 else "[\(.gain_vs_nop_lo * 100 | round / 100), \(.gain_vs_nop_hi * 100 | round / 100)]; " +
				(if .gain_vs_nop_lo > 1 then "pays (interval above 1)"
				 elif .gain_vs_nop_hi < 1 then "costs more (interval below 1)"
				 else "not shown (interval spans 1)" end) end)
		end' "$1"
}
