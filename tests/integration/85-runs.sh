#!/bin/bash
# Runs against the real daemon: the sampler's history, live and recorded
# runs, bad input, reports in every format, a restart in the middle of a
# run, kill -9 while reports are written, and the client's run commands.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq dd

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
H="Authorization: Bearer $NPD_TOKEN"
post() {	# post PATH BODY: the status, the body in $T_TMP/out
	curl -sS -o "$T_TMP/out" -w '%{http_code}' -H "$H" -X POST \
	    --data-binary "$2" "$NPD_URL$1"
}
nruns() { ls "$NPD_STATE/runs" | grep -c '\.json$'; }
jqt() { jq -e "$@" >/dev/null; }	# jqt FILTER FILE: the filter holds
sleep 1.2

# -- the sampler and its history
is "samples answer 200" "$(status /v1/samples -H "$H")" 200
is "samples are a nasperf history" "$(api /v1/samples | jq -r .format)" nasperf-history
check "the last minute holds at least two samples" \
    test "$(api /v1/samples | jq '.samples | length')" -ge 2
check "samples carry cumulative CPU counters" \
    test "$(api /v1/samples | jq '.samples[-1].cpus[0][0]')" -gt 0
n_all=$(api '/v1/samples?from=-30' | jq '.samples | length')
n_step=$(api '/v1/samples?from=-30&step=1' | jq '.samples | length')
check "step thins the series ($n_all samples, $n_step at step=1)" \
    test "$n_step" -lt "$n_all"
is "a bad from is 400" "$(status '/v1/samples?from=yesterday' -H "$H")" 400
is "from after to is 400" "$(status '/v1/samples?from=-1&to=-10' -H "$H")" 400
is "a window before the history is 410" \
    "$(status '/v1/samples?from=1000000000&to=1000000100' -H "$H")" 410
is "410 says the history does not cover it" \
    "$(api '/v1/samples?from=1000000000&to=1000000100' | jq -r .error.code)" \
    window_not_covered
info=$(api /v1/info)
check "info reports the sampler's memory" \
    test "$(echo "$info" | jq .sampler.memory_bytes)" -gt 0
check "info reports the sampler's jitter" \
    sh -c "echo '$info' | jq -e '.sampler.jitter_max_ms >= 0' >/dev/null"
is "info reports the interval" "$(echo "$info" | jq .sampler.interval)" 0.5
t=$(api /v1/time)
check "time gives receive and transmit" \
    sh -c "echo '$t' | jq -e '.transmit >= .receive' >/dev/null"

# -- bad input is refused and nothing is saved
n0=$(nruns)
is "a body that is not JSON is 400" "$(post /v1/runs 'label=x')" 400
is "... with code bad_json" "$(jq -r .error.code "$T_TMP/out")" bad_json
is "an unknown key is 400" "$(post /v1/runs '{"colour":"red"}')" 400
is "negative bytes are 400" "$(post /v1/runs '{"bytes":-5}')" 400
is "absurd bytes are 400" "$(post /v1/runs '{"bytes":1e18}')" 400
is "bytes as text are 400" "$(post /v1/runs '{"bytes":"lots"}')" 400
is "an unknown protocol is 400" "$(post /v1/runs '{"protocol":"ftp9"}')" 400
is "an unknown op is 400" "$(post /v1/runs '{"op":"copy"}')" 400
long=$(head -c 300 /dev/zero | tr '\0' a)
is "a 300-byte label is 400" "$(post /v1/runs "{\"label\":\"$long\"}")" 400
now=$(date +%s)
is "a clock offset beyond reason is 400" \
    "$(post /v1/runs "{\"start\":$((now - 5)),\"end\":$((now - 2)),\"clock_offset\":9999999}")" 400
is "... and says so" "$(jq -r .error.message "$T_TMP/out" | grep -c 'beyond reason')" 1
is "a window in the future is 400" \
    "$(post /v1/runs "{\"start\":$((now + 50)),\"end\":$((now + 60))}")" 400
is "end before start is 400" \
    "$(post /v1/runs "{\"start\":$((now - 2)),\"end\":$((now - 5))}")" 400
is "a window before the history is 410" \
    "$(post /v1/runs "{\"start\":$((now - 86400)),\"end\":$((now - 86000))}")" 410
