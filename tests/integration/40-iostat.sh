#!/bin/bash
# Per-disk rates and busy % agree with sysstat's iostat -x over the same
# window on the same device, within 2 % (1 point of busy %).  The disk is
# a loop device whose image lives on a filesystem on another loop device
# (both with direct I/O), read with small direct requests: a steady stream
# that keeps it busy, so that the few milliseconds between the two tools'
# readings do not matter.  (A block-I/O throttle would make the load come
# in 100 ms bursts, one of which can fall between the two readings.)  The
# window is 4 s, so that the two tools' start a few milliseconds apart
# weighs half as much as over 2 s; each dd reads the whole disk, so the
# stream pauses only every few seconds.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq losetup mkfs.ext4 iostat

truncate -s 300M "$T_TMP/outer.img"
L1=$(losetup -f --show --direct-io=on "$T_TMP/outer.img") || skip_all "no loop device"
at_exit "retry losetup -d $L1"
mkfs.ext4 -q -F "$L1"
mkdir "$T_TMP/outer"
mount "$L1" "$T_TMP/outer"
at_exit "retry umount $T_TMP/outer"
head -c 128M /dev/urandom >"$T_TMP/outer/inner.img"
sync
L2=$(losetup -f --show --direct-io=on "$T_TMP/outer/inner.img")
at_exit "losetup -d $L2"
N1=$(basename "$L1") N2=$(basename "$L2")

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
reader() {
	end=$((SECONDS + 20))
	while [ $SECONDS -lt $end ]; do
		dd if="$L2" of=/dev/null bs=4k iflag=direct 2>/dev/null
	done
}
reader &
rpid=$!
at_exit "kill $rpid; wait $rpid; pkill -f 'dd if=$L2'; retry sh -c '! pgrep -f \"dd if=$L2\"'"
sleep 1.5

S_COLORS=never iostat -x -k -y -p "$N2,$N1" -o JSON 4 1 >"$T_TMP/iostat" &
ipid=$!
client --json counters -i 4 >"$T_TMP/ours"
wait $ipid

io() {	# io DEVICE FIELD
	jq --arg d "$1" --arg f "$2" \
	    '.sysstat.hosts[0].statistics[0].disk[] | select(.disk_device == $d) | .[$f]' \
	    "$T_TMP/iostat"
}
ours() {	# ours DEVICE FIELD
	jq --arg d "$1" --arg f "$2" '.rates.disks[] | select(.name == $d) | .[$f]' \
	    "$T_TMP/ours"
}
# near DESC A B: |A - B| <= 2 % of B, or both below FLOOR
near() {
	if awk -v a="${2:-x}" -v b="${3:-y}" -v fl="${4:-0}" 'BEGIN {
	    if (a == "x" || b == "y" || a == "null") exit 1
	    d = a - b; if (d < 0) d = -d
	    exit !(d <= 0.02 * b || (a < fl && b < fl)) }'; then
		ok "$1: ours $2, iostat $3"
	else
		not_ok "$1" "ours $2, iostat $3 (more than 2 % apart)"
	fi
}
rs=$(io "$N2" r/s)
check "iostat saw the disk reading (r/s $rs)" awk -v x="${rs:-0}" 'BEGIN { exit !(x > 10) }'
near "$N2 r/s" "$(ours "$N2" reads_per_s)" "$rs"
near "$N2 read kB/s" "$(awk -v x="$(ours "$N2" read_bytes_per_s)" 'BEGIN { print x / 1024 }')" "$(io "$N2" rkB/s)"
near "$N2 r_await" "$(ours "$N2" read_await_ms)" "$(io "$N2" r_await)" 0.5
near "$N2 aqu-sz" "$(ours "$N2" avg_queue)" "$(io "$N2" aqu-sz)" 0.05
u1=$(ours "$N2" util_pct) u2=$(io "$N2" util)
if awk -v a="${u1:-x}" -v b="${u2:-y}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "x" && b != "y" && d <= 1) }'; then
	ok "$N2 %util within 1 point: ours $u1, iostat $u2"
else
	not_ok "$N2 %util within 1 point" "ours $u1, iostat $u2"
fi
check "the disk was kept busy (%util $u2 > 10)" awk -v x="${u2:-0}" 'BEGIN { exit !(x > 10) }'
near "$N1 r/s (the disk below)" "$(ours "$N1" reads_per_s)" "$(io "$N1" r/s)"
near "$N1 read kB/s" "$(awk -v x="$(ours "$N1" read_bytes_per_s)" 'BEGIN { print x / 1024 }')" "$(io "$N1" rkB/s)"
stop_daemon
done_testing
