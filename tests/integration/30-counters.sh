#!/bin/bash
# Counters move for real: a loop device's after writing to it, loopback's
# after traffic, a process group's CPU after a busy process of that name.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq losetup dd
truncate -s 128M "$T_TMP/disk.img"
L=$(losetup -f --show --direct-io=on "$T_TMP/disk.img") || skip_all "no loop device"
at_exit "losetup -d $L"
LN=$(basename "$L")
printf 'api:\n  max_body_bytes: 16000000\n' >"$T_TMP/c.yaml"
start_daemon -c "$T_TMP/c.yaml" || { echo "Bail out! nasperfd did not start"; exit 1; }

# rates over a 2 s window while something happens inside it
window() {
	api '/v1/counters?interval=2' >"$T_TMP/rates" &
	local p=$!
	sleep 0.4
	"$@" >/dev/null 2>&1
	wait $p
}

window dd if=/dev/urandom of="$L" bs=1M count=48 oflag=direct
w=$(jq --arg d "$LN" '.rates.disks[] | select(.name == $d) | .write_bytes_per_s * $r' \
    --argjson r "$(jq .rates.interval "$T_TMP/rates")" "$T_TMP/rates" 2>/dev/null)
check "$LN is in the counters" sh -c "jq -e --arg d $LN '.disks[] | select(.name == \$d)' '$T_TMP/rates' >/dev/null"
check "writing 48 MiB to $LN shows >= 48 MiB written (${w:-none} bytes)" \
    awk -v w="${w:-0}" 'BEGIN { exit !(w >= 50331648 * 0.98 && w <= 50331648 * 1.2) }'
rd=$(jq --arg d "$LN" '.rates.disks[] | select(.name == $d) | .reads_per_s' "$T_TMP/rates")
window dd if="$L" of=/dev/null bs=1M count=32 iflag=direct
r=$(jq --arg d "$LN" '.rates.disks[] | select(.name == $d) | .read_bytes_per_s * $r' \
    --argjson r "$(jq .rates.interval "$T_TMP/rates")" "$T_TMP/rates" 2>/dev/null)
check "reading 32 MiB from $LN shows >= 32 MiB read (${r:-none} bytes)" \
    awk -v r="${r:-0}" 'BEGIN { exit !(r >= 33554432 * 0.98) }'

head -c 8000000 /dev/zero >"$T_TMP/8mb"
window curl -s -o /dev/null --data-binary @"$T_TMP/8mb" "$NPD_URL/healthz"
rx=$(jq '.rates.nics[] | select(.name == "lo") | .rx_bytes_per_s * $r' \
    --argjson r "$(jq .rates.interval "$T_TMP/rates")" "$T_TMP/rates" 2>/dev/null)
check "sending 8 MB over loopback shows >= 8 MB on lo (${rx:-none} bytes)" \
    awk -v x="${rx:-0}" 'BEGIN { exit !(x >= 8000000) }'

# A busy process named smbd is in the default "smb" group.
cp "$(command -v bash)" "$T_TMP/smbd"
"$T_TMP/smbd" -c 'while :; do :; done' &
busy=$!
at_exit "kill $busy"
sleep 0.3
api '/v1/counters?interval=1.5' >"$T_TMP/g"
kill "$busy"
cpu=$(jq '.rates.groups[] | select(.name == "smb") | .cpu_pct' "$T_TMP/g")
check "a busy smbd shows in group smb at > 50 % of a core (${cpu:-none} %)" \
    awk -v c="${cpu:-0}" 'BEGIN { exit !(c > 50) }'
is "the group names the busy process" \
    "$(jq '.rates.groups[] | select(.name == "smb") | .top.pid' "$T_TMP/g")" "$busy"
check "raw group counters name it too" sh -c "jq -e '.groups[] | select(.name == \"smb\") | .processes >= 1' '$T_TMP/g' >/dev/null"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
