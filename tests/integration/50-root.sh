#!/bin/bash
# nasperfd --root serves a captured box: the fixture trees of a Synology,
# a QNAP and a ReadyNAS, and a ZFS and Unraid box composed of real
# captures, read through the whole daemon and client.
. "$(dirname "$0")/lib.sh"
need_cmd curl jq
F=${NP_FIXTURES:?}
[ -d "$F/dsm7-4.4-x86_64" ] || skip_all "fixture trees are not unpacked"

start_daemon --root "$F/dsm7-4.4-x86_64" || { echo "Bail out! nasperfd did not start"; exit 1; }
api /v1/info >"$T_TMP/info"
is "DSM 7 box: vendor" "$(jq -r .identity.vendor "$T_TMP/info")" Synology
is "DSM 7 box: model" "$(jq -r .identity.model "$T_TMP/info")" "DS1821+"
is "DSM 7 box: root is the fixture" "$(jq -r .root "$T_TMP/info")" "$F/dsm7-4.4-x86_64"
api /v1/topology >"$T_TMP/topo"
is "DSM 7 box: md2 is raid6" "$(jq -r '.md[] | select(.name == "md2") | .level' "$T_TMP/topo")" raid6
is "DSM 7 box: md2 has 8 members" "$(jq '.md[] | select(.name == "md2") | .members | length' "$T_TMP/topo")" 8
check "DSM 7 box: /volume1 is listed" sh -c "jq -e '.filesystems[] | select(.mountpoint == \"/volume1\")' '$T_TMP/topo' >/dev/null"
api /v1/counters >"$T_TMP/ctr"
check "DSM 7 box: counters list sata1" sh -c "jq -e '.disks[] | select(.name == \"sata1\")' '$T_TMP/ctr' >/dev/null"
api /metrics >"$T_TMP/metrics"
check "DSM 7 box: metrics for sata1" grep -q 'device="sata1"' "$T_TMP/metrics"
if command -v promtool >/dev/null 2>&1; then
	check "DSM 7 box: promtool accepts its metrics" sh -c "promtool check metrics <'$T_TMP/metrics' >/dev/null 2>&1"
fi
stop_daemon

start_daemon --root "$F/qts5-5.10-x86_64" || { echo "Bail out! nasperfd did not start"; exit 1; }
is "QNAP box: vendor" "$(api /v1/info | jq -r .identity.vendor)" QNAP
api /v1/topology >"$T_TMP/topo"
is "QNAP box: md9 [24/4] is not degraded" \
    "$(jq '.md[] | select(.name == "md9") | .degraded' "$T_TMP/topo")" 0
check "QNAP box: the cachedev volume is listed" sh -c "jq -e '.filesystems[] | select(.mountpoint == \"/share/CACHEDEV1_DATA\")' '$T_TMP/topo' >/dev/null"
client counters >"$T_TMP/table"
check "QNAP box: nasperf counters shows the smb group" grep -q smb "$T_TMP/table"
stop_daemon

# A ZFS box with Unraid's array, composed of the real captures of
# tests/fixtures/zfs and unraid (Unraid 6.12 has both): the zfs and unraid
# parts of the counters, their metrics, and nasperf counters' lines.
SRC=$(cd "$(dirname "$0")/../fixtures" && pwd)
Z=$T_TMP/zfsbox
mkdir -p "$Z/proc/spl/kstat/zfs/anima" "$Z/proc/spl/kstat/zfs/zstore"
cp "$SRC/zfs/arcstats-0.6.5-zfs4880.txt" "$Z/proc/spl/kstat/zfs/arcstats"
cp "$SRC/zfs/dmu_tx-zfs7718.txt" "$Z/proc/spl/kstat/zfs/dmu_tx"
cp "$SRC/zfs/txgs-zfs3811.txt" "$Z/proc/spl/kstat/zfs/anima/txgs"
cp "$SRC/zfs/io-zabbix-zfs-checks2.txt" "$Z/proc/spl/kstat/zfs/zstore/io"
cp "$SRC/unraid/mdstat-6.11-node_exporter2642.txt" "$Z/proc/mdstat"
start_daemon --root "$Z" || { echo "Bail out! nasperfd did not start"; exit 1; }
api /v1/counters >"$T_TMP/ctr"
is "ZFS box: ARC hits" "$(jq .zfs.arcstats.hits "$T_TMP/ctr")" 800938102
is "ZFS box: its pools" "$(jq -c '[.zfs.pools[].name]' "$T_TMP/ctr")" \
    '["anima","zstore"]'
is "ZFS box: zil is unavailable, the rest is there" \
    "$(jq -c .zfs.zil "$T_TMP/ctr")" null
is "Unraid box: the array's state" "$(jq -r .unraid.state "$T_TMP/ctr")" \
    STARTED
api "/v1/counters?interval=0.2" >"$T_TMP/ctr"
check "ZFS box: rates of an ARC that did nothing: no hit ratio" \
    jq -e '.rates.zfs.arc_hits_per_s == 0 and .rates.zfs.arc_hit_pct == null' \
    "$T_TMP/ctr"
api /metrics >"$T_TMP/metrics"
check "ZFS box: metrics of the ARC" grep -q \
    '^nasperf_zfs_arc_hits_total 800938102$' "$T_TMP/metrics"
check "Unraid box: metrics of the array" grep -q \
    '^nasperf_unraid_disks_disabled 1$' "$T_TMP/metrics"
if command -v promtool >/dev/null 2>&1; then
	check "ZFS box: promtool accepts its metrics" sh -c \
	    "promtool check metrics <'$T_TMP/metrics' >/dev/null 2>&1"
fi
client counters >"$T_TMP/table"
check "ZFS box: nasperf counters shows the ARC" grep -q \
    "^ZFS ARC: 800938102 hits, 95584272 misses since the module loaded, 89.3 % hit$" \
    "$T_TMP/table"
check "ZFS box: and pool anima's syncs" grep -q "^ZFS pool anima: txg 31601026" \
    "$T_TMP/table"
check "Unraid box: nasperf counters shows the array" grep -q \
    "^Unraid array: STARTED, 1 parity and 3 data disks, 1 disabled$" \
    "$T_TMP/table"
stop_daemon

start_daemon --root "$F/empty" || { echo "Bail out! nasperfd did not start on an empty root"; exit 1; }
is "empty root: /v1/counters still answers" "$(status /v1/counters -H "Authorization: Bearer $NPD_TOKEN")" 200
is "empty root: disks are null" "$(api /v1/counters | jq -c .disks)" null
is "empty root: /v1/topology still answers" "$(status /v1/topology -H "Authorization: Bearer $NPD_TOKEN")" 200
is "empty root: /metrics still answers" "$(status /metrics -H "Authorization: Bearer $NPD_TOKEN")" 200
stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
