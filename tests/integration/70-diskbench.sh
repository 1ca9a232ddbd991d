#!/bin/bash
# The disk benchmark engine against block-I/O throttles: on loop devices
# over files of random data, with the limit set for a child cgroup holding
# only the engine's test driver, the measured sequential read, sequential
# write (O_DIRECT, to a file on ext4) and random 4 KiB read IOPS (queue
# depths 1 and 8) come within 5 % of the limit (MB = 10^6 bytes), with
# either engine (native AIO, threads).  Also:
# a write to the raw device is refused and leaves it unchanged, and a
# cancel ends a throttled run well within a second.
#
# cgroup v1 (blkio.throttle.*) where blkio is a v1 hierarchy, else v2
# (io.max).  Rules are only ever set on our own child cgroup, never on the
# root one: other tests may run at the same time.
. "$(dirname "$0")/lib.sh"
need_root
alone "its rates are a RAM loop device's, which is CPU time another test would take"
need_cmd losetup mkfs.ext4 mount umount
DRV=$NP_BUILDDIR/tests/integration/diskbench-run
[ -x "$DRV" ] || skip_all "no $DRV (make check builds it)"

io_cgroup t70

# in_cg ARGS...: run the driver inside the cgroup, output in $T_TMP/out.
in_cg() {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
	    "$DRV" "$@" >"$T_TMP/out" 2>"$T_TMP/err"
}
# val KEY: a value from the last run's output.
val() {
	sed -n "s/^$1=//p" "$T_TMP/out"
}
# within_run DESC GOT WANT PCT: within, with the driver's errors.
within_run() {
	within "$@" "$(cat "$T_TMP/err")"
}

# The read disk: 256 MiB of random data (sparse holes read at GB/s).
head -c 256M /dev/urandom >"$T_TMP/rd.img"
L1=$(losetup -f --show --direct-io=on "$T_TMP/rd.img") || skip_all "no loop device"
loop_at_exit "$L1"
D1=$(cat "/sys/block/$(basename "$L1")/dev")
# The write disk: ext4 on another loop device.
truncate -s 300M "$T_TMP/wr.img"
L2=$(losetup -f --show --direct-io=on "$T_TMP/wr.img") || skip_all "no loop device"
loop_at_exit "$L2"
D2=$(cat "/sys/block/$(basename "$L2")/dev")
mkfs.ext4 -q -F "$L2"
mkdir "$T_TMP/vol"
mount "$L2" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"

# Never a write to a raw device, whatever the flags say.
sum0=$(head -c 1M "$L1" | md5sum)
"$DRV" -w -b 1M -s 4M "$L1" >/dev/null 2>"$T_TMP/err"
is "a write to $L1 is refused (exit 2)" "$?" 2
check "the cause says why" grep -q "raw device are refused" "$T_TMP/err"
is "$L1 is unchanged" "$(head -c 1M "$L1" | md5sum)" "$sum0"

# Sequential read, 1 MiB blocks, queue depth 4, 40 MB/s, 7 s: native AIO,
# then threads.
throttle read_bps "$D1" 40000000
for e in aio threads; do
	in_cg -e $e -R -p seq -b 1M -q 4 -t 7 "$L1"
	is "seq read ($e) ran without error" "$(val error)" 0
	is "seq read ($e) used O_DIRECT and $e" \
	    "$(val direct_used) $(val engine)" "1 $e"
	within_run "seq read ($e) bytes/s" "$(val bytes_per_s)" 40000000 5
	echo "# seq read ($e) per second: $(val per_second)"
	check "seq read ($e) has a figure for each whole second" \
	    test "$(val per_second | tr ',' '\n' | grep -c .)" -ge 6
done

# Cancel: a throttled unbounded run stops at once; the in-flight requests
# hold 4 MiB, 0.1 s at the limit, so a second is far more than enough.
for e in aio threads; do
	in_cg -e $e -R -p seq -b 1M -q 4 -c 1 "$L1"
	is "the cancelled run ($e) says so" "$(val cancelled)" 1
	c=$(val cancel_to_done_s)
	check "cancel ended the run ($e) within a second (${c:-?} s)" \
	    awk -v c="${c:-9}" 'BEGIN { exit !(c < 1) }'
done
limit read_bps "$D1" 0

# Sequential write through a file on ext4, O_DIRECT, 20 MB/s, 7 s.  The
# file is laid out first (unthrottled), so the run overwrites it.
F=$T_TMP/vol/diskbench.tmp
"$DRV" -w -b 1M -q 4 -l 200M -s 200M "$F" >"$T_TMP/out" 2>"$T_TMP/err"
is "the file was laid out" "$(val bytes)" 209715200
throttle write_bps "$D2" 20000000
for e in aio threads; do
	in_cg -e $e -w -p seq -b 1M -q 4 -l 200M -t 7 "$F"
	is "seq write ($e) ran without error" "$(val error)" 0
	is "seq write ($e) used O_DIRECT" "$(val direct_used)" 1
	within_run "seq write ($e) bytes/s" "$(val bytes_per_s)" 20000000 5
	echo "# seq write ($e) per second: $(val per_second)"
done
limit write_bps "$D2" 0

# Random 4 KiB reads at 500 IOPS, queue depth 1 and 8, with either engine.
throttle read_iops "$D1" 500
for e in aio threads; do
	for qd in 1 8; do
		in_cg -e $e -R -p rand -b 4K -q $qd -t 7 -S $qd "$L1"
		is "rand read QD$qd ($e) ran without error" "$(val error)" 0
		within_run "rand read QD$qd ($e) IOPS" "$(val iops)" 500 5
		echo "# QD$qd ($e) latency us: p50 $(val lat_us_p50)" \
		    "p99 $(val lat_us_p99) max $(val lat_us_max)"
	done
done
limit read_iops "$D1" 0

done_testing
