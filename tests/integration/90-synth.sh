#!/bin/bash
# The synthetic data plane on loopback: exact byte counts, reproducible and
# verified patterns, every bad parameter, the stream limit, clients that
# go away or never read, uploads longer than declared, the rate limit,
# the measured path capacity, and nasperf synth as a run with a verdict.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq gzip cmp

SPORT=$(free_port)
cat >"$T_TMP/c.yaml" <<EOF
synth:
  listen: 127.0.0.1:$SPORT
  max_streams: 2
  max_bytes: 100000000000
  idle_timeout: 2
EOF
start_daemon -c "$T_TMP/c.yaml" || { echo "Bail out! nasperfd did not start"; exit 1; }
S=http://127.0.0.1:$SPORT
H="Authorization: Bearer $NPD_TOKEN"
export NASPERF_SYNTH_PORT=$SPORT

# sget QUERY [CURL ARGS]: status and size of GET /v1/synth?QUERY.
sget() {
	local q=$1
	shift
	curl -sS -o "$T_TMP/body" -w '%{http_code} %{size_download}' \
	    -H "$H" "$@" "$S/v1/synth?$q"
}
# scode QUERY [CURL ARGS]: the status; the body is in $T_TMP/body.
scode() {
	local q=$1
	shift
	curl -sS -o "$T_TMP/body" -w '%{http_code}' -H "$H" "$@" \
	    "$S/v1/synth?$q"
}
jqt() { jq -e "$@" >/dev/null; }	# jqt FILTER FILE: the filter holds
# wait_200: until a download is served again (a slot came free), 20 s.
wait_200() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(scode bytes=1)" = 200 ] && return 0
		sleep 0.2
	done
	return 1
}

check "the data plane listens on synth.listen" \
    grep -q "synth: listening on 127.0.0.1:$SPORT" "$NPD_LOG"
is "/v1/info gives the data plane's port" \
    "$(curl -sS -H "$H" "$NPD_URL/v1/info" | jq .synth.port)" "$SPORT"
# The client finds it there when neither --port nor the environment says.
check "nasperf synth finds the port in /v1/info" sh -c "env -u \
    NASPERF_SYNTH_PORT NASPERF_TOKEN=$NPD_TOKEN '$NASPERF' -H \
    127.0.0.1:$NPD_PORT -j synth --bytes 1000000 | jq -e \
    '.download.bytes == 1000000'"

# -- exact byte counts, across the 256 KiB period and its multiples
for n in 0 1 4095 262143 262144 262145 4194305 12582913; do
	is "bytes=$n gives $n bytes" "$(sget "bytes=$n")" "200 $n"
done
hdr=$(curl -sS -D - -o /dev/null -H "$H" "$S/v1/synth?bytes=77&pattern=zero")
check "Content-Length is the count" grep -qi '^content-length: 77' <<<"$hdr"
check "the answer names the pattern" grep -qi '^x-nasperf-pattern: zero' <<<"$hdr"
check "the answer names the interface" grep -qi '^x-nasperf-interface: lo' <<<"$hdr"
is "HEAD answers 200 without a body" \
    "$(curl -sS -I -o /dev/null -w '%{http_code} %{size_download}' -H "$H" \
    "$S/v1/synth?bytes=1000")" "200 0"
r=$(curl -sS -o /dev/null -w '%{http_code} %{size_download}' -H "$H" \
    "$S/v1/synth?seconds=0.5&pattern=zero")
is "a timed stream answers 200" "${r% *}" 200
check "... and ends, with bytes (${r#* })" test "${r#* }" -gt 0

# -- the patterns
curl -sS -H "$H" -o "$T_TMP/a" "$S/v1/synth?bytes=9000000&seed=42"
curl -sS -H "$H" -o "$T_TMP/b" "$S/v1/synth?bytes=9000000&seed=42"
curl -sS -H "$H" -o "$T_TMP/c" "$S/v1/synth?bytes=9000000&seed=43"
check "random is reproducible from the seed" cmp -s "$T_TMP/a" "$T_TMP/b"
check "another seed gives other bytes" sh -c "! cmp -s $T_TMP/a $T_TMP/c"
check "a stream repeats its 256 KiB period" sh -c "cmp -s -n 300000 \
    $T_TMP/a $T_TMP/a 0 262144"
check "... and nothing shorter" sh -c "! cmp -s -n 300000 $T_TMP/a \
    $T_TMP/a 0 131072"
