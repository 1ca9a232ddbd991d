#!/bin/bash
# nasperf install and uninstall against a real OpenSSH server.  sshd runs
# in a network namespace of its own ("the NAS", 10.93.0.1, port 2222) with
# host keys, sshd_config and authorized_keys in the test's directory, keys
# only; nasperf runs in a second namespace ("the client") joined to it by a
# veth pair.  The NAS's files go under a temporary root: the prefix is
# $T_TMP/root/opt/nasperf and the state directory below it, so nothing of
# the machine is touched.
#
# The round trip: install detects x86_64 and Debian, starts nasperfd in
# the NAS's namespace as a plain background process (systemd is not PID 1
# here) and prints a token that works from the client; a second install
# replaces the daemon and keeps the token; uninstall stops it and removes
# the whole root; a second uninstall has nothing to do.  Errors: a wrong
# key, an address nobody has, a port sshd does not listen on, an unknown
# architecture (a key whose sessions see a uname that says mips), no
# binary for the architecture.  Vendor detection runs over marker files
# under NASPERF_DETECT_ROOT: a bare synoinfo.conf, a bare getcfg, and the
# fixture boxes.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd ip ssh ssh-keygen jq curl
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || skip_all "$SSHD is not installed (openssh-server)"
[ "$(uname -m)" = x86_64 ] || skip_all "the binaries here are not x86_64"
NS_S=npins-nas-$$ NS_C=npins-cli-$$
SRV=10.93.0.1 CLI=10.93.0.2 SPORT=2222

ip netns add "$NS_S" || skip_all "cannot make a network namespace"
at_exit "ip netns del $NS_S"
ip netns add "$NS_C" || skip_all "cannot make a network namespace"
at_exit "ip netns del $NS_C"
ip link add vnas netns "$NS_S" type veth peer name vcli netns "$NS_C" ||
    skip_all "cannot make a veth pair"
ip -n "$NS_S" addr add "$SRV/24" dev vnas
ip -n "$NS_C" addr add "$CLI/24" dev vcli
for n in "$NS_S:vnas" "$NS_C:vcli"; do
	ip -n "${n%%:*}" link set lo up
	ip -n "${n%%:*}" link set "${n#*:}" up
done

# sshd's privilege separation directory, which its package makes at boot.
if [ ! -d /run/sshd ]; then
	mkdir -m 755 /run/sshd
	at_exit "rmdir /run/sshd"
fi

K=$T_TMP/keys
mkdir -m 700 "$K"
for k in host id wrong mips; do
	ssh-keygen -q -t ed25519 -N '' -C "nasperf-test-$k" -f "$K/$k"
done
# Sessions of the mips key find a uname that says mips first.
mkdir "$T_TMP/fakebin"
cat >"$T_TMP/fakebin/uname" <<'EOF'
#!/bin/sh
if [ "$1" = -m ]; then echo mips; else exec /bin/uname "$@"; fi
EOF
chmod 755 "$T_TMP/fakebin/uname"
{
	cat "$K/id.pub"
	echo "environment=\"PATH=$T_TMP/fakebin:/usr/bin:/bin\" $(cat "$K/mips.pub")"
} >"$K/authorized_keys"
cat >"$T_TMP/sshd_config" <<EOF
ListenAddress $SRV:$SPORT
HostKey $K/host
PidFile $T_TMP/sshd.pid
AuthorizedKeysFile $K/authorized_keys
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
PermitUserEnvironment PATH
# The keys live under /tmp, which is world-writable.
StrictModes no
UsePAM no
LogLevel VERBOSE
EOF
ip netns exec "$NS_S" timeout 600 "$SSHD" -D -e -f "$T_TMP/sshd_config" \
    >"$T_TMP/sshd.log" 2>&1 &
sshd_pid=$!
at_exit "kill $sshd_pid; wait $sshd_pid"
for ((i = 0; i < 50; i++)); do
	ip netns exec "$NS_S" ss -ltn 2>/dev/null | grep -q "$SRV:$SPORT " &&
	    break
	sleep 0.1
done
if ! ip netns exec "$NS_S" ss -ltn | grep -q "$SRV:$SPORT "; then
	sed 's/^/# /' "$T_TMP/sshd.log"
	echo "Bail out! sshd did not start"
	exit 1
