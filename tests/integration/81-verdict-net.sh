#!/bin/bash
# The verdict names the network for real: two network namespaces joined by
# a veth pair, the server's end (vsrv) shaped to 100 Mbit/s with tbf and
# configured as 100 Mbit/s (veth says 10000), nasperfd running in the
# server's namespace, and iperf3 sending from the server to the client for
# 5 s as a run with the bytes the client received.
#
# The script sets the namespaces up, then runs itself again inside the
# server's namespace, where the daemon and its API are on 127.0.0.1.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq ip tc iperf3
NS_S=npvs-$$ NS_C=npvc-$$
RATE=100

if [ -z "${NP_T81_NS:-}" ]; then
	ip netns add "$NS_S" || skip_all "cannot make a network namespace"
	at_exit "ip netns del $NS_S"
	ip netns add "$NS_C" || skip_all "cannot make a network namespace"
	at_exit "ip netns del $NS_C"
	ip link add vsrv netns "$NS_S" type veth peer name vcli \
	    netns "$NS_C" || skip_all "cannot make a veth pair"
	ip -n "$NS_S" addr add 10.98.0.1/24 dev vsrv
	ip -n "$NS_C" addr add 10.98.0.2/24 dev vcli
	for n in "$NS_S" "$NS_C"; do
		ip -n "$n" link set lo up
	done
	# tbf counts each TCP segment's headers, tx_bytes a GSO packet's
	# once (4 % fewer): without GSO both count what goes on the wire.
	ip -n "$NS_S" link set vsrv gso_max_segs 1 2>/dev/null
	ip -n "$NS_S" link set vsrv up
	ip -n "$NS_C" link set vcli up
	ip netns exec "$NS_S" tc qdisc add dev vsrv root tbf \
	    rate "${RATE}mbit" burst 64kb latency 50ms ||
	    skip_all "cannot shape vsrv with tbf"
	rc=0
	NP_T81_NS=$NS_S,$NS_C ip netns exec "$NS_S" "$BASH" "$0" || rc=$?
	exit "$rc"
fi
NS_S=${NP_T81_NS%,*} NS_C=${NP_T81_NS#*,}

printf 'interfaces:\n  vsrv:\n    speed_mbps: %d\n' "$RATE" >"$T_TMP/c.yaml"
start_daemon -c "$T_TMP/c.yaml" || { echo "Bail out! nasperfd did not start"; exit 1; }

IPORT=$(free_port)
timeout 900 iperf3 -s -B 10.98.0.1 -p "$IPORT" >"$T_TMP/iperf3-s.out" 2>&1 &
srv=$!
at_exit "kill $srv"
for ((i = 0; i < 50; i++)); do
	ss -ltn 2>/dev/null | grep -q "10.98.0.1:$IPORT " && break
	sleep 0.1
done

. "$(dirname "$0")/verdict-lib.sh"

# 5 s of iperf3 from the server to the client, in a run.
transfer() {
	local b s
	run_open '{"label":"iperf3 -R","protocol":"other","op":"read"}'
	ip netns exec "$NS_C" timeout 60 iperf3 -c 10.98.0.1 -p "$IPORT" -R \
	    -t 5 -J >"$T_TMP/iperf3.json" 2>&1
	b=$(jq '.end.sum_received.bytes' "$T_TMP/iperf3.json" 2>/dev/null)
	s=$(jq '.end.sum_received.seconds' "$T_TMP/iperf3.json" 2>/dev/null)
	[ -n "$b" ] && [ "$b" != null ] ||
	    sed 's/^/# iperf3: /' "$T_TMP/iperf3.json" | head -n 5
	run_close "{\"bytes\":${b:-0},\"client_seconds\":${s:-0}}"
}
measure transfer network vsrv
echo "# iperf3: $(jq '.end.sum_received.bits_per_second / 1e6 | floor' \
    "$T_TMP/iperf3.json") Mbit/s received"
is "a transfer over a link shaped to $RATE Mbit/s: class" \
    "$(vget .verdict.class)" network
is "the resource is the server's end of the link" \
    "$(vget .verdict.resource)" vsrv
echo "# $(vget '.evidence[] | select(.resource == "vsrv") | .detail')"
case $(vget .verdict.summary) in
"network-bound: vsrv sent at "*) ok "vsrv was saturated" ;;
*) not_ok "vsrv was saturated" "got '$(vget .verdict.summary)'" ;;
esac
api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
check "the text report says network: vsrv" \
    grep -q '^verdict  network: vsrv$' "$T_TMP/text"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
