# lib.sh: shared by the integration tests (bash).  Each test sources it,
# starts what it needs, and registers
# cleanups with at_exit so that a failed run leaves the machine clean, and
# ends with done_testing, which prints the plan.
#
# Environment (set by make check): NP_BUILDDIR, NP_SRCDIR, NP_FIXTURES.

set -u

NP_BUILDDIR=${NP_BUILDDIR:-$(pwd)}
NP_SRCDIR=${NP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
NASPERFD=$NP_BUILDDIR/daemon/nasperfd
NASPERF=$NP_BUILDDIR/client/nasperf
T_N=0
T_FAILED=0
T_CLEANUPS=()
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nasperf-test.XXXXXX")

# Run every registered cleanup, last registered first, then remove T_TMP.
t_cleanup() {
	local i
	for ((i = ${#T_CLEANUPS[@]} - 1; i >= 0; i--)); do
		eval "${T_CLEANUPS[i]}" >/dev/null 2>&1 || true
	done
	# NP_KEEP=1 keeps the test's files to look at after a failure.
	if [ -n "${NP_KEEP:-}" ]; then
		echo "# kept $T_TMP"
	else
		rm -rf "$T_TMP"
	fi
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM HUP

# make check runs several tests at once (scripts/test.sh: -j3).  Each test
# holds a shared lock on NP_TEST_LOCK for its life; a test whose checks
# need the machine to itself (what it asserts is CPU time, the page cache
# that another test would drop, or a RAM loop device's rate, which is CPU
# too) calls alone, which makes the lock exclusive.  The locks are held by
# a coprocess, so that no descriptor of them is inherited by what the test
# starts (a server's open files are what a run's path reports), and
# disowned, so that a bare wait does not wait for it; it lets them go when
# the test's end closes its input.  The test's second run in
# a namespace (lan_enter) takes none.  A lock not had in 20 minutes (a
# stray process of an earlier test holding it) is let go with a comment:
# the test runs anyway.
NP_TEST_LOCK=${NP_TEST_LOCK:-${TMPDIR:-/tmp}/nasperf-tests.lock}
# t_lock s|x|one NAME: ask the coprocess for a lock, and wait for it.
t_lock() {
	local got=
	[ -n "${T_LOCKER_PID:-}" ] || return 0
	echo "$1 ${2:-}" 1>&"${T_LOCKER[1]}" 2>/dev/null &&
	    read -r got <&"${T_LOCKER[0]}"
	[ "$got" = ok ] ||
	    echo "# no lock ($1 ${2:-}) on $NP_TEST_LOCK in 20 minutes: going on"
}
if [ -z "${T_LOCK_HELD:-}" ] && command -v flock >/dev/null &&
    { [ -e "$NP_TEST_LOCK" ] || : >>"$NP_TEST_LOCK"; } 2>/dev/null; then
	coproc T_LOCKER {
		exec bash -c 'exec 3<"$1" || exit 1
		while read -r how name; do
			case $how in
			s | x) flock -w 1200 "-$how" 3 ;;
			one) { [ -e "$1.$name" ] || : >>"$1.$name"; } &&
			    exec 4<"$1.$name" && flock -w 1200 -x 4 ;;
			esac && echo ok || echo no
		done' locker "$NP_TEST_LOCK" 2>/dev/null
	}
	# Not a job of the test's: a bare wait does not wait for it.
	disown "$T_LOCKER_PID"
	export T_LOCK_HELD=1
	# A test that says alone asks for the machine at once: made
	# exclusive only later, a shared lock would wait for whatever other
	# test took one meanwhile.
	if grep -q '^alone ' "$0" 2>/dev/null; then
		t_lock x
	else
		t_lock s
	fi
fi

# alone WHY: this test runs with no other test beside it (see above).
alone() {
	echo "# alone: $1"
	t_lock x
}

# one_at_a_time NAME: of the tests that say NAME, one runs at a time (the
# NFS tests: rpcbind's socket and files are in /run, whatever the network
# namespace, and ganesha keeps its state in /var/lib/nfs).  One NAME a test.
one_at_a_time() {
	t_lock one "$1"
}

# retry CMD...: run CMD until it succeeds, for up to 5 s (a loop device
# detaches, and releases the file it holds, only after its last user).
retry() {
	local i
	for ((i = 0; i < 25; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.2
	done
	"$@"
}

# at_exit CMD: run CMD (a string) when the test exits, however it exits.
at_exit() {
	T_CLEANUPS+=("$1")
}

# loop_at_exit DEV: detach loop device DEV when the test exits, while the
# file it holds now still backs it: tests run side by side, and once DEV
# is free (detached by the test itself, or when its last user closed it)
# another test may attach its own file to the same number.
loop_at_exit() {
	local f
	f=$(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null) ||
	    f=
	at_exit "loop_detach $1 '$f'"
}

# loop_detach DEV FILE: detach DEV while FILE backs it (FILE empty: while
# anything does), trying for up to 5 s (it detaches only after its last
# user).
loop_detach() {
	local i b
	for ((i = 0; i < 25; i++)); do
		b=$(cat "/sys/block/${1#/dev/}/loop/backing_file" \
		    2>/dev/null) || return 0
		[ -z "$2" ] || [ "${b% (deleted)}" = "$2" ] || return 0
		losetup -d "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	losetup -d "$1"
}

# ram_dir: make a directory in /dev/shm, removed when the test exits, as
# T_RAM (not in a $(...), where at_exit would be lost).  Loop devices backed by files in it read and write at memory
# speed, so a throttle set on them is the only limit, whatever the
# machine's own disk is doing; falls back to T_TMP without a /dev/shm.
ram_dir() {
	if [ -d /dev/shm ] &&
	    T_RAM=$(mktemp -d /dev/shm/nasperf-test.XXXXXX); then
		at_exit "rm -rf $T_RAM"
	else
		T_RAM=$T_TMP
	fi
}

# skip_all REASON: the whole test cannot run here.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# need_root: integration tests that touch devices need root.
need_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (loop devices, cgroups)"
}

# need_cmd CMD...: skip when a tool is missing.
need_cmd() {
	local c
	for c; do
		command -v "$c" >/dev/null 2>&1 || skip_all "$c is not installed"
	done
}

ok() {
	T_N=$((T_N + 1))
	echo "ok $T_N - $1"
}

not_ok() {
	T_N=$((T_N + 1))
	T_FAILED=$((T_FAILED + 1))
	echo "not ok $T_N - $1"
	shift
	local l
	for l; do
		echo "#   $l"
	done
}

skip() {
	T_N=$((T_N + 1))
	echo "ok $T_N # SKIP $1"
}

# check DESC CMD...: ok when CMD succeeds (its output is not TAP: it is
# dropped); returns CMD's success, so "check ... || show more" works.
check() {
	local desc=$1
	shift
	if "$@" >/dev/null; then
		ok "$desc"
	else
		not_ok "$desc" "failed: $*"
		return 1
	fi
}

# is DESC GOT WANT: string equality; returns whether they were equal, so
# "is ... || show more" works.
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "got '$2'" "want '$3'"
		return 1
	fi
}

# free_port: a TCP port nothing listens on, below the ephemeral range.
free_port() {
	local p lo=32768
	# Below the kernel's ephemeral range, where no client's connection
	# can take the port between this choice and the bind.
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null
	[ "${lo:-0}" -gt 12000 ] || lo=32768
	while :; do
		p=$((10000 + RANDOM % (lo - 10000)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}

# silent_port: start a loopback listener that never answers a connection
# (its backlog of one is taken at once, so the kernel drops every further
# SYN, as a host behind a dropping firewall would); sets SILENT_PORT.  It
# goes away when the test ends.  The client's connect then times out.  (Not
# for $(...): the listener would not outlive the subshell.)
silent_port() {
	local f=$T_TMP/silent.$RANDOM
	perl -MSocket -e '
	    socket(my $l, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	    bind($l, pack_sockaddr_in(0, inet_aton("127.0.0.1")))
	        or die "bind: $!";
	    listen($l, 0) or die "listen: $!";
	    my ($port) = unpack_sockaddr_in(getsockname($l));
	    socket(my $c, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	    connect($c, pack_sockaddr_in($port, inet_aton("127.0.0.1")))
	        or die "connect: $!";
	    open(my $o, ">", $ARGV[0]) or die "$ARGV[0]: $!";
	    print $o "$port\n";
	    close($o);
	    sleep 300;' "$f.tmp" </dev/null >/dev/null &
	at_exit "kill $!"
	for ((i = 0; i < 50; i++)); do
		[ -s "$f.tmp" ] && break
		sleep 0.1
	done
	SILENT_PORT=$(cat "$f.tmp")
}

# PERL_CONNECT: Perl (with -MSocket) defining np_connect(SRC, PORT): a TCP
# socket from the loopback address SRC connected to 127.0.0.1:PORT, or
# death.  Loopback addresses are all local, so a test can be several
# clients: perl -MSocket -e "$PERL_CONNECT ...".
# shellcheck disable=SC2016 # Perl's variables
PERL_CONNECT='
	sub np_connect {
	    my ($src, $port) = @_;
	    socket(my $c, PF_INET, SOCK_STREAM, 0) or die "socket: $!";
	    bind($c, pack_sockaddr_in(0, inet_aton($src))) or die "bind: $!";
	    connect($c, pack_sockaddr_in($port, inet_aton("127.0.0.1")))
	        or die "connect: $!";
	    return $c;
	}'

# bg_ready FILE CMD...: run CMD in the background, stopped when the test
# exits, and wait up to 5 s for it to write FILE (removed first); its pid
# in BG_PID.  False when FILE did not come.
bg_ready() {
	local f=$1 i
	shift
	rm -f "$f"
	"$@" &
	BG_PID=$!
	at_exit "kill $BG_PID"
	for ((i = 0; i < 100; i++)); do
		[ -s "$f" ] && return 0
		sleep 0.05
	done
	return 1
}

# daemon_sockets: how many sockets nasperfd ($NPD_PID) has open.  Other
# descriptors come and go on their own (the pipe of an smbstatus child,
# polled every few seconds), and are not what a client holds.
daemon_sockets() {
	find "/proc/$NPD_PID/fd" -mindepth 1 -lname 'socket:*' 2>/dev/null |
	    wc -l
}

# start_daemon [ARGS...]: start nasperfd on a free loopback port with a
# temporary state directory; sets NPD_PID, NPD_PORT, NPD_STATE, NPD_URL,
# NPD_TOKEN and NPD_LOG.  Waits for /healthz.
start_daemon() {
	local i try
	# A port free a moment ago may since be a client's local port (the
	# probe range meets the ephemeral one): pick another and start again.
	for ((try = 0; try < 5; try++)); do
		NPD_PORT=$(free_port)
		NPD_STATE=$T_TMP/state.$NPD_PORT
		NPD_LOG=$T_TMP/nasperfd.$NPD_PORT.log
		"$NASPERFD" -f -d -l "127.0.0.1:$NPD_PORT" -s "$NPD_STATE" "$@" \
		    >"$NPD_LOG" 2>&1 &
		NPD_PID=$!
		NPD_URL=http://127.0.0.1:$NPD_PORT
		for ((i = 0; i < 100; i++)); do
			if curl -fsS -o /dev/null "$NPD_URL/healthz" 2>/dev/null
			then
				at_exit "kill -TERM $NPD_PID; wait $NPD_PID"
				NPD_TOKEN=$(cat "$NPD_STATE/token")
				return 0
			fi
			kill -0 "$NPD_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -0 "$NPD_PID" 2>/dev/null && break
		wait "$NPD_PID" 2>/dev/null
		grep -q 'Address already in use' "$NPD_LOG" || break
	done
	at_exit "kill -TERM $NPD_PID; wait $NPD_PID"
	echo "# nasperfd did not start:"
	sed 's/^/#   /' "$NPD_LOG"
	return 1
}

# tls_daemon STATE API_YAML SYNTH_YAML: nasperfd with api.tls on two free
# loopback ports, PORT (the API) and SPORT (the data plane), API_YAML and
# SYNTH_YAML added to those sections, its state in STATE (0700, made when
# missing) and its log appended to $T_TMP/tls.log; waits for /healthz over
# TLS and for the data port.  A port free a moment ago may since be a
# client's local port: then it starts again on others.  Sets NPD_PID.
tls_daemon() {
	local i try
	mkdir -p -m 700 "$1"
	for ((try = 0; try < 5; try++)); do
		PORT=$(free_port)
		SPORT=$(free_port)
		[ "$SPORT" != "$PORT" ] || continue
		printf 'api:\n  listen: 127.0.0.1:%d\n  tls: true\n%ssynth:\n  listen: 127.0.0.1:%d\n%s' \
		    "$PORT" "$2" "$SPORT" "$3" >"$T_TMP/tls.yaml"
		"$NASPERFD" -f -d -c "$T_TMP/tls.yaml" -s "$1" \
		    >>"$T_TMP/tls.log" 2>&1 &
		NPD_PID=$!
		at_exit "kill $NPD_PID 2>/dev/null"
		for ((i = 0; i < 100; i++)); do
			if curl -fsk -o /dev/null \
			    "https://127.0.0.1:$PORT/healthz" &&
			    grep -q "synth: listening on 127.0.0.1:$SPORT" \
			    "$T_TMP/tls.log"; then
				return 0
			fi
			kill -0 "$NPD_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$NPD_PID" 2>/dev/null
		wait "$NPD_PID" 2>/dev/null
		grep -q "already in use" "$T_TMP/tls.log" || break
	done
	sed 's/^/# /' "$T_TMP/tls.log"
	return 1
}

# wait_healthz PORT: wait up to 10 s for a daemon on 127.0.0.1:PORT to
# answer /healthz (one started by hand, not by start_daemon).
wait_healthz() {
	local i
	for ((i = 0; i < 100; i++)); do
		curl -fs -o /dev/null "http://127.0.0.1:$1/healthz" && return 0
		sleep 0.1
	done
	return 1
}

# stop_daemon: SIGTERM and wait; sets NPD_RC to the exit status.
stop_daemon() {
	kill -TERM "$NPD_PID" 2>/dev/null
	NPD_RC=0
	wait "$NPD_PID" || NPD_RC=$?
}

# api PATH [CURL ARGS...]: GET with the token; body on stdout.
api() {
	local p=$1
	shift
	curl -sS -H "Authorization: Bearer $NPD_TOKEN" "$@" "$NPD_URL$p"
}

# status PATH [CURL ARGS...]: the HTTP status of a request.
status() {
	local p=$1
	shift
	curl -sS -o /dev/null -w '%{http_code}' "$@" "$NPD_URL$p"
}

# wait_end ID: poll disk test ID until it is over; its document in
# $T_TMP/res, read with res FILTER.
wait_end() {
	local i st
	for ((i = 0; i < 300; i++)); do
		api "/v1/disktests/$1" >"$T_TMP/res"
		st=$(jq -r .state "$T_TMP/res")
		[ "$st" = running ] || [ "$st" = checking ] || return 0
		sleep 0.2
	done
	return 1
}
res() {
	jq -r "$1" "$T_TMP/res"
}

# client ARGS...: the nasperf client against the test daemon.
client() {
	NASPERF_TOKEN=$NPD_TOKEN "$NASPERF" -H "127.0.0.1:$NPD_PORT" "$@"
}

# io_cgroup TAG: make a child block-I/O cgroup of our own, removed on
# exit: cgroup v1 (blkio.throttle.*) where blkio is a v1 hierarchy, else
# v2 (io.max).  Sets CGV (1 or 2), CGROOT and CG; skips the test when
# neither controller can be had.  Rules are only ever set on CG.
io_cgroup() {
	if [ -d /sys/fs/cgroup/blkio ]; then
		CGV=1 CGROOT=/sys/fs/cgroup/blkio
	elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		CGV=2 CGROOT=/sys/fs/cgroup
		grep -qw io /sys/fs/cgroup/cgroup.subtree_control ||
		    echo +io >/sys/fs/cgroup/cgroup.subtree_control ||
		    skip_all "cannot enable the io controller"
	else
		skip_all "no blkio (v1) or io (v2) cgroup controller"
	fi
	CG=$CGROOT/nasperf-$1-$$
	mkdir "$CG" || skip_all "cannot make $CG"
	at_exit "rmdir $CG"
}

# limit KIND DEV VALUE: a rule of CG; KIND is read_bps, write_bps,
# read_iops or write_iops, DEV major:minor; VALUE 0 removes the rule.
limit() {
	local key
	if [ "$CGV" = 1 ]; then
		echo "$2 $3" >"$CG/blkio.throttle.$1_device"
	else
		case $1 in
		read_bps) key=rbps ;; write_bps) key=wbps ;;
		read_iops) key=riops ;; write_iops) key=wiops ;;
		esac
		[ "$3" = 0 ] && set -- "$1" "$2" max
		echo "$2 $key=$3" >"$CG/io.max"
	fi
}

# throttle KIND DEV VALUE: set a rule and undo it on exit.
throttle() {
	limit "$@"
	at_exit "limit $1 $2 0"
}

# within DESC GOT WANT PCT [DIAG...]: |GOT - WANT| <= PCT % of WANT; an
# empty or null GOT fails.  DIAG lines are shown on failure.
within() {
	local desc=$1 got=$2 want=$3 pct=$4
	shift 4
	if awk -v g="${got:-x}" -v w="$want" -v p="$pct" 'BEGIN {
	    if (g == "x" || g == "null") exit 1; d = g - w; if (d < 0) d = -d
	    exit !(d <= w * p / 100) }'; then
		ok "$desc: $got (want $want +- $pct %)"
	else
		not_ok "$desc" "got '$got', want $want +- $pct %" "$@"
	fi
}

# done_testing: print the plan (TAP allows it last); non-zero on a failure.
done_testing() {
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}

# stop_testing WHY: a step the rest of the test needs failed (its not ok
# is printed already): say so, end the plan with the checks made so far
# and exit, failed, rather than run checks that can only fail after it
# or print any after the plan.
stop_testing() {
	echo "# the rest is not run: $1"
	done_testing
	exit 1
}

# smbd_conf SHARE_PATH [INTERFACE]: write a private smb.conf for a real
# smbd on a free port of INTERFACE (lo by default), sharing SHARE_PATH as
# [share]: S (its directory), SPORT, and $S/smb.conf, which the caller may
# add to before smbd_start; SMB_GLOBAL, when set, holds more lines of its
# [global] section.
smbd_conf() {
	S=$T_TMP/smb
	mkdir -p "$S"/{private,lock,state,cache,pid,ncalrpc,log}
	SPORT=$(free_port)
	cat >"$S/smb.conf" <<CONF
[global]
  workgroup = LAB
  server role = standalone server
  smb ports = $SPORT
  interfaces = ${2:-lo}
  bind interfaces only = yes
  disable netbios = yes
  private dir = $S/private
  lock directory = $S/lock
  state directory = $S/state
  cache directory = $S/cache
  pid directory = $S/pid
  ncalrpc dir = $S/ncalrpc
  log file = $S/log/log.%m
  passdb backend = tdbsam
  map to guest = Bad User
  load printers = no
  printing = bsd
  printcap name = /dev/null
  disable spoolss = yes
  server signing = auto
  server min protocol = SMB2_10
${SMB_GLOBAL:-}
[share]
  path = $1
  read only = no
  force user = root
CONF
}

# smbd_start: a Samba user SMB_USER (password nasPass1, credentials file
# $T_TMP/cred), then smbd on $S/smb.conf, pid SMBD, stopped on exit; it is
# up when SMB_ADDR (127.0.0.1 by default) answers on SPORT, which it must
# within 30 s.
smbd_start() {
	local i
	SMB_USER=npsmb$$
	useradd -M -s /usr/sbin/nologin "$SMB_USER" ||
	    skip_all "cannot add a user"
	at_exit "userdel $SMB_USER"
	(echo nasPass1; echo nasPass1) |
	    smbpasswd -c "$S/smb.conf" -s -a "$SMB_USER" >/dev/null
	# The parent smbd sends SIGTERM to its whole process group as it
	# exits (atexit, kill(0, ...)): setsid gives it a group of its own,
	# so that the signal reaches its children and not this script or make.
	setsid smbd --foreground --no-process-group --debug-stdout -d "${SMBD_DEBUG:-1}" \
	    -s "$S/smb.conf" >"$S/smbd.out" 2>&1 &
	SMBD=$!
	sleep 0.2
	[ "$(cat "/proc/$SMBD/comm" 2>/dev/null)" = smbd ] ||
	    { echo "Bail out! smbd did not start as pid $SMBD"; exit 1; }
	at_exit "kill -TERM $SMBD; wait $SMBD"
	for ((i = 0; i < 300; i++)); do
		(exec 3<>"/dev/tcp/${SMB_ADDR:-127.0.0.1}/$SPORT") 2>/dev/null &&
		    break
		sleep 0.1
	done
	if [ "$i" -eq 300 ]; then
		echo "# smbd does not answer on ${SMB_ADDR:-127.0.0.1} port $SPORT:"
		tail -20 "$S/smbd.out" | sed 's/^/#   /'
		echo "Bail out! smbd did not listen"
		exit 1
	fi
	printf 'username = %s\npassword = nasPass1\n' "$SMB_USER" \
	    >"$T_TMP/cred"
	chmod 600 "$T_TMP/cred"
}

# smbd_daemon [SECS]: the test daemon, reading $S/smb.conf and listing
# smbd's sessions every SECS seconds (1).
smbd_daemon() {
	cat >"$T_TMP/npd.yaml" <<CONF
samba:
  config: $S/smb.conf
  sessions_interval: ${1:-1}
CONF
	start_daemon -c "$T_TMP/npd.yaml" ||
	    { echo "Bail out! nasperfd did not start"; exit 1; }
}

# lan_enter NET RATE: "the LAN": two network namespaces joined by a veth
# pair, the server's end vsrv (SRV=10.NET.0.1) and the client's vcli
# (CLI=10.NET.0.2), each end shaped to RATE Mbit/s with tbf and without
# GSO (tbf counts each segment's headers, the NIC counters a GSO packet's
# once: without GSO both count the wire).  Run first, it makes them, runs
# this script again inside the server's namespace and exits with its
# status; run there, it sets NS_S and NS_C.  Whatever the script drew at
# random must come from NP_SEED, exported, so that both runs draw alike.
lan_enter() {
	local n rc=0
	SRV=10.$1.0.1 CLI=10.$1.0.2
	if [ -n "${NP_LAN_NS:-}" ]; then
		NS_S=${NP_LAN_NS%,*} NS_C=${NP_LAN_NS#*,}
		return 0
	fi
	NS_S=nplan-s-$$ NS_C=nplan-c-$$
	ip netns add "$NS_S" || skip_all "cannot make a network namespace"
	at_exit "ip netns del $NS_S"
	ip netns add "$NS_C" || skip_all "cannot make a network namespace"
	at_exit "ip netns del $NS_C"
	# Made inside the namespaces: no name is ever taken in ours.
	ip link add vsrv netns "$NS_S" type veth peer name vcli \
	    netns "$NS_C" || skip_all "cannot make a veth pair"
	ip -n "$NS_S" addr add "$SRV/24" dev vsrv
	ip -n "$NS_C" addr add "$CLI/24" dev vcli
	for n in "$NS_S:vsrv" "$NS_C:vcli"; do
		ip -n "${n%%:*}" link set lo up
		ip -n "${n%%:*}" link set "${n#*:}" gso_max_segs 1 2>/dev/null
		ip -n "${n%%:*}" link set "${n#*:}" up
		ip netns exec "${n%%:*}" tc qdisc add dev "${n#*:}" root tbf \
		    rate "$2mbit" burst 64kb latency 50ms ||
		    skip_all "cannot shape ${n#*:} with tbf"
	done
	NP_LAN_NS=$NS_S,$NS_C ip netns exec "$NS_S" "$BASH" "$0" || rc=$?
	exit "$rc"
}

# lan_daemon [YAML]: nasperfd in the server's namespace on every address,
# its data plane on SPORT, vsrv configured as RATE Mbit/s (veth says
# 10000), and YAML added to its configuration; NPD_PID, NPD_PORT,
# NPD_TOKEN, NPD_STATE and NPD_LOG as start_daemon sets them.
lan_daemon() {
	local i
	NPD_PORT=$(free_port)
	SPORT=$(free_port)
	NPD_STATE=$T_TMP/state
	NPD_LOG=$T_TMP/nasperfd.log
	printf 'interfaces:\n  vsrv:\n    speed_mbps: %d\nsynth:\n  listen: 0.0.0.0:%d\n%s' \
	    "$RATE" "$SPORT" "${1:-}" >"$T_TMP/c.yaml"
	"$NASPERFD" -f -d -c "$T_TMP/c.yaml" -l "0.0.0.0:$NPD_PORT" \
	    -s "$NPD_STATE" >"$NPD_LOG" 2>&1 &
	NPD_PID=$!
	at_exit "kill -TERM $NPD_PID; wait $NPD_PID"
	for ((i = 0; i < 100; i++)); do
		curl -fsS -o /dev/null "http://127.0.0.1:$NPD_PORT/healthz" \
		    2>/dev/null && break
		sleep 0.1
	done
	[ -s "$NPD_STATE/token" ] || { sed 's/^/# /' "$NPD_LOG";
	    echo "Bail out! nasperfd did not start"; exit 1; }
	NPD_TOKEN=$(cat "$NPD_STATE/token")
	NPD_URL=http://127.0.0.1:$NPD_PORT
}

# lan_smbd SHARE_PATH [YAML]: in the server's namespace of the LAN, a real
# smbd on vsrv sharing SHARE_PATH (SMBPORT its port), then lan_daemon
# reading its smb.conf and listing its sessions every second, with YAML
# added to its configuration.
lan_smbd() {
	smbd_conf "$1" vsrv
	SMB_ADDR=$SRV smbd_start
	SMBPORT=$SPORT		# lan_daemon's SPORT is the data port
	lan_daemon "samba:
  config: $S/smb.conf
  sessions_interval: 1
${2:-}"
}

# rpcbind_start [CMD...]: rpcbind for NFSv3, run through CMD when given
# ("ip netns exec NS"), stopped on exit with the files it leaves in /run.
rpcbind_start() {
	"$@" rpcbind -f -w &
	RPCB=$!
	at_exit "kill -TERM $RPCB; wait $RPCB; rm -f /run/rpcbind.sock /run/rpcbind/portmap.xdr /run/rpcbind/rpcbind.xdr"
	sleep 0.5
}

# ganesha_start ADDR [CMD...]: ganesha.nfsd on $G/ganesha.conf (its log,
# pid file and standard streams in $G: a server's streams are not a
# transfer's data), run through CMD when given ("ip netns exec NS"), as
# GPID, stopped on exit; it bails out unless ganesha answers on ADDR port
# 2049 within 30 s.
ganesha_start() {
	local addr=$1 i
	shift
	"$@" ganesha.nfsd -F -L "$G/ganesha.log" -f "$G/ganesha.conf" \
	    -p "$G/ganesha.pid" -N NIV_EVENT >"$G/ganesha.out" 2>&1 </dev/null &
	GPID=$!
	at_exit "kill -TERM $GPID; wait $GPID"
	for ((i = 0; i < 150; i++)); do
		(exec 3<>"/dev/tcp/$addr/2049") 2>/dev/null && return 0
		kill -0 "$GPID" 2>/dev/null || break
		sleep 0.2
	done
	sed 's/^/# /' "$G/ganesha.log" | tail -20
	echo "Bail out! ganesha.nfsd did not start"
	exit 1
}

# incli CMD...: run in the client's namespace.
incli() {
	ip netns exec "$NS_C" "$@"
}

# ram_loop VAR SIZE: a loop device (O_DIRECT) over SIZE bytes in T_RAM
# (ram_dir makes it when missing), detached on exit; its path goes to VAR.
ram_loop() {
	local l
	[ -n "${T_RAM:-}" ] || ram_dir
	truncate -s "$2" "$T_RAM/$1.img"
	l=$(losetup -f --show --direct-io=on "$T_RAM/$1.img") ||
	    skip_all "no loop device"
	loop_at_exit "$l"
	printf -v "$1" '%s' "$l"
}

# disk_neighbour DEV: read DEV flat out with O_DIRECT until the test ends,
# as pid NEIGHBOUR: a disk busy off the path.
disk_neighbour() {
	(while :; do dd if="$1" of=/dev/null bs=1M iflag=direct status=none
	done) &
	NEIGHBOUR=$!
	at_exit "kill $NEIGHBOUR 2>/dev/null"
}

# disk_scenario NAME DIR: the disk-bound scenario of the path tests.  Draws
# SEED (NP_SEED repeats it), RATE (15 to 40 MB/s) and SECS (3 to 5); makes
# an io cgroup (io_cgroup NAME), two RAM loop devices VOL and NB (VOLN,
# NBN their names), ext4 on VOL mounted on $T_TMP/vol with a directory
# DIR in it holding "big", RATE x SECS MiB of random data, and VOL's reads
# held to RATE MB/s for the cgroup.
disk_scenario() {
	SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
	RANDOM=$SEED
	RATE=$((15 + RANDOM % 26))
	SECS=$((3 + RANDOM % 3))
	echo "# seed $SEED (NP_SEED=$SEED repeats this run): $RATE MB/s, ${SECS} s"
	io_cgroup "$1"
	ram_loop VOL 300M
	ram_loop NB 300M
	VOLN=$(basename "$VOL") NBN=$(basename "$NB")
	# Initialised now, not by ext4lazyinit in the background: the disk
	# analyzer refuses a disk busy with other I/O.
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$VOL" ||
	    skip_all "mkfs.ext4 failed"
	mkdir "$T_TMP/vol"
	mount "$VOL" "$T_TMP/vol" || skip_all "cannot mount ext4"
	at_exit "retry umount $T_TMP/vol"
	mkdir -m 777 "$T_TMP/vol/$2"
	head -c $((RATE * SECS))M /dev/urandom >"$T_TMP/vol/$2/big"
	sync
	throttle read_bps "$(cat "/sys/block/$VOLN/dev")" $((RATE * 1000000))
}

# disk_scenario_ready DIR: with the daemon started in the scenario's
# cgroup, VOL measured by the disk analyzer at its throttle (the
# baseline), NB read flat out by a neighbour (NEIGHBOUR), and DIR/big
# out of the page cache: ready for the read.
disk_scenario_ready() {
	local base
	client disktest -k seq -S 2 -s 32M -z 32M "$VOLN" >"$T_TMP/dt" 2>&1
	base=$(api /v1/disktests/1 | jq -r ".disks[] |
	    select(.name == \"$VOLN\") | .zones.outer.bytes_per_s")
	echo "# baseline of $VOLN: $base bytes/s"
	disk_neighbour "$NB"
	sleep 1
	dd if="$T_TMP/vol/$1/big" iflag=nocache count=0 status=none
}

# need_page: skip unless the page's browser test can run: node, Debian's
# Chromium and playwright-core from web/node_modules.  Sets CHROMIUM,
# PLAYWRIGHT and SEED (printed; NP_SEED repeats a run).
need_page() {
	need_cmd node
	CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	    skip_all "chromium is not installed"
	PLAYWRIGHT=$NP_SRCDIR/web/node_modules/playwright-core/index.mjs
	[ -r "$PLAYWRIGHT" ] ||
	    skip_all "web/node_modules is not installed (npm ci --prefix web)"
	SEED=${NP_SEED:-$(od -An -tu4 -N4 /dev/urandom | tr -d ' ')}
	echo "# seed $SEED (NP_SEED=$SEED repeats this run)"
}

# page_daemon [YAML]: start_daemon with the synthetic data plane on a free
# port of its own (NASPERF_SYNTH_PORT), for the page's synth download, and
# YAML (more top-level keys) in its configuration.
page_daemon() {
	SPORT=$(free_port)
	printf 'synth:\n  listen: 127.0.0.1:%s\n%s\n' "$SPORT" "${1:-}" \
	    >"$T_TMP/page.yaml"
	export NASPERF_SYNTH_PORT=$SPORT
	start_daemon -c "$T_TMP/page.yaml" ||
	    { echo "Bail out! nasperfd did not start"; exit 1; }
}

# page_test URL SHOTS [SCRIPT]: SCRIPT (web-page.mjs) in Chromium against
# the page at URL (ending in /), its checks numbered here; screenshots into
# SHOTS.
page_test() {
	local ncpu script=${3:-web-page.mjs}
	rm -rf "$2"
	mkdir -p "$2"
	ncpu=$(api /v1/info | jq -r .cpu.logical_cpus)
	URL=$1 TOKEN=$NPD_TOKEN TOKEN_READ=$(cat "$NPD_STATE/token.read") \
	    NASPERF=$NASPERF API=127.0.0.1:$NPD_PORT \
	    SHOTS=$2 SEED=$SEED PLAYWRIGHT=$PLAYWRIGHT CHROMIUM=$CHROMIUM \
	    NCPU=$ncpu timeout 300 node \
	    "$NP_SRCDIR/tests/integration/$script" >"$T_TMP/page.out" 2>&1
	page_checks "$T_TMP/page.out"
	echo "# screenshots in $2"
}

# page_checks FILE: a browser test's "ok - " and "not ok - " lines in FILE
# as this test's checks, the rest as comments.
page_checks() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*) echo "# $line" ;;
		esac
	done <"$1"
	check "the browser test printed its checks" grep -q '^ok - ' "$1"
}