is "... history no longer covers it" \
    "$(jq -r .error.message "$T_TMP/out" | grep -c 'no longer covers')" 1
is "nothing was saved by the refused requests" "$(nruns)" "$n0"
is "an unknown run is 404" "$(post /v1/runs/999/end '{}')" 404
is "a run id that is not a number is 404" "$(status /v1/runs/abc -H "$H")" 404

# -- a live run
is "a live run opens with 201" \
    "$(post /v1/runs '{"label":"live","protocol":"local","op":"read"}')" 201
id=$(jq .id "$T_TMP/out")
is "it is saved at once" "$(jq -r .run.ended "$NPD_STATE/runs/$id.json")" false
dd if=/dev/zero of=/dev/null bs=1M count=200 2>/dev/null
sleep 1
# While it is open the sampler samples every run_interval_ms (200).
is "the sampler samples every 0.2 s while a run is open" \
    "$(api /v1/info | jq .sampler.interval)" 0.2
is "a command's counts on a run that named no process are 400" \
    "$(post "/v1/runs/$id/end" '{"command":{"storage_read_bytes":1}}')" 400
is "... and say why" "$(jq -r .error.message "$T_TMP/out" |
    grep -c 'only a run that named its process')" 1
is "ending it is 200" "$(post "/v1/runs/$id/end" '{"bytes":209715200,"client_seconds":1.0}')" 200
check "its window holds a sample every 0.2 s" jqt '.window.samples >= 5' "$T_TMP/out"
check "its report has a verdict class" \
    jqt '.verdict.class | test("^(disk|network|cpu|cache|latency|client|unknown)$")' "$T_TMP/out"
check "the window spans the run" jqt '.window.seconds > 0.9' "$T_TMP/out"
check "the series has points" jqt '(.series.t | length) >= 2' "$T_TMP/out"
is "the client rate is bytes over seconds" "$(jq .client_rate "$T_TMP/out")" 209715200
is "ending it twice is 409" "$(post "/v1/runs/$id/end" '{}')" 409
sleep 0.6
is "with no run open, every 0.5 s again" "$(api /v1/info | jq .sampler.interval)" 0.5
is "report as JSON" "$(status "/v1/runs/$id/report" -H "$H")" 200
check "report as text names the verdict" \
    sh -c "curl -sS -H '$H' '$NPD_URL/v1/runs/$id/report?format=text' | grep -q '^verdict'"
check "report as YAML" \
    sh -c "curl -sS -H '$H' '$NPD_URL/v1/runs/$id/report?format=yaml' | grep -q '^verdict:'"
check "report as HTML has SVG" \
    sh -c "curl -sS -H '$H' '$NPD_URL/v1/runs/$id/report?format=html' | grep -q '<svg'"

# -- a run that names its process takes the command's own counts as it ends
sleep 30 &
sp=$!
is "a run naming its process opens" \
    "$(post /v1/runs "{\"protocol\":\"local\",\"op\":\"read\",\"pid\":$sp}")" 201
pid_run=$(jq .id "$T_TMP/out")
is "a command's counts that are not counts are 400" \
    "$(post "/v1/runs/$pid_run/end" '{"command":{"storage_read_bytes":-1}}')" 400
is "... an unknown one too" \
    "$(post "/v1/runs/$pid_run/end" '{"command":{"colour":1}}')" 400
is "ending it with them is 200" \
    "$(post "/v1/runs/$pid_run/end" '{"command":{"storage_read_bytes":1048576,"storage_write_bytes":0,"cpu_seconds":0.25}}')" 200
is "its path keeps them" "$(jq .path.command.storage_read_bytes "$T_TMP/out")" 1048576
check "its path's sentence gives them" jqt \
    '.path.summary | test("the command made the storage read 1.0 MB")' "$T_TMP/out"
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null
is "an unknown format is 400" "$(status "/v1/runs/$id/report?format=pdf" -H "$H")" 400
is "the list holds the run" "$(api /v1/runs | jq "[.runs[] | select(.id == $id)] | length")" 1

# -- a recorded run, placed by the client's clock and offset
now=$(date +%s)
is "a recorded run is 200" \
    "$(post /v1/runs "{\"label\":\"after\",\"start\":$((now - 4 + 100)),\"end\":$((now - 1 + 100)),\"clock_offset\":100,\"bytes\":3000000}")" 200
