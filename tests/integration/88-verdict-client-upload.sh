#!/bin/bash
# A client that sends slowly is the verdict of its upload.  On lib.sh's
# LAN (a veth pair shaped to RATE Mbit/s), a synthetic upload from the
# client measures the path's capacity; then, with a process spinning on
# the server off the path, smbclient in the client's namespace puts a
# file it reads from a pipe that a writer fills at most at SHARE % of that rate
# (the client's own slow source, as a copy from a slow disk is), as a run
# opened from the client: the verdict is client, saying it sent a fraction
# of what the path carried, the rest of the path's ceiling went to the
# client, and the spinner is not the verdict.  The same put with no run is
# a transfer noticed on its own, judged client too.  RATE,
# SHARE and SECS are drawn at random each run (the seed is printed,
# NP_SEED=N repeats it); asserted on the first attempt.
. "$(dirname "$0")/lib.sh"
need_root
alone "its verdict is a client short of CPU, which another test would take"
need_cmd curl jq ip tc smbd smbpasswd smbclient mkfifo

export NP_SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$NP_SEED
RATE=$((40 + RANDOM % 161))		# Mbit/s
SHARE=$((10 + RANDOM % 21))		# % of RATE the client sends at
SECS=$((3 + RANDOM % 3))
lan_enter 95 "$RATE"
echo "# seed $NP_SEED (NP_SEED=$NP_SEED repeats this run): $RATE Mbit/s," \
    "the client sends at $SHARE % of it for ${SECS} s"

mkdir -m 777 "$T_TMP/share"
# Transfers are noticed from 2 Mbit/s: the slow sender's pace.  smbclient
# reads from its source what its send buffer (-b) holds before it sends,
# in writes of smbd's largest size: with both at 64 KiB it sends as its
# source gives, as a copy from a slow disk does (by default it sends 8 MiB
# at once, seconds apart at this pace, which is no steady copy).
SMB_GLOBAL="  smb2 max write = 65536" lan_smbd "$T_TMP/share" "transfers:
  min_rate_mbps: 2
"

# The path's capacity from the client, upward: a synthetic upload.
incli env NASPERF_TOKEN="$NPD_TOKEN" NASPERF_SYNTH_PORT="$SPORT" \
    "$NASPERF" -H "$SRV:$NPD_PORT" --json synth --upload --time 3 \
    >"$T_TMP/synth.json" 2>"$T_TMP/synth.err"
is "the synthetic upload exits 0" "$?" 0
echo "# capacity: $(jq -r '.upload.bytes_per_second * 8 / 1e6 | floor' \
    "$T_TMP/synth.json") Mb/s, $(jq -r .upload.report.verdict.class \
    "$T_TMP/synth.json")"

# The neighbour: a process spinning on the server, off the path.
cp /usr/bin/yes "$T_TMP/npburn"
"$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn 2>/dev/null"

# The client's slow source: 64 KiB chunks, at SHARE % of RATE at most.
CHUNK=65536
BPS=$((RATE * 1000000 * SHARE / 800))
N=$((SECS * BPS / CHUNK))
IV=$(awk -v c=$CHUNK -v b=$BPS 'BEGIN { printf "%.4f", c / b }')
mkfifo "$T_TMP/src"
auth="Authorization: Bearer $NPD_TOKEN"
RUN=$(incli curl -fsS -H "$auth" -X POST \
    -d '{"label":"slow put","protocol":"smb3","op":"write"}' \
    "http://$SRV:$NPD_PORT/v1/runs" | jq -r .id)
t0=$(date +%s.%N)
(for ((i = 0; i < N; i++)); do
	head -c $CHUNK /dev/zero
	sleep "$IV"
done) >"$T_TMP/src" &
at_exit "kill $! 2>/dev/null"
incli smbclient "//$SRV/share" -p "$SMBPORT" -A "$T_TMP/cred" -b 65536 \
    -c "put $T_TMP/src up" >"$T_TMP/smbclient.out" 2>&1
