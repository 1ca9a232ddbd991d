#!/bin/bash
# What libevent's parser would refuse, sent to the real daemon byte for
# byte: every refusal is the API's JSON error (never libevent's HTML
# page), the connection is closed after it, a NUL cannot cut a token
# short, and good requests around the bad ones, whole, pipelined or a few
# bytes at a time, are answered as before.  Plain and over TLS.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq perl
perl -MIO::Socket::SSL -e 1 2>/dev/null ||
	skip_all "perl's IO::Socket::SSL is missing (libio-socket-ssl-perl)"

cat >"$T_TMP/nasperfd.yaml" <<EOF
api:
  allow: [127.0.0.1/32]
  max_header_bytes: 4096
  max_body_bytes: 65536
EOF
start_daemon -c "$T_TMP/nasperfd.yaml" || exit 1
TOK=$NPD_TOKEN

# raw PORT PIECE FILE [tls]: send FILE's bytes to 127.0.0.1:PORT, PIECE
# bytes at a time 20 ms apart (0: at once), print all that comes back in
# 5 s and then "#EOF" if the daemon closed the connection.
# shellcheck disable=SC2016 # Perl's variables
RAW_PL=$PERL_CONNECT'
	use IO::Socket::SSL;
	my ($port, $piece, $file, $tls) = @ARGV;
	open(my $f, "<:raw", $file) or die "$file: $!";
	my $req = do { local $/; <$f> };
	close $f;
	my $c;
	if ($tls) {
	    $c = IO::Socket::SSL->new(PeerHost => "127.0.0.1",
	        PeerPort => $port, SSL_verify_mode => SSL_VERIFY_NONE)
	        or die "tls: $SSL_ERROR";
	} else {
	    $c = np_connect("127.0.0.1", $port);
	}
	$SIG{PIPE} = "IGNORE";
	$piece = length($req) if $piece == 0;
	for (my $i = 0; $i < length($req); $i += $piece) {
	    syswrite($c, substr($req, $i, $piece)) or last;
	    select(undef, undef, undef, 0.02) if $piece < length($req);
	}
	my ($out, $eof, $t0) = ("", 0, time);
	while (time - $t0 < 5) {
	    my $n = sysread($c, my $b, 65536);
	    if (!defined $n && $tls && $SSL_ERROR == SSL_WANT_READ) {
	        select(undef, undef, undef, 0.05);
	        next;
	    }
	    if (!$n) { $eof = 1; last }
	    $out .= $b;
	}
	print $out;
	print "\n#EOF\n" if $eof;'
raw() {
	perl -MSocket -e "$RAW_PL" "$@"
}

# send_bytes NAME FORMAT [ARGS]: printf FORMAT into $T_TMP/NAME.
send_bytes() {
	local name=$1
	shift
	# shellcheck disable=SC2059 # the format is the test's
	printf "$@" >"$T_TMP/$name"
}

# statuses OUT: the status codes of the replies in OUT, space-separated.
statuses() {
	grep -a -o 'HTTP/1\.[01] [0-9][0-9][0-9]' <<<"$1" | cut -d' ' -f2 |
	    tr '\n' ' ' | sed 's/ $//'
}

# refused WHAT FILE STATUS CODE [PIECE [tls PORT]]: FILE sent is answered
# STATUS with the JSON error CODE, nothing of libevent's, and closed.
refused() {
	local what=$1 file=$2 want=$3 code=$4 piece=${5:-0} port=$NPD_PORT
	local tls="" out body
	if [ "${6:-}" = tls ]; then
		tls=1
		port=$7
	fi
	out=$(raw "$port" "$piece" "$T_TMP/$file" $tls)
	body=$(tr -d '\r' <<<"$out" | sed -n '/^$/,$p' | sed '1d; /^#EOF$/d')
	if [ "$(statuses "$out")" = "$want" ] &&
	    grep -aqi '^content-type: application/json' <<<"$out" &&
	    ! grep -aqi '<html' <<<"$out" &&
	    [ "$(jq -r .error.code <<<"$body" 2>/dev/null)" = "$code" ] &&
	    grep -aq '^#EOF$' <<<"$out"; then
		ok "$what: $want $code in JSON, then closed"
	else
		not_ok "$what: $want $code in JSON, then closed"
		tr -d '\r' <<<"$out" | sed 's/^/#   /' | head -20
	fi
}

