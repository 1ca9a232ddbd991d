#!/bin/bash
# A btrfs RAID1 built here from two loop devices shows up in /v1/topology
# with its members, its profiles and its mount point, and in nasperf's
# topology table.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq losetup mkfs.btrfs mount
for i in 1 2; do
	truncate -s 256M "$T_TMP/d$i.img"
	L=$(losetup -f --show "$T_TMP/d$i.img") || skip_all "no loop device"
	loop_at_exit "$L"
	eval "L$i=$L"
done
N1=$(basename "$L1") N2=$(basename "$L2")
LABEL=np$$
mkfs.btrfs -q -f -L "$LABEL" -d raid1 -m raid1 "$L1" "$L2" >/dev/null ||
    skip_all "mkfs.btrfs failed"
mkdir "$T_TMP/mnt"
mount "$L1" "$T_TMP/mnt" || skip_all "cannot mount btrfs"
at_exit "retry umount $T_TMP/mnt"
UUID=
for d in /sys/fs/btrfs/*/; do
	[ "$(cat "$d/label" 2>/dev/null)" = "$LABEL" ] && UUID=$(basename "$d")
done

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
api /v1/topology >"$T_TMP/topo"
fs() { jq --arg l "$LABEL" "[.btrfs[] | select(.label == \$l)] | .[0] | $1" "$T_TMP/topo"; }
is "the btrfs filesystem is listed by its label" "$(fs .label | tr -d '"')" "$LABEL"
is "with its UUID" "$(fs .uuid | tr -d '"')" "$UUID"
is "and both loop devices as members" "$(fs '.devices | sort | join(" ")' | tr -d '"')" \
    "$(printf '%s\n' "$N1" "$N2" | sort | tr '\n' ' ' | sed 's/ $//')"
is "data profile raid1" "$(fs .data_profile | tr -d '"')" raid1
is "metadata profile raid1" "$(fs .metadata_profile | tr -d '"')" raid1
mp=$(jq -r --arg m "$T_TMP/mnt" '.filesystems[] | select(.mountpoint == $m) | .fstype' "$T_TMP/topo")
is "the mount point is listed as btrfs" "$mp" btrfs
is "the loop devices are listed as disks with their size" \
    "$(jq --arg d "$N1" '.disks[] | select(.name == $d) | .size_bytes' "$T_TMP/topo")" 268435456
client topology >"$T_TMP/table"
check "nasperf topology shows the label" grep -q "$LABEL" "$T_TMP/table"
check "nasperf topology shows raid1" grep -q raid1 "$T_TMP/table"
stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
