#!/bin/bash
# TLS on the API and the data plane, against the real daemon and client:
#
#   self-signed  nasperfd makes tls.crt and tls.key on its first start with
#                api.tls and synth.tls; a real handshake (openssl s_client)
#                sees the fingerprint --fingerprint and /v1/info print; a
#                plain request gets no answer; nasperf -H https:// pins it
#                on first contact (known_hosts 0600) and then is quiet; a
#                synth download and a checked upload go over TLS.
#   rotation     --rotate-certificate and SIGHUP: the handshake sees the new
#                certificate; nasperf refuses it, naming both fingerprints
#                and the pinned line, until that line is removed.
#   idle         connections that never start a handshake hold no slot: a
#                client is answered while api.max_connections of them wait.
#   your CA      api.tls_certificate and api.tls_key signed by a CA of the
#                test's: nasperf --cacert verifies it and pins nothing;
#                another CA, or a name the certificate does not carry, is
#                refused.
#   refusals     a key file others may read, and a certificate without its
#                key, stop nasperfd with a message.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq openssl

export NASPERF_KNOWN_HOSTS=$T_TMP/known_hosts
ST=$T_TMP/state
mkdir -m 700 "$ST"

# start [YAML]: nasperfd with TLS on both listeners (lib.sh), YAML added
# to its api section; its configuration in $T_TMP/c.yaml.
start() {
	tls_daemon "$ST" "  max_connections: 8
  max_connections_per_address: 64
  head_timeout: 3
${1:-}" "  tls: true
" || return 1
	cp "$T_TMP/tls.yaml" "$T_TMP/c.yaml"
}
# seen: the SHA-256 fingerprint a real handshake on PORT shows.
seen() {
	echo | openssl s_client -connect "127.0.0.1:$1" 2>/dev/null |
	    openssl x509 -noout -fingerprint -sha256 | sed 's/^.*=/SHA256:/'
}
# nas ARGS...: the client over TLS, its stderr in $T_TMP/err.
nas() {
	NASPERF_TOKEN=$TOKEN "$NASPERF" -H "https://127.0.0.1:$PORT" "$@" \
	    2>"$T_TMP/err"
}

# -- self-signed
start || { echo "Bail out! nasperfd did not start"; exit 1; }
TOKEN=$(cat "$ST/token")
check "the certificate is made in the state directory" test -s "$ST/tls.crt"
is "its key is 0600" "$(stat -c %a "$ST/tls.key")" 600
FP=$("$NASPERFD" -c "$T_TMP/c.yaml" -s "$ST" --fingerprint)
echo "# fingerprint $FP"
is "a real handshake sees what --fingerprint prints" "$(seen "$PORT")" "$FP"
is "and so does the data port" "$(seen "$SPORT")" "$FP"
check "the log names the certificate made" grep -qF \
    "made a self-signed TLS certificate, $ST/tls.crt: $FP" "$T_TMP/tls.log"
is "/v1/info gives the fingerprint" "$(curl -sk -H "Authorization: Bearer \
$TOKEN" "https://127.0.0.1:$PORT/v1/info" | jq -r .tls.fingerprint)" "$FP"
rc=0
curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$PORT/healthz" || rc=$?
check "a plain request gets no answer" test "$rc" -ne 0
rc=0
nas info >"$T_TMP/out" || rc=$?
is "nasperf -H https:// answers on first contact" "$rc" 0
check "it says what it pinned" grep -qF "pinned $FP" "$T_TMP/err"
is "known_hosts holds the pin" "$(cat "$NASPERF_KNOWN_HOSTS")" \
    "127.0.0.1:$PORT $FP"
is "known_hosts is 0600" "$(stat -c %a "$NASPERF_KNOWN_HOSTS")" 600
rc=0
nas info >/dev/null || rc=$?
is "the second contact answers" "$rc" 0
check "and says nothing" test ! -s "$T_TMP/err"
rc=0
nas --json synth --time 1 >"$T_TMP/syn.json" || rc=$?
is "a synth download over TLS" "$rc" 0 || sed 's/^/# /' "$T_TMP/err"
check "moved bytes" jq -e '.download.bytes > 0' "$T_TMP/syn.json"
check "said it was TLS" jq -e '.download.tls == true' "$T_TMP/syn.json"
check "the data port was pinned too" grep -qx "127.0.0.1:$SPORT $FP" \
    "$NASPERF_KNOWN_HOSTS"
rc=0
nas --json synth --upload --bytes 64M --verify >"$T_TMP/up.json" || rc=$?
is "a checked upload over TLS" "$rc" 0 || sed 's/^/# /' "$T_TMP/err"
check "arrived whole and right" jq -e '.upload.bytes == 67108864 and
    .upload.verified == true' "$T_TMP/up.json"
rc=0
NASPERF_TOKEN=$TOKEN "$NASPERF" -H "127.0.0.1:$PORT" info \
    >/dev/null 2>"$T_TMP/err" || rc=$?
