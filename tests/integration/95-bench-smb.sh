#!/bin/bash
# nasperf bench over SMB through libsmbclient against a real smbd (Samba)
# on loopback, sharing a directory on an ext4 volume on a loop device:
#  - the --quick matrix completes, checked byte for byte, with positive
#    figures and the daemon's verdict for every test, its repeat test at
#    8 MiB a request;
#  - with smbd held to 5 % of a core by a CPU quota, the sequential test
#    with signing off and with signing required, in the same test; the
#    signed run's verdict names smbd's CPU; the same read noticed with no
#    run; and nasperf diagnose of the share, signing, with smbd held to a
#    quota drawn at random: its read is smbd's CPU and signing took the
#    rest of the lower ceiling;
#  - a wrong password, a missing share, a closed port, an address that
#    does not answer and a password on the command line fail clearly.
. "$(dirname "$0")/lib.sh"
need_root
alone "its verdicts are smbd's CPU time, which another test would take"
need_cmd smbd smbpasswd losetup mkfs.ext4 mount umount curl jq
"$NASPERF" --help | grep -q '^  bench' || skip_all "nasperf has no bench"
"$NASPERF" bench --quick smb://127.0.0.1:1/x 2>&1 |
    grep -q 'built without libsmbclient' &&
    skip_all "nasperf was built without libsmbclient"

truncate -s 600M "$T_TMP/vol.img"
L=$(losetup -f --show --direct-io=on "$T_TMP/vol.img") || skip_all "no loop device"
loop_at_exit "$L"
mkfs.ext4 -q -F "$L"
mkdir "$T_TMP/vol"
mount "$L" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"
mkdir -m 777 "$T_TMP/vol/share"

# smbd on a free loopback port, in a private directory of its own.
smbd_conf "$T_TMP/vol/share"
echo "  include = $S/extra.conf" >>"$S/smb.conf"
# An included file, as vendors split their smb.conf: one more share, with
# encryption required.
mkdir -p "$T_TMP/vol/extra"
cat >"$S/extra.conf" <<CONF
[extra]
  path = $T_TMP/vol/extra
  read only = yes
  smb encrypt = required
CONF
smbd_start
U=$SMB_USER
URL=smb://127.0.0.1:$SPORT/share

# nasperfd reads this smb.conf and lists smbd's sessions every second.
smbd_daemon

# -- the server's settings, from the real smb.conf
api /v1/topology >"$T_TMP/topo.json"
is "topology: smb.conf is the configured one" \
    "$(jq -r .protocols.smb.source "$T_TMP/topo.json")" "$S/smb.conf"
is "topology: server signing" \
    "$(jq -r .protocols.smb.server_signing "$T_TMP/topo.json")" auto
is "topology: server min protocol" \
    "$(jq -r .protocols.smb.server_min_protocol "$T_TMP/topo.json")" SMB2_10
is "topology: the share and its path" \
    "$(jq -r '.protocols.smb.shares[] | select(.name == "share") | .path' \
    "$T_TMP/topo.json")" "$T_TMP/vol/share"
is "topology: the included share, read-only, encryption required" \
    "$(jq -r '.protocols.smb.shares[] | select(.name == "extra") |
    "\(.path) \(.read_only) \(.smb_encrypt)"' "$T_TMP/topo.json")" \
    "$T_TMP/vol/extra true required"
is "topology: smbd's own reading agrees (testparm)" \
    "$(testparm -s --section-name extra --parameter-name 'smb encrypt' \
    "$S/smb.conf" 2>/dev/null | tr '[:upper:]' '[:lower:]')" required
