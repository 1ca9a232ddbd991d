#!/bin/bash
# The disk analyzer's safety rules (DESIGN.md section 5), each for real:
# raw devices are only read; files are written only inside a configured
# volume that is a mount point, after a free-space check, and removed
# afterwards, after a cancel, and at the next start after kill -9; a test
# is refused while an md array under it resyncs (a fixture tree through
# nasperfd --root) or while other I/O on its disks is busy, unless forced
# and then flagged; one test at a time; a cancel stops the I/O within a
# second.  Bad input gets a clear error and the daemon keeps running: an
# unknown target, a volume not configured or not mounted, zero or huge
# sizes, a full volume, a device detached mid-test.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount curl jq dd md5sum

io_cgroup t72

# post BODY: POST /v1/disktests; status in $CODE, body in $T_TMP/post.
post() {
	CODE=$(curl -sS -o "$T_TMP/post" -w '%{http_code}' -H \
	    "Authorization: Bearer $NPD_TOKEN" -X POST -d "$1" \
	    "$NPD_URL/v1/disktests")
}
# refused DESC BODY STATUS CODE [MESSAGE]: POST, expect an error.
refused() {
	post "$2"
	is "$1: status" "$CODE" "$3"
	is "$1: code" "$(jq -r .error.code "$T_TMP/post")" "$4"
	if [ -n "${5:-}" ]; then
		check "$1: the message says why" \
		    grep -q -- "$5" <(jq -r .error.message "$T_TMP/post")
	fi
	echo "#   $(jq -r .error.message "$T_TMP/post")"
}
alive() {
	check "the daemon is still running ($1)" kill -0 "$NPD_PID"
}

# The disks: L1 random data (read), L2 ext4 volume, L3 a small full ext4
# volume, L4 a disk that is detached mid-test.
head -c 128M /dev/urandom >"$T_TMP/d1.img"
L1=$(losetup -f --show --direct-io=on "$T_TMP/d1.img") || skip_all "no loop device"
loop_at_exit "$L1"
N1=$(basename "$L1")
truncate -s 300M "$T_TMP/d2.img"
L2=$(losetup -f --show --direct-io=on "$T_TMP/d2.img") || skip_all "no loop device"
loop_at_exit "$L2"
D2=$(cat "/sys/block/$(basename "$L2")/dev")
mkfs.ext4 -q -F "$L2"
mkdir "$T_TMP/vol" "$T_TMP/full" "$T_TMP/unmounted"
mount "$L2" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"
truncate -s 64M "$T_TMP/d3.img"
L3=$(losetup -f --show "$T_TMP/d3.img") || skip_all "no loop device"
loop_at_exit "$L3"
mkfs.ext4 -q -F "$L3"
mount "$L3" "$T_TMP/full"
at_exit "retry umount $T_TMP/full"
dd if=/dev/zero of="$T_TMP/full/filler" bs=1M 2>/dev/null
sync
head -c 96M /dev/urandom >"$T_TMP/d4.img"
L4=$(losetup -f --show --direct-io=on "$T_TMP/d4.img") || skip_all "no loop device"
loop_at_exit "$L4"
N4=$(basename "$L4")

cat >"$T_TMP/nasperfd.yaml" <<EOF2
disktest:
  volumes: [$T_TMP/vol, $T_TMP/full, $T_TMP/unmounted]
EOF2
start_daemon -c "$T_TMP/nasperfd.yaml" || exit 1
echo "$NPD_PID" >"$CG/cgroup.procs"
at_exit "echo $NPD_PID >$CGROOT/cgroup.procs"
TMPF=$T_TMP/vol/.nasperfd-disktest.tmp

# Bad input: clear errors, nothing started.
refused "unknown target" '{"targets":["nosuchdisk"]}' 400 unknown_target \
    "unknown target 'nosuchdisk'"
refused "/dev/null" '{"targets":["/dev/null"]}' 400 unknown_target
refused "a volume not configured" '{"targets":["/etc"]}' 400 bad_target \
    "not in disktest.volumes"
refused "a volume not mounted" "{\"targets\":[\"$T_TMP/unmounted\"]}" 400 \
    not_mounted "not a mount point"
check "nothing was written below the unmounted volume" \
    test ! -e "$T_TMP/unmounted/.nasperfd-disktest.tmp"