is "the first bytes are SplitMix64's from seed 0" \
    "$(curl -sS -H "$H" "$S/v1/synth?bytes=8&seed=0" | od -An -tx1 | tr -d ' ')" \
    afcd1d7b39a820e2
# ratio FILE: compressed size in per cent of the original, gzip -1.
ratio() {
	echo $(( $(gzip -1 -c "$1" | wc -c) * 100 / $(stat -c %s "$1") ))
}
curl -sS -H "$H" -o "$T_TMP/m" "$S/v1/synth?bytes=9000000&pattern=mixed"
curl -sS -H "$H" -o "$T_TMP/z" "$S/v1/synth?bytes=9000000&pattern=zero"
r=$(ratio "$T_TMP/a")
check "random does not compress (gzip: $r %)" test "$r" -ge 99
r=$(ratio "$T_TMP/m")
check "mixed compresses to about half (gzip: $r %)" \
    test "$r" -ge 45 -a "$r" -le 56
r=$(ratio "$T_TMP/z")
check "zero compresses to nothing (gzip: $r %)" test "$r" -le 1

# -- uploads: counted, checked byte by byte
put() {	# put QUERY FILE: the sink's answer to an upload of FILE
	curl -sS -H "$H" -T "$2" "$S/v1/synth?$1"
}
j=$(put 'verify=1&seed=42' "$T_TMP/a")
is "an upload is counted" "$(jq .bytes <<<"$j")" 9000000
is "... completely" "$(jq .complete <<<"$j")" true
is "the random stream verifies" "$(jq .verified <<<"$j")" true
cp "$T_TMP/a" "$T_TMP/flip"
printf '\x5a' | dd of="$T_TMP/flip" bs=1 seek=7654321 conv=notrunc 2>/dev/null
check "the copy has one byte flipped" sh -c "! cmp -s $T_TMP/a $T_TMP/flip"
j=$(put 'verify=1&seed=42' "$T_TMP/flip")
is "one flipped byte fails verification" "$(jq .verified <<<"$j")" false
is "... at its offset" "$(jq .first_mismatch <<<"$j")" 7654321
j=$(put 'verify=1&seed=43' "$T_TMP/a")
is "another seed fails at byte 0" "$(jq .first_mismatch <<<"$j")" 0
j=$(put 'verify=1&pattern=mixed&seed=0' "$T_TMP/m")
is "mixed verifies" "$(jq .verified <<<"$j")" true
j=$(put '' "$T_TMP/z")
is "an unchecked upload says verified null" "$(jq .verified <<<"$j")" null

# -- every bad parameter is 400, in the API's JSON error shape
for q in 'bytes=-1' 'bytes=abc' 'bytes=1e6' 'bytes=' 'bytes=100000000001' \
    'bytes=99999999999999999999' 'bytes=10&pattern=ones' \
    'bytes=10&seed=-1' 'bytes=10&seed=x' 'seconds=0' 'seconds=-1' \
    'seconds=abc' 'seconds=1e9' 'bytes=1&seconds=1' 'pattern=zero' '' \
    'bytes=1&bytes=2' 'bytes=1&colour=red' 'bytes=1&verify=1' 'bytes'; do
	is "GET ?$q is 400" "$(scode "$q")" 400
	is "... code bad_request" "$(jq -r .error.code "$T_TMP/body")" \
	    bad_request
done
is "PUT with bytes= is 400" "$(scode 'bytes=10' -T "$T_TMP/z")" 400
is "PUT verify=maybe is 400" "$(scode 'verify=maybe' -T "$T_TMP/z")" 400
is "the message names the parameter" \
    "$(scode 'bytes=100000000001' >/dev/null; jq -r .error.message "$T_TMP/body")" \
    "bytes: 100000000001 is over synth.max_bytes (100000000000)"
is "no token is 401" "$(curl -sS -o /dev/null -w '%{http_code}' \
    "$S/v1/synth?bytes=1")" 401
is "a wrong token is 401" "$(curl -sS -o /dev/null -w '%{http_code}' \
    -H 'Authorization: Bearer 0123' "$S/v1/synth?bytes=1")" 401
is "another path is 404" "$(curl -sS -o /dev/null -w '%{http_code}' \
    -H "$H" "$S/v1/info")" 404
is "POST is 405" "$(scode bytes=1 -X POST)" 405
check "... with Allow" sh -c "curl -sS -D - -o /dev/null -X POST -H '$H' \
    '$S/v1/synth?bytes=1' | grep -qi '^allow: GET, HEAD, PUT'"