send_bytes nul 'GET /v1/info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\0junk\r\n\r\n' "$TOK"
refused "a NUL after the token" nul 400 bad_request
refused "a NUL after the token, 3 bytes at a time" nul 400 bad_request 3
send_bytes nul2 'GET /v1/info HTTP/1.1\r\nAuthorization: Bearer %s\0\r\n\r\n' "$TOK"
refused "a NUL ending the token" nul2 400 bad_request
send_bytes esc 'GET /healthz HTTP/1.1\r\nUser-Agent: a\033]0;x\007\r\n\r\n'
refused "an escape sequence in a header" esc 400 bad_request
send_bytes nocolon 'GET /healthz HTTP/1.1\r\nHost x\r\n\r\n'
refused "a header line with no colon" nocolon 400 bad_request
send_bytes fold 'GET /healthz HTTP/1.1\r\nX-A: a\r\n b\r\n\r\n'
refused "a folded header" fold 400 bad_request
send_bytes nover 'GET /healthz\r\n\r\n'
refused "a request line with no version" nover 400 bad_request
send_bytes v2 'GET /healthz HTTP/2.0\r\n\r\n'
refused "HTTP/2.0 in a request line" v2 505 http_version
send_bytes brew 'BREW /healthz HTTP/1.1\r\n\r\n'
refused "an unknown method" brew 501 unknown_method
send_bytes chunked 'POST /v1/runs HTTP/1.1\r\nAuthorization: Bearer %s\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' "$TOK"
refused "a chunked body" chunked 411 length_required
send_bytes cl2 'POST /v1/runs HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc'
refused "two Content-Lengths" cl2 400 bad_request
send_bytes clbig 'POST /v1/runs HTTP/1.1\r\nContent-Length: 65537\r\n\r\n'
refused "a Content-Length over api.max_body_bytes" clbig 413 body_too_large
send_bytes getbody 'GET /healthz HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd'
refused "a body on a GET" getbody 400 bad_request
{
	printf 'GET /healthz HTTP/1.1\r\nX-Big: '
	head -c 5000 /dev/zero | tr '\0' b
	printf '\r\n\r\n'
} >"$T_TMP/bighead"
refused "a head over api.max_header_bytes" bighead 431 head_too_large
head -c 5000 /dev/zero | tr '\0' a | sed 's/^/GET \//' >"$T_TMP/longline"
refused "a request line with no end, over the limit" longline 431 \
    head_too_large 700

# Good requests, and good ones around a bad one.
send_bytes good 'GET /v1/info HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n' "$TOK"
out=$(raw "$NPD_PORT" 2 "$T_TMP/good")
is "a request 2 bytes at a time is answered" "$(statuses "$out")" 200
send_bytes piped '\r\nPOST /v1/info HTTP/1.1\r\nAuthorization: Bearer %s\r\nContent-Length: 5\r\n\r\nhelloGET /healthz HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n' "$TOK"
out=$(raw "$NPD_PORT" 0 "$T_TMP/piped")
is "a body, then two pipelined requests, a blank line first" \
    "$(statuses "$out")" "405 200 200"
out=$(raw "$NPD_PORT" 7 "$T_TMP/piped")
is "the same 7 bytes at a time" "$(statuses "$out")" "405 200 200"
send_bytes goodbad 'GET /healthz HTTP/1.1\r\n\r\nGET /healthz HTTP/1.1\r\nX-A: \001\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n'
out=$(raw "$NPD_PORT" 0 "$T_TMP/goodbad")
is "good, bad, good: the first answered, the bad refused, no more" \
    "$(statuses "$out")" "200 400"
check "and the connection closed" grep -aq '^#EOF$' <<<"$out"

# What curl sends: a body over the limit, and a body under it.
head -c 70000 /dev/zero >"$T_TMP/body"
out=$(curl -sS -X POST --data-binary @"$T_TMP/body" -H "Authorization: Bearer $TOK" \
    -w '\n%{http_code} %{content_type}' "$NPD_URL/v1/runs")
is "curl's POST over the limit: 413 in JSON" "$(tail -1 <<<"$out")" \
    "413 application/json"
is "its error code" "$(head -1 <<<"$out" | jq -r .error.code)" body_too_large
is "a good token still works" "$(curl -sS -o /dev/null -w '%{http_code}' \
    -H "Authorization: Bearer $TOK" "$NPD_URL/v1/info")" 200
check "the daemon is still up" kill -0 "$NPD_PID"

# Over TLS: the reader sees what TLS decrypted.
if tls_daemon "$T_TMP/tls-state" $'  max_header_bytes: 4096\n' ""; then
	TTOK=$(cat "$T_TMP/tls-state/token")
	send_bytes tnul 'GET /v1/info HTTP/1.1\r\nAuthorization: Bearer %s\0junk\r\n\r\n' "$TTOK"
	refused "over TLS, a NUL after the token" tnul 400 bad_request 5 tls "$PORT"
	refused "over TLS, a request line with no end" longline 431 \
	    head_too_large 0 tls "$PORT"
	send_bytes tgood 'GET /v1/info HTTP/1.1\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n' "$TTOK"
	out=$(raw "$PORT" 3 "$T_TMP/tgood" 1)
	is "over TLS, a good request 3 bytes at a time" "$(statuses "$out")" 200
else
	not_ok "a daemon with api.tls started"
fi
done_testing
