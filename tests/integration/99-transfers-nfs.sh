#!/bin/bash
# NFS copies noticed on their own: a real ganesha.nfsd (NFSv3, with
# rpcbind) in the server's namespace of lib.sh's LAN (a veth pair shaped to
# RATE Mbit/s), and libnfs's nfs-cp in the client's namespace, with no
# nasperf call on the client side.  A write of SIZE MiB becomes a transfer
# of origin "auto", op write, over NFS, from the client's address, its
# bytes within 2 % of the file's, its connection held by ganesha.nfsd and
# a verdict of network on vsrv; a read of it back becomes a read, judged
# the same; a write of 12 s, longer than the daemon's 10 s of history,
# ends all the same, judged over what the history held.  RATE and SECS are
# drawn at random each run (the seed is printed, NP_SEED=N repeats it);
# each transfer is asserted on its first attempt.
. "$(dirname "$0")/lib.sh"
need_root
one_at_a_time nfs
need_cmd curl jq ip tc ganesha.nfsd rpcbind nfs-cp
[ -z "${NP_LAN_NS:-}" ] && [ -e /run/rpcbind.sock ] &&
    skip_all "an rpcbind already runs here"

export NP_SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$NP_SEED
RATE=$((60 + RANDOM % 141))		# Mbit/s
SECS=$((5 + RANDOM % 3))		# each copy's seconds at RATE
SIZE=$((RATE * SECS / 8 * 1000000 / 1048576))	# MiB
lan_enter 97 "$RATE"
echo "# seed $NP_SEED (NP_SEED=$NP_SEED repeats this run): $RATE Mbit/s," \
    "$SIZE MiB"

mkdir -m 777 "$T_TMP/nfs"
head -c "${SIZE}M" /dev/urandom >"$T_TMP/up"

G=$T_TMP/ganesha
mkdir -p "$G/recov"
cat >"$G/ganesha.conf" <<CONF
NFS_CORE_PARAM { Protocols = 3; NFS_Port = 2049; MNT_Port = 20048;
                 Bind_addr = $SRV; Enable_NLM = false;
                 Enable_RQUOTA = false; Enable_UDP = false; }
NFSv4 { RecoveryBackend = fs; RecoveryRoot = $G/recov; Graceless = true; }
EXPORT { Export_Id = 1; Path = $T_TMP/nfs; Pseudo = /export;
         Access_Type = RW; Squash = No_Root_Squash; Protocols = 3;
         Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
LOG { Default_Log_Level = EVENT; }
CONF
rpcbind_start
ganesha_start "$SRV"

# A history of 10 s, for the copy that outlives it.
lan_daemon "sampler:
  full_seconds: 10
  coarse_seconds: 0
"
# The watch reads the connections every second, and takes what a
# connection open at its first reading had moved for the past, not a
# transfer: the copies start after that reading.
sleep 2

URL="nfs://$SRV$T_TMP/nfs"
# wait_ended N: until N transfers have ended (3 s without traffic), at
# most 20 s; the list goes to $T_TMP/xf.
wait_ended() {
	local i
	for ((i = 0; i < 40; i++)); do
		api /v1/transfers >"$T_TMP/xf"
		[ "$(jq '[.transfers[] | select(.ended)] | length' "$T_TMP/xf")" \
		    -ge "$1" ] && return 0
		sleep 0.5
	done
	return 1
}
# xcheck N OP: the checks of the Nth transfer to end, a copy of op OP.
xcheck() {
	local sel=".transfers | map(select(.ended)) | sort_by(.id) | .[$1]"
	local id
	id=$(jq -r "$sel.id" "$T_TMP/xf")
	api "/v1/transfers/$id/report" >"$T_TMP/rep$1"
	echo "# $2: $(jq -r "$sel"' | "\(.protocol) \(.op) \(.bytes) bytes; \(.verdict.class): \(.verdict.resource)"' "$T_TMP/xf")"
	jq -r '.path.summary' "$T_TMP/rep$1" | sed 's/^/#   /'
	is "$2: origin auto" "$(jq -r "$sel.origin" "$T_TMP/xf")" auto
	is "$2: op $2" "$(jq -r "$sel.op" "$T_TMP/xf")" "$2"
	is "$2: over NFSv3" "$(jq -r "$sel.protocol" "$T_TMP/xf")" nfs3
	is "$2: the client's address" "$(jq -r "$sel.client_addr" \
	    "$T_TMP/xf")" "$CLI"
	within "$2: its bytes the file's" "$(jq -r "$sel.bytes" "$T_TMP/xf")" \
	    $((SIZE * 1048576)) 2
	check "$2: its connection held by ganesha.nfsd" jq -e \
	    '[.path.connections[] | select(.service == "nfs" and
	    .comm == "ganesha.nfsd")] | length >= 1' "$T_TMP/rep$1"
	is "$2: the verdict is network" "$(jq -r .verdict.class \
	    "$T_TMP/rep$1")" network
	is "$2: on vsrv" "$(jq -r .verdict.resource "$T_TMP/rep$1")" vsrv
}

