#!/bin/bash
# One address holding many connections, against the real daemon, on both
# listeners: from 127.0.0.2, 64 connections that each send a request and
# then sit idle (kept alive).  Without a cap per address they filled
# api.max_connections with connections past their first request, which
# nothing may close to make room, and a real client waited for
# api.head_timeout.  With api.max_connections_per_address, the address
# keeps that many and the rest are closed at once; a real client from
# 127.0.0.1 is served within a second; the daemon's sockets are exactly
# those kept; the refusals are logged, one line at once and the rest in a
# line a second.  Then the open-files limit: raised from a low soft
# limit, and a warning naming the limit when the hard one is too low.
. "$(dirname "$0")/lib.sh"
need_cmd curl perl

CAP=4
SPORT=$(free_port)
cat >"$T_TMP/nasperfd.yaml" <<EOF
api:
  allow: [127.0.0.0/8]
  max_connections: 16
  max_connections_per_address: $CAP
  idle_timeout: 120
  head_timeout: 10
synth:
  listen: 127.0.0.1:$SPORT
  max_streams: 2
  idle_timeout: 120
EOF
start_daemon -c "$T_TMP/nasperfd.yaml" || exit 1

# hold PORT N SRC REQUEST: in the background, N connections from SRC,
# each sending REQUEST; half a second later it writes "OPEN CLOSED" to
# $T_TMP/held (closed: the daemon ended it, EOF or reset) and holds the
# open ones for 20 s.  Its pid in $HOLDER.
HOLD_PL=$PERL_CONNECT'
	    my ($port, $n, $src, $req, $out) = @ARGV;
	    $SIG{PIPE} = "IGNORE";
	    my @s;
	    for my $i (1 .. $n) {
	        my $c = np_connect($src, $port);
	        send($c, $req, 0);
	        push @s, $c;
	    }
	    sleep 0.5;
	    my ($open, $closed) = (0, 0);
	    for my $c (@s) {
	        my $rin = ""; vec($rin, fileno($c), 1) = 1;
	        my $alive = 1;
	        while (select(my $r = $rin, undef, undef, 0)) {
	            if (!sysread($c, my $buf, 4096)) { $alive = 0; last }
	        }
	        $alive ? $open++ : $closed++;
	    }
	    open(my $o, ">", "$out.tmp") or die; print $o "$open $closed\n";
	    close $o; rename("$out.tmp", $out);
	    sleep 20;'