fi
ok "sshd listens on $SRV port $SPORT in the NAS's namespace"

echo "[$SRV]:$SPORT $(cat "$K/host.pub")" >"$K/known_hosts"
cat >"$T_TMP/ssh_config" <<EOF
UserKnownHostsFile $K/known_hosts
StrictHostKeyChecking yes
IdentitiesOnly yes
EOF

# The daemon to copy: make static's, else the build's own (same machine).
if [ -x "$NP_BUILDDIR/static/x86_64/nasperfd" ]; then
	BINS=$NP_BUILDDIR/static
else
	BINS=$T_TMP/bins
	mkdir -p "$BINS/x86_64"
	ln -s "$NASPERFD" "$BINS/x86_64/nasperfd"
fi
echo "# binaries from $BINS"

ROOT=$T_TMP/root
PFX=$ROOT/opt/nasperf
# np ARGS...: nasperf in the client's namespace, no terminal; its output
# in $T_TMP/out and $T_TMP/err, its status in rc.
np() {
	rc=0
	ip netns exec "$NS_C" "$NASPERF" "$@" </dev/null >"$T_TMP/out" \
	    2>"$T_TMP/err" || rc=$?
}
SSHOPTS=(-F "$T_TMP/ssh_config" -i "$K/id" -p "$SPORT")
# diag: what the last nasperf printed, for a failure's report.
diag() {
	sed 's/^/out: /' "$T_TMP/out"
	sed 's/^/err: /' "$T_TMP/err"
}
# nothing_left DESC: no process of ours in the client's namespace (no
# ssh control master outlives a command).
nothing_left() {
	local p
	p=$(ip netns pids "$NS_C")
	if [ -z "$p" ]; then ok "$1: no process left in the client's namespace"
	else not_ok "$1: no process left" "$(ps -o pid,args -p "$p")"; fi
}

# --- dry run: detection, and nothing written ------------------------------
np --json install -n "${SSHOPTS[@]}" --prefix "$PFX" --binaries "$BINS" \
    "root@$SRV"
is "install --dry-run exits 0" "$rc" 0
is "detected: arch, vendor, init" \
    "$(jq -r '[.arch, .uname, .vendor, .init, .dry_run] | join(" ")' \
    "$T_TMP/out" 2>/dev/null)" "x86_64 x86_64 debian plain true"
if [ ! -e "$ROOT" ]; then ok "the dry run wrote nothing"
else not_ok "the dry run wrote nothing" "$(find "$ROOT")"; fi
nothing_left "dry run"

# --- install --------------------------------------------------------------
np install "${SSHOPTS[@]}" --prefix "$PFX" --binaries "$BINS" "root@$SRV"
is "install exits 0" "$rc" 0
if grep -q "^root@$SRV: x86_64 (uname -m x86_64), vendor Debian" \
    "$T_TMP/out"; then ok "install says x86_64 and Debian"
else not_ok "install says x86_64 and Debian" "$(diag)"; fi
at_exit "kill \$(cat $PFX/var/nasperfd.pid)"
TOKEN=$(sed -n 's/^token: \([0-9a-f]*\)$/\1/p' "$T_TMP/out")
is "the printed token is the daemon's" "$TOKEN" \
    "$(cat "$PFX/var/token" 2>/dev/null)"
if grep -qx "next:  NASPERF_TOKEN=$TOKEN nasperf -H $SRV:9631 info" \
    "$T_TMP/out"; then ok "install prints the -H line to use next"
else not_ok "install prints the -H line to use next" "$(diag)"; fi
pid=$(cat "$PFX/var/nasperfd.pid" 2>/dev/null)
if [ -n "$pid" ] && grep -q nasperfd "/proc/$pid/cmdline" 2>/dev/null &&
    [ "$(readlink "/proc/$pid/ns/net")" = \
    "$(readlink "/proc/$sshd_pid/ns/net")" ]; then
	ok "nasperfd (pid $pid) runs in the NAS's namespace"
else
	not_ok "nasperfd runs in the NAS's namespace" "pid '$pid'" "$(diag)"
fi
grep -q '^init=plain$' "$PFX/.nasperf-install" 2>/dev/null
check "the manifest records the plain start" test $? -eq 0
grep -q 'listen: "0.0.0.0:9631"' "$PFX/etc/nasperfd.yaml" 2>/dev/null
check "the configuration listens on every address" test $? -eq 0
nothing_left "install"