check "it is placed with the offset" \
    jqt ".run.start == $((now - 4))" "$T_TMP/out"
check "and has its report" jqt '.report.verdict.class' "$T_TMP/out"
check "whose path says it was not seen (recorded afterwards)" \
    jqt '.report.path.observed == false and (.report.path.why | test("live"))' \
    "$T_TMP/out"

# -- a restart between the start and the end of a run
is "a run opens before the restart" "$(post /v1/runs '{"label":"across"}')" 201
rid=$(jq .id "$T_TMP/out")
sleep 1
stop_daemon
is "the daemon stops cleanly" "$NPD_RC" 0
check "the history was saved" test -s "$NPD_STATE/history.jsonl"
sleep 2
port=$NPD_PORT
"$NASPERFD" -f -d -l "127.0.0.1:$port" -s "$NPD_STATE" \
    >>"$NPD_LOG" 2>&1 &
NPD_PID=$!
at_exit "kill -TERM $NPD_PID; wait $NPD_PID"
for ((i = 0; i < 50; i++)); do
	curl -fsS -o /dev/null "$NPD_URL/healthz" 2>/dev/null && break
	sleep 0.1
done
check "the history was read back" grep -q 'history read back' "$NPD_LOG"
sleep 1.2
is "the run ends after the restart" "$(post "/v1/runs/$rid/end" '{"bytes":1000000}')" 200
check "its report marks the time the daemon was down" \
    jqt '(.window.gaps | length) >= 1 and .window.gaps[0].seconds >= 2' "$T_TMP/out"
is "runs survive the restart" "$(api /v1/runs | jq "[.runs[] | select(.id == $id or .id == $rid)] | length")" 2

# -- kill -9 while runs and reports are being written
for ((k = 0; k < 8; k++)); do
	for ((j = 0; j < 3; j++)); do
		post /v1/runs '{"label":"kill"}' >/dev/null 2>&1
		kid=$(jq .id "$T_TMP/out" 2>/dev/null)
		post "/v1/runs/$kid/end" '{}' >/dev/null 2>&1 &
	done
	sleep 0.0$((RANDOM % 9))
	kill -9 "$NPD_PID"
	wait "$NPD_PID" 2>/dev/null
	wait
	# A temporary file as a crash between write and rename leaves it.
	echo '{"run":' >"$NPD_STATE/runs/.99$k.json.AbC123"
	"$NASPERFD" -f -d -l "127.0.0.1:$port" -s "$NPD_STATE" \
	    >>"$NPD_LOG" 2>&1 &
	NPD_PID=$!
	for ((i = 0; i < 50; i++)); do
		curl -fsS -o /dev/null "$NPD_URL/healthz" 2>/dev/null && break
		sleep 0.1
	done