is "a chunked upload is 411" \
    "$(scode '' -T - -H 'Transfer-Encoding: chunked' <"$T_TMP/z")" 411
is "an upload over synth.max_bytes is 413" \
    "$(curl -sS -o "$T_TMP/body" -w '%{http_code}' -H "$H" \
    -H 'Content-Length: 100000000001' -X PUT --data-binary @/dev/null \
    "$S/v1/synth" 2>/dev/null)" 413
is "... and says what may be declared" "$(jq .error.max_bytes "$T_TMP/body")" \
    100000000000
exec 4<>"/dev/tcp/127.0.0.1/$SPORT"
printf 'HELLO\r\n\r\n' >&4
is "a request line that is not HTTP is 400" \
    "$(timeout 5 head -c 12 <&4)" "HTTP/1.1 400"
exec 4<&-

# -- an upload longer than it declared: the rest is the next request
exec 4<>"/dev/tcp/127.0.0.1/$SPORT"
printf 'PUT /v1/synth HTTP/1.1\r\nHost: x\r\n%s\r\nContent-Length: 10\r\n\r\n0123456789EXTRA-BYTES\r\n\r\n' \
    "$H" >&4
timeout 10 cat <&4 >"$T_TMP/long"
exec 4<&-
check "the declared 10 bytes are counted" grep -q '"bytes":10,' "$T_TMP/long"
check "the extra bytes are refused as a request" \
    grep -q '^HTTP/1.1 400 ' "$T_TMP/long"

# -- the stream limit, and slots coming free.  The two streams read at a
# limited but high rate: curl's limiter sleeps off a burst it has read, and
# at a low rate a loopback burst of some MB can put it past the 2 s idle
# timeout, which then rightly closes the stream.
# A stream that was itself refused (a slot of an earlier check not yet
# free) ends at once with curl -f failing: it is started again.
filler() {
	curl -fsS -o /dev/null -H "$H" --limit-rate 200M \
	    "$S/v1/synth?bytes=50000000000" 2>"$T_TMP/$1.err" &
	eval "$1=\$!"
}
filler c1
filler c2
at_exit 'kill $c1 $c2'
for ((i = 0; i < 100; i++)); do
	[ "$(scode bytes=1)" = 503 ] && break
	for c in c1 c2; do
		kill -0 "${!c}" 2>/dev/null || filler "$c"
	done
	sleep 0.1
done
got=$(scode bytes=1)
is "a third stream is 503" "$got" 503
if [ "$got" != 503 ]; then
	for c in c1 c2; do
		kill -0 "${!c}" 2>/dev/null && echo "# $c is running" ||
		    echo "# $c ended: $(cat "$T_TMP/$c.err")"
	done
	tail -5 "$NPD_LOG" | sed 's/^/#   /'
fi
is "... code busy" "$(jq -r .error.code "$T_TMP/body")" busy
check "... with Retry-After" sh -c "curl -sS -D - -o /dev/null -H '$H' \
    '$S/v1/synth?bytes=1' | grep -qi '^retry-after: 1'"
is "an upload is 503 too" "$(scode '' -T "$T_TMP/z")" 503
kill "$c1" "$c2" 2>/dev/null
wait "$c1" "$c2" 2>/dev/null
check "clients that disconnect mid-stream free their slots" wait_200
is "... both of them" "$(scode 'bytes=1000' & scode 'bytes=1000'; wait)" \
    200200

# -- clients that never read are closed after synth.idle_timeout
exec 5<>"/dev/tcp/127.0.0.1/$SPORT" 6<>"/dev/tcp/127.0.0.1/$SPORT"
for fd in 5 6; do
	printf 'GET /v1/synth?bytes=900000000 HTTP/1.1\r\nHost: x\r\n%s\r\n\r\n' \
	    "$H" >&$fd
done
sleep 0.5
is "two clients that never read hold both slots" "$(scode bytes=1)" 503
check "the idle timeout frees them" wait_200
check "... and says so" grep -q 'download made no progress for 2 s' "$NPD_LOG"
exec 5<&- 6<&-
exec 7<>"/dev/tcp/127.0.0.1/$SPORT"
printf 'PUT /v1/synth HTTP/1.1\r\nHost: x\r\n%s\r\nContent-Length: 1000\r\n\r\n12345' \
    "$H" >&7