# The token works from the client; without it the daemon refuses.
np -H "$SRV:9631" --json info
is "without the token: refused" "$rc" 1
ip netns exec "$NS_C" env NASPERF_TOKEN="$TOKEN" "$NASPERF" -H "$SRV:9631" \
    --json info >"$T_TMP/info.json" 2>"$T_TMP/err"
is "with the printed token: nasperf info from the client works" "$?" 0
is "... and the daemon answers with its version" \
    "$(jq -r .version "$T_TMP/info.json" 2>/dev/null)" \
    "$("$NASPERFD" -V | sed 's/^nasperfd //')"
code=$(ip netns exec "$NS_C" curl -sS -o /dev/null -w '%{http_code}' \
    -H "Authorization: Bearer $TOKEN" "http://$SRV:9631/v1/counters")
is "with the token: GET /v1/counters from the client is 200" "$code" 200

# Again over it: a new daemon, the same token and state.
np --json install "${SSHOPTS[@]}" --prefix "$PFX" --binaries "$BINS" \
    "root@$SRV"
is "a second install exits 0" "$rc" 0
pid2=$(jq -r .pid "$T_TMP/out" 2>/dev/null)
is "... keeps the token" "$(jq -r .token "$T_TMP/out" 2>/dev/null)" "$TOKEN"
if [ -n "$pid2" ] && [ "$pid2" != "$pid" ] &&
    ! grep -q nasperfd "/proc/$pid/cmdline" 2>/dev/null &&
    grep -q nasperfd "/proc/$pid2/cmdline" 2>/dev/null; then
	ok "... and replaces the daemon (pid $pid, now $pid2)"
else
	not_ok "... and replaces the daemon" "pid $pid, now '$pid2'" "$(diag)"
fi

# --- uninstall ------------------------------------------------------------
np uninstall -n "${SSHOPTS[@]}" --prefix "$PFX" "root@$SRV"
is "uninstall --dry-run exits 0" "$rc" 0
if grep -q nasperfd "/proc/$pid2/cmdline" 2>/dev/null &&
    [ -f "$PFX/bin/nasperfd" ]; then ok "... and changes nothing"
else not_ok "... and changes nothing" "$(diag)"; fi

np uninstall "${SSHOPTS[@]}" --prefix "$PFX" "root@$SRV"
is "uninstall exits 0" "$rc" 0
if grep -q "nasperfd stopped (pid $pid2)" "$T_TMP/out"; then
	ok "uninstall says it stopped pid $pid2"
else
	not_ok "uninstall says it stopped pid $pid2" "$(diag)"
fi
if ! grep -q nasperfd "/proc/$pid2/cmdline" 2>/dev/null; then
	ok "the daemon is gone"
else
	not_ok "the daemon is gone" "$(ps -o pid,stat,args -p "$pid2")"
fi
if [ ! -e "$ROOT" ]; then
	ok "every file, the state and the directories install made are gone"
else
	not_ok "everything install wrote is gone" "$(find "$ROOT")" "$(diag)"
fi
grep -q "removed $PFX/bin/nasperfd" "$T_TMP/out"
check "uninstall lists what it removed" test $? -eq 0
nothing_left "uninstall"

np uninstall "${SSHOPTS[@]}" --prefix "$PFX" "root@$SRV"
is "a second uninstall exits 0" "$rc" 0
grep -q "nothing to do: no nasperf install at $PFX" "$T_TMP/out"
check "... and has nothing to do" test $? -eq 0

# --- errors ---------------------------------------------------------------
# expect_err DESC PATTERN ARGS...: nasperf ARGS fails with status 1 and
# a message matching PATTERN, and writes nothing.
expect_err() {
	local desc=$1 pat=$2
	shift 2
	np "$@"
	if [ "$rc" -eq 1 ] && grep -Eq "$pat" "$T_TMP/err" &&
	    [ ! -e "$ROOT" ]; then
		ok "$desc: $(head -n 1 "$T_TMP/err")"
	else
		not_ok "$desc" "status $rc, want 1; pattern $pat" "$(diag)"
	fi
}
expect_err "a wrong key" "^nasperf install: root@$SRV: authentication failed \(Perm" \
    install -F "$T_TMP/ssh_config" -i "$K/wrong" -p "$SPORT" \
    --prefix "$PFX" --binaries "$BINS" "root@$SRV"
