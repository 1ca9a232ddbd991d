#!/bin/bash
# An NFS read's verdict judges the disks under the export, served by a real
# ganesha.nfsd (user space: it owns its sockets, so the run's path ties the
# client's connection to it).  ganesha exports a directory of an ext4
# volume on a loop device (VOL) whose reads a block-I/O throttle holds to
# RATE MB/s for ganesha and nasperfd; the disk analyzer measures VOL at
# that rate.  While a neighbour reads another loop device (NB) flat out,
# libnfs's nfs-cp reads a file of RATE x SECS MB over NFSv4 as a run: the
# verdict is disk, naming VOL, the path names ganesha.nfsd as the serving
# process and the export's mount as the volume, and NB, the busiest disk
# on the box, is only an observation off the path.  ganesha listens on
# 2049 on loopback (NFSv4 needs no rpcbind).  Parameters are drawn at
# random each run (the seed is printed, NP_SEED=N repeats it); asserted
# on the first attempt.
. "$(dirname "$0")/lib.sh"
need_root
one_at_a_time nfs
need_cmd ganesha.nfsd nfs-cp losetup mkfs.ext4 mount umount curl jq dd ss
[ -n "$(ss -Hltn 'sport = :2049')" ] &&
    skip_all "port 2049 is taken here: another NFS server runs"

disk_scenario t87 nfs

G=$T_TMP/ganesha
mkdir -p "$G/recov"
cat >"$G/ganesha.conf" <<CONF
NFS_CORE_PARAM { Protocols = 4; NFS_Port = 2049; Bind_addr = 127.0.0.1;
                 Enable_NLM = false; Enable_RQUOTA = false;
                 Enable_UDP = false; }
NFSv4 { RecoveryBackend = fs; RecoveryRoot = $G/recov; Graceless = true;
        Lease_Lifetime = 10; Allow_Numeric_Owners = true;
        Only_Numeric_Owners = true; }
EXPORT { Export_Id = 1; Path = $T_TMP/vol/nfs; Pseudo = /export;
         Access_Type = RO; Squash = No_Root_Squash; Protocols = 4;
         Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
# Its output goes to a file, as a server's often does: its standard
# streams are not the transfer's data, whatever the file is called.
ganesha_start 127.0.0.1
# ganesha's reads and nasperfd's disk test are the throttled ones.
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done"
echo "$GPID" >"$CG/cgroup.procs"

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }
echo "$NPD_PID" >"$CG/cgroup.procs"

. "$(dirname "$0")/verdict-lib.sh"

# The baseline, the neighbour, then the file is read over NFSv4 as a run.
disk_scenario_ready nfs
ram_dir
run_open '{"label":"nfs get","protocol":"nfs4","op":"read"}'
t0=$(date +%s.%N)
nfs-cp "nfs://127.0.0.1/export/big?version=4" "$T_RAM/copy" \
    >"$T_TMP/nfscp.out" 2>&1
rc=$?
t1=$(date +%s.%N)
run_close_read $((RATE * SECS * 1048576)) "$t0" "$t1"
is "nfs-cp read the file" "$rc" 0
is "the copy is whole" "$(stat -c %s "$T_RAM/copy" 2>/dev/null)" \
    $((RATE * SECS * 1048576))

disk_verdict_checks
check "the path's connection is NFS, held by ganesha.nfsd" jq -e \
    '[.path.connections[] | select(.service == "nfs" and
    .comm == "ganesha.nfsd")] | length >= 1' "$T_TMP/rep.$RUN"
check "ganesha.nfsd is the serving process" jq -e --argjson p "$GPID" \
    '[.path.processes[] | select(.pid == $p)] | length == 1' \
    "$T_TMP/rep.$RUN"

# The same read again with no run: a transfer noticed on its own, from the
# disks again (the cache dropped first), judged as the run was.
curl -sS -o /dev/null -X POST -H "Authorization: Bearer $NPD_TOKEN" \
    "$NPD_URL/v1/cache/drop"
rm -f "$T_RAM/copy"
nfs-cp "nfs://127.0.0.1/export/big?version=4" "$T_RAM/copy" \
    >>"$T_TMP/nfscp.out" 2>&1
for ((i = 0; i < 40; i++)); do
	api /v1/transfers >"$T_TMP/xf"
	jq -e '[.transfers[] | select(.ended)] | length >= 1' "$T_TMP/xf" \
	    >/dev/null && break
	sleep 0.5
done
x() { jq -r "[.transfers[] | select(.ended)][0]$1" "$T_TMP/xf"; }
echo "# transfer: $(x '| "\(.label): \(.bytes) bytes; \(.verdict.class): \(.verdict.resource)"')"
is "an NFS read with no run is a transfer of its own" "$(x .origin)" auto
is "... a read" "$(x .op)" read
check "... over NFS" sh -c "jq -r '[.transfers[] | select(.ended)][0].protocol' \
    '$T_TMP/xf' | grep -q '^nfs'"
within "... its bytes the file's" "$(x .bytes)" $((RATE * SECS * 1048576)) 2
is "... disk-bound" "$(x .verdict.class)" disk
is "... on the export's volume, $VOLN" "$(x .verdict.resource)" "$VOLN"
api "/v1/transfers/$(x .id)/report" >"$T_TMP/xrep"
check "... its path held by ganesha.nfsd" jq -e '[.path.connections[] |
    select(.comm == "ganesha.nfsd")] | length >= 1' "$T_TMP/xrep"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