# A write, then the file read back, each with nothing of ours on the
# client.  ganesha may still be starting its NFSv3 service: a copy that
# could not mount is tried again before any byte moved.
for ((i = 0; i < 10; i++)); do
	incli nfs-cp "$T_TMP/up" "$URL/copy" >"$T_TMP/nfscp.out" 2>&1 && break
	grep -qi 'mount\|portmap\|connect' "$T_TMP/nfscp.out" || break
	sleep 1
done
is "nfs-cp wrote the file" "$(cmp "$T_TMP/up" "$T_TMP/nfs/copy" &&
    echo same)" same || sed 's/^/# /' "$T_TMP/nfscp.out"
check "the write ends as a transfer" wait_ended 1
xcheck 0 write

incli nfs-cp "$URL/copy" "$T_TMP/back" >"$T_TMP/nfscp.out" 2>&1
is "nfs-cp read it back" "$(cmp "$T_TMP/up" "$T_TMP/back" && echo same)" \
    same || sed 's/^/# /' "$T_TMP/nfscp.out"
check "the read ends as a transfer" wait_ended 2
xcheck 1 read
is "two transfers in all" "$(jq '.transfers | length' "$T_TMP/xf")" 2

# A copy of 12 s, longer than the daemon's 10 s of history: it ends all
# the same, with its bytes, judged over what the history held, which its
# report says.
LONG=$((RATE * 12 / 8 * 1000000 / 1048576))	# MiB
head -c "${LONG}M" /dev/urandom >"$T_TMP/long"
incli nfs-cp "$T_TMP/long" "$URL/long" >"$T_TMP/nfscp.out" 2>&1
is "nfs-cp wrote a file of 12 s" "$?" 0 || sed 's/^/# /' "$T_TMP/nfscp.out"
check "the long write ends as a transfer" wait_ended 3
sel=".transfers | map(select(.ended)) | sort_by(.id) | .[2]"
within "... with its bytes" "$(jq -r "$sel.bytes" "$T_TMP/xf")" \
    $((LONG * 1048576)) 2
api "/v1/transfers/$(jq -r "$sel.id" "$T_TMP/xf")/report" >"$T_TMP/rep2"
echo "# long: $(jq -r '.verdict.class + ": " + .verdict.resource + "; " +
    (.history_note // "no note")' "$T_TMP/rep2")"
is "... judged network on vsrv" "$(jq -r '.verdict.class + " " +
    .verdict.resource' "$T_TMP/rep2")" "network vsrv"
check "... over the history's last seconds, as its report says" jq -e \
    '.history_note | test("held only the last")' "$T_TMP/rep2"

kill -TERM "$NPD_PID"
rc=0
wait "$NPD_PID" || rc=$?
is "nasperfd exits 0" "$rc" 0
done_testing
