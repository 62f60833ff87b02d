#!/bin/bash
# no-sanitizer: its p50 must grow by the 50 us of work, a latency bound
# t110: the server workload (TCP loopback service + closed-loop load generator) reports
# what it was asked for, with figures that hold known answers: events = requests,
# throughput = events / timed time, Little's law (in flight = throughput x mean latency =
# conns), p50 grows by the work per request; role=serve and role=load work apart; a wrong
# reply is check=bad; bad input exits 2.
. "$(dirname "$0")/lib.bash"
plan 31
tmpdir

num() { awk -v x="$1" 'BEGIN { exit !(x + 0 == x && x >= 0) }'; } # a number >= 0
# facts_hold LABEL CONNS: the report's figures are all there and consistent.
facts_hold() {
	local ev t tp p50 p99 p999 mean max
	ev=$(field events "$report") t=$(field timed_ns "$report") tp=$(field throughput "$report")
	p50=$(field p50_us "$report") p99=$(field p99_us "$report") p999=$(field p999_us "$report")
	mean=$(field mean_us "$report") max=$(field max_us "$report")
	if num "$tp" && num "$p50" && num "$p99" && num "$p999" && num "$mean" && num "$max" &&
		awk -v a="$p50" -v b="$p99" -v c="$p999" -v d="$max" 'BEGIN { exit !(0 < a && a <= b && b <= c && c <= d * 1.004) }'; then
		pass "$1: p50 $p50 <= p99 $p99 <= p999 $p999 <= max $max us"
	else
		not_ok "$1: facts missing or out of order" "$report"
	fi
	# throughput is events / timed seconds, printed to 0.1
	awk -v e="$ev" -v t="$t" -v x="$tp" 'BEGIN { exit !(t > 0 && (x - e * 1e9 / t)^2 <= 0.0025) }'
	ok $? "$1: throughput $tp = $ev requests / $t ns"
	# Little's law: requests in flight on average = throughput x mean latency = conns, less
	# the load generator's time between a reply and the next request, and the first sends and
	# last replies (a few % at 100 requests a connection; a 4 ms preemption of the generator
	# while it sends the first ones costs 4 ms x conns).
	ratio_in "$(awk -v x="$tp" -v m="$mean" 'BEGIN { print x * m / 1e6 }')" "$2" 0.85 1.001
	ok $? "$1: throughput x mean latency = $(awk -v x="$tp" -v m="$mean" 'BEGIN { printf "%.3f", x * m / 1e6 }') in flight, conns=$2"
}

report_of server requests=3000 conns=3
is "$rc/$(field events "$report")/$(field unit "$report")/$(field check "$report")" "0/3000/request/ok" \
	"server requests=3000 conns=3: events=3000 unit=request check=ok"
facts_hold "conns=3" 3
report_of server requests=1234 conns=1 size=3 work=0
is "$rc/$(field events "$report")/$(field check "$report")" "0/1234/ok" "a reply shorter than its sequence number (size=3): events=1234 check=ok"
report_of server requests=2000 conns=20 size=200000
is "$rc/$(field events "$report")/$(field check "$report")" "0/2000/ok" "replies larger than a socket buffer (200 kB, 20 conns): check=ok"
facts_hold "conns=20 size=200000" 20

# Pinned to one CPU with one connection, a request's latency holds the service's work: the
# median grows by the work (50 us), side by side with work=0 (within 15%: the rest of a
# round trip is the same on both).
PROBECOST_WORKLOAD_CPUS=0 report_of server requests=4000 conns=1 work=0
base=$(field p50_us "$report")
PROBECOST_WORKLOAD_CPUS=0 report_of server requests=4000 conns=1 work=50000
p50=$(field p50_us "$report")
facts_hold "pinned, conns=1, work=50000" 1
awk -v p="$p50" 'BEGIN { exit !(p >= 50) }'
ok $? "pinned, conns=1, work=50 us: p50 $p50 us >= 50 us"
awk -v p="$p50" -v b="$base" 'BEGIN { d = p - b; exit !(d > 42.5 && d < 57.5) }'
ok $? "p50 grows by the work: $p50 - $base = $(awk -v p="$p50" -v b="$base" 'BEGIN { print p - b }') us (50 us)"

