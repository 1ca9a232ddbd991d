#!/bin/bash
# nasperf bench over NFS through libnfs against a real ganesha.nfsd
# exporting a directory on an ext4 volume on a loop device:
#  - the --quick matrix over NFSv3 completes, checked byte for byte, with
#    positive figures and the daemon's verdict for every test;
#  - over NFSv4 the read tests read what the v3 run kept, and the write
#    tests are skipped with a plain reason (libnfs 4.0 cannot write v4);
#  - a read-only export, a missing export and a closed port fail clearly.
# ganesha.nfsd, with rpcbind for NFSv3, runs in a network namespace of its
# own, reached over a veth pair, so that ports 111 and 2049 of this
# machine are left alone.
. "$(dirname "$0")/lib.sh"
need_root
one_at_a_time nfs
need_cmd ganesha.nfsd rpcbind ip losetup mkfs.ext4 mount umount curl jq
"$NASPERF" --help | grep -q '^  bench' || skip_all "nasperf has no bench"
"$NASPERF" bench --quick nfs://127.0.0.1:1/x 2>&1 |
    grep -q 'built without libnfs' &&
    skip_all "nasperf was built without libnfs"
[ -e /run/rpcbind.sock ] && skip_all "an rpcbind already runs here"

truncate -s 600M "$T_TMP/vol.img"
L=$(losetup -f --show --direct-io=on "$T_TMP/vol.img") || skip_all "no loop device"
loop_at_exit "$L"
mkfs.ext4 -q -F "$L"
mkdir "$T_TMP/vol"
mount "$L" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"
mkdir -m 777 "$T_TMP/vol/nfs" "$T_TMP/vol/ro"

# The server's namespace, and a veth pair to it.
NS=npnfs$$
N=$((RANDOM % 200 + 20))
SRV=10.98.$N.1 CLI=10.98.$N.2
ip netns add "$NS" || skip_all "cannot make a network namespace"
at_exit "ip netns del $NS"
ip link add "vn$$" type veth peer name "vs$$" netns "$NS"
at_exit "ip link del vn$$"
ip addr add "$CLI/24" dev "vn$$"
ip link set "vn$$" up
ip -n "$NS" addr add "$SRV/24" dev "vs$$"
ip -n "$NS" link set "vs$$" up
ip -n "$NS" link set lo up

G=$T_TMP/ganesha
mkdir -p "$G/recov"
cat >"$G/ganesha.conf" <<CONF
NFS_CORE_PARAM { Protocols = 3, 4; NFS_Port = 2049; MNT_Port = 20048;
                 Bind_addr = 0.0.0.0; Enable_NLM = false;
                 Enable_RQUOTA = false; Enable_UDP = false; }
NFSv4 { RecoveryBackend = fs; RecoveryRoot = $G/recov; Graceless = true;
        Lease_Lifetime = 10; Allow_Numeric_Owners = true;
        Only_Numeric_Owners = true; }
EXPORT { Export_Id = 1; Path = $T_TMP/vol/nfs; Pseudo = /export;
         Access_Type = RW; Squash = No_Root_Squash; Protocols = 3, 4;
         Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
EXPORT { Export_Id = 2; Path = $T_TMP/vol/ro; Pseudo = /ro;
         Access_Type = RO; Squash = No_Root_Squash; Protocols = 3, 4;
         Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
rpcbind_start ip netns exec "$NS"
ganesha_start "$SRV" ip netns exec "$NS"

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }

# ganesha may still be in its grace period for a few seconds: retry.
bench() {
	local i
	for ((i = 0; i < 10; i++)); do
		client "$@" && return 0
		grep -q 'GRACE\|grace' "$T_TMP/bench.err" 2>/dev/null || return 1
		sleep 2
	done
	return 1
}

# -- NFSv3: the whole matrix, keeping the files for v4
out=$T_TMP/v3.json
bench -j bench --quick --keep "nfs://$SRV$T_TMP/vol/nfs" >"$out" \
    2>"$T_TMP/bench.err"
rc=$?
is "bench --quick over NFSv3 exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_TMP/bench.err" "$out" | head -40
is "the runs are nfs3" "$(jq -r .protocol "$out")" nfs3
is "15 tests ran" "$(jq '.rows | length' "$out")" 15
is "every test completed" \
    "$(jq '[.rows[] | select(.status != "done")] | length' "$out")" 0
is "every read was checked against what was written" \
    "$(jq '[.rows[] | select(.op == "read" and .verified != true)] |
    length' "$out")" 0
is "every figure is positive" \
    "$(jq '[.rows[] | select(.seconds <= 0 or (.op != "list" and
    .bytes <= 0) or .files <= 0)] | length' "$out")" 0
is "every test has the daemon's verdict" \
    "$(jq '[.rows[] | select((.verdict.class // "") == "")] | length' \
    "$out")" 0
check "the kept files are on the export" \
    test -s "$T_TMP/vol/nfs/nasperf-bench/seq/f000000"

# -- NFSv4: reads of what v3 kept; writes refused plainly
out4=$T_TMP/v4.json
bench -j bench --quick --nfs-version 4 "nfs://$SRV/export" >"$out4" \
    2>"$T_TMP/bench.err"
rc=$?
is "bench --quick over NFSv4 exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_TMP/bench.err" "$out4" | head -40
is "the runs are nfs4" "$(jq -r .protocol "$out4")" nfs4
is "the reads of kept files completed" \
    "$(jq '[.rows[] | select(.op == "read" and (.test | test("best of")
    | not)) | select(.status == "done" and .verified == true)] | length' \
    "$out4")" 5
is "the listings completed" \
    "$(jq '[.rows[] | select(.op == "list" and .status == "done")] |
    length' "$out4")" 3
is "each read has the daemon's verdict" \
    "$(jq '[.rows[] | select(.status == "done") |
    select((.verdict.class // "") == "")] | length' "$out4")" 0
check "the writes are skipped, saying why" jq -e '[.rows[] |
    select(.op == "write")] | all(.status == "skipped" and
    (.note | test("cannot write over NFSv4")))' "$out4"
client bench --quick --nfs-version 4 "nfs://$SRV/export" >"$T_TMP/v4.txt" 2>&1
check "the table says it plainly" grep -q \
    'skipped: libnfs 4.0 cannot write over NFSv4' "$T_TMP/v4.txt"

# -- errors
client bench --quick "nfs://$SRV$T_TMP/vol/ro" >/dev/null 2>"$T_TMP/err"
is "a read-only export fails" "$?" 1
check "and says it is read-only" grep -q 'read-only' "$T_TMP/err" ||
    sed 's/^/# /' "$T_TMP/err"
client bench --quick "nfs://$SRV/nonexistent/path" >/dev/null 2>"$T_TMP/err"
is "a path that is not exported fails" "$?" 1
check "and says the mount failed" grep -q 'mount .* failed' "$T_TMP/err" ||
    sed 's/^/# /' "$T_TMP/err"
client bench --quick "nfs://127.0.0.1:$(free_port)/x?nfsport=$(free_port)" \
    >/dev/null 2>"$T_TMP/err"
is "a closed port fails" "$?" 1
check "and says so" grep -q 'Connection refused' "$T_TMP/err"
check "ganesha.nfsd is still there" kill -0 "$GPID"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