rc=$?
t1=$(date +%s.%N)
curl -fsS -H "$auth" -X POST -d "{\"bytes\":$((N * CHUNK)),\"client_seconds\":$(awk \
    "BEGIN { print $t1 - $t0 }")}" "$NPD_URL/v1/runs/$RUN/end" \
    >"$T_TMP/rep.$RUN"
kill "$burn"
wait "$burn" 2>/dev/null
. "$(dirname "$0")/verdict-lib.sh"
vshow
is "smbclient put the file" "$rc" 0
is "the share holds all of it" "$(stat -c %s "$T_TMP/share/up" 2>/dev/null)" \
    $((N * CHUNK))
is "the run is the client's" "$(vget .run.client_addr)" "$CLI"
is "slow upload: class" "$(vget .verdict.class)" client
is "slow upload: the resource is the client" "$(vget .verdict.resource)" \
    "the client (it sent slowly)"
check "slow upload: it says what the path carried" jq -e '.verdict.summary |
    test("of the [0-9.]+ MB/s the path from it carried in a synthetic test")' \
    "$T_TMP/rep.$RUN"
is "the network's ceiling is the synthetic test's" \
    "$(vget .ceilings.network.basis)" \
    "a synthetic test of the path to this client"
check "the transfer got a fraction of it" jq -e \
    '.ceilings.share_of_lower_pct < 50' "$T_TMP/rep.$RUN"
is "the rest of it went to the client" "$(vget .ceilings.rest.by)" client
check "the path's connection received the whole file, its last bytes too" \
    jq -e --argjson b $((N * CHUNK)) '[.path.connections[].received_bytes] |
    add | . >= $b and . < $b * 1.1' "$T_TMP/rep.$RUN"
check "the path's connection is smbd's" jq -e '[.path.connections[] |
    select(.service == "smb" and .comm == "smbd")] | length >= 1' \
    "$T_TMP/rep.$RUN"
check "npburn is not the verdict" sh -c \
    "! jq -r .verdict.resource '$T_TMP/rep.$RUN' | grep -q npburn"

# The same slow put with no run: a transfer noticed on its own, judged
# the same.
"$T_TMP/npburn" >/dev/null &
burn=$!
rm -f "$T_TMP/src"
mkfifo "$T_TMP/src"
(for ((i = 0; i < N; i++)); do
	head -c $CHUNK /dev/zero
	sleep "$IV"
done) >"$T_TMP/src" &
at_exit "kill $! 2>/dev/null"
incli smbclient "//$SRV/share" -p "$SMBPORT" -A "$T_TMP/cred" -b 65536 \
    -c "put $T_TMP/src up2" >>"$T_TMP/smbclient.out" 2>&1
rc=$?
is "smbclient put it again, with no run" "$rc" 0 ||
    sed 's/^/# /' "$T_TMP/smbclient.out"
for ((i = 0; i < 40; i++)); do
	api /v1/transfers >"$T_TMP/xf"
	jq -e '[.transfers[] | select(.ended)] | length >= 1' "$T_TMP/xf" \
	    >/dev/null && break
	sleep 0.5
done
kill "$burn"
wait "$burn" 2>/dev/null
x() { jq -r "[.transfers[] | select(.ended)][0]$1" "$T_TMP/xf"; }
echo "# transfer: $(x '| "\(.op) \(.bytes) bytes; \(.verdict.class): \(.verdict.resource): \(.verdict.summary)"')"
is "a slow put with no run is a transfer of its own" "$(x .origin)" auto
is "... from the client" "$(x .client_addr)" "$CLI"
is "... a write" "$(x .op)" write
within "... its bytes the file's" "$(x .bytes)" $((N * CHUNK)) 2
is "... judged client" "$(x .verdict.class)" client
is "... the client sent slowly" "$(x .verdict.resource)" \
    "the client (it sent slowly)"

kill -TERM "$NPD_PID"
rc=0
wait "$NPD_PID" || rc=$?
is "nasperfd exits 0" "$rc" 0
done_testing