# A session held open by smbclient, as smbstatus lists it.
if command -v smbclient >/dev/null; then
	dd if=/dev/zero of="$T_TMP/vol/share/hold" bs=1M count=64 2>/dev/null
	gets=$(for i in $(seq 200); do printf 'get hold /dev/null;'; done)
	smbclient -p "$SPORT" -A "$T_TMP/cred" -m SMB3 //127.0.0.1/share \
	    -c "$gets" >/dev/null 2>&1 &
	HOLD=$!
	for ((i = 0; i < 50; i++)); do
		api /v1/topology >"$T_TMP/topo.json"
		jq -e '.protocols.smb.sessions.sessions | length > 0' \
		    "$T_TMP/topo.json" >/dev/null && break
		sleep 0.2
	done
	spid=$(jq -r '.protocols.smb.sessions.sessions[0].pid' \
	    "$T_TMP/topo.json")
	sppid=$(awk '{print $4}' "/proc/$spid/stat" 2>/dev/null)
	kill "$HOLD" 2>/dev/null
	wait "$HOLD" 2>/dev/null
	rm -f "$T_TMP/vol/share/hold"
	is "sessions: read through smbstatus --json" \
	    "$(jq -r .protocols.smb.sessions.source "$T_TMP/topo.json")" json
	is "sessions: served by a child of our smbd" "$sppid" "$SMBD"
	is "sessions: the client's address" "$(jq -r \
	    '.protocols.smb.sessions.sessions[0].address' "$T_TMP/topo.json")" \
	    127.0.0.1
	check "sessions: an SMB3 dialect" jq -e \
	    '.protocols.smb.sessions.sessions[0].dialect | test("^SMB3")' \
	    "$T_TMP/topo.json"
	check "sessions: the signing state" jq -e \
	    '.protocols.smb.sessions.sessions[0].signing.degree |
	    test("none|partial|full")' "$T_TMP/topo.json"
else
	skip "sessions: smbclient is not installed"
fi

# -- the matrix
out=$T_TMP/bench.json
client -j bench --quick --credentials "$T_TMP/cred" "$URL" >"$out" \
    2>"$T_TMP/bench.err"
rc=$?
is "bench --quick over SMB exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_TMP/bench.err" "$out" | head -40
is "the runs are smb3" "$(jq -r .protocol "$out")" smb3
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
is "nothing is left on the share" \
    "$(ls -A "$T_TMP/vol/share")" ""
check "the server cache was dropped before reads" \
    jq -e '.server_cache | test("dropped before each read")' "$out"
check "the report says its requests are one in flight" \
    jq -e '.requests | test("^requests: one in flight \\(libsmbclient")' \
    "$out"
is "the repeat test goes at 8 MiB a request over SMB" \
    "$(jq '[.rows[] | select(.repeats == 3) | "\(.block_size)/\(.ops)"] |
    join(",")' "$out")" '"8388608/8,8388608/8"'

# -- signing off and required, smbd held to 5 % of a core: signing costs
# it about a tenth of a core per 100 MB/s here, so held, smbd is the bound
# whatever the client (a sanitizer build's too), on the first attempt.
if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	CGROOT=/sys/fs/cgroup/cpu
	CG=$CGROOT/nasperf-t95-$$
	mkdir "$CG"
	echo 100000 >"$CG/cpu.cfs_period_us"
	echo 5000 >"$CG/cpu.cfs_quota_us"
else
	CGROOT=/sys/fs/cgroup
	CG=$CGROOT/nasperf-t95-$$
	grep -qw cpu "$CGROOT/cgroup.subtree_control" ||
	    echo +cpu >"$CGROOT/cgroup.subtree_control"
	mkdir "$CG"
	echo "5000 100000" >"$CG/cpu.max"
fi
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done; retry rmdir $CG"
for p in $SMBD $(pgrep -P "$SMBD"); do
	echo "$p" >"$CG/cgroup.procs"
done

# sign MODE: the sequential test with client signing MODE; its JSON.
sign() {
	client -j bench --quick --tests seq --label "signing $1" \
	    --signing "$1" --credentials "$T_TMP/cred" "$URL" \
	    >"$T_TMP/sign-$1.json" 2>"$T_TMP/sign-$1.err"
}
sign off
sign required
v=$(jq -r '.rows[] | select(.op == "read") |
    "\(.verdict.class) \(.verdict.resource)"' "$T_TMP/sign-required.json")
for m in off required; do
	is "the seq test with signing $m completes" \
	    "$(jq '[.rows[] | select(.status != "done")] | length' \
	    "$T_TMP/sign-$m.json")" 0
	r=$(jq '.rows[] | select(.op == "read") | .bytes_per_second / 1e6 |
	    floor' "$T_TMP/sign-$m.json")
	check "signing $m: read at $r MB/s" test "${r:-0}" -gt 0
done
case $v in
cpu*smbd*) ok "the signed read is CPU-bound on smbd: $v" ;;
*) not_ok "the signed read is CPU-bound on smbd" "got '$v'" ;;
esac
check "the verdict gives smbd's quota" jq -e '.rows[] | select(.op == "read")
    | .verdict | tostring | test("quota|throttled")' "$T_TMP/sign-required.json"
