#!/bin/bash
# The verdict names the page cache for real, while another disk is read
# flat out: a real smbd shares a directory on an ext4 volume on a loop
# device; a file of SIZE MiB of random data there is read once on the
# server (so that it is cached), then read over SMB with smbclient as a
# run (protocol smb3, op read, with its bytes).  smbd itself read next to
# nothing from storage, while a neighbour read another loop device (NB)
# with O_DIRECT the whole time: the box's disks were busy, the
# transfer's were not.  The size is drawn at random each run (the seed
# is printed, NP_SEED=N repeats it); asserted on the first attempt.
. "$(dirname "$0")/lib.sh"
need_root
alone "its verdict is the page cache, which another test may drop"
need_cmd smbd smbpasswd smbclient losetup mkfs.ext4 mount umount curl jq dd

SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$SEED
SIZE=$((64 + RANDOM % 129))		# MiB
echo "# seed $SEED (NP_SEED=$SEED repeats this run): $SIZE MiB"

ram_loop VOL 400M
ram_loop NB 300M
mkfs.ext4 -q -F "$VOL" || skip_all "mkfs.ext4 failed"
mkdir "$T_TMP/vol"
mount "$VOL" "$T_TMP/vol" || skip_all "cannot mount ext4"
at_exit "retry umount $T_TMP/vol"
mkdir -m 777 "$T_TMP/vol/share"
head -c "${SIZE}M" /dev/urandom >"$T_TMP/vol/share/cached"
sync
cat "$T_TMP/vol/share/cached" >/dev/null

smbd_conf "$T_TMP/vol/share"
smbd_start
smbd_daemon
. "$(dirname "$0")/verdict-lib.sh"

# The neighbour: NB read flat out, off the path.
disk_neighbour "$NB"
sleep 1

# The session stays open a moment before and after the read, as a Finder
# or Explorer window keeps it (for minutes; here a second and a half, a
# few of the path's readings): a read of a cached file takes a fraction of
# a second here.
run_open '{"label":"cached","protocol":"smb3","op":"read"}'
(sleep 1.5; date +%s.%N >"$T_TMP/t0"; echo "get cached /dev/null"
    sleep 1.5; echo quit) |
    smbclient "//127.0.0.1/share" -p "$SPORT" -A "$T_TMP/cred" \
    >"$T_TMP/smbclient.out" 2>&1
t1=$(date +%s.%N)
t0=$(cat "$T_TMP/t0")
run_close "{\"bytes\":$((SIZE * 1048576)),\"block_size\":1048576,\
\"client_seconds\":$(awk "BEGIN { print $t1 - $t0 }")}"
kill "$NEIGHBOUR"
wait "$NEIGHBOUR" 2>/dev/null
vshow
if ! grep -q "^getting file" "$T_TMP/smbclient.out"; then
	echo "# smbclient did not read the file:"
	sed 's/^/#   /' "$T_TMP/smbclient.out"
fi

is "re-reading a cached file: class" "$(vget .verdict.class)" cache
is "the resource is the page cache" "$(vget .verdict.resource)" "page cache"
case $(vget .verdict.summary) in
*"while the serving processes read "*" MB from the disks"*)
	ok "the summary counts smbd's own reads from storage" ;;
*)	not_ok "the summary counts smbd's own reads from storage" ;;
esac
check "smbd served it" jq -e '[.path.processes[] | select(.comm == "smbd")] |
    length >= 1' "$T_TMP/rep.$RUN"
api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
check "the text report says cache: page cache" \
    grep -q '^verdict  cache: page cache$' "$T_TMP/text"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