expect_err "an address nobody has" \
    "^nasperf install: 10\.93\.0\.77 is unreachable: .*(No route to host|timed out)" \
    -T 5 install "${SSHOPTS[@]}" --prefix "$PFX" --binaries "$BINS" \
    root@10.93.0.77
expect_err "a port without sshd" \
    "^nasperf install: $SRV port 2223: connection refused" \
    install -F "$T_TMP/ssh_config" -i "$K/id" -p 2223 --prefix "$PFX" \
    --binaries "$BINS" "root@$SRV"
expect_err "an unknown architecture" \
    "unknown architecture: uname -m says 'mips'" \
    install -F "$T_TMP/ssh_config" -i "$K/mips" -p "$SPORT" \
    --prefix "$PFX" --binaries "$BINS" "root@$SRV"
mkdir "$T_TMP/nobins"
expect_err "no binary for the architecture" \
    "no nasperfd for x86_64 .*: $T_TMP/nobins/x86_64/nasperfd: No such file" \
    install "${SSHOPTS[@]}" --prefix "$PFX" --binaries "$T_TMP/nobins" \
    "root@$SRV"
np install "${SSHOPTS[@]}" --prefix relative/path "root@$SRV"
is "a relative prefix is a usage error" "$rc" 2
nothing_left "errors"

# --- vendor detection over marker files -----------------------------------
# detect ROOT: install --dry-run --json with detection under ROOT; prints
# "vendor init model".
detect() {
	NASPERF_DETECT_ROOT=$1 np --json install -n "${SSHOPTS[@]}" \
	    --prefix "$PFX" --binaries "$BINS" "root@$SRV"
	jq -r '[.vendor, .init, (.model // "-")] | join(" ")' "$T_TMP/out" \
	    2>/dev/null
}
M=$T_TMP/markers
mkdir -p "$M/syno/etc" "$M/qnap/sbin" "$M/none"
echo 'upnpmodelname="DS218j"' >"$M/syno/etc/synoinfo.conf"
printf '#!/bin/sh\n' >"$M/qnap/sbin/getcfg"
chmod 755 "$M/qnap/sbin/getcfg"
is "a bare etc/synoinfo.conf: Synology, DSM's rc.d" "$(detect "$M/syno")" \
    "synology synology-rc.d DS218j"
is "a bare sbin/getcfg: QNAP, QTS's qpkg.conf" "$(detect "$M/qnap")" \
    "qnap qnap-qpkg -"
is "no marker: other Linux, plain" "$(detect "$M/none")" "other plain -"
NASPERF_DETECT_ROOT=$M/qnap np install -n "${SSHOPTS[@]}" --prefix "$PFX" \
    --binaries "$BINS" "root@$SRV"
grep -q "add    \[nasperfd\] to /etc/config/qpkg.conf" "$T_TMP/out" &&
    grep -q "^note: QTS keeps / in RAM" "$T_TMP/out"
check "the QNAP plan registers in qpkg.conf and warns about the RAM disk" \
    test $? -eq 0
if [ -d "${NP_FIXTURES:-}/dsm7-4.4-x86_64" ]; then
	is "fixture dsm7-4.4-x86_64" "$(detect "$NP_FIXTURES/dsm7-4.4-x86_64")" \
	    "synology synology-rc.d DS1821+"
	is "fixture qts5-5.10-x86_64" \
	    "$(detect "$NP_FIXTURES/qts5-5.10-x86_64")" \
	    "qnap qnap-qpkg TVS-872X"
	is "fixture readynas6-4.4-armhf" \
	    "$(detect "$NP_FIXTURES/readynas6-4.4-armhf")" "readynas plain -"
	is "fixture debian12-6.1-btrfs" \
	    "$(detect "$NP_FIXTURES/debian12-6.1-btrfs")" "debian plain -"
else
	skip "fixture boxes: NP_FIXTURES has none (make check unpacks them)"
fi
if [ ! -e "$ROOT" ]; then ok "detection wrote nothing"
else not_ok "detection wrote nothing" "$(find "$ROOT")"; fi
nothing_left "detection"

done_testing