done
at_exit "kill -TERM $NPD_PID; wait $NPD_PID"
bad=0
for f in "$NPD_STATE"/runs/*.json; do
	jq -e .run "$f" >/dev/null 2>&1 || { bad=$((bad + 1)); echo "# half-written: $f"; }
done
is "no run file is half-written after 8 kill -9s" "$bad" 0
is "the temporary files a crash left are removed at start" \
    "$(ls -A "$NPD_STATE/runs" | grep -c '^\.')" 0
check "the daemon logged their removal" grep -q 'left by a crash' "$NPD_LOG"
is "every saved run is listed" "$(api /v1/runs | jq '.runs | length')" "$(nruns)"

# -- the client
export NASPERF_TOKEN=$NPD_TOKEN NASPERF_HOST=127.0.0.1:$port
sleep 1
out=$("$NASPERF" run --label "dd zero" --protocol local --op read -- \
    dd if=/dev/zero of=/dev/null bs=1M count=100 2>&1)
rc=$?
is "nasperf run -- dd succeeds" "$rc" 0
check "it prints the verdict" grep -q '^verdict' <<<"$out"
check "it read the bytes from dd's summary" grep -q '^client   104.9 MB' <<<"$out"
cid=$("$NASPERF" --json runs | jq '.runs[-1].id')
is "the run is listed with dd's bytes" \
    "$("$NASPERF" --json runs | jq '.runs[-1].bytes')" 104857600
check "nasperf runs prints a table" sh -c "'$NASPERF' runs | grep -q 'dd zero'"
"$NASPERF" run --op read -- sh -c 'exit 3' >/dev/null 2>&1
is "a failing command's status is passed on" "$?" 3
check "and its run is ended anyway" \
    test "$("$NASPERF" --json runs | jq '.runs[-1].ended')" = true
"$NASPERF" report "$cid" --html "$T_TMP/r.html" >/dev/null
check "report --html writes a page with SVG" grep -q '<svg' "$T_TMP/r.html"
check "report --format yaml" sh -c "'$NASPERF' report $cid --format yaml | grep -q '^run:'"
check "compare shows runs side by side" \
    sh -c "'$NASPERF' compare $id $cid | grep -q '^verdict'"
# A label with an escape sequence reaches no terminal raw.
esc=$(printf 'x\033[2J\033]0;t\007y')
ej=$(jq -n --arg l "$esc" '{label: $l, protocol: "local", op: "read", start: ($n - 3), end: ($n - 1)}' --argjson n "$(date +%s)")
eid=$(api /v1/runs -X POST -d "$ej" | jq .id)
"$NASPERF" report "$eid" >"$T_TMP/esc.txt" 2>&1
"$NASPERF" runs >>"$T_TMP/esc.txt" 2>&1
no_escape() {	# no ESC byte, and the label's shown escaped
	! grep -q $'\033' "$1" && grep -qF 'x\x1b[2J\x1b]0;t\x07y' "$1"
}
check "a label's escape sequence is escaped in report and runs" \
    no_escape "$T_TMP/esc.txt"
"$NASPERF" report 99999 >/dev/null 2>"$T_TMP/err"
is "report of an unknown run fails" "$?" 1
check "... naming the run, the host and its port" grep -qx \
    "nasperf report: 127.0.0.1 port $port: 404: no run 99999" "$T_TMP/err"
check "answers give reals to 15 digits (2.31, not 2.3100000000000001)" \
    sh -c "! curl -s -H '$H' '$NPD_URL/v1/info' | grep -qE '[0-9]\.[0-9]{16}'"
"$NASPERF" report abc >/dev/null 2>&1
is "report of a non-number is a usage error" "$?" 2
check "mark start opens a run" sh -c "'$NASPERF' mark start --label gui | grep -q opened"
"$NASPERF" mark start --label again >/dev/null 2>"$T_TMP/err"
is "a second mark start is refused" "$?" 1
check "... saying which run is still marked and how to end it" \
    grep -q '^nasperf mark start: run [0-9]* is still marked on .*; end it first with "nasperf mark end"' \
    "$T_TMP/err"
dd if=/dev/zero of=/dev/null bs=1M count=50 2>/dev/null
sleep 1
check "mark end closes it with its verdict" \
    sh -c "'$NASPERF' mark end --bytes 50M | grep -q '^verdict'"
"$NASPERF" mark end >/dev/null 2>"$T_TMP/err"
is "mark end without a start fails" "$?" 1
check "... and says so without an error number's text" \
    grep -qx 'nasperf mark end: no run was marked on [^ ]*: run "nasperf mark start" first' \
    "$T_TMP/err"
check "top shows the counters and the last seconds' verdict" \
    sh -c "'$NASPERF' top -n 1 | grep -q 'last 5 s'"
if command -v fio >/dev/null 2>&1; then
	head -c 32M /dev/urandom >"$T_TMP/fio.dat"
	fio --name=imp --filename="$T_TMP/fio.dat" --rw=read --bs=1M \
	    --size=32M --output-format=json >"$T_TMP/fio.json" 2>/dev/null
	sleep 1
	out=$("$NASPERF" run --import "$T_TMP/fio.json" --protocol local 2>&1)
	check "run --import takes a fio result" grep -q '^run [0-9]* ' <<<"$out"
	echo "# $out" | head -3
	is "the imported run has fio's bytes" \
	    "$("$NASPERF" --json runs | jq '.runs[-1].bytes')" 33554432
else
	skip "fio is not installed"
	skip "fio is not installed"
fi
echo "garbage" >"$T_TMP/junk.txt"
"$NASPERF" run --import "$T_TMP/junk.txt" >/dev/null 2>&1
is "run --import of garbage fails" "$?" 1

# -- a run's id is its digits alone: no sign, blank or leading zero
is "run $rid is there" "$(status "/v1/runs/$rid" -H "$H")" 200
for bad in "+$rid" "0$rid" "%20$rid"; do
	is "/v1/runs/$bad is not run $rid" "$(status "/v1/runs/$bad" -H "$H")" 404
done

stop_daemon
is "the daemon stops cleanly at the end" "$NPD_RC" 0

# -- retention: runs.max_count 10, the oldest ended runs go first, never
# an open one.  A restart applies it to what was kept before.
printf 'runs:\n  max_count: 10\n' >"$T_TMP/keep.yaml"
start_daemon -c "$T_TMP/keep.yaml" || { echo "Bail out! nasperfd did not start"; exit 1; }
H="Authorization: Bearer $NPD_TOKEN"
post /v1/runs '{"label":"kept open","protocol":"local","op":"read"}' >/dev/null
open_id=$(jq .id "$T_TMP/out")
sleep 3
now=$(date +%s)
for i in $(seq 12); do
	post /v1/runs "{\"label\":\"r$i\",\"start\":$((now - 3)),\"end\":$((now - 1))}" >/dev/null
done
ids=$(api /v1/runs | jq -c '[.runs[].id]')
is "10 runs are kept" "$(jq length <<<"$ids")" 10
is "the open one, though the oldest, is one of them" \
    "$(jq --argjson o "$open_id" 'index($o) != null' <<<"$ids")" true
is "the oldest ended ones went: runs $((open_id + 1)) to $((open_id + 3))" \
    "$(jq --argjson o "$open_id" '[.[] | select(. > $o)][0]' <<<"$ids")" \
    $((open_id + 4))
is "their files with them" "$(nruns)" 10
check "the removal is logged" grep -q "runs: removed 1 of the oldest" "$NPD_LOG"
stop_daemon
printf 'runs:\n  max_count: 10\n  max_bytes: 16384\n' >"$T_TMP/keep.yaml"
state=$NPD_STATE
"$NASPERFD" -f -l "127.0.0.1:$(free_port)" -s "$state" -c "$T_TMP/keep.yaml" \
    >"$T_TMP/restart.log" 2>&1 &
p=$!
sleep 2
kill -TERM "$p"
wait "$p"
echo "# after a restart: $(grep 'runs:' "$T_TMP/restart.log" | tr '\n' ' ')"
is "the open run, ended by nobody, is still kept after a restart" \
    "$(ls "$state/runs" | grep -c "^$open_id\.json$")" 1
check "with runs.max_bytes 16384, the oldest went at start" \
    grep -q "runs: removed [0-9]* of the oldest" "$T_TMP/restart.log"
total=$(cat "$state"/runs/*.json | wc -c)
check "what is kept holds at most 16384 bytes ($total)" test "$total" -le 16384

# A live run longer than the history (10 s, no coarse samples) still ends,
# judged over what the history holds, and says so.
printf 'sampler:\n  full_seconds: 10\n  coarse_seconds: 0\n' >"$T_TMP/short.yaml"
start_daemon -c "$T_TMP/short.yaml" ||
    { echo "Bail out! nasperfd did not start"; exit 1; }
H="Authorization: Bearer $NPD_TOKEN"
is "a run opens on a 10-second history" \
    "$(post /v1/runs '{"label":"long","protocol":"local","op":"read"}')" 201
long=$(jq .id "$T_TMP/out")
sleep 13
is "... and ends 13 s later" \
    "$(post "/v1/runs/$long/end" '{"bytes":1000000}')" 200
check "... judged over the history's last seconds, and says so" jqt \
    '.history_note | test("held only the last [0-9]+ s of this run.s 1[3-9] s")' \
    "$T_TMP/out"
check "... with a verdict" jqt '.verdict.class | type == "string"' "$T_TMP/out"
check "the text report says it too" sh -c "curl -sS -H \
    'Authorization: Bearer $NPD_TOKEN' '$NPD_URL/v1/runs/$long/report?format=text' |
    grep -q 'history held only the last'"
stop_daemon
done_testing