refused "size 0" "{\"targets\":[\"$T_TMP/vol\"],\"size\":0}" 400 \
    bad_request "size: expected"
refused "a huge size" "{\"targets\":[\"$T_TMP/vol\"],\"size\":1e30}" 400 \
    bad_request "size: expected"
refused "size above disktest.max_bytes" \
    "{\"targets\":[\"$T_TMP/vol\"],\"size\":1099511627776}" 400 bad_request \
    "disktest.max_bytes"
refused "seconds 0" "{\"targets\":[\"$N1\"],\"seconds\":0}" 400 bad_request
refused "queue depth 1000" "{\"targets\":[\"$N1\"],\"queue_depth\":1000}" \
    400 bad_request
refused "an unknown key" '{"target":["sda"]}' 400 bad_request "unknown key"
refused "not JSON" '{"targets":' 400 bad_json
refused "a full volume" "{\"targets\":[\"$T_TMP/full\"],\"size\":16777216}" \
    507 insufficient_space "MB free"
check "nothing was written to the full volume" \
    test ! -e "$T_TMP/full/.nasperfd-disktest.tmp"
alive "bad input"

# Raw devices are only read: a whole test leaves L1 as it was.
sum0=$(md5sum <"$L1")
post "{\"targets\":[\"$N1\"],\"kind\":\"full\",\"seconds\":1,
    \"zone_bytes\":8388608}"
is "a full test of $N1 starts (201)" "$CODE" 201
id=$(jq -r .id "$T_TMP/post")
wait_end "$id"
is "it is done" "$(res .state)" done
is "$N1 is unchanged" "$(md5sum <"$L1")" "$sum0"

# While a test reads it, the daemon's descriptors on it are read-only.
post "{\"targets\":[\"$N1\"],\"kind\":\"random\",\"seconds\":3}"
id=$(jq -r .id "$T_TMP/post")
sleep 1
modes=
for fd in /proc/$NPD_PID/fd/*; do
	[ "$(readlink "$fd")" = "$L1" ] || continue
	modes="$modes $(awk '/^flags:/ { print substr($2, length($2)) % 4 }' \
	    "/proc/$NPD_PID/fdinfo/${fd##*/}")"
done
check "the daemon holds $N1 open (modes:$modes)" test -n "$modes"
check "only ever O_RDONLY (0)" test -z "$(echo "$modes" | tr -d ' 0')"
wait_end "$id"
is "that test is done too" "$(res .state)" done
is "$N1 is still unchanged" "$(md5sum <"$L1")" "$sum0"

# One test at a time; DELETE cancels within a second and removes the file.
throttle write_bps "$D2" 4000000
post "{\"targets\":[\"$T_TMP/vol\"],\"kind\":\"seq\",\"seconds\":3,
    \"size\":33554432,\"zone_bytes\":8388608,\"queue_depth\":2,
    \"block_size\":524288}"
is "a slow volume test starts" "$CODE" 201
id=$(jq -r .id "$T_TMP/post")
refused "a second test meanwhile" "{\"targets\":[\"$N1\"]}" 409 busy \
    "one at a time"
for ((i = 0; i < 600; i++)); do
	[ -e "$TMPF" ] && break
	sleep 0.2
done
check "the temp file is being written" test -e "$TMPF"
sleep 1
code=$(curl -sS -o "$T_TMP/del" -w '%{http_code}' -X DELETE \
    -H "Authorization: Bearer $NPD_TOKEN" "$NPD_URL/v1/disktests/$id")
is "DELETE answers 202" "$code" 202
wait_end "$id"
is "the test is cancelled" "$(res .state)" cancelled
c=$(res .cancel_to_stop_s)
check "cancel stopped the I/O within a second (${c} s)" \
    awk -v c="$c" 'BEGIN { exit !(c != "null" && c < 1) }'
check "the temp file is gone after the cancel" test ! -e "$TMPF"
code=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE \
    -H "Authorization: Bearer $NPD_TOKEN" "$NPD_URL/v1/disktests/$id")
is "DELETE of a finished test: 409" "$code" 409