# --scale multiplies requests (the runner reads the events back).
if have jq; then
	run_pc run --no-store --runs 1 --warmup 0 --cpu 0 --format json --scale 1,3 -w server:requests=500,conns=2
	is "$rc/$(printf '%s' "$out" | jq -r '[.statistics[] | .events] | join(",")')" "0/500,1500" \
		"run --scale 1,3 -w server:requests=500: events 500 and 1500"
else
	skip "jq is not installed (apt-get install jq)"
fi

# role=serve alone: its port on stdout, a load generator on it, SIGTERM ends it cleanly
# (exit 0) with the requests it served (the load generators' and one warm-up per connection).
PROBECOST_REPORT_FD=3 "$PROBECOST" workload server role=serve >"$T/serve.out" 3>"$T/serve.rep" 2>"$T/serve.err" &
spid=$!
on_exit 'kill -KILL $spid 2>/dev/null'
for _ in $(seq 100); do grep -q listening "$T/serve.out" && break; sleep 0.05; done
port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/serve.out")
like "$port" '^[0-9]+$' "role=serve prints 'listening on 127.0.0.1:PORT' ($(cat "$T/serve.out"))"
report_of server role=load port="$port" requests=2000 conns=2 work=1000 size=64
is "$rc/$(field events "$report")/$(field check "$report")" "0/2000/ok" "role=load port=$port requests=2000 conns=2: check=ok"
facts_hold "role=load" 2
report_of server role=load port="$port" requests=500 conns=1 size=100000
is "$rc/$(field events "$report")/$(field check "$report")" "0/500/ok" "a second load generator on the same service, other size: check=ok"
is "$(ps -o comm= -p $spid)" "pc-server" "the service names itself pc-server"
kill -TERM $spid
wait $spid
is "$?" 0 "SIGTERM ends role=serve with exit 0"
is "$(field events "$(cat "$T/serve.rep")")/$(field accepted "$(cat "$T/serve.rep")")" "2503/3" \
	"it served 2000 + 500 requests and 3 warm-ups on 3 connections"

# Nothing listens there now: a failed run with its first error line.
run_pc workload server role=load port="$port"
is "$rc" 1 "role=load on a closed port: exit 1"
like "$err" "could not connect to 127\.0\.0\.1:$port: Connection refused" "the error names the address and the reason ($err)"

# A service that answers wrong bytes: check=bad, and the run fails.
if have perl; then
	perl -MIO::Socket::INET -e '
		my $l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 5) or die;
		$| = 1; print $l->sockport, "\n";
		while (my $c = $l->accept) {
			while (read($c, my $req, 16) == 16) {
				my ($seq, $size) = unpack("Q L", $req);
				# the right sequence number, then zeros where the pattern should be
				print $c substr(pack("Q", $seq) . ("\0" x $size), 0, $size);
			}
		}' >"$T/fake.port" &
	fpid=$!
	on_exit 'kill $fpid 2>/dev/null'
	for _ in $(seq 100); do [ -s "$T/fake.port" ] && break; sleep 0.05; done
	report_of server role=load port="$(cat "$T/fake.port")" requests=50 conns=1 size=32
	is "$rc/$(field events "$report")/$(field check "$report")" "1/50/bad" \
		"a service whose replies are wrong: check=bad in the report, exit 1"
	report_of server role=load port="$(cat "$T/fake.port")" requests=50 conns=1 size=8
	is "$rc/$(field check "$report")" "0/ok" "the same service, replies of only the sequence number: check=ok"
	kill $fpid
else
	skip "perl is not installed (apt-get install perl)"
	skip "perl is not installed (apt-get install perl)"
fi

one_line_exit2 "role=load without port=" "$PROBECOST" workload server role=load
one_line_exit2 "run -w server:role=load without port=" "$PROBECOST" run --no-store -w server:role=load
one_line_exit2 "conns=0" "$PROBECOST" workload server conns=0
done_testing
