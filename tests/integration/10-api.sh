#!/bin/bash
# The real daemon on a loopback port: health, the token, the allow-list,
# errors as JSON, limits, the client, /metrics under promtool, reload and
# a clean stop.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }

# -- health and the token
is "healthz answers without a token" "$(status /healthz)" 200
is "healthz body" "$(curl -sS "$NPD_URL/healthz" | jq -r .status)" ok
is "token file is mode 0600" "$(stat -c %a "$NPD_STATE/token")" 600
check "token is 64 hex characters" grep -Eqx '[0-9a-f]{64}' "$NPD_STATE/token"
is "info without a token is 401" "$(status /v1/info)" 401
is "info with a wrong token is 401" \
    "$(status /v1/info -H 'Authorization: Bearer 0000000000000000000000000000000000000000000000000000000000000000')" 401
is "info with a malformed Authorization is 401" \
    "$(status /v1/info -H 'Authorization: Basic Zm9vOmJhcg==')" 401
is "401 carries a JSON error code" \
    "$(curl -sS "$NPD_URL/v1/info" | jq -r .error.code)" unauthorized
check "401 says WWW-Authenticate: Bearer" \
    sh -c "curl -sSI '$NPD_URL/v1/info' | grep -qi '^WWW-Authenticate: Bearer'"
is "metrics without a token is 401" "$(status /metrics)" 401
is "info with the token is 200" "$(status /v1/info -H "Authorization: Bearer $NPD_TOKEN")" 200

# -- errors are JSON with the right status
is "unknown path is 404" "$(status /v1/nope -H "Authorization: Bearer $NPD_TOKEN")" 404
is "404 body is a JSON error" "$(api /v1/nope | jq -r .error.code)" not_found
is "POST to a GET endpoint is 405" "$(status /v1/info -X POST -d '{}' -H "Authorization: Bearer $NPD_TOKEN")" 405
is "405 body is a JSON error" "$(api /v1/info -X DELETE | jq -r .error.code)" method_not_allowed
check "405 says which methods are allowed" \
    sh -c "curl -sS -D - -o /dev/null -X PUT '$NPD_URL/v1/counters' | grep -qi '^Allow: GET, HEAD'"
head -c 2000000 /dev/zero >"$T_TMP/big"
is "a body over api.max_body_bytes is 413" \
    "$(status /v1/info -X POST --data-binary @"$T_TMP/big" -H "Authorization: Bearer $NPD_TOKEN")" 413
is "a bad interval is 400" "$(status '/v1/counters?interval=abc' -H "Authorization: Bearer $NPD_TOKEN")" 400
is "400 body names the parameter" \
    "$(api '/v1/counters?interval=999' | jq -r .error.message | cut -d: -f1)" interval
big=$(head -c 20000 /dev/zero | tr '\0' a)
is "headers over api.max_header_bytes are refused 431" \
    "$(status /healthz -H "X-Big: $big")" 431

# -- the endpoints
info=$(api /v1/info)
is "info names the version" "$(echo "$info" | jq -r .version)" "$("$NASPERFD" --version | cut -d' ' -f2)"
check "info has a server clock" sh -c "echo '$info' | jq -e '.server_time > 1000000000' >/dev/null"
check "topology is a JSON object with disks" sh -c "curl -sS -H 'Authorization: Bearer $NPD_TOKEN' $NPD_URL/v1/topology | jq -e '.disks | type == \"array\"' >/dev/null"
# No ZFS module here: zpool status is not run, and /v1/topology says why
# (after its first look, half a second after the start).
for ((i = 0; i < 20; i++)); do
	zerr=$(api /v1/topology | jq -r '.zfs.error // empty')
	[ -n "$zerr" ] && break
	sleep 0.2
done
if [ -e /proc/spl/kstat/zfs ]; then
	skip "ZFS is loaded here: its pools are listed"
else
	is "topology: no ZFS here, and it says so" "$zerr" "no ZFS module loaded"
	is "... with no pools" "$(api /v1/topology | jq -c '[.zfs.available, .zfs.pools]')" \
	    '[false,null]'
	is "counters: no vdev I/O either, and why" \
	    "$(api /v1/counters | jq -c '[.zfs_vdev_io.vdevs, .zfs_vdev_io.error]')" \
	    '[null,"no ZFS module loaded"]'
fi
check "counters has per-core CPU" sh -c "curl -sS -H 'Authorization: Bearer $NPD_TOKEN' $NPD_URL/v1/counters | jq -e '.cpu != null' >/dev/null"
rates=$(api '/v1/counters?interval=0.5')
check "counters?interval=0.5 adds rates over that window" jq -e \
    '.rates.interval > 0.4 and .rates.interval < 1.5' <<<"$rates"
api /metrics >"$T_TMP/metrics"
check "metrics has nasperf_ series" grep -q '^nasperf_' "$T_TMP/metrics"
# Every origin (2) and class (8) of verdict, at 0 until one is given.
is "metrics has a verdict series for every origin and class" \
    "$(grep -c '^nasperf_verdicts_total{origin="[a-z]*",class="[a-z]*"} [0-9]*$' \
    "$T_TMP/metrics")" 16
check "... at 0 before one is given" grep -q \
    '^nasperf_verdicts_total{origin="auto",class="latency"} 0$' "$T_TMP/metrics"
if command -v promtool >/dev/null 2>&1; then
	if promtool check metrics <"$T_TMP/metrics" >"$T_TMP/promtool" 2>&1; then
		ok "promtool check metrics accepts /metrics"
	else
		not_ok "promtool check metrics accepts /metrics" "$(head -5 "$T_TMP/promtool")"
	fi
