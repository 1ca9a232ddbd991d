#!/bin/bash
# The volume test file cannot be turned against a file outside the volume.
# A local user who can write in the volume swaps the daemon's temp file
# for a symlink to a file elsewhere (the victim), or plants the link
# before the test, or hard-links the daemon's file, or keeps swapping all
# through a test.  The victim must stay as it was, the daemon must write
# only the file it created itself, and it must remove only that file.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount curl jq md5sum

truncate -s 300M "$T_TMP/d.img"
L=$(losetup -f --show --direct-io=on "$T_TMP/d.img") || skip_all "no loop device"
loop_at_exit "$L"
mkfs.ext4 -q -F "$L"
mkdir "$T_TMP/vol"
mount "$L" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"
# The users' data: outside the volume, and a file of a user in it.
head -c 4M /dev/urandom >"$T_TMP/victim"
VSUM=$(md5sum <"$T_TMP/victim")
head -c 1M /dev/urandom >"$T_TMP/vol/users-file"
USUM=$(md5sum <"$T_TMP/vol/users-file")
TMPF=$T_TMP/vol/.nasperfd-disktest.tmp

cat >"$T_TMP/nasperfd.yaml" <<EOF
disktest:
  volumes: [$T_TMP/vol]
  busy_iops: 0
  busy_mbps: 0
EOF
start_daemon -c "$T_TMP/nasperfd.yaml" || exit 1

BODY="{\"targets\":[\"$T_TMP/vol\"],\"kind\":\"full\",\"seconds\":2,
    \"size\":33554432}"
# start: POST the test; its id in $ID.
start() {
	ID=$(curl -sS -H "Authorization: Bearer $NPD_TOKEN" -X POST -d "$BODY" \
	    "$NPD_URL/v1/disktests" | jq -r .id)
}
# wait_label WORDS: until the running step's label has WORDS.
wait_label() {
	local i
	for ((i = 0; i < 200; i++)); do
		api "/v1/disktests/$ID" | jq -r '.progress.label // ""' |
		    grep -q "$1" && return 0
		sleep 0.05
	done
	return 1
}
intact() {
	is "$1: the file outside the volume is unchanged" \
	    "$(md5sum <"$T_TMP/victim")" "$VSUM"
	is "$1: the user's file in the volume is unchanged" \
	    "$(md5sum <"$T_TMP/vol/users-file")" "$USUM"
	check "$1: the daemon is still running" kill -0 "$NPD_PID"
}

# 1. The temp file swapped for a symlink between the write and the reads
# and random writes that follow on it.
start
check "swap: the test runs" wait_label "$T_TMP/vol sequential read"
ln -s "$T_TMP/victim" "$T_TMP/vol/.swap"
mv -fT "$T_TMP/vol/.swap" "$TMPF"
wait_end "$ID"
intact "swap"
is "swap: the test failed" "$(res .state)" failed
check "swap: it says why" grep -q "no longer ours alone (something else was put in its place)" <(res .error)
echo "#   $(res .error)"
check "swap: the link is left where the user put it" test -L "$TMPF"
check "swap: and logged" grep -q "not the file this test made; left alone" \
    "$NPD_LOG"
rm -f "$TMPF"

# 2. A symlink planted before the test: removed (the link, not its
# target), and the test writes a new file of its own.
ln -s "$T_TMP/victim" "$TMPF"
start
wait_end "$ID"
intact "planted"
is "planted: the test is done on a file of its own" "$(res .state)" done
is "planted: the volume was written" \
    "$(res '.volumes[0].write.bytes')" 33554432
check "planted: nothing is left in the volume" test ! -e "$TMPF" -a ! -L "$TMPF"

# 3. A hard link to the daemon's file, made during the test: refused
# before the next step writes to a file that now has another name.
start
check "hard link: the test runs" wait_label "$T_TMP/vol sequential read"
ln "$TMPF" "$T_TMP/vol/hard" 2>/dev/null
wait_end "$ID"
intact "hard link"
is "hard link: the test failed" "$(res .state)" failed
check "hard link: it says why" grep -q "it has gained a hard link" <(res .error)
rm -f "$T_TMP/vol/hard"
check "hard link: the daemon's own file is removed" test ! -e "$TMPF"

# 4. Swapping without pause all through a test: whatever step it hits,
# nothing outside the daemon's own file is written.
(
	while :; do
		ln -sf "$T_TMP/victim" "$T_TMP/vol/.race"
		mv -fT "$T_TMP/vol/.race" "$TMPF" 2>/dev/null
	done
) &
RACER=$!
at_exit "kill $RACER"
start
wait_end "$ID"
kill "$RACER"
wait "$RACER" 2>/dev/null
intact "race"
echo "#   race: $(res .state) $(res '.error // ""')"
check "race: the test ended" test "$(res .state)" = done -o \
    "$(res .state)" = failed

done_testing
