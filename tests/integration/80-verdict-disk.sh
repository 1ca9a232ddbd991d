#!/bin/bash
# The verdict names a slow disk for real, on the path of a run on the box
# itself, while other work goes on: an ext4 file system on a loop device
# (the outer one) holds a 200 MiB image of random data attached as a
# second loop device (the inner one).  The block-I/O throttle holds the
# outer device to RATE MB/s for a child cgroup, so the inner one, whose
# requests wait behind it, looks like a slow disk at its limit: busy all
# the time.  nasperf run wraps an O_DIRECT dd on the inner device in that
# cgroup (a read, then a write), naming its process to the daemon: the
# verdict is disk, naming the inner device dd held open, while a neighbour
# reads a third loop device flat out and a copy of yes spins a core, both
# off the path.  RATE and the size are drawn at random each run (the seed
# is printed, NP_SEED=N repeats it); asserted on the first attempt.
#
# cgroup v1 (blkio.throttle.*) where blkio is a v1 hierarchy, else v2
# (io.max).  Rules are set on our own child cgroup only, and removed
# (0, or max) on every way out: they are keyed by major:minor, and loop
# numbers are reused.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq losetup mkfs.ext4 mount umount dd

SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$SEED
RATE=$((10 + RANDOM % 21))		# MB/s
COUNT=$((RATE * (2 + RANDOM % 3)))	# MiB: 2-4 s at RATE
echo "# seed $SEED (NP_SEED=$SEED repeats this run): $RATE MB/s, $COUNT MiB"

if [ -d /sys/fs/cgroup/blkio ]; then
	CGV=1 CGROOT=/sys/fs/cgroup/blkio
elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CGV=2 CGROOT=/sys/fs/cgroup
	grep -qw io /sys/fs/cgroup/cgroup.subtree_control ||
	    echo +io >/sys/fs/cgroup/cgroup.subtree_control ||
	    skip_all "cannot enable the io controller"
else
	skip_all "no blkio (v1) or io (v2) cgroup controller"
fi

truncate -s 512M "$T_TMP/outer.img"
L1=$(losetup -f --show --direct-io=on "$T_TMP/outer.img") ||
    skip_all "no loop device"
loop_at_exit "$L1"
mkfs.ext4 -q -F "$L1" || skip_all "mkfs.ext4 failed"
mkdir "$T_TMP/mnt"
mount "$L1" "$T_TMP/mnt" || skip_all "cannot mount ext4"
at_exit "retry umount $T_TMP/mnt"
head -c 200M /dev/urandom >"$T_TMP/mnt/inner.img"
sync
L2=$(losetup -f --show --direct-io=on "$T_TMP/mnt/inner.img") ||
    skip_all "no second loop device"
loop_at_exit "$L2"
L1N=$(basename "$L1") L2N=$(basename "$L2")
MM=$(cat "/sys/block/$L1N/dev")

CG=$CGROOT/nasperf-t80-$$
mkdir "$CG" || skip_all "cannot make $CG"
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done; retry rmdir $CG"
if [ "$CGV" = 1 ]; then
	at_exit "echo '$MM 0' >$CG/blkio.throttle.read_bps_device"
	at_exit "echo '$MM 0' >$CG/blkio.throttle.write_bps_device"
	echo "$MM $((RATE * 1000000))" >"$CG/blkio.throttle.read_bps_device"
	echo "$MM $((RATE * 1000000))" >"$CG/blkio.throttle.write_bps_device"
else
	at_exit "echo '$MM rbps=max wbps=max' >$CG/io.max"
	echo "$MM rbps=$((RATE * 1000000)) wbps=$((RATE * 1000000))" >"$CG/io.max"
fi

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
. "$(dirname "$0")/verdict-lib.sh"

# The neighbours: a third loop device read flat out, a core spinning.
ram_loop NB 200M
NBN=$(basename "$NB")
disk_neighbour "$NB"
cp /usr/bin/yes "$T_TMP/npburn"
"$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn 2>/dev/null"

# dd_run OP ARGS...: nasperf run around dd ARGS in the cgroup, COUNT MiB
# in 1 MiB requests; the report goes to $T_TMP/rep.OP.
dd_run() {
	local op=$1
	shift
	NASPERF_TOKEN=$NPD_TOKEN "$NASPERF" -H "127.0.0.1:$NPD_PORT" --json \
	    run --op "$op" --label "dd $op" --protocol local -- sh -c \
	    'echo $$ >"$0/cgroup.procs" && exec dd "$@" bs=1M count='"$COUNT" \
	    "$CG" "$@" >"$T_TMP/rep.$op" 2>"$T_TMP/err.$op"
	RUN=$op
	vshow
}

dd_run read if="$L2" of=/dev/null iflag=direct
is "a read from a disk behind a $RATE MB/s throttle: class" \
    "$(vget .verdict.class)" disk
is "the resource is the inner loop device" "$(vget .verdict.resource)" "$L2N"
case $(vget .verdict.summary) in
"disk-bound: $L2N was busy "*) ok "$L2N was saturated" ;;
*) not_ok "$L2N was saturated" "got '$(vget .verdict.summary)'" ;;
esac
check "the path is the run's own dd" jq -e '.path.processes[0].comm == "dd"' \
    "$T_TMP/rep.read"
is "the path's volume is the inner device, read raw" \
    "$(vget '.path.volumes[0].device')" "$L2N"
# The command's own count as it ended: every byte dd read, none missed
# between the path's last reading and its exit (and what loading sh and dd
# themselves read, under a megabyte).
check "the path has the command's own count of its storage reads" jq -e \
    --argjson n $((COUNT * 1048576)) '.path.command.storage_read_bytes |
    . >= $n and . < $n + 1048576' "$T_TMP/rep.read"
check "the neighbour $NBN is an observation off the path" jq -e --arg d \
    "$NBN was busy" '[.observations[].text | select(startswith($d))] |
    length == 1' "$T_TMP/rep.read"
check "npburn is not the verdict" sh -c \
    "! jq -r .verdict.resource '$T_TMP/rep.read' | grep -q npburn"

dd_run write if=/dev/zero of="$L2" oflag=direct
is "a write to it: class" "$(vget .verdict.class)" disk
check "the path has the command's own count of its storage writes" jq -e \
    --argjson n $((COUNT * 1048576)) '.path.command.storage_write_bytes |
    . >= $n and . < $n + 1048576' "$T_TMP/rep.write"
is "the resource is the inner loop device" "$(vget .verdict.resource)" "$L2N"

kill "$NEIGHBOUR" "$burn"
wait "$NEIGHBOUR" "$burn" 2>/dev/null
stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
