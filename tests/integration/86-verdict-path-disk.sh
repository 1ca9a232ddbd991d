#!/bin/bash
# A disk verdict judges the disks under the transfer's own volume, on a
# box where another disk is busier.  A real smbd shares a directory on an
# ext4 volume on a loop device (VOL) whose reads a block-I/O throttle holds
# to RATE MB/s for smbd and nasperfd; the disk analyzer measures VOL at
# that rate.  While a neighbour reads another loop device (NB) flat out,
# smbclient reads a file of RATE x SECS MB from the share as a run: the
# verdict is disk, naming VOL against its baseline, and NB, the busiest
# disk on the box, is only an observation off the path.  The run's path
# names the volume by its mount, and the report the SMB session of the
# smbd that served it, though smbstatus is not polled on a timer.
# Parameters are drawn at random each run
# (the seed is printed, NP_SEED=N repeats it); asserted on the first
# attempt.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd smbd smbpasswd smbclient losetup mkfs.ext4 mount umount curl jq dd

disk_scenario t86 share

smbd_conf "$T_TMP/vol/share"
smbd_start
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done"
for p in $SMBD $(pgrep -P "$SMBD"); do
	echo "$p" >"$CG/cgroup.procs"
done

# smbstatus only at start, when a run opens and when a run's path first
# shows smbd serving it: the run must find its session that way.
smbd_daemon 3600
echo "$NPD_PID" >"$CG/cgroup.procs"

. "$(dirname "$0")/verdict-lib.sh"

# The baseline, the neighbour, then the file is read over SMB as a run.
disk_scenario_ready share
run_open '{"label":"smb get","protocol":"smb3","op":"read"}'
t0=$(date +%s.%N)
smbclient "//127.0.0.1/share" -p "$SPORT" -A "$T_TMP/cred" \
    -c "get big /dev/null" >"$T_TMP/smbclient.out" 2>&1
t1=$(date +%s.%N)
run_close_read $((RATE * SECS * 1048576)) "$t0" "$t1"

disk_verdict_checks
check "the neighbour is not the verdict" test "$(vget .verdict.resource)" \
    != "$NBN"
is "the run is tied to the session of the smbd that served it" \
    "$(vget .session.pid)" \
    "$(vget '[.path.connections[] | select(.service == "smb") | .pid |
    select(. != null)][0]')"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
