#!/bin/bash
# nasperf synth over a real link: two network namespaces joined by a veth
# pair, each end shaped to RATE Mbit/s with tbf (vsrv for downloads, vcli
# for uploads) and vsrv configured as RATE Mbit/s (veth says 10000).
# nasperfd runs in the server's namespace, nasperf and iperf3 -c in the
# client's.  Each way, nasperf synth must agree with iperf3 over the same
# link within 5 % (TCP goodput is about 1448/1514 of the tbf rate), name
# the network on vsrv as the bottleneck, and leave the measured capacity
# of the path in paths.json.
#
# The script sets the namespaces up, then runs itself again inside the
# server's namespace.
. "$(dirname "$0")/lib.sh"
need_root
alone "it compares its rate with iperf3's, each measured in turn"
need_cmd curl jq ip tc iperf3
RATE=100
lan_enter 97 "$RATE"
lan_daemon

IPORT=$(free_port)
timeout 600 iperf3 -s -B "$SRV" -p "$IPORT" >"$T_TMP/iperf3-s.out" 2>&1 &
ipd=$!
at_exit "kill $ipd"
for ((i = 0; i < 50; i++)); do
	ss -ltn 2>/dev/null | grep -q "$SRV:$IPORT " && break
	sleep 0.1
done

# iperf DIR: iperf3's goodput in bit/s over 5 s, download (-R) or upload.
iperf() {
	incli timeout 60 iperf3 -c "$SRV" -p "$IPORT" -t 5 -J \
	    $([ "$1" = download ] && echo -R) >"$T_TMP/iperf3.json" 2>&1
	jq '.end.sum_received.bits_per_second' "$T_TMP/iperf3.json"
}
# synth DIR: nasperf synth for 5 s; its JSON in $T_TMP/synth.json.
synth() {
	incli env NASPERF_TOKEN="$NPD_TOKEN" NASPERF_SYNTH_PORT="$SPORT" \
	    "$NASPERF" -H "$SRV:$NPD_PORT" --json synth "--$1" --time 5 \
	    >"$T_TMP/synth.json" 2>"$T_TMP/synth.err"
}
jqt() { jq -e "$@" >/dev/null; }	# jqt FILTER FILE: the filter holds
sget() {	# sget FILTER: a figure of the last synth
	jq -r "$1" "$T_TMP/synth.json" 2>/dev/null
}

# Each way: iperf3, then nasperf synth, then the comparison and the
# verdict.  Other tests sharing the machine may take the CPU from one
# attempt: up to three are made, and the last is judged.
for dir in download upload; do
	for k in 1 2 3; do
		ib=$(iperf "$dir")
		synth "$dir"
		src=$?
		sb=$(sget ".$dir.bytes_per_second * 8")
		ratio=$(awk -v a="$sb" -v b="$ib" \
		    'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }')
		echo "# $dir attempt $k: iperf3 $(awk -v b="$ib" \
		    'BEGIN { printf "%.1f", b / 1e6 }') Mb/s, nasperf synth" \
		    "$(awk -v b="$sb" 'BEGIN { printf "%.1f", b / 1e6 }') Mb/s," \
		    "ratio $ratio; verdict $(sget ".$dir.report.verdict.class"):" \
		    "$(sget ".$dir.report.verdict.resource")"
		[ "$src" -eq 0 ] &&
		    awk -v r="$ratio" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }' &&
		    [ "$(sget ".$dir.report.verdict.class")" = network ] && break
	done
	sed 's/^/# /' "$T_TMP/synth.err"
	is "$dir: nasperf synth exits 0" "$src" 0
	check "$dir: within 5 % of iperf3 over the same link (ratio $ratio)" \
	    awk -v r="$ratio" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }'
	check "$dir: near 1448/1514 of the tbf rate" \
	    awk -v b="$sb" -v r="$RATE" \
	    'BEGIN { g = r * 1e6 * 1448 / 1514; exit !(b > g * 0.95 && b < g * 1.05) }'
	is "$dir: the verdict is network-bound" \
	    "$(sget ".$dir.report.verdict.class")" network
	is "$dir: on the server's end of the link" \
	    "$(sget ".$dir.report.verdict.resource")" vsrv
	is "$dir: the daemon names the interface" "$(sget ".$dir.interface")" \
	    vsrv
	is "$dir: with its configured speed" "$(sget ".$dir.link_mbps")" "$RATE"
	echo "# $(sget ".$dir.report.verdict.summary")"
	cp "$T_TMP/synth.json" "$T_TMP/synth-$dir.json"
done

# The measured capacity of the path, each way, is kept for the verdicts.
for dir in download upload; do
	check "paths.json holds the $dir capacity of $CLI near the tbf goodput" \
	    jqt --arg d "$dir" --arg c "$CLI" --argjson r "$RATE" '
	    .paths[] | select(.client == $c and .direction == $d) |
	    .bytes_per_second * 8 / ($r * 1e6 * 1448 / 1514) |
	    . > 0.95 and . < 1.05' "$NPD_STATE/paths.json"
done
incli env NASPERF_TOKEN="$NPD_TOKEN" NASPERF_SYNTH_PORT="$SPORT" \
    "$NASPERF" -H "$SRV:$NPD_PORT" synth --time 1 >"$T_TMP/text" 2>&1
check "the text result has the link speed beside it" \
    grep -qE "^download: .* Mb/s\); link $RATE Mb/s \(vsrv\)$" "$T_TMP/text"

kill -TERM "$NPD_PID"
rc=0
wait "$NPD_PID" || rc=$?
is "nasperfd exits 0" "$rc" 0
done_testing
