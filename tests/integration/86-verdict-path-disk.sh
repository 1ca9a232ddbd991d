#!/bin/bash
# A disk verdict judges the disks under the transfer's own volume, on a
# box where another disk is busier.  A real smbd shares a directory on an
# ext4 volume on a loop device (VOL) whose reads a block-I/O throttle holds
# to RATE MB/s for smbd and nasperfd; the disk analyzer measures VOL at
# that rate.  While a neighbour reads another loop device (NB) flat out,
# smbclient reads a file of RATE x SECS MB from the share as a run: the
# verdict is disk, naming VOL against its baseline, and NB, the busiest
# disk on the box, is only an observation off the path.  The run's path
# names the volume by its mount.  Parameters are drawn at random each run
# (the seed is printed, NP_SEED=N repeats it); asserted on the first
# attempt.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd smbd smbpasswd smbclient losetup mkfs.ext4 mount umount curl jq dd

SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$SEED
RATE=$((15 + RANDOM % 26))		# MB/s
SECS=$((3 + RANDOM % 3))
echo "# seed $SEED (NP_SEED=$SEED repeats this run): $RATE MB/s, ${SECS} s"

io_cgroup t86
ram_loop VOL 300M
ram_loop NB 300M
VOLN=$(basename "$VOL") NBN=$(basename "$NB")
# Initialised now, not by ext4lazyinit in the background: the disk
# analyzer refuses a disk busy with other I/O.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$VOL" ||
    skip_all "mkfs.ext4 failed"
mkdir "$T_TMP/vol"
mount "$VOL" "$T_TMP/vol" || skip_all "cannot mount ext4"
at_exit "retry umount $T_TMP/vol"
mkdir -m 777 "$T_TMP/vol/share"
head -c $((RATE * SECS))M /dev/urandom >"$T_TMP/vol/share/big"
sync
throttle read_bps "$(cat "/sys/block/$VOLN/dev")" $((RATE * 1000000))

smbd_conf "$T_TMP/vol/share"
smbd_start
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done"
for p in $SMBD $(pgrep -P "$SMBD"); do
	echo "$p" >"$CG/cgroup.procs"
done

smbd_daemon
echo "$NPD_PID" >"$CG/cgroup.procs"

# The baseline: VOL read at its throttle by the disk analyzer.
client disktest -k seq -S 2 -s 32M -z 32M "$VOLN" >"$T_TMP/dt" 2>&1
sed 's/^/#   /' "$T_TMP/dt"
base=$(api /v1/disktests/1 | jq -r ".disks[] | select(.name == \"$VOLN\") |
    .zones.outer.bytes_per_s")
echo "# baseline of $VOLN: $base bytes/s"

. "$(dirname "$0")/verdict-lib.sh"

# The neighbour: NB read flat out, off the path.
disk_neighbour "$NB"
sleep 1

# The file leaves the page cache, then is read over SMB as a run.
dd if="$T_TMP/vol/share/big" iflag=nocache count=0 status=none
run_open '{"label":"smb get","protocol":"smb3","op":"read"}'
t0=$(date +%s.%N)
smbclient "//127.0.0.1/share" -p "$SPORT" -A "$T_TMP/cred" \
    -c "get big /dev/null" >"$T_TMP/smbclient.out" 2>&1
t1=$(date +%s.%N)
run_close "{\"bytes\":$((RATE * SECS * 1048576)),\"client_seconds\":$(awk \
    "BEGIN { print $t1 - $t0 }")}"
kill "$NEIGHBOUR"
wait "$NEIGHBOUR" 2>/dev/null
vshow

is "disk: class" "$(vget .verdict.class)" disk
is "disk: the resource is the share's volume, $VOLN" \
    "$(vget .verdict.resource)" "$VOLN"
case $(vget .verdict.summary) in
*"of what the disk analyzer measured it can do"*)
	ok "disk: judged against its baseline" ;;
*)	not_ok "disk: judged against its baseline" ;;
esac
is "the path's volume is the share's mount" \
    "$(vget '.path.volumes[0].mount')" "$T_TMP/vol"
check "the path's devices are $VOLN's" jq -e --arg d "$VOLN" \
    '.path.volumes[0].devices | index($d) != null' "$T_TMP/rep.$RUN"
check "the neighbour $NBN is an observation off the path" jq -e --arg d \
    "$NBN was busy" '[.observations[].text | select(startswith($d) and
    contains("off this transfer'"'"'s path"))] | length == 1' \
    "$T_TMP/rep.$RUN"
check "the neighbour is not the verdict" test "$(vget .verdict.resource)" \
    != "$NBN"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