# The signed read's report: tied to its session, with the signing hint.
rid=$(jq -r '.rows[] | select(.op == "read") | .run' "$T_TMP/sign-required.json")
api "/v1/runs/$rid/report" >"$T_TMP/sign-report.json"
is "the signed read is tied to its SMB session" \
    "$(jq -r .session.signing.degree "$T_TMP/sign-report.json")" full
spid=$(jq -r .session.pid "$T_TMP/sign-report.json")
check "the verdict names that smbd" jq -e --arg p "pid $spid" \
    '.verdict.resource | contains($p)' "$T_TMP/sign-report.json"
check "a hint says signing is on, with its cipher" jq -e '.hints[] |
    select(.kind == "smb_signing") | .figure |
    test("signing AES-.* on every packet, SMB3")' "$T_TMP/sign-report.json" ||
    jq -c '.verdict, .hints, .session' "$T_TMP/sign-report.json" | sed 's/^/# /'
check "and what it costs here: the unsigned run beside it" jq -e '.hints[] |
    select(.kind == "smb_signing") | .text | test("without signing moved")' \
    "$T_TMP/sign-report.json"
# The same read with no nasperf at all: smbclient signing every packet,
# noticed as a transfer, gets the same verdict and the same hint.  A copy
# is a transfer once it has gone on for two seconds: 400 MiB last 3.6 s at
# the fastest seen here (115 MB/s), where 200 MiB once took 2.4 (the
# volume holds 600 MB).
head -c 400M /dev/zero >"$T_TMP/vol/share/signed"
curl -sS -o /dev/null -X POST -H "Authorization: Bearer $NPD_TOKEN" \
    "$NPD_URL/v1/cache/drop"
ts=$(date +%s)
smbclient -p "$SPORT" -A "$T_TMP/cred" -m SMB3 --client-protection=sign \
    //127.0.0.1/share -c "get signed /dev/null" >"$T_TMP/sclient.out" 2>&1
# The transfer of this copy: begun since, ended (3 s after its last byte).
# A transfer's start is the reading before its first bytes, up to a tick
# of the watch earlier than them.
sel="[.transfers[] | select(.ended and .op == \"read\" and .start >= $ts - 3)]"
for ((i = 0; i < 40; i++)); do
	api /v1/transfers >"$T_TMP/xf.json"
	jq -e "$sel | length >= 1" "$T_TMP/xf.json" >/dev/null && break
	sleep 0.5
done
xid=$(jq -r "$sel | max_by(.id) | .id" "$T_TMP/xf.json")
[ "$xid" != null ] || {
	echo "# no such transfer; smbclient said:"
	sed 's/^/#   /' "$T_TMP/sclient.out" | tail -5
	echo "# the transfers since $ts:"
	jq -c ".transfers[] | select(.start >= $ts - 10) | [.id, .op, .ended,
	    .start, .end, .bytes]" "$T_TMP/xf.json" | sed 's/^/#   /'
}
api "/v1/transfers/$xid/report" >"$T_TMP/xf-report.json"
echo "# signed transfer $xid: $(jq -c '[.run.bytes, .session.signing]' \
    "$T_TMP/xf-report.json")"
echo "# signed transfer: $(jq -r '.verdict.class + ": " + .verdict.summary' \
    "$T_TMP/xf-report.json")"
is "a signed copy with no run is noticed, CPU-bound on smbd" \
    "$(jq -r '.verdict.class' "$T_TMP/xf-report.json") $(jq -r \
    '.verdict.resource | test("smbd")' "$T_TMP/xf-report.json")" "cpu true"
is "... its session signed every packet" \
    "$(jq -r .session.signing.degree "$T_TMP/xf-report.json")" full
check "... with the signing hint" jq -e '[.hints[] |
    select(.kind == "smb_signing")] | length == 1' "$T_TMP/xf-report.json"
rm -f "$T_TMP/vol/share/signed"