# kill -9 mid-write; the next start removes the temp file.
post "{\"targets\":[\"$T_TMP/vol\"],\"kind\":\"seq\",\"seconds\":3,
    \"size\":33554432,\"zone_bytes\":8388608,\"queue_depth\":2,
    \"block_size\":524288}"
id=$(jq -r .id "$T_TMP/post")
for ((i = 0; i < 600; i++)); do
	[ -e "$TMPF" ] && break
	sleep 0.2
done
check "the temp file is being written" test -e "$TMPF"
sleep 1
kill -9 "$NPD_PID"
wait "$NPD_PID" 2>/dev/null
check "after kill -9 the temp file is still there" test -e "$TMPF"
limit write_bps "$D2" 0
OLDSTATE=$NPD_STATE
start_daemon -c "$T_TMP/nasperfd.yaml" -s "$OLDSTATE" || exit 1
NPD_STATE=$OLDSTATE
NPD_TOKEN=$(cat "$OLDSTATE/token")
check "the restart removed the temp file" test ! -e "$TMPF"
check "and says so" grep -q "removing $TMPF" "$NPD_LOG"
api "/v1/disktests/$id" >"$T_TMP/res"
is "the interrupted test is failed" "$(res .state)" failed
check "and says why" grep -q "stopped during the test" <(res .error)

# Other I/O on the disk: refused with the figure seen, unless forced.
(while :; do dd if="$L1" of=/dev/null bs=1M iflag=direct 2>/dev/null; done) &
DD=$!
at_exit "kill $DD"
sleep 0.5
refused "a busy disk" "{\"targets\":[\"$N1\"],\"seconds\":1}" 409 \
    disk_busy "$N1 is busy with other I/O: [0-9]* I/O/s and [0-9.]* MB/s"
post "{\"targets\":[\"$N1\"],\"kind\":\"random\",\"seconds\":1,
    \"force\":true}"
is "forced, it runs" "$CODE" 201
id=$(jq -r .id "$T_TMP/post")
wait_end "$id"
is "the forced test is done" "$(res .state)" done
check "and flagged with what was overridden" \
    grep -q "$N1 is busy" <(res '.forced[]')
kill "$DD" 2>/dev/null
wait "$DD" 2>/dev/null

# A device detached mid-test: a clear error, the daemon runs on.
post "{\"targets\":[\"$N4\"],\"kind\":\"seq\",\"seconds\":2,
    \"zone_bytes\":8388608}"
id=$(jq -r .id "$T_TMP/post")
sleep 1
losetup -d "$L4"
wait_end "$id"
is "the test of the detached disk failed" "$(res .state)" failed
echo "#   $(res .error)"
check "its error names the device" grep -q "$N4" <(res .error)
check "and says it has gone" grep -q "the device has gone" <(res .error)
alive "a device detached"

# The resync refusal, on a fixture tree with md2 resyncing under sda.
stop_daemon
BOX=$T_TMP/box
sh "$NP_SRCDIR/tests/fixtures/unpack.sh" \
    "$NP_SRCDIR/tests/fixtures/dsm6-3.10-armhf.ttar" "$BOX" >/dev/null ||
    skip_all "cannot unpack the fixture"
awk '{ print } /^md2 :/ { md2 = 1 } md2 && /blocks/ {
    print "      [=====>...............]  resync = 27.3% (799180032/2925434432) finish=305.6min speed=115944K/sec"
    md2 = 0 }' "$BOX/proc/mdstat" >"$BOX/proc/mdstat.new"
mv "$BOX/proc/mdstat.new" "$BOX/proc/mdstat"
echo resync >"$BOX/sys/devices/virtual/block/md2/md/sync_action"
start_daemon -c "$T_TMP/nasperfd.yaml" --root "$BOX" || exit 1
refused "a resyncing array" '{"targets":["sda"]}' 409 array_resyncing \
    "md2 is in resync (27.3 % done, 115944 KiB/s)"
post '{"targets":["sda"],"force":true}'
check "forced, the resync no longer refuses it ($CODE)" \
    test "$(jq -r .error.code "$T_TMP/post")" != array_resyncing
alive "the fixture"

check "no temp file is left in any volume" \
    test -z "$(find "$T_TMP/vol" "$T_TMP/full" "$T_TMP/unmounted" \
    -name .nasperfd-disktest.tmp)"
done_testing