else
	skip "promtool is not installed"
fi

# -- the client
check "nasperf info prints a table" sh -c "NASPERF_TOKEN=$NPD_TOKEN '$NASPERF' -H 127.0.0.1:$NPD_PORT info | grep -q '^daemon'"
check "nasperf --json topology is JSON" sh -c "NASPERF_TOKEN=$NPD_TOKEN '$NASPERF' -H 127.0.0.1:$NPD_PORT --json topology | jq -e . >/dev/null"
check "nasperf counters -i 0.3 prints rates" sh -c "NASPERF_TOKEN=$NPD_TOKEN '$NASPERF' -H 127.0.0.1:$NPD_PORT --json counters -i 0.3 | jq -e '.rates != null' >/dev/null"
echo "$NPD_TOKEN" >"$T_TMP/tok"
check "nasperf --token-file works" sh -c "'$NASPERF' -H 127.0.0.1:$NPD_PORT --token-file '$T_TMP/tok' --json info | jq -e .version >/dev/null"
NASPERF_TOKEN=wrong "$NASPERF" -H "127.0.0.1:$NPD_PORT" info >/dev/null 2>"$T_TMP/err"
is "nasperf with a wrong token exits 1" "$?" 1
check "and says 401 with a hint" grep -q '401 unauthorized.*--token-file' "$T_TMP/err"
dead=$(free_port)
"$NASPERF" -H "127.0.0.1:$dead" info >/dev/null 2>"$T_TMP/err"
is "nasperf against a closed port exits 1" "$?" 1
check "and says connection refused" grep -q 'connection refused' "$T_TMP/err"
"$NASPERF" frobnicate >/dev/null 2>&1
is "nasperf with an unknown command exits 2" "$?" 2
"$NASPERF" counters -i 1000 >/dev/null 2>&1
is "nasperf counters -i out of range exits 2" "$?" 2

# -- reload: a bad file keeps the running config, a good one applies
printf 'api:\n  max_body_bytes: 100\n' >"$T_TMP/good.yaml"
printf 'api:\n  lisen: 1\n' >"$T_TMP/bad.yaml"
port2=$(free_port)
"$NASPERFD" -f -c "$T_TMP/good.yaml" -l "127.0.0.1:$port2" -s "$T_TMP/st2" \
    >"$T_TMP/d2.log" 2>&1 &
pid2=$!
at_exit "kill -TERM $pid2"
for i in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port2/healthz" && break; sleep 0.1; done
tok2=$(cat "$T_TMP/st2/token")
is "max_body_bytes from the file applies" \
    "$(curl -sS -o /dev/null -w '%{http_code}' -X POST -d "$(head -c 200 /dev/zero | tr '\0' x)" -H "Authorization: Bearer $tok2" "http://127.0.0.1:$port2/v1/info")" 413
cp "$T_TMP/bad.yaml" "$T_TMP/good.yaml"
kill -HUP "$pid2"
sleep 0.5
check "a bad reload is logged with file:line:column" grep -q 'good.yaml:2:3' "$T_TMP/d2.log"
is "the daemon still answers after a bad reload" \
    "$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port2/healthz")" 200
printf 'api:\n  max_body_bytes: 100000\n' >"$T_TMP/good.yaml"
kill -HUP "$pid2"
sleep 0.5
is "a good reload applies its limits" \
    "$(curl -sS -o /dev/null -w '%{http_code}' -X POST -d "$(head -c 200 /dev/zero | tr '\0' x)" -H "Authorization: Bearer $tok2" "http://127.0.0.1:$port2/v1/info")" 405
kill -TERM "$pid2"
rc=0; wait "$pid2" || rc=$?
is "SIGTERM stops the daemon with status 0" "$rc" 0

# -- the allow-list
port3=$(free_port)
printf 'api:\n  allow: [192.0.2.0/24]\n' >"$T_TMP/allow.yaml"
"$NASPERFD" -f -c "$T_TMP/allow.yaml" -l "127.0.0.1:$port3" -s "$T_TMP/st3" \
    >"$T_TMP/d3.log" 2>&1 &
pid3=$!
at_exit "kill -TERM $pid3"
for i in $(seq 50); do [ -s "$T_TMP/st3/token" ] && break; sleep 0.1; done
sleep 0.2
is "a client outside api.allow is closed without an answer" \
    "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port3/healthz")" 000
check "and the log names it" \
    grep -q "api: 127.0.0.1: not in api.allow: closed" "$T_TMP/d3.log"

# -- the connection limit: at api.max_connections the listener waits
port4=$(free_port)
printf 'api:\n  max_connections: 2\n' >"$T_TMP/conn.yaml"
"$NASPERFD" -f -c "$T_TMP/conn.yaml" -l "127.0.0.1:$port4" -s "$T_TMP/st4" \
    >"$T_TMP/d4.log" 2>&1 &
pid4=$!
at_exit "kill -TERM $pid4"
for i in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port4/healthz" && break; sleep 0.1; done
# Two clients that made a request and keep their connections alive.
exec 5<>"/dev/tcp/127.0.0.1/$port4"
exec 6<>"/dev/tcp/127.0.0.1/$port4"
printf 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n' >&5
printf 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n' >&6
sleep 0.3
is "a third connection waits while two are open" \
    "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port4/healthz")" 000
exec 5>&- 6>&-
sleep 0.3
is "and is served once they close" \
    "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port4/healthz")" 200

stop_daemon
is "the main daemon exits 0 on SIGTERM" "$NPD_RC" 0
check "and its log has no sanitizer report" \
    sh -c "! grep -q 'Sanitizer' '$NPD_LOG'"
done_testing