sleep 3.5
check "an upload that stalls is closed too" \
    grep -q 'upload made no progress for 2 s' "$NPD_LOG"
exec 7<&-
# A fast stream is read once a megabyte or so has waited (SO_RCVLOWAT):
# what is left under that mark when it stalls is still counted.
exec 7<>"/dev/tcp/127.0.0.1/$SPORT"
printf 'PUT /v1/synth HTTP/1.1\r\nHost: x\r\n%s\r\nContent-Length: 900000000\r\n\r\n' \
    "$H" >&7
head -c 41943043 /dev/zero >&7
sleep 3.5
check "a fast upload that stalls is closed with every byte counted" \
    grep -q 'upload made no progress for 2 s: closed after 41943043 bytes' \
    "$NPD_LOG"
exec 7<&-
# ... and the mark goes back to a byte for the next request's head.
head -c 50000017 /dev/zero >"$T_TMP/z50"
timeout 20 curl -sS -H "$H" -T "$T_TMP/z50" "$S/v1/synth" \
    --next -H "$H" -o "$T_TMP/next" \
    -w '%{http_code} %{num_connects} %{size_download}\n' \
    "$S/v1/synth?bytes=1000" >"$T_TMP/ka" 2>&1
is "an upload on a kept-alive connection is counted" \
    "$(head -1 "$T_TMP/ka" | jq .bytes)" 50000017
is "... and the next request on it is answered" \
    "$(tail -1 "$T_TMP/ka")" "200 0 1000"
exec 8<>"/dev/tcp/127.0.0.1/$SPORT"
printf 'GET /v1/synth?bytes=1 HTTP/1.1\r\n' >&8
is "a head that never ends is closed" "$(timeout 10 cat <&8 | wc -c)" 0
exec 8<&-

# -- nasperf synth, a run with the daemon's verdict
client synth --bytes 64M --streams 2 --verify >"$T_TMP/out" 2>"$T_TMP/err"
is "nasperf synth exits 0" "$?" 0
check "it gives MB/s and Mb/s" \
    grep -qE '^download: 67108864 bytes in .* MB/s \([0-9]+ Mb/s\)' "$T_TMP/out"
check "every byte was verified" grep -q '^verified: every byte' "$T_TMP/out"
check "the run's verdict follows" grep -q '^verdict ' "$T_TMP/out"
client --json synth --both --time 1.2 --pattern mixed --verify \
    >"$T_TMP/j" 2>"$T_TMP/err"
is "synth --both --json exits 0" "$?" 0
is "the download's run is an http read" \
    "$(jq -r .download.report.run.protocol,.download.report.run.op "$T_TMP/j" | paste -sd ' ')" \
    "http read"
is "the upload's run is an http write" \
    "$(jq -r .upload.report.run.op "$T_TMP/j")" write
check "the upload was verified by the daemon" \
    jqt '.upload.verified == true and .upload.bytes > 0' "$T_TMP/j"
check "the run carries the client's bytes" \
    jqt '.download.report.run.bytes == .download.bytes' "$T_TMP/j"
check "a verdict was given" jqt '.upload.report.verdict.class' "$T_TMP/j"
# The run's path: the data port's connections, served by nasperfd.
check "the download's path was observed" \
    jqt '.download.report.path.observed == true' "$T_TMP/j"
check "its connections are to the data port, held by nasperfd $NPD_PID" \
    jqt "[.download.report.path.connections[] | select(.lport == $SPORT and
    .pid == $NPD_PID and .comm == \"nasperfd\")] | length >= 1" "$T_TMP/j"
check "they sent no more than the client received, and some of it" \
    jqt '([.download.report.path.connections[].sent_bytes] | add) as $s |
    $s > 0 and $s <= .download.bytes' "$T_TMP/j"
check "the serving process is nasperfd, with its CPU" \
    jqt "[.download.report.path.processes[] | select(.pid == $NPD_PID and
    .cpu_pct >= 0)] | length == 1" "$T_TMP/j"
check "the upload's connections received its bytes" \
    jqt '([.upload.report.path.connections[].received_bytes] | add) as $r |
    $r > 0 and $r <= .upload.bytes + 4096' "$T_TMP/j"
echo "# path: $(jq -r .download.report.path.summary "$T_TMP/j")"
sed 's/^/# /' "$T_TMP/err"
is "a stream limit seen by the client fails it" \
    "$(client synth --bytes 12G --streams 3 >/dev/null 2>&1; echo $?)" 1
