#!/bin/bash
# parallel-safe
# long: a service that listens 1 s after each of its starts (19 s)
# run --service CMD --ready-port PORT: the service is ready once it accepts a TCP
# connection on localhost PORT.  A server that listens 1 s after it starts and says
# nothing: without --ready-port the load generator's first runs find nothing there and
# fail; with it every run connects.  A port never opened: exit 1 after --ready-timeout,
# what it waited for, nothing left running.  An address before the port is the one
# tried.  Bad ports and addresses: exit 2, one line.
. "$(dirname "$0")/lib.bash"
plan 23
have jq || skip_rest "jq is not installed (apt-get install jq)"
have perl || skip_rest "perl is not installed (apt-get install perl)"
tmpdir
# A free port: the kernel's pick for a socket bound to port 0.
PORT=$(perl -MIO::Socket::INET -e 'print IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 1)->sockport')
# The server: a name no other process has (pgrep finds what is left of it); it listens
# 1 s after it starts (PCPORT_DELAY s where that is set), then answers every connection
# with a line.
SVC=$T/pcport-$$-$RANDOM
# An address after the port (default 127.0.0.1) is the one it listens on.
cat >"$SVC" <<'PERL'
#!/usr/bin/perl
use IO::Socket::IP;
sleep($ENV{PCPORT_DELAY} // 1);
my $s = IO::Socket::IP->new(LocalHost => $ARGV[1] // "127.0.0.1", LocalPort => $ARGV[0], Listen => 16,
	ReuseAddr => 1) or die "cannot listen on $ARGV[0]: $!\n";
while (my $c = $s->accept) { print $c "hi\n"; close $c }
PERL
# The load generator: one connection (to 127.0.0.1 or the address given), which must be accepted.
cat >"$T/load" <<'PERL'
#!/usr/bin/perl
use IO::Socket::IP;
IO::Socket::IP->new(PeerHost => $ARGV[1] // "127.0.0.1", PeerPort => $ARGV[0]) or die "connect: $!\n";
PERL
chmod +x "$SVC" "$T/load"
left() { pgrep -f "$SVC" | tr '\n' ' '; }
on_exit 'pkill -KILL -f "$SVC" 2> /dev/null'
failed() { jq '[.session.configs[].samples[] | select(.failed)] | length' <<<"$out"; }

run_pc run --no-store --cpu 0 --runs 3 --warmup 1 --format json --service "$SVC $PORT" \
	--ready-port "$PORT" -- "$T/load" "$PORT"
is "$rc $(failed)" "0 0" "--ready-port: exit 0, every run connected"
is "$(grep -c 'without --ready' <<<"$err")" 0 "no warning that the service counts as ready at once"
is "$(left)" "" "the service is stopped at the end"
# The same without it: the load starts before the server listens (the check that the
# test can fail: the wait is what made the runs above connect).  The server listens 10 s
# after its start here: under ASan at load 10 on 2 CPUs, probecost took over 1 s from the
# service's start to the first run's, and found it listening.  Nothing waits for those
# 10 s: the runs fail at once and the service is stopped.
run_pc run --no-store --cpu 0 --runs 3 --warmup 1 --format json --service "env PCPORT_DELAY=10 $SVC $PORT" \
	-- "$T/load" "$PORT"
ok "$([ "$(failed)" -ge 1 ]; echo $?)" "without --ready-port the first runs find nothing listening ($(failed) failed)"
is "$(left)" "" "stopped again"
# With --ready too: its line first (printed at once, a second before the server
# listens), then the port.
run_pc run --no-store --cpu 0 --runs 2 --warmup 0 --format json \
	--service "sh -c 'echo booting; exec $SVC $PORT'" --ready '^booting' --ready-port "$PORT" \
	-- "$T/load" "$PORT"
is "$rc $(failed)" "0 0" "--ready's line, then the port: every run connected"

# A port nothing opens: exit 1 after --ready-timeout, what it waited for, nothing left.
run_pc run --no-store --runs 1 --service "sh -c 'echo started; exec sleep 30.$$'" \
	--ready-port "$PORT" --ready-timeout 1 -- true
like "$rc: $err" "^1: .*the service 'sh' was not ready after 1 s: nothing accepted a TCP connection on localhost port $PORT \(--ready-port\); its last lines: started" \
	"not ready in time: exit 1, the port it tried and what the service said"
ok "$(! pgrep -f "sleep 30[.]$$" >/dev/null; echo $?)" "the service that never listened is stopped"

# An address before the port: the server listens on 127.0.0.1, so 127.0.0.1:PORT is
# ready and 127.0.0.2:PORT (also loopback, but not its address) never is.
run_pc run --no-store --cpu 0 --runs 2 --warmup 0 --format json --service "$SVC $PORT" \
	--ready-port "127.0.0.1:$PORT" -- "$T/load" "$PORT"
is "$rc $(failed)" "0 0" "--ready-port 127.0.0.1:PORT: exit 0, every run connected"
run_pc run --no-store --runs 1 --service "$SVC $PORT" --ready-port "127.0.0.2:$PORT" --ready-timeout 3 -- true
like "$rc: $err" "^1: .*nothing accepted a TCP connection on 127[.]0[.]0[.]2 port $PORT \(--ready-port\)" \
	"--ready-port 127.0.0.2:PORT, where nothing listens: exit 1, naming the address"
is "$(left)" "" "that service is stopped too"
# localhost, and [::1] where loopback has IPv6: a server on ::1 alone is ready at
# [::1]:PORT, and one on 127.0.0.1 alone never is there.
run_pc run --no-store --cpu 0 --runs 2 --warmup 0 --format json --service "$SVC $PORT" \
	--ready-port "localhost:$PORT" -- "$T/load" "$PORT"
is "$rc $(failed)" "0 0" "--ready-port localhost:PORT: exit 0, every run connected"
if grep -q '^0\{31\}1 .* lo$' /proc/net/if_inet6 2>/dev/null; then
	run_pc run --no-store --cpu 0 --runs 2 --warmup 0 --format json --service "$SVC $PORT ::1" \
		--ready-port "[::1]:$PORT" -- "$T/load" "$PORT" ::1
	is "$rc $(failed)" "0 0" "--ready-port [::1]:PORT, a server on ::1: exit 0, every run connected"
	run_pc run --no-store --runs 1 --service "$SVC $PORT" --ready-port "[::1]:$PORT" --ready-timeout 3 -- true
	like "$rc: $err" "^1: .*nothing accepted a TCP connection on (\[::1\]|::1) port $PORT \(--ready-port\)" \
		"--ready-port [::1]:PORT, the server on 127.0.0.1 alone: exit 1, naming ::1"
else
	skip "loopback has no IPv6 address (::1 on lo in /proc/net/if_inet6)"
	skip "loopback has no IPv6 address (::1 on lo in /proc/net/if_inet6)"
fi
is "$(left)" "" "those services are stopped too"
one_line_exit2 "--ready-port ::1:80 (IPv6 without brackets)" "$P" run --no-store --service "$SVC $PORT" --ready-port ::1:80 -- true
one_line_exit2 "--ready-port [127.0.0.1]:80" "$P" run --no-store --service "$SVC $PORT" --ready-port "[127.0.0.1]:80" -- true
one_line_exit2 "--ready-port example.com:80 (not numeric)" "$P" run --no-store --service "$SVC $PORT" --ready-port example.com:80 -- true
one_line_exit2 "--ready-port 127.0.0.1: (no port)" "$P" run --no-store --service "$SVC $PORT" --ready-port 127.0.0.1: -- true
one_line_exit2 "--ready-port 0" "$P" run --no-store --service "$SVC $PORT" --ready-port 0 -- true
one_line_exit2 "--ready-port 65536" "$P" run --no-store --service "$SVC $PORT" --ready-port 65536 -- true
one_line_exit2 "--ready-port http" "$P" run --no-store --service "$SVC $PORT" --ready-port http -- true
one_line_exit2 "--ready-port without --service" "$P" run --no-store --ready-port "$PORT" -- true
done_testing
