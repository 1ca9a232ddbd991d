#!/bin/bash
# Attacks on the API listener, each against the real daemon: connections
# opened and closed without a byte, connections held open without a byte
# (from inside and from outside api.allow), and a request head sent one
# byte at a time.  None of them may keep a real client out, and the
# daemon's open descriptors must stay within api.max_connections.  Then
# the same on the synthetic data listener, whose limit is
# synth.max_streams plus 16 spare connections.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq perl

MAXC=16
HEAD=3
SPORT=$(free_port)
SMAX=4
# The attacks and the real client share 127.0.0.1: no cap per address
# (13-per-address tests it), so that the limits behind it are what holds.
cat >"$T_TMP/nasperfd.yaml" <<EOF
api:
  allow: [127.0.0.1/32]
  max_connections: $MAXC
  max_connections_per_address: 10000
  idle_timeout: 120
  head_timeout: $HEAD
synth:
  listen: 127.0.0.1:$SPORT
  max_streams: $SMAX
  idle_timeout: 120
EOF
start_daemon -c "$T_TMP/nasperfd.yaml" || exit 1

# conns MODE N [SRC [SECS]]: N TCP connections to the daemon from SRC
# (default 127.0.0.1).  MODE close: open and close each at once, sending
# nothing.  MODE hold: open all, send nothing, keep them SECS seconds
# (in the background: its pid in $HOLDER, "ready" in $T_TMP/held).
# MODE slow: one connection that sends a request head one byte every
# 0.5 s (it would take 20 s); prints the seconds until the daemon closed
# it, or "answered" or "open".
CONNS_PL=$PERL_CONNECT'
	    my ($mode, $n, $port, $src, $secs, $ready) = @ARGV;
	    my @s;
	    for my $i (1 .. $n) {
	        my $c = np_connect($src, $port);
	        if ($mode eq "close") { close($c) } else { push @s, $c }
	    }
	    if ($mode eq "hold") {
	        open(my $o, ">", $ready) or die; print $o "ready\n"; close $o;
	        sleep $secs;
	        exit 0;
	    }
	    exit 0 if $mode ne "slow";
	    my $c = $s[0];
	    my $head = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " .
	        ("p" x 4) . "\r\n\r\n";
	    $SIG{PIPE} = "IGNORE";
	    my $t0 = time;
	    for my $ch (split //, $head) {
	        my $w = send($c, $ch, 0);
	        my $rin = ""; vec($rin, fileno($c), 1) = 1;
	        if (!defined $w || select(my $r = $rin, undef, undef, 0.5)) {
	            my $got = "";
	            my $k = defined $w ? sysread($c, $got, 100) : 0;
	            if (!$k) { printf "%.1f\n", time - $t0; exit 0 }
	            print "answered\n"; exit 0;
	        }
	    }
	    print "open\n";'
conns() {
	perl -MSocket -MTime::HiRes=time,sleep -e "$CONNS_PL" "$1" "$2" \
	    "${PORT:-$NPD_PORT}" "${3:-127.0.0.1}" "${4:-0}" "$T_TMP/held"
}
# served DESC: a real client is answered at once.
served() {
	is "$1: a real client is answered" "$(curl -s -o /dev/null \
	    -w '%{http_code}' --max-time 5 "$NPD_URL/healthz")" 200
	is "$1: and with the token" "$(curl -s -o /dev/null -w '%{http_code}' \
	    --max-time 5 -H "Authorization: Bearer $NPD_TOKEN" \
	    "$NPD_URL/v1/info")" 200
}
# hold N SRC SECS: hold N connections in the background until ready.
hold() {
	bg_ready "$T_TMP/held" perl -MSocket -MTime::HiRes=time,sleep \
	    -e "$CONNS_PL" hold "$1" "${PORT:-$NPD_PORT}" "$2" "$3" \
	    "$T_TMP/held" || return 1
	HOLDER=$BG_PID
}
FD0=$(daemon_sockets)

