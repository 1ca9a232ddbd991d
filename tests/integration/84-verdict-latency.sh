#!/bin/bash
# The verdict names latency for real, on a box with a core kept busy by
# something else: N small GETs of the synthetic data plane (SIZE bytes
# each, on one connection) through tests/integration/delayproxy, which
# holds every chunk DELAY ms each way, as a run with protocol http, op
# read, their bytes, count and size.  Each request waits a round trip
# while nothing on the transfer's path (nasperfd's data port and its
# process) is busy; npburn, a copy of yes spinning a whole core, is off
# the path and must not be the verdict.  Parameters are drawn at random
# each run (the seed is printed, NP_SEED=N repeats it); asserted on the
# first attempt.
. "$(dirname "$0")/lib.sh"
need_root
alone "its verdict is a core kept busy by its own neighbour, and no other"
need_cmd curl jq
DP=$NP_BUILDDIR/tests/integration/delayproxy
if ! [ -x "$DP" ]; then
	# Built by make check; by hand when the test runs on its own.
	DP=$T_TMP/delayproxy
	cc -std=c11 -O2 -I"$NP_BUILDDIR" -I"$NP_SRCDIR/probes" -o "$DP" \
	    "$NP_SRCDIR/tests/integration/delayproxy.c" ||
	    skip_all "no delayproxy (make check builds it)"
fi

SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$SEED
DELAY=$((10 + RANDOM % 31))		# ms each way
N=$((40 + RANDOM % 41))			# requests
SIZE=$((512 + RANDOM % 16000))		# bytes each
echo "# seed $SEED (NP_SEED=$SEED repeats this run): $N requests of" \
    "$SIZE bytes, $DELAY ms each way"

SPORT=$(free_port)
printf 'synth:\n  listen: 127.0.0.1:%d\n' "$SPORT" >"$T_TMP/c.yaml"
start_daemon -c "$T_TMP/c.yaml" ||
    { echo "Bail out! nasperfd did not start"; exit 1; }

"$DP" -d "$DELAY" -t 300 0 "$SPORT" >"$T_TMP/dp.out" &
dp=$!
at_exit "kill $dp"
for ((i = 0; i < 50; i++)); do
	[ -s "$T_TMP/dp.out" ] && break
	sleep 0.1
done
DPORT=$(head -n 1 "$T_TMP/dp.out")

# The neighbour: a whole core spinning, off the path.
cp /usr/bin/yes "$T_TMP/npburn"
"$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn 2>/dev/null"

. "$(dirname "$0")/verdict-lib.sh"

# N requests on one connection (one curl: the client's own start-up stays
# out of the run), in a run.
for ((i = 0; i < N; i++)); do
	printf 'url = "http://127.0.0.1:%s/v1/synth?bytes=%s"\n' "$DPORT" "$SIZE"
	printf 'header = "Authorization: Bearer %s"\noutput = "/dev/null"\n' \
	    "$NPD_TOKEN"
done >"$T_TMP/urls"
run_open '{"label":"small GETs","protocol":"http","op":"read"}'
t0=$(date +%s.%N)
curl -sS -K "$T_TMP/urls" -w '%{http_code} %{size_download}\n' \
    >"$T_TMP/codes"
t1=$(date +%s.%N)
n=$(grep -c '^200 ' "$T_TMP/codes")
b=$(awk '$1 == 200 { b += $2 } END { print b + 0 }' "$T_TMP/codes")
run_close "{\"bytes\":$b,\"ops\":$n,\"block_size\":$SIZE,\
\"client_seconds\":$(awk "BEGIN { print $t1 - $t0 }")}"
kill "$burn"
wait "$burn" 2>/dev/null
vshow

is "all $N requests were answered" "$n" "$N"
is "small requests over a $((2 * DELAY)) ms round trip: class" \
    "$(vget .verdict.class)" latency
# Round trips either way: the requests' size, or one request in flight
# when the connection's own round trip (the proxy's delay) shows it.
res=$(vget .verdict.resource)
case $res in
"round trips ($SIZE-byte requests)" | "round trips (one request in flight)")
	ok "the resource is round trips: $res" ;;
*)	not_ok "the resource is round trips" "got '$res'" ;;
esac
check "the path is the data port's connection, served by nasperfd" \
    jq -e "[.path.connections[] | select(.lport == $SPORT and
    .pid == $NPD_PID)] | length >= 1" "$T_TMP/rep.$RUN"
check "npburn is not the verdict" sh -c \
    "! jq -r .verdict.resource '$T_TMP/rep.$RUN' | grep -q npburn"
api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
check "the text report says latency: round trips" \
    grep -q '^verdict  latency: round trips' "$T_TMP/text"

kill "$dp"
stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
