#!/bin/bash
# The verdict names the page cache for real: a 64 MiB file of random data,
# read once so that it is cached, is read ten more times inside a run
# (protocol local, op read, with its bytes): the client read 640 MiB while
# the disks read almost nothing, and nothing on the server was saturated.
# The reader runs on the server itself, so its copying is kept to a small
# part of the window (a few tenths of a second of one core in 3 s).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq dd
start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }

. "$(dirname "$0")/verdict-lib.sh"

F=$T_TMP/cached
head -c 64M /dev/urandom >"$F"
sync
cat "$F" >/dev/null

# Ten reads of the cached file in a 3 s run.
reread() {
	local i t0 t1
	run_open '{"label":"cached","protocol":"local","op":"read"}'
	sleep 1
	t0=$(date +%s.%N)
	for ((i = 0; i < 10; i++)); do
		dd if="$F" of=/dev/null bs=1M 2>/dev/null
	done
	t1=$(date +%s.%N)
	sleep 1.5
	run_close "{\"bytes\":$((10 * 64 * 1048576)),\"ops\":640,\
\"block_size\":1048576,\"client_seconds\":$(awk "BEGIN { print $t1 - $t0 }")}"
}
measure reread cache "page cache"
is "re-reading a cached file: class" "$(vget .verdict.class)" cache
is "the resource is the page cache" "$(vget .verdict.resource)" "page cache"
echo "# client $(vget '.client_rate / 1e6 | floor') MB/s"
vget '.evidence[] | select(.class == "disk") | "# " + .resource + ": " +
    .detail'

api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
check "the text report says cache: page cache" \
    grep -q '^verdict  cache: page cache$' "$T_TMP/text"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