# attacks P CAP SERVED: on listener P ("api" or "synth", whose log lines
# start so), at most CAP connections open, with SERVED DESC checking that
# a real client is answered after each attack.
attacks() {
	local p=$1 cap=$2 served=$3 n got

	# 1. The attack as found: 64 connections opened and closed without
	# a byte, three times over, then a real client.  Before, the API
	# waited out idle_timeout.
	for round in 1 2 3; do
		conns close 64
	done
	$served "$p: 64 empty connections opened and closed, 3 times"

	# 2. Held open without a byte: more than the limit of them.
	check "$p held: $((cap * 2)) empty connections are open" \
	    hold $((cap * 2)) 127.0.0.1 30
	sleep 0.5
	$served "$p held: $((cap * 2)) empty connections held open"
	n=$(daemon_sockets)
	check "$p held: at most $cap of them held ($((n - FD0)) over the daemon's $FD0 descriptors)" \
	    test $((n - FD0)) -le "$cap"
	kill "$HOLDER"; wait "$HOLDER" 2>/dev/null

	# 3. From outside api.allow: closed at accept, never counted.
	check "$p outside: $((cap * 2)) connections from 127.0.0.2 are open" \
	    hold $((cap * 2)) 127.0.0.2 30
	sleep 0.5
	$served "$p outside: $((cap * 2)) from outside api.allow held"
	n=$(daemon_sockets)
	check "$p outside: none of them holds a descriptor ($((n - FD0)) over $FD0)" \
	    test $((n - FD0)) -le 1
	check "$p outside: the refusal is logged with the address" \
	    grep -q "$p: 127.0.0.2: not in api.allow: closed" "$NPD_LOG"
	kill "$HOLDER"; wait "$HOLDER" 2>/dev/null

	# 4. A head one byte every 0.5 s: cut at api.head_timeout, though
	# each byte came well within the idle timeout.
	got=$(conns slow 1)
	echo "# $p: a slow head was closed after: $got s (head_timeout $HEAD s)"
	check "$p slow: the head is cut at its deadline, not answered" \
	    awk -v g="$got" -v h="$HEAD" 'BEGIN { exit !(g + 0 == g &&
	    g >= h - 0.5 && g < 20) }'
	$served "$p slow: after a slow head"
}

attacks api "$MAXC" served
is "api outside: a request from outside gets no answer" "$(curl -s \
    -o /dev/null -w '%{http_code}' --max-time 5 --interface 127.0.0.2 \
    "$NPD_URL/healthz")" 000

# 5. Many slow heads at once, then the count: the descriptors match what
# is open, and it all drains.
SLOW=()
for i in $(seq $((MAXC * 2))); do
	conns slow 1 >/dev/null &
	SLOW+=($!)
done
sleep 1
served "slow: $((MAXC * 2)) slow heads at once"
wait "${SLOW[@]}"
sleep 0.5
n=$(daemon_sockets)
is "drained: the daemon is back to its descriptors" "$n" "$FD0"

# 6. The synthetic data listener, whose limit is synth.max_streams plus
# 16.  Before, 24 idle connections made every other client's GET a 503,
# and api.allow was looked at only after a whole head.
# sserved DESC: a real data-plane client gets its bytes.
sserved() {
	is "$1: a synth GET is served" "$(curl -s -o /dev/null \
	    -w '%{http_code} %{size_download}' --max-time 10 \
	    -H "Authorization: Bearer $NPD_TOKEN" \
	    "http://127.0.0.1:$SPORT/v1/synth?bytes=100000")" "200 100000"
}
PORT=$SPORT
sserved "synth: before"
attacks synth $((SMAX + 16)) sserved
sleep 0.5
is "synth drained: the daemon is back to its descriptors" "$(daemon_sockets)" "$FD0"
PORT=

# Guessing the token: after 10 failures in a minute an address is refused
# (429, Retry-After) for a second, then two, ...; the failures are logged
# at notice level.  On both listeners.
guess() {	# guess URL: the status of a request with a wrong token
	curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer x$NPD_TOKEN" "$1"
}
codes=$(for i in $(seq 10); do guess "$NPD_URL/v1/info"; echo; done | sort | uniq -c |
    awk '{ printf "%s:%s ", $2, $1 }')
is "10 wrong tokens are answered 401" "$codes" "401:10 "
curl -s -D "$T_TMP/h" -o /dev/null -H "Authorization: Bearer $NPD_TOKEN" \
    "$NPD_URL/v1/info"
is "then the address is refused, the right token too" \
    "$(sed -n '1s/^HTTP[^ ]* \([0-9]*\).*/\1/p' "$T_TMP/h")" 429
check "429 says when to retry" grep -qi '^Retry-After: 1' "$T_TMP/h"
check "the failures are logged" grep -q \
    "api: authentication failed from 127.0.0.1 (a missing or wrong token)" "$NPD_LOG"
check "the refusal is logged" grep -q \
    "api: 127.0.0.1 failed to authenticate 10 times within 60 s: refused for 1 s" "$NPD_LOG"
sleep 1.2
is "a second later the right token is answered" \
    "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $NPD_TOKEN" \
    "$NPD_URL/v1/info")" 200
codes=$(for i in $(seq 11); do guess "http://127.0.0.1:$SPORT/v1/synth?bytes=1"; echo
    done | tr '\n' ' ')
is "the data port refuses them the same way" "$codes" \
    "401 401 401 401 401 401 401 401 401 401 429 "

stop_daemon
is "the daemon exits 0 on SIGTERM" "$NPD_RC" 0
check "and its log has no sanitizer report" \
    sh -c "! grep -q 'Sanitizer' '$NPD_LOG'"
done_testing
