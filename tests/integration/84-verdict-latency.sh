#!/bin/bash
# The verdict names latency for real: 100 small requests (GET /healthz of
# nasperfd itself, on one connection) through tests/integration/delayproxy,
# which holds every chunk 20 ms each way, as a run with protocol http, op
# read, their bytes, count and size: each request waits a round trip
# while nothing on the server is busy.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq
DP=$NP_BUILDDIR/tests/integration/delayproxy
if ! [ -x "$DP" ]; then
	# Built by make check; by hand when the test runs on its own.
	DP=$T_TMP/delayproxy
	cc -std=c11 -O2 -I"$NP_BUILDDIR" -I"$NP_SRCDIR/probes" -o "$DP" \
	    "$NP_SRCDIR/tests/integration/delayproxy.c" ||
	    skip_all "no delayproxy (make check builds it)"
fi
start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }

"$DP" -d 20 -t 300 0 "$NPD_PORT" >"$T_TMP/dp.out" &
dp=$!
at_exit "kill $dp"
for ((i = 0; i < 50; i++)); do
	[ -s "$T_TMP/dp.out" ] && break
	sleep 0.1
done
DPORT=$(head -n 1 "$T_TMP/dp.out")
t=$(curl -sS -o "$T_TMP/hz" -w '%{time_total}' \
    "http://127.0.0.1:$DPORT/healthz")
check "/healthz through the proxy answers" test -s "$T_TMP/hz"
check "and takes at least its 40 ms round trip ($t s)" \
    awk -v t="${t:-0}" 'BEGIN { exit !(t >= 0.040) }'

. "$(dirname "$0")/verdict-lib.sh"

# 100 requests on one connection (one curl: the client's own start-up
# stays out of the run), in a run.
for ((i = 0; i < 100; i++)); do
	printf 'url = "http://127.0.0.1:%s/healthz"\noutput = "/dev/null"\n' \
	    "$DPORT"
done >"$T_TMP/urls"
requests() {
	local t0 t1 n b
	run_open '{"label":"healthz x100","protocol":"http","op":"read"}'
	t0=$(date +%s.%N)
	curl -sS -K "$T_TMP/urls" -w '%{http_code} %{size_download}\n' \
	    >"$T_TMP/codes"
	t1=$(date +%s.%N)
	n=$(grep -c '^200 ' "$T_TMP/codes")
	b=$(awk '$1 == 200 { b += $2 } END { print b + 0 }' "$T_TMP/codes")
	OPS=$n
	run_close "{\"bytes\":$b,\"ops\":$n,\"block_size\":$((b / (n > 0 ? n : 1))),\
\"client_seconds\":$(awk "BEGIN { print $t1 - $t0 }")}"
}
measure requests latency
is "all 100 requests were answered" "$OPS" 100
is "small requests over a 40 ms round trip: class" "$(vget .verdict.class)" \
    latency
res=$(vget .verdict.resource)
case $res in
"round trips ("[0-9]*"-byte requests)")
	ok "the resource is round trips ($res)" ;;
*) not_ok "the resource is round trips" "got '$res'" ;;
esac
echo "# $(vget '.run.ops') requests in $(vget '.run.client_seconds') s"
api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
check "the text report says latency: round trips" \
    grep -q '^verdict  latency: round trips' "$T_TMP/text"

kill "$dp"
stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