is "bad options are usage errors" \
    "$(client synth --bytes 1M --time 2 >/dev/null 2>&1; echo $?)" 2
is "a wrong port is a failure" \
    "$(client synth --bytes 1M --port 1 >/dev/null 2>&1; echo $?)" 1

# -- the measured path capacity is kept, unless nasperfd held the rate
# Over loopback both ends spend a core each: whether nasperfd's event loop
# was the limit depends on the machine, so each direction of the tests
# above is either kept or the log says why not.
for dir in download upload; do
	if jqt ".paths | map(select(.client == \"127.0.0.1\" and
	    .direction == \"$dir\")) | length == 1" "$NPD_STATE/paths.json"
	then
		ok "the $dir of a second or more is kept in paths.json"
	else
		check "the $dir of a second or more is kept, or the log says why" \
		    grep -q "synth: 127.0.0.1 $dir: .* is not kept as the path's capacity: nasperfd's" \
		    "$NPD_LOG"
	fi
done
grep "is not kept as the path's capacity" "$NPD_LOG" | sed 's/^/# /'

# -- synth.max_rate_mbps bounds all streams together
sed -i 's/^  idle_timeout: 2/  idle_timeout: 2\n  max_rate_mbps: 80/' \
    "$T_TMP/c.yaml"
kill -HUP "$NPD_PID"
sleep 0.5
sp=$(curl -sS -o /dev/null -w '%{speed_download}' -H "$H" \
    "$S/v1/synth?bytes=30000000&pattern=zero")
check "80 Mbit/s gives 10 MB/s within 10 % ($sp B/s)" \
    awk -v s="$sp" 'BEGIN { exit !(s > 9e6 && s < 11e6) }'
head -c 30000000 /dev/zero >"$T_TMP/z30"
sp=$(put '' "$T_TMP/z30" | jq .bytes_per_second)
check "... each way, as the daemon read it ($sp B/s)" \
    awk -v s="$sp" 'BEGIN { exit !(s > 9e6 && s < 11e6) }'
# Held by the rate limit, not by its CPU: those 3 s are the capacity kept.
check "a rate-limited download is kept as the path's capacity" \
    jqt '.paths | map(select(.client == "127.0.0.1" and
    .direction == "download"))[0].bytes_per_second |
    . > 9e6 and . < 11e6' "$NPD_STATE/paths.json"

# -- api.allow applies to the data plane too
SP2=$(free_port)
printf 'api:\n  allow: [10.0.0.0/8]\nsynth:\n  listen: 127.0.0.1:%d\n' \
    "$SP2" >"$T_TMP/c2.yaml"
"$NASPERFD" -f -c "$T_TMP/c2.yaml" -l "127.0.0.1:$(free_port)" \
    -s "$T_TMP/state2" >"$T_TMP/log2" 2>&1 &
pid2=$!
at_exit "kill $pid2"
for ((i = 0; i < 100; i++)); do
	grep -q 'synth: listening' "$T_TMP/log2" 2>/dev/null && break
	sleep 0.1
done
tok2=$(cat "$T_TMP/state2/token")
is "a client outside api.allow is closed at accept, unanswered" \
    "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 \
    -H "Authorization: Bearer $tok2" "http://127.0.0.1:$SP2/v1/synth?bytes=1")" \
    000
check "... and the refusal is logged with its address" \
    grep -q "synth: 127.0.0.1: not in api.allow: closed" "$T_TMP/log2"
kill "$pid2"

# -- a daemon with its data plane off: nasperf synth says so and stops
printf 'synth:\n  max_streams: 0\n' >"$T_TMP/c3.yaml"
P3=$(free_port)
"$NASPERFD" -f -c "$T_TMP/c3.yaml" -l "127.0.0.1:$P3" -s "$T_TMP/state3" \
    >"$T_TMP/log3" 2>&1 &
pid3=$!
at_exit "kill $pid3"
wait_healthz "$P3"
rc=0
NASPERF_TOKEN=$(cat "$T_TMP/state3/token") NASPERF_SYNTH_PORT= "$NASPERF" \
    -H "127.0.0.1:$P3" --json synth --time 1 >"$T_TMP/off.json" \
    2>"$T_TMP/off.err" || rc=$?
is "with the data plane off, nasperf synth exits 1" "$rc" 1
check "... saying the data plane is off" grep -q \
    "synthetic data plane is off" "$T_TMP/off.err"
check "... and printing no result" test ! -s "$T_TMP/off.json"
kill "$pid3"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
