#!/bin/bash
# Counters move for real: a loop device's after writing to it, loopback's
# after traffic, a process group's CPU after a busy process of that name.
# Each check compares cumulative counters, never a rate over a window.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq losetup dd
truncate -s 128M "$T_TMP/disk.img"
L=$(losetup -f --show --direct-io=on "$T_TMP/disk.img") || skip_all "no loop device"
loop_at_exit "$L"
LN=$(basename "$L")
printf 'api:\n  max_body_bytes: 16000000\n' >"$T_TMP/c.yaml"
start_daemon -c "$T_TMP/c.yaml" || { echo "Bail out! nasperfd did not start"; exit 1; }

# The daemon's cumulative counters before and after something is done:
# the same counters the kernel keeps, so the deltas are exact whatever
# the machine's load, and nothing depends on how long it takes.
raw() {	# raw FILE: the counters now, without rates
	api /v1/counters >"$T_TMP/$1"
}
delta() {	# delta JQ-PATH: after minus before
	echo $(( $(jq "$1" "$T_TMP/after") - $(jq "$1" "$T_TMP/before") ))
}
disk='.disks[] | select(.name == "'"$LN"'")'

raw before
dd if=/dev/urandom of="$L" bs=1M count=48 oflag=direct 2>/dev/null
raw after
check "$LN is in the counters" jq -e "$disk" "$T_TMP/after"
w=$(delta "$disk | .write_bytes")
check "writing 48 MiB to $LN adds 48 MiB to its written bytes ($w)" \
    awk -v w="${w:-0}" 'BEGIN { exit !(w >= 50331648 && w <= 50331648 * 1.02) }'
raw before
dd if="$L" of=/dev/null bs=1M count=32 iflag=direct 2>/dev/null
raw after
r=$(delta "$disk | .read_bytes")
check "reading 32 MiB from $LN adds 32 MiB to its read bytes ($r)" \
    awk -v r="${r:-0}" 'BEGIN { exit !(r >= 33554432 && r <= 33554432 * 1.02) }'

head -c 8000000 /dev/zero >"$T_TMP/8mb"
raw before
curl -s -o /dev/null --data-binary @"$T_TMP/8mb" "$NPD_URL/healthz"
raw after
rx=$(delta '.nics[] | select(.name == "lo") | .rx_bytes')
check "sending 8 MB over loopback adds >= 8 MB to lo's received bytes ($rx)" \
    awk -v x="${rx:-0}" 'BEGIN { exit !(x >= 8000000) }'

# A busy process named smbd is in the default "smb" group.  Stopped, its
# CPU ticks no longer move: the group's must include them all.
cp "$(command -v bash)" "$T_TMP/smbd"
"$T_TMP/smbd" -c 'while :; do :; done' &
busy=$!
at_exit "kill -CONT $busy; kill $busy"
ticks() {	# ticks PID: its user and system ticks
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}
for ((i = 0; i < 300 && $(ticks "$busy") < 20; i++)); do sleep 0.1; done
api '/v1/counters?interval=1' >"$T_TMP/g"
is "the group's busiest process is the busy one" \
    "$(jq '.rates.groups[] | select(.name == "smb") | .top.pid' "$T_TMP/g")" "$busy"
kill -STOP "$busy"
sleep 0.1
t=$(ticks "$busy")
raw after
g=$(jq '.groups[] | select(.name == "smb") | .cpu_ticks' "$T_TMP/after")
check "group smb counts the busy smbd's $t ticks ($g)" \
    awk -v g="${g:-0}" -v t="$t" 'BEGIN { exit !(t >= 20 && g >= t) }'
check "raw group counters name it too" sh -c "jq -e '.groups[] | select(.name == \"smb\") | .processes >= 1' '$T_TMP/after' >/dev/null"
kill -CONT "$busy"
kill "$busy"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
