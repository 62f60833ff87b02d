#!/bin/bash
# slow: a PostgreSQL cluster, a strace calibration and a predict --verify study (about 35 s)
# no-sanitizer: timings of real tracers; ASan slows every call the cost model prices
# t332-predict-service: predict --service, PostgreSQL as the service and pgbench -S as its
# load.  The counting runs count the service's processes too, the backend pgbench's
# connection starts during a run included: pgbench -S's transaction is one query, which
# its backend receives and answers, two syscalls at the least, so the service's syscalls
# are >= 2 a transaction.  strace has a service form (strace -f -p on the postmaster):
# it is predicted on the service's events, with an interval; --verify then measures it
# as run --service does and prints the measurement beside the prediction, which it holds
# within the known miss of a server that polls before it waits.  The service is
# stopped after each phase: no process of the cluster is left.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/pg.bash"
have jq || { plan 1; skip "jq is not installed (apt-get install jq)"; done_testing; }
skip_unless_counting
have strace || { plan 1; skip "strace is not installed (apt-get install strace)"; done_testing; }
plan 10
tmpdir
pg_cluster skip_rest
DB=$T/u.db
TX=1500

run_pc calibrate -m strace --placement unpinned --runs 2 --seed 7 --db "$DB" --format json
is "$rc" 0 "calibrate -m strace --placement unpinned ($(tail -1 <<< "$err"))"

run_pc predict --verify -m strace --runs 3 --count-runs 2 --plain-runs 3 --seed 5 --db "$DB" \
	--format json --service "$PG_SERVICE" --ready 'database system is ready to accept connections' \
	-- "${PGBENCH[@]}" -n -S -c 1 -t $TX bench
is "$rc" 0 "predict --verify --service: exit 0 ($(tail -1 <<< "$err"))"
j() { jq -r "$1" <<< "$out"; }
sv=$(j '.service_counts.syscalls.mean')
assert "the service's syscalls ($sv a run) >= 2 a transaction (2 x $TX: the backend's receive and send)" \
	'ratio_in "$sv" $((2 * TX)) 1 1e6'
cl=$(j '.counts.syscalls.mean')
assert "the client's syscalls counted beside them ($cl)" 'ratio_in "$cl" $TX 1 1e6'
row() { j ".statistics[] | select(.monitor == \"strace\") | $1"; }
is "$(row .paid_by):$(row '[.terms[].event] | index("run")')" "service:null" \
	"strace watches the service: priced by its events, with no fixed cost (it attaches before the run)"
ms() { awk -v x="$1" 'BEGIN { printf "%.0f", x / 1e6 }'; }
pe=$(row .predicted_extra_ns) lo=$(row .predicted_extra_ns_lo) hi=$(row .predicted_extra_ns_hi)
assert "strace's predicted extra ($(ms "$pe") [$(ms "$lo"), $(ms "$hi")] ms) has an interval around it" \
	'awk -v e="$pe" -v l="$lo" -v h="$hi" "BEGIN { exit !(e > 0 && l < e && e < h) }"'
me=$(row .measured_extra_ns)
assert "--verify measured it beside the prediction ($(ms "$me") ms)" 'ratio_in "$me" 1 0 1e12'
# PostgreSQL's backend reads its socket once more after each answer and, finding nothing,
# sleeps: strace is slow enough that the next query is there, so it never stops at about a
# quarter of the calls the plain counts price, and the prediction is too high (docs/predict.md's
# known misses of the service model): 2026-12-06, +12%, +27%, +45%, +67% here, quiet, and
# +70% in clean-clone CI (803 ms predicted against 472 measured).  What holds is checked:
# never under the measurement by over 25%, never over it by over 2.5 times (an unpinned strace
# priced at its pinned cost was 5 times under); the 25% a command's prediction meets is a
# TODO here until the model knows the polls.
if machine_quiet; then
	assert "strace: predicted $(ms "$pe") ms, measured $(ms "$me") ms: at most 25% under, 2.5 times over" \
		"[ \"\$(row '(.error >= -0.25 and .error <= 1.5) or .measured_in_predicted or .predicted_in_measured')\" = true ]"
	todo "strace: predicted $(ms "$pe") ms, measured $(ms "$me") ms: within 25% or one interval holds the other" \
		"the backend's polls strace skips are priced" \
		"[ \"\$(row '(.error | fabs) <= 0.25 or .measured_in_predicted or .predicted_in_measured')\" = true ]"
else
	skip "$(busy_why); strace: predicted $(ms "$pe") ms, measured $(ms "$me") ms"
	skip "$(busy_why)"
fi
pm=$(head -1 "$PGD/data/postmaster.pid" 2> /dev/null)
is "$(pgrep -f "$PGD/data" | wc -l)" 0 "no process of the cluster left (postmaster.pid: ${pm:-gone})"
done_testing
