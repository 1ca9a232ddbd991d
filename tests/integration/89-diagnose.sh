#!/bin/bash
# nasperf diagnose names the lower ceiling.  A real smbd in the server's
# namespace of lib.sh's LAN (a veth pair shaped to RATE Mbit/s) shares
# two ext4 volumes on RAM loop devices: "slow", whose reads a block-I/O
# throttle holds to DRATE MB/s well under the link, and "fast", held by
# nothing.  From the client's namespace, with a budget too short for the
# whole matrix, diagnose of the slow one measures the path with a
# synthetic test and the volume with a short disk test, names the disks
# the lower ceiling (at DRATE) and the read disk-bound, and says what the
# budget cut; diagnose of the fast one keeps the path's measure, measures
# its volume, and names the network the lower ceiling (at RATE) and the
# read network-bound; over SMB3 and SMB2 side by side, each protocol's
# read is network-bound.  RATE and DRATE are drawn at random each run (the
# seed is printed, NP_SEED=N repeats it); asserted on the first attempt.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq ip tc smbd smbpasswd losetup mkfs.ext4 mount umount

export NP_SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$NP_SEED
RATE=$((120 + RANDOM % 81))		# Mbit/s: 15 to 25 MB/s
DRATE=$((4 + RANDOM % 5))		# MB/s
if [ -z "${NP_LAN_NS:-}" ]; then
	# The volumes and the throttle, made here: the LAN's namespace sees
	# no cgroup hierarchy, and its processes (smbd, nasperfd) inherit
	# this script's cgroup.
	echo "# seed $NP_SEED (NP_SEED=$NP_SEED repeats this run):" \
	    "link $RATE Mbit/s, slow volume $DRATE MB/s"
	export NP_DIAG_DIR=$T_TMP/shares
	mkdir -p "$NP_DIAG_DIR"
	ram_loop SLOW 400M
	ram_loop FAST 400M
	for v in slow fast; do
		[ "$v" = slow ] && L=$SLOW || L=$FAST
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$L" ||
		    skip_all "mkfs.ext4 failed"
		mkdir "$NP_DIAG_DIR/$v"
		mount "$L" "$NP_DIAG_DIR/$v" || skip_all "cannot mount ext4"
		at_exit "retry umount $NP_DIAG_DIR/$v"
		chmod 777 "$NP_DIAG_DIR/$v"
	done
	io_cgroup t89
	throttle read_bps "$(cat "/sys/block/$(basename "$SLOW")/dev")" \
	    $((DRATE * 1000000))
	echo $$ >"$CG/cgroup.procs"
	at_exit "echo $$ >$CGROOT/cgroup.procs"
fi
lan_enter 89 "$RATE"

smbd_conf "$NP_DIAG_DIR" vsrv
SMB_ADDR=$SRV smbd_start
SMBPORT=$SPORT
lan_daemon "samba:
  config: $S/smb.conf
  sessions_interval: 1
disktest:
  volumes: [$NP_DIAG_DIR/slow, $NP_DIAG_DIR/fast]
"
# diagnose WHICH BUDGET: nasperf diagnose from the client's namespace, its
# JSON in $T_TMP/d.WHICH.
diagnose() {
	incli env NASPERF_TOKEN="$NPD_TOKEN" "$NASPERF" -H "$SRV:$NPD_PORT" \
	    --json diagnose --budget "$2" --credentials "$T_TMP/cred" \
	    "smb://$SRV:$SMBPORT/share/$1" >"$T_TMP/d.$1" 2>"$T_TMP/e.$1"
	echo "# diagnose $1: exit $?, $(jq -r '"\(.seconds | floor) s; " +
	    ([.steps[] | "\(.step) \(.status)"] | join(", ")) + "; lower: " +
	    "\(.ceilings.lower), disks \(.ceilings.disks.bytes_per_s), " +
	    "network \(.ceilings.network.bytes_per_s)"' "$T_TMP/d.$1")"
	jq -r '.tests[] | "#   \(.test): \(.verdict.class): \(.verdict.resource)"' \
	    "$T_TMP/d.$1"
	sed 's/^/#   stderr: /' "$T_TMP/e.$1" | tail -12
}
d() {	# d WHICH FILTER
	jq -r "$2" "$T_TMP/d.$1"
}

diagnose slow 90
is "slow: the probe ran" "$(d slow '.steps[] | select(.step == "probe") |
    .status')" done
is "slow: the path was measured" "$(d slow '.steps[] |
    select(.step == "network") | .status')" done
is "slow: the volume was measured" "$(d slow '.steps[] |
    select(.step == "disks") | .status')" done
is "slow: the lower ceiling is the disks'" "$(d slow .ceilings.lower)" disks
within "slow: the disks' ceiling is the throttle" \
    "$(d slow .ceilings.disks.bytes_per_s)" $((DRATE * 1000000)) 15
is "slow: the sequential read is disk-bound" "$(d slow '[.tests[] |
    select(.op == "read")][0].verdict.class')" disk
check "slow: the budget cut the matrix, and it says so" jq -e '.steps[] |
    select(.step == "matrix") | (.status == "cut" or .status == "skipped")
    and (.why | test("budget"))' "$T_TMP/d.slow"
check "slow: it kept to its budget, give or take a test" jq -e \
    ".seconds < 90 + 30" "$T_TMP/d.slow"
check "slow: what to try next speaks of the disks" jq -e \
    '[.next[] | select(test("disks are the limit"))] | length == 1' \
    "$T_TMP/d.slow"

diagnose fast 45
is "fast: the path's measure is kept" "$(d fast '.steps[] |
    select(.step == "network") | .status + ": " + .why')" \
    "skipped: measured already"
is "fast: its volume was measured" "$(d fast '.steps[] |
    select(.step == "disks") | .status')" done
is "fast: the lower ceiling is the network's" "$(d fast .ceilings.lower)" \
    network
within "fast: the network's ceiling is the link" \
    "$(d fast .ceilings.network.bytes_per_s)" $((RATE * 125000)) 10
is "fast: the sequential read is network-bound on vsrv" "$(d fast '[.tests[] |
    select(.op == "read")][0].verdict | .class + " " + .resource')" \
    "network vsrv"
check "fast: each test gives its share of the lower ceiling" jq -e \
    '[.tests[] | select(.status == "done" and .op != "list") |
    .share_of_lower_pct | numbers] | length >= 2' "$T_TMP/d.fast"

# The page for people, over two protocols side by side, and as HTML.
incli env NASPERF_TOKEN="$NPD_TOKEN" "$NASPERF" -H "$SRV:$NPD_PORT" \
    diagnose --budget 50 --protocols smb3,smb2 --html "$T_TMP/page.html" \
    --credentials "$T_TMP/cred" "smb://$SRV:$SMBPORT/share/fast" \
    >"$T_TMP/page" 2>/dev/null
sed 's/^/#   page: /' "$T_TMP/page"
check "the page gives the ceilings" grep -q '^  network  *[0-9.]* MB/s' \
    "$T_TMP/page"
check "the page names the lower" grep -q 'the lower ceiling is the network' \
    "$T_TMP/page"
for p in smb3 smb2; do
	check "the protocols side by side: $p's read is network-bound" \
	    grep -Eq "^$p +smb://[^ ]+ +[0-9.]+ MB/s network " "$T_TMP/page"
done
check "the HTML page sets them side by side" grep -q \
    'The protocols side by side' "$T_TMP/page.html"

kill -TERM "$NPD_PID"
rc=0
wait "$NPD_PID" || rc=$?
is "nasperfd exits 0" "$rc" 0
done_testing
