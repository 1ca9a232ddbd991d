#!/bin/bash
# The verdict names the network for real, on the path of the transfer,
# while other work goes on: two network namespaces joined by a veth pair
# shaped to RATE Mbit/s with tbf (lib.sh's lan_enter), nasperfd in the
# server's namespace with vsrv configured as RATE Mbit/s, and nasperf
# synth from the client's namespace for SECS seconds each way as its runs.
# A copy of yes spins a core in the server's namespace, off the path.
# Each way the verdict is network, on vsrv, the interface holding the
# connections' local address, on the first attempt.  RATE and SECS are
# drawn at random each run (the seed is printed, NP_SEED=N repeats it).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq ip tc

export NP_SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$NP_SEED
RATE=$((40 + RANDOM % 161))		# Mbit/s
SECS=$((3 + RANDOM % 3))
lan_enter 98 "$RATE"
echo "# seed $NP_SEED (NP_SEED=$NP_SEED repeats this run): $RATE Mbit/s," \
    "${SECS} s each way"
lan_daemon

cp /usr/bin/yes "$T_TMP/npburn"
"$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn 2>/dev/null"

for dir in download upload; do
	incli env NASPERF_TOKEN="$NPD_TOKEN" NASPERF_SYNTH_PORT="$SPORT" \
	    "$NASPERF" -H "$SRV:$NPD_PORT" --json synth "--$dir" \
	    --time "$SECS" >"$T_TMP/$dir.json" 2>"$T_TMP/$dir.err"
	is "$dir: nasperf synth exits 0" "$?" 0
	v() { jq -r ".$dir.report.$1" "$T_TMP/$dir.json" 2>/dev/null; }
	echo "# $dir: $(jq -r ".$dir.bytes_per_second * 8 / 1e6 | floor" \
	    "$T_TMP/$dir.json") Mb/s; $(v verdict.class): $(v verdict.resource):" \
	    "$(v verdict.summary)"
	v 'path.summary, (.observations[].text)' | sed "s/^/#   $dir: /"
	is "$dir over a link shaped to $RATE Mbit/s: class" \
	    "$(v verdict.class)" network
	is "$dir: the resource is the server's end of the link" \
	    "$(v verdict.resource)" vsrv
	is "$dir: the path's interface is vsrv" "$(v path.interface)" vsrv
	check "$dir: npburn is not the verdict" sh -c \
	    "! jq -r .$dir.report.verdict.resource '$T_TMP/$dir.json' |
	    grep -q npburn"
done
rid=$(jq -r .download.run "$T_TMP/download.json")
api "/v1/runs/$rid/report?format=text" >"$T_TMP/text"
check "the text report says network: vsrv" \
    grep -q '^verdict  network: vsrv$' "$T_TMP/text"

kill "$burn"
wait "$burn" 2>/dev/null
kill -TERM "$NPD_PID"
rc=0
wait "$NPD_PID" || rc=$?
is "nasperfd exits 0" "$rc" 0
done_testing
