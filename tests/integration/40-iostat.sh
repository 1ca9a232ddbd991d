#!/bin/bash
# Per-disk rates and busy % agree with sysstat's iostat -x over the same
# window on the same device, within 2 % (1 point of busy %).  The disk is
# a loop device whose image lives on a filesystem on another loop device
# (both with direct I/O).  Inside a 6 s window that both tools watch, a
# burst of 4096 direct 4 KiB reads starts a second in, and the disks are
# otherwise idle: both tools then see the same counter deltas, so they can
# differ only by the milliseconds between their windows, however long the
# burst takes on a busy machine.  (A burst that does not end well inside
# the window is a machine too busy to compare on: the test skips.)
. "$(dirname "$0")/lib.sh"
need_root
alone "iostat's window and nasperfd's must be the same second"
need_cmd curl jq losetup mkfs.ext4 iostat

truncate -s 300M "$T_TMP/outer.img"
L1=$(losetup -f --show --direct-io=on "$T_TMP/outer.img") || skip_all "no loop device"
loop_at_exit "$L1"
mkfs.ext4 -q -F "$L1"
mkdir "$T_TMP/outer"
mount -o noatime "$L1" "$T_TMP/outer"
at_exit "retry umount $T_TMP/outer"
head -c 128M /dev/urandom >"$T_TMP/outer/inner.img"
sync
L2=$(losetup -f --show --direct-io=on "$T_TMP/outer/inner.img")
loop_at_exit "$L2"
N1=$(basename "$L1") N2=$(basename "$L2")
NREADS=4096

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
sync
S_COLORS=never iostat -x -k -y -p "$N2,$N1" -o JSON 6 1 >"$T_TMP/iostat" &
ipid=$!
client --json counters -i 6 >"$T_TMP/ours" &
opid=$!
t0=$(date +%s.%N)
sleep 1
dd if="$L2" of=/dev/null bs=4k count=$NREADS iflag=direct 2>/dev/null
t1=$(date +%s.%N)
wait $ipid $opid
took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
awk -v t="$took" 'BEGIN { exit !(t > 5.5) }' &&
    skip_all "the burst ended $took s into the 6 s window: too busy a machine to compare the two tools"

io() {	# io DEVICE FIELD
	jq --arg d "$1" --arg f "$2" \
	    '.sysstat.hosts[0].statistics[0].disk[] | select(.disk_device == $d) | .[$f]' \
	    "$T_TMP/iostat"
}
ours() {	# ours DEVICE FIELD
	jq --arg d "$1" --arg f "$2" '.rates.disks[] | select(.name == $d) | .[$f]' \
	    "$T_TMP/ours"
}
# near DESC A B: |A - B| <= 2 % of B, and iostat's rounding to two decimals
near() {
	if awk -v a="${2:-x}" -v b="${3:-y}" 'BEGIN {
	    if (a == "x" || b == "y" || a == "null") exit 1
	    d = a - b; if (d < 0) d = -d
	    exit !(d <= 0.02 * b + 0.005) }'; then
		ok "$1: ours $2, iostat $3"
	else
		not_ok "$1" "ours $2, iostat $3 (more than 2 % apart)"
	fi
}
rs=$(io "$N2" r/s)
n=$(jq --arg d "$N2" '.rates as $r | $r.disks[] | select(.name == $d) | .reads_per_s * $r.interval' "$T_TMP/ours")
check "ours counted the burst's $NREADS reads on $N2 (${n:-none})" \
    awk -v x="${n:-0}" -v n=$NREADS 'BEGIN { exit !(x >= n - 0.5 && x <= n * 1.01) }'
check "iostat saw the disk reading (r/s $rs)" awk -v x="${rs:-0}" 'BEGIN { exit !(x > 0) }'
near "$N2 r/s" "$(ours "$N2" reads_per_s)" "$rs"
near "$N2 read kB/s" "$(awk -v x="$(ours "$N2" read_bytes_per_s)" 'BEGIN { print x / 1024 }')" "$(io "$N2" rkB/s)"
near "$N2 r_await" "$(ours "$N2" read_await_ms)" "$(io "$N2" r_await)"
near "$N2 aqu-sz" "$(ours "$N2" avg_queue)" "$(io "$N2" aqu-sz)"
u1=$(ours "$N2" util_pct) u2=$(io "$N2" util)
if awk -v a="${u1:-x}" -v b="${u2:-y}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "x" && b != "y" && d <= 1) }'; then
	ok "$N2 %util within 1 point: ours $u1, iostat $u2"
else
	not_ok "$N2 %util within 1 point" "ours $u1, iostat $u2"
fi
check "the disk was busy in the window (%util $u2 > 0)" awk -v x="${u2:-0}" 'BEGIN { exit !(x > 0) }'
near "$N1 r/s (the disk below)" "$(ours "$N1" reads_per_s)" "$(io "$N1" r/s)"
near "$N1 read kB/s" "$(awk -v x="$(ours "$N1" read_bytes_per_s)" 'BEGIN { print x / 1024 }')" "$(io "$N1" rkB/s)"
stop_daemon
done_testing
