#!/bin/bash
# The verdict names a slow disk for real: an ext4 file system on a loop
# device (the outer one), holding a 200 MiB image of random data attached
# as a second loop device (the inner one).  The block-I/O throttle holds
# the outer device to 20 MB/s for a child cgroup, so the inner one, whose
# requests wait behind it, looks like a slow disk at its limit: busy all
# the time, each 1 MiB request taking 50 ms.  An O_DIRECT read of 80 MiB
# from the inner device in that cgroup, then a write, each as a run: the
# verdict is disk, naming the inner device.
#
# cgroup v1 (blkio.throttle.*) where blkio is a v1 hierarchy, else v2
# (io.max).  Rules are set on our own child cgroup only, and removed
# (0, or max) on every way out: they are keyed by major:minor, and loop
# numbers are reused.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq losetup mkfs.ext4 mount umount dd

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
at_exit "retry losetup -d $L1"
mkfs.ext4 -q -F "$L1" || skip_all "mkfs.ext4 failed"
mkdir "$T_TMP/mnt"
mount "$L1" "$T_TMP/mnt" || skip_all "cannot mount ext4"
at_exit "retry umount $T_TMP/mnt"
head -c 200M /dev/urandom >"$T_TMP/mnt/inner.img"
sync
L2=$(losetup -f --show --direct-io=on "$T_TMP/mnt/inner.img") ||
    skip_all "no second loop device"
at_exit "retry losetup -d $L2"
L1N=$(basename "$L1") L2N=$(basename "$L2")
MM=$(cat "/sys/block/$L1N/dev")
OURS="$L1N $L2N"

CG=$CGROOT/nasperf-t80-$$
mkdir "$CG" || skip_all "cannot make $CG"
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done; retry rmdir $CG"
if [ "$CGV" = 1 ]; then
	at_exit "echo '$MM 0' >$CG/blkio.throttle.read_bps_device"
	at_exit "echo '$MM 0' >$CG/blkio.throttle.write_bps_device"
	echo "$MM 20000000" >"$CG/blkio.throttle.read_bps_device"
	echo "$MM 20000000" >"$CG/blkio.throttle.write_bps_device"
else
	at_exit "echo '$MM rbps=max wbps=max' >$CG/io.max"
	echo "$MM rbps=20000000 wbps=20000000" >"$CG/io.max"
fi

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }

. "$(dirname "$0")/verdict-lib.sh"

# in_cg CMD...: run CMD in the throttled cgroup.
in_cg() {
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"
}

# dd_run OP ARGS...: a run of op OP around dd ARGS in the cgroup, 80 MiB
# in 1 MiB requests at offset OFF (MiB), which moves on each time.
OFF=0
dd_run() {
	local op=$1 t0 t1
	shift
	run_open "{\"label\":\"dd $op\",\"protocol\":\"local\",\"op\":\"$op\"}"
	t0=$(date +%s.%N)
	in_cg dd "$@" bs=1M count=80 status=none
	t1=$(date +%s.%N)
	run_close "{\"bytes\":$((80 * 1048576)),\"ops\":80,\
\"block_size\":1048576,\"client_seconds\":$(awk "BEGIN { print $t1 - $t0 }")}"
	OFF=$(((OFF + 80) % 120))
}
reads() { dd_run read if="$L2" of=/dev/null iflag=direct skip=$OFF; }
writes() { dd_run write if=/dev/zero of="$L2" oflag=direct seek=$OFF; }

measure reads disk "$L2N"
is "a read from a disk behind a 20 MB/s throttle: class" \
    "$(vget .verdict.class)" disk
is "the resource is the inner loop device" "$(vget .verdict.resource)" "$L2N"
echo "# client $(vget '.client_rate / 1e4 | floor / 100') MB/s;" \
    "$L2N: $(vget ".evidence[] | select(.resource == \"$L2N\") | .detail")"
api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
case $(vget .verdict.summary) in
"disk-bound: $L2N was busy "*) ok "$L2N was saturated" ;;
*) not_ok "$L2N was saturated" "got '$(vget .verdict.summary)'" ;;
esac
check "the text report says disk: $L2N" \
    grep -q "^verdict  disk: $L2N\$" "$T_TMP/text"

measure writes disk "$L2N"
is "a write to it: class" "$(vget .verdict.class)" disk
is "the resource is the inner loop device" "$(vget .verdict.resource)" "$L2N"
echo "# client $(vget '.client_rate / 1e4 | floor / 100') MB/s;" \
    "$L2N: $(vget ".evidence[] | select(.resource == \"$L2N\") | .detail")"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
