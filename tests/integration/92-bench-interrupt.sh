#!/bin/bash
# nasperf bench stopped by Ctrl-C (SIGINT) or SIGTERM on a directory
# target: the test under way stops, its run ends on the daemon as
# interrupted, no other test starts, the files in TARGET/nasperf-bench
# are removed (kept with --keep), the table or the JSON has what ran, and
# the exit status is the one a shell gives a command the signal ended.
# A directory and a daemon on loopback of the test's own: no device.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
V=$T_TMP/vol
mkdir "$V"

# bench_stop SIG LABEL FILE ARGS...: nasperf bench ARGS on $V in the
# background; once the daemon has an open run LABEL and FILE (under $V)
# exists, send SIG.  Output in $T_TMP/out and $T_TMP/err, the exit status
# in BRC (999 when it did not start or did not stop within 30 s).
bench_stop() {
	local sig=$1 label=$2 file=$3 i pid
	shift 3
	BRC=999
	# The client itself, not a shell around it, gets the signal.
	NASPERF_TOKEN=$NPD_TOKEN "$NASPERF" -H "127.0.0.1:$NPD_PORT" bench \
	    --no-drop-cache "$@" "$V" >"$T_TMP/out" 2>"$T_TMP/err" &
	pid=$!
	at_exit "kill -KILL $pid"
	for ((i = 0; i < 300; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		[ -e "$V/$file" ] && api /v1/runs | jq -e --arg l "$label" \
		    '[.runs[] | select(.ended == false and .label == $l)] |
		    length > 0' >/dev/null && break
		sleep 0.1
	done
	sleep 0.2
	kill -s "$sig" "$pid" 2>/dev/null || { wait "$pid"; return; }
	for ((i = 0; i < 300; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && return
	wait "$pid"
	BRC=$?
}
# The runs the daemon has open now.
open_runs() { api /v1/runs | jq '[.runs[] | select(.ended == false)] | length'; }

# -- Ctrl-C in the middle of a write, as a terminal user sees it.  A
# request of 1 KiB at a time: slow enough to be caught under way.
bench_stop INT "bench: 2 GiB at 1 KiB write" nasperf-bench/small/f000000 \
    --tests small,list --scale 20.48
sed 's/^/#   /' "$T_TMP/out" "$T_TMP/err"
is "SIGINT: bench exits 130" "$BRC" 130
check "... saying so, and what it did" grep -q \
    '^nasperf bench: interrupted by SIGINT: the table has the tests that ran; run [0-9]*, under way, ended as interrupted; their files are removed$' \
    "$T_TMP/err"
check "the table has the test that was under way" grep -q \
    '^2 GiB at 1 KiB write  *[0-9.]* MB/s ' "$T_TMP/out"
check "... marked stopped" grep -q '^  *stopped: interrupted by SIGINT$' \
    "$T_TMP/out"
check "and no test after it: not its read, not the listings" sh -c \
    "! grep -q 'at 1 KiB read\|^list ' '$T_TMP/out'"
is "nothing is left in the target" "$(ls -A "$V")" ""
is "no run is left open on the daemon" "$(open_runs)" 0
id=$(api /v1/runs | jq '[.runs[] | select(.label ==
    "bench: 2 GiB at 1 KiB write")] | .[-1].id')
is "its run ended as interrupted" \
    "$(api "/v1/runs/$id" | jq .run.interrupted)" true
check "... with what it moved until then" test "$(api "/v1/runs/$id" |
    jq '.run.bytes')" -ge 0
is "its report says so" "$(api "/v1/runs/$id" | jq .report.run.interrupted)" \
    true
client report "$id" >"$T_TMP/report"
check "... in text too" grep -q \
    '^         interrupted: the client stopped it before it finished' \
    "$T_TMP/report"
client runs >"$T_TMP/runs"
check "nasperf runs marks it" grep -q "^ *$id .*(interrupted)\$" \
    "$T_TMP/runs"

# -- SIGTERM with --json in the repeat test, once a run of it is done: the
# row keeps the runs that finished.  At 4 KiB a request, a run lasts.
bench_stop TERM "bench: 204 MiB write 2 of 20" nasperf-bench/repeat/f000000 \
    --json --tests repeat --scale 0.05 --repeat 20 --block 4K
is "SIGTERM: bench exits 143" "$BRC" 143
check "the JSON is whole" jq -e . "$T_TMP/out"
is "it says which signal" "$(jq -r .interrupted "$T_TMP/out")" SIGTERM
is "the test under way is its only row, stopped" "$(jq -c '[.rows[] |
    "\(.test): \(.status)"]' "$T_TMP/out")" \
    '["204 MiB write best of 20: interrupted"]'
check "... after the runs that finished" jq -e '.rows[0].note |
    test("^interrupted by SIGTERM after [0-9]+ of 20 runs$")' "$T_TMP/out"
check "... with their best and median" jq -e '.rows[0].bytes_per_second > 0
    and .rows[0].median_bytes_per_second > 0' "$T_TMP/out"
is "nothing is left in the target" "$(ls -A "$V")" ""
is "no run is left open" "$(open_runs)" 0

# -- --keep keeps the files, interrupted too.
bench_stop INT "bench: 2 GiB at 1 KiB write" nasperf-bench/small/f000000 \
    --tests small --scale 20.48 --keep
is "SIGINT with --keep exits 130" "$BRC" 130
check "the files are kept" test -e "$V/nasperf-bench/small/f000000"
check "... and it does not say they went" sh -c \
    "! grep -q 'files are removed' '$T_TMP/err'"
is "no run is left open" "$(open_runs)" 0
rm -rf "${V:?}/nasperf-bench"

# -- The daemon's side: only true or false says a run was interrupted.
id=$(api /v1/runs -X POST -d '{"label":"by hand"}' | jq .id)
is "an end whose interrupted is not true or false is 400" "$(status \
    "/v1/runs/$id/end" -H "Authorization: Bearer $NPD_TOKEN" -X POST \
    -d '{"interrupted":"yes"}')" 400
api "/v1/runs/$id/end" -X POST -d '{"interrupted":false}' >/dev/null
is "... and false is no interruption" \
    "$(api "/v1/runs/$id" | jq .report.run.interrupted)" false

done_testing