# -- nasperf diagnose of the share, signing every packet, with smbd held to
# a quota drawn at random: the read and the write are smbd's CPU, and what
# took the rest of the write's lower ceiling (the upload this client's
# synthetic test measured; the download over loopback is held by
# nasperfd's own CPU, so no read ceiling is kept) is signing on it, a
# likely cause.
export NP_SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$NP_SEED
Q=$((3 + RANDOM % 6))			# % of a core
echo "# seed $NP_SEED (NP_SEED=$NP_SEED repeats this run): diagnose with" \
    "smbd held to $Q % of a core"
if [ "$CGROOT" = /sys/fs/cgroup/cpu ]; then
	echo "${Q}000" >"$CG/cpu.cfs_quota_us"
else
	echo "${Q}000 100000" >"$CG/cpu.max"
fi
client -j diagnose --budget 60 --signing required --credentials \
    "$T_TMP/cred" "$URL" >"$T_TMP/diag.json" 2>"$T_TMP/diag.err"
is "diagnose signing under a quota exits 0" "$?" 0 ||
    sed 's/^/# /' "$T_TMP/diag.err"
jq -r '.tests[] | "# diagnose \(.test): \(.verdict.class): " +
    "\(.verdict.resource); the rest: \(.rest.text)"' "$T_TMP/diag.json"
for op in read write; do
	check "diagnose: the $op is CPU-bound on smbd" jq -e "[.tests[] |
	    select(.op == \"$op\")][0].verdict | .class == \"cpu\" and
	    (.resource | test(\"smbd\"))" "$T_TMP/diag.json"
done
is "diagnose: the rest of the write's lower ceiling went to signing" \
    "$(jq -r '[.tests[] | select(.op == "write")][0].rest.by' \
    "$T_TMP/diag.json")" smb_signing
check "diagnose: signing is a likely cause" jq -e '[.causes[] |
    select(.kind == "smb_signing")] | length == 1' "$T_TMP/diag.json" ||
    jq -c .causes "$T_TMP/diag.json" | sed 's/^/# /'
for p in $(cat "$CG/cgroup.procs"); do echo "$p" >"$CGROOT/cgroup.procs"; done

# -- errors
printf 'username = %s\npassword = wrong\n' "$U" >"$T_TMP/bad"
client bench --quick --credentials "$T_TMP/bad" "$URL" >/dev/null \
    2>"$T_TMP/err"
is "a wrong password fails" "$?" 1
check "and says access denied" grep -q 'access denied' "$T_TMP/err"
client bench --quick --credentials "$T_TMP/cred" \
    "smb://127.0.0.1:$SPORT/nosuch" >/dev/null 2>"$T_TMP/err"
is "a missing share fails" "$?" 1
check "and says so" grep -q "no such share" "$T_TMP/err" ||
    sed 's/^/# /' "$T_TMP/err"
client bench --quick --credentials "$T_TMP/cred" \
    "smb://127.0.0.1:$(free_port)/share" >/dev/null 2>"$T_TMP/err"
is "a closed port fails" "$?" 1
check "and says so" grep -q 'Connection refused' "$T_TMP/err"
silent_port
NASPERF_TOKEN=$NPD_TOKEN timeout 60 "$NASPERF" -H "127.0.0.1:$NPD_PORT" \
    -T 2 bench --quick --credentials "$T_TMP/cred" \
    "smb://127.0.0.1:$SILENT_PORT/share" >/dev/null 2>"$T_TMP/err"
is "a host that does not answer fails" "$?" 1
check "and names the address and why" grep -q \
    "127.0.0.1 port $SILENT_PORT: no answer in 2 s" "$T_TMP/err" ||
    sed 's/^/# /' "$T_TMP/err"
client bench --quick "smb://$U:nasPass1@127.0.0.1:$SPORT/share" \
    >/dev/null 2>"$T_TMP/err"
is "a password on the command line is refused" "$?" 1
check "and says where to put it" grep -q 'credentials FILE' "$T_TMP/err"
client bench --quick --signing maybe --credentials "$T_TMP/cred" "$URL" \
    >/dev/null 2>"$T_TMP/err"
is "an unknown signing mode fails" "$?" 1
check "smbd is still there" kill -0 "$SMBD"

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