is "a plain client fails" "$rc" 1
check "and is told to use https://" grep -qF "https://" "$T_TMP/err"

# -- idle: connections that never start a handshake
for i in $(seq 16); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
	at_exit "exec $fd>&-"
done
t0=$(date +%s%N)
rc=0
nas info >/dev/null || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "# answered in $ms ms beside 16 silent connections"
is "a client is answered while 16 connections never shake hands" "$rc" 0

# -- rotation
"$NASPERFD" -c "$T_TMP/c.yaml" -s "$ST" --rotate-certificate >"$T_TMP/rot"
FP2=$(sed -n 2p "$T_TMP/rot")
check "--rotate-certificate prints a new fingerprint" test "$FP2" != "$FP"
kill -HUP "$NPD_PID"
for i in $(seq 50); do
	[ "$(seen "$PORT")" = "$FP2" ] && break
	sleep 0.1
done
is "after SIGHUP the handshake sees it" "$(seen "$PORT")" "$FP2"
rc=0
nas info >/dev/null || rc=$?
is "nasperf refuses the changed certificate" "$rc" 1
check "naming the new one" grep -qF "it is $FP2" "$T_TMP/err"
check "and the pinned line" grep -qF "$NASPERF_KNOWN_HOSTS:1 pinned $FP" \
    "$T_TMP/err"
sed 's/^/# /' "$T_TMP/err"
check "the pin is unchanged" grep -qx "127.0.0.1:$PORT $FP" \
    "$NASPERF_KNOWN_HOSTS"
sed -i "/^127.0.0.1:$PORT /d" "$NASPERF_KNOWN_HOSTS"
rc=0
nas info >/dev/null || rc=$?
is "once the line is gone it pins the new one" "$rc" 0
check "pinned $FP2" grep -qx "127.0.0.1:$PORT $FP2" "$NASPERF_KNOWN_HOSTS"
kill "$NPD_PID"
wait "$NPD_PID" 2>/dev/null

# -- your CA: a certificate for 127.0.0.1 only
cd "$T_TMP" || exit 1
for ca in ca other; do
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$ca.key" -out "$ca.pem" -days 2 -subj "/CN=test $ca" \
	    2>/dev/null
done
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout srv.key -out srv.csr -subj /CN=nas 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >ext
openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
    -days 2 -extfile ext -out srv.pem 2>/dev/null
chmod 600 srv.key
cd - >/dev/null || exit 1
start "  tls_certificate: $T_TMP/srv.pem
  tls_key: $T_TMP/srv.key
" || { echo "Bail out! nasperfd did not start"; exit 1; }
cp "$T_TMP/c.yaml" "$T_TMP/ca.yaml"
is "the configured certificate is served" "$(seen "$PORT")" \
    "$(openssl x509 -in "$T_TMP/srv.pem" -noout -fingerprint -sha256 |
    sed 's/^.*=/SHA256:/')"
: >"$NASPERF_KNOWN_HOSTS"
rc=0
nas --cacert "$T_TMP/ca.pem" info >/dev/null || rc=$?
is "--cacert with its CA answers" "$rc" 0
check "and pins nothing" test ! -s "$NASPERF_KNOWN_HOSTS"
rc=0
nas --cacert "$T_TMP/other.pem" info >/dev/null || rc=$?
is "another CA is refused" "$rc" 1
check "saying why" grep -qi "certificate" "$T_TMP/err"
sed 's/^/# /' "$T_TMP/err"
rc=0
NASPERF_TOKEN=$TOKEN "$NASPERF" -H "https://localhost:$PORT" \
    --cacert "$T_TMP/ca.pem" info >/dev/null 2>"$T_TMP/err" || rc=$?
is "a name the certificate does not carry is refused" "$rc" 1
sed 's/^/# /' "$T_TMP/err"
kill "$NPD_PID"
wait "$NPD_PID" 2>/dev/null

# -- refusals
chmod 644 "$T_TMP/srv.key"
rc=0
timeout 20 "$NASPERFD" -f -c "$T_TMP/ca.yaml" -s "$ST" >"$T_TMP/out" 2>&1 ||
    rc=$?
check "a key others may read stops nasperfd" test "$rc" -ne 0 -a "$rc" -ne 124
check "saying so" grep -qF "may be read or written by others (mode 644)" \
    "$T_TMP/out"
sed "/tls_key:/d" "$T_TMP/ca.yaml" >"$T_TMP/half.yaml"
rc=0
timeout 20 "$NASPERFD" -f -c "$T_TMP/half.yaml" -s "$ST" >"$T_TMP/out" \
    2>&1 || rc=$?
check "a certificate without its key stops nasperfd" test "$rc" -ne 0 -a \
    "$rc" -ne 124
check "saying both go together" grep -qF \
    "api.tls_certificate and api.tls_key go together" "$T_TMP/out"
done_testing
