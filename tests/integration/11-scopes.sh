#!/bin/bash
# The two tokens: the read-only one (STATE/token.read) reads everything a
# watcher needs and nothing else: each request that writes, starts a test,
# drops the cache or uses the data plane is refused with 403 and a message
# naming the control token, and such refusals are not taken for guessing.
# nasperfd --rotate-token replaces one or both; a running daemon takes
# them at SIGHUP, and keeps its tokens when the files are bad.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq

SPORT=$(free_port)
printf 'synth:\n  listen: 127.0.0.1:%s\n' "$SPORT" >"$T_TMP/c.yaml"
start_daemon -c "$T_TMP/c.yaml" ||
    { echo "Bail out! nasperfd did not start"; exit 1; }
READ=$(cat "$NPD_STATE/token.read")
is "the read-only token file is mode 0600" \
    "$(stat -c %a "$NPD_STATE/token.read")" 600
check "it is 64 hex characters" grep -Eqx '[0-9a-f]{64}' \
    "$NPD_STATE/token.read"
check "and not the control token" test "$READ" != "$NPD_TOKEN"

# code TOKEN METHOD PATH [CURL ARGS]: the status; the body in $T_TMP/body.
code() {
	local t=$1 m=$2 p=$3
	shift 3
	curl -sS -o "$T_TMP/body" -w '%{http_code}' -X "$m" \
	    -H "Authorization: Bearer $t" "$@" "$NPD_URL$p"
}
code "$READ" GET /v1/info >/dev/null
is "/v1/info says the scope of the read-only token" \
    "$(jq -r .scope "$T_TMP/body")" read
is "and of the control token" "$(api /v1/info | jq -r .scope)" control
for p in /v1/info /v1/topology /v1/counters /metrics /v1/samples /v1/time \
    /v1/verdict /v1/runs /v1/transfers /v1/disktests /v1/baseline; do
	is "GET $p with the read-only token" "$(code "$READ" GET "$p")" 200
done
api /v1/runs -X POST -d '{"label":"mine"}' >/dev/null
id=$(api "/v1/runs?open=1" | jq -r '.runs[0].id')
for i in $(seq 4); do
	for mp in "POST /v1/runs" "POST /v1/runs/$id/end" \
	    "POST /v1/disktests" "POST /v1/cache/drop"; do
		c=$(code "$READ" ${mp% *} "${mp#* }" -d '{}')
		[ "$i" -eq 1 ] || continue
		is "$mp with the read-only token is 403" "$c" 403
		check "  and says it needs the control token" jq -e \
		    '.error.code == "read_only_token" and
		    (.error.message | test("control token"))' "$T_TMP/body"
	done
done
is "the run is still open" \
    "$(api "/v1/runs?open=1" | jq -r "[.runs[] | select(.id == $id)] | length")" 1
is "sixteen refusals are not taken for guessing: GET still 200" \
    "$(code "$READ" GET /v1/info)" 200
S=http://127.0.0.1:$SPORT/v1/synth
is "the data plane refuses the read-only token" "$(curl -sS -o \
    "$T_TMP/body" -w '%{http_code}' -H "Authorization: Bearer $READ" \
    "$S?bytes=1000")" 403
check "  saying why" jq -e '.error.code == "read_only_token"' "$T_TMP/body"
is "and an upload with it" "$(head -c 1000 /dev/zero | curl -sS -o \
    /dev/null -w '%{http_code}' -X PUT --data-binary @- \
    -H "Authorization: Bearer $READ" "$S")" 403
is "the control token downloads" "$(curl -sS -o /dev/null \
    -w '%{size_download}' -H "Authorization: Bearer $NPD_TOKEN" \
    "$S?bytes=1000")" 1000
is "no token is still 401" "$(code x GET /v1/info)" 401

# The client with the read-only token: reads, and is told when it cannot.
NASPERF_TOKEN=$READ "$NASPERF" -H "127.0.0.1:$NPD_PORT" --json runs \
    >"$T_TMP/runs" 2>&1
check "nasperf runs works with the read-only token" \
    jq -e '.runs | length >= 1' "$T_TMP/runs"
NASPERF_TOKEN=$READ "$NASPERF" -H "127.0.0.1:$NPD_PORT" mark start \
    >"$T_TMP/mark" 2>&1
is "nasperf mark start with it fails" "$?" 1
check "  naming the control token" grep -q 'control token' "$T_TMP/mark"

# Rotation.
"$NASPERFD" -s "$NPD_STATE" --rotate-token=read >"$T_TMP/rot" 2>&1
is "--rotate-token=read exits 0" "$?" 0
check "  and says where the new token is" grep -q "$NPD_STATE/token.read" \
    "$T_TMP/rot"
READ2=$(cat "$NPD_STATE/token.read")
check "the read-only token changed" test "$READ2" != "$READ"
is "the control token did not" "$(cat "$NPD_STATE/token")" "$NPD_TOKEN"
is "the old one works until SIGHUP" "$(code "$READ" GET /v1/info)" 200
kill -HUP "$NPD_PID"
sleep 0.5
is "after SIGHUP the old read-only token is 401" \
    "$(code "$READ" GET /v1/info)" 401
is "the new one is 200" "$(code "$READ2" GET /v1/info)" 200
is "the control token still works" "$(code "$NPD_TOKEN" GET /v1/info)" 200
"$NASPERFD" -s "$NPD_STATE" --rotate-token >/dev/null 2>&1
kill -HUP "$NPD_PID"
sleep 0.5
C3=$(cat "$NPD_STATE/token")
is "--rotate-token replaces the control token too" \
    "$(code "$NPD_TOKEN" GET /v1/info)" 401
is "  the new control token writes" \
    "$(code "$C3" POST /v1/runs -d '{}')" 201
"$NASPERFD" -s "$NPD_STATE" --rotate-token=everything >"$T_TMP/bad" 2>&1
is "--rotate-token=everything exits 2" "$?" 2
check "  and says what it takes" grep -q 'read, control or all' "$T_TMP/bad"
# A token file made bad while running: the daemon keeps its own.
echo nonsense >"$NPD_STATE/token.read"
kill -HUP "$NPD_PID"
sleep 0.5
is "a bad token file at SIGHUP keeps the running tokens" \
    "$(code "$(cat "$NPD_STATE/token")" GET /v1/info)" 200
check "  and says so in the log" grep -q 'keeping the running tokens' \
    "$NPD_LOG"
done_testing