hold() {
	bg_ready "$T_TMP/held" perl -MSocket -MTime::HiRes=sleep \
	    -e "$HOLD_PL" "$@" "$T_TMP/held" || return 1
	HOLDER=$BG_PID
}
unhold() {
	kill "$HOLDER"
	wait "$HOLDER" 2>/dev/null
}
# held_over N: the daemon's sockets over FD0, once they are N (up to 2 s:
# a client that just ended its connection may still count).
held_over() {
	local i
	for ((i = 0; i < 20; i++)); do
		[ $(($(daemon_sockets) - FD0)) -eq "$1" ] && break
		sleep 0.1
	done
	echo $(($(daemon_sockets) - FD0))
}
# timed DESC WANT CURL-ARGS...: a request from 127.0.0.1 is answered
# within a second with WANT, a status, or a status and the bytes; the
# time it took is printed.
timed() {
	local desc=$1 want=$2 code size secs
	shift 2
	read -r code size secs < <(curl -s -o /dev/null --interface 127.0.0.1 \
	    --max-time 1 -w '%{http_code} %{size_download} %{time_total}' "$@")
	echo "# $desc: answered $code in $secs s"
	[ "${want#* }" != "$want" ] && code="$code $size"
	is "$desc: served within a second" "$code" "$want"
}
# logged P: the refusals of 127.0.0.2 on listener P that the log tells
# of, once it tells of all 60 (or after 4 s): "LINES REFUSALS".  The
# first is logged at once, the rest a line a second.
logged() {
	local i got
	for ((i = 0; i < 40; i++)); do
		got=$(awk -v p="$1: 127.0.0.2: " '
		    index($0, p) && /connections open from this address/ {
			    n++; t++ }
		    index($0, p) && / more connections over / {
			    split(substr($0, index($0, p) + length(p)), w, " ")
			    n++; t += w[1] }
		    END { print n + 0, t + 0 }' "$NPD_LOG")
		[ "${got#* }" = 60 ] && break
		sleep 0.1
	done
	echo "$got"
}
FD0=$(daemon_sockets)
TOKEN=(-H "Authorization: Bearer $NPD_TOKEN")

# The API: each connection sends GET /healthz and keeps alive.
check "api: 64 connections from 127.0.0.2 are opened" hold "$NPD_PORT" 64 \
    127.0.0.2 $'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'
is "api: $CAP of them kept, the other 60 closed at once" \
    "$(cat "$T_TMP/held")" "$CAP 60"
timed "api: /healthz" 200 "$NPD_URL/healthz"
timed "api: /v1/info with the token" 200 "${TOKEN[@]}" "$NPD_URL/v1/info"
is "api: the daemon holds exactly the $CAP kept" "$(held_over "$CAP")" "$CAP"
got=$(logged api)
echo "# api: log lines, refusals: $got"
check "api: all 60 refusals are logged, in a line or a few" \
    test "${got#* }" = 60 -a "${got% *}" -le 5
check "api: the line names the address and the key" grep -q \
    "api: 127.0.0.2: $CAP connections open from this address, the most it may hold (api.max_connections_per_address): closed" \
    "$NPD_LOG"
unhold
is "api: their close gives the sockets back" "$(held_over 0)" 0
is "api: and 127.0.0.2 is served again" "$(curl -s -o /dev/null \
    --interface 127.0.0.2 --max-time 5 -w '%{http_code}' \
    "$NPD_URL/healthz")" 200

# The data port: each connection sends a preflight (no token needed) and
# keeps alive.
SURL="http://127.0.0.1:$SPORT/v1/synth?bytes=100000"
check "synth: 64 connections from 127.0.0.2 are opened" hold "$SPORT" 64 \
    127.0.0.2 $'OPTIONS /v1/synth HTTP/1.1\r\nHost: x\r\n\r\n'
is "synth: $CAP of them kept, the other 60 closed at once" \
    "$(cat "$T_TMP/held")" "$CAP 60"
timed "synth: a GET of 100000 bytes" "200 100000" "${TOKEN[@]}" "$SURL"
timed "synth: and the API" 200 "$NPD_URL/healthz"
is "synth: the daemon holds exactly the $CAP kept" "$(held_over "$CAP")" \
    "$CAP"
got=$(logged synth)
echo "# synth: log lines, refusals: $got"
check "synth: all 60 refusals are logged, in a line or a few" \
    test "${got#* }" = 60 -a "${got% *}" -le 5
unhold
is "synth: their close gives the sockets back" "$(held_over 0)" 0
is "synth: and 127.0.0.2 is served again" "$(curl -s -o /dev/null \
    --interface 127.0.0.2 --max-time 5 -w '%{http_code} %{size_download}' \
    "${TOKEN[@]}" "http://127.0.0.1:$SPORT/v1/synth?bytes=1000")" "200 1000"

stop_daemon
is "the daemon exits 0 on SIGTERM" "$NPD_RC" 0
check "and its log has no sanitizer report" \
    sh -c "! grep -q 'Sanitizer' '$NPD_LOG'"

# The open-files limit, which the configuration above needs 418 of
# (cfg_nofile): a soft limit of 64 is raised to the hard one, and a hard
# limit of 128 leaves a warning naming the limit to raise.
# nofile SOFT HARD: start nasperfd under those limits, wait for it to
# listen, stop it; its log in $T_TMP/nofile.log.
nofile() {
	local port
	port=$(free_port)
	(ulimit -Sn "$1" && ulimit -Hn "$2" && exec "$NASPERFD" -f \
	    -l "127.0.0.1:$port" -s "$T_TMP/state.nofile" \
	    -c "$T_TMP/nasperfd.yaml" >"$T_TMP/nofile.log" 2>&1) &
	wait_healthz "$port" || return 1
	kill -TERM $!
	wait $!
}
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -ge 418 ]; then
	check "nofile: started with a soft limit of 64" nofile 64 "$hard"
	check "nofile: raised to the hard limit, $hard" grep -q \
	    "open files: soft limit raised from 64 to the hard limit, $hard" \
	    "$T_TMP/nofile.log"
else
	skip "nofile: the hard limit here ($hard) is below 418"
	skip "nofile: the raise"
fi
check "nofile: started with a hard limit of 128" nofile 128 128
check "nofile: the warning says which limit to raise" grep -q \
    "open files: the limit is 128, but api.max_connections 16 and synth.max_streams 2 may need 418: raise the hard limit (LimitNOFILE= in a systemd unit, ulimit -n in the script that starts nasperfd)" \
    "$T_TMP/nofile.log"
done_testing
