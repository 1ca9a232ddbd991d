#!/bin/bash
# The verdict names a CPU bottleneck for real: a busy process of a
# configured group (npburn, a copy of yes) held at 20 % of a core by its
# cgroup's CFS quota is "cpu" and named with its pid and group.  Then the
# same process uncapped and pinned to the last core: that core full while
# the others are idler is "cpu" on one core, naming npburn and the core;
# that part needs the other cores idle, so it is asserted only when the
# report shows they were.
#
# cgroup v1 (cpu.cfs_quota_us) where cpu is a v1 hierarchy, else v2
# (cpu.max).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq

if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
	CGV=1 CGROOT=/sys/fs/cgroup/cpu
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
	CGV=2 CGROOT=/sys/fs/cgroup
	grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
	    echo +cpu >/sys/fs/cgroup/cgroup.subtree_control ||
	    skip_all "cannot enable the cpu controller"
else
	skip_all "no cpu cgroup controller (v1 or v2)"
fi
CG=$CGROOT/nasperf-t82-$$
mkdir "$CG" || skip_all "cannot make $CG"
# Whatever is still in it goes back to the root first.
at_exit "for p in \$(cat $CG/cgroup.procs); do
	echo \$p >$CGROOT/cgroup.procs; done; retry rmdir $CG"
if [ "$CGV" = 1 ]; then
	echo 100000 >"$CG/cpu.cfs_period_us"
	echo 20000 >"$CG/cpu.cfs_quota_us"
else
	echo "20000 100000" >"$CG/cpu.max"
fi

# Giving process_groups replaces the defaults: keep them and add burn.
cat >"$T_TMP/c.yaml" <<'EOF'
process_groups:
  smb: [smbd, nmbd, samba-dcerpcd, "rpcd_*", winbindd]
  ksmbd: ["ksmbd*"]
  nfs: [nfsd, ganesha.nfsd, rpc.mountd, lockd]
  afp: [afpd, cnid_metad, cnid_dbd]
  iscsi: [tgtd, "iscsi_*", "target_*"]
  ftp: [proftpd, vsftpd]
  rsync: [rsync]
  nasperfd: [nasperfd]
  burn: [npburn]
EOF
start_daemon -c "$T_TMP/c.yaml" || { echo "Bail out! nasperfd did not start"; exit 1; }

. "$(dirname "$0")/verdict-lib.sh"

cp /usr/bin/yes "$T_TMP/npburn"
"$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn"

# A 4 s run while npburn spins.
spin() {
	sleep 1
	run_open "{\"label\":\"$1\",\"protocol\":\"other\",\"op\":\"read\"}"
	sleep 4
	run_close '{}'
}
capped() { spin capped; }
uncapped() { spin "one core"; }

# Capped: 20 % of a core.
echo "$burn" >"$CG/cgroup.procs"
measure capped cpu "npburn pid $burn (group burn)"
is "a process capped by its CPU quota: class" "$(vget .verdict.class)" cpu
is "the resource names the process and its group" \
    "$(vget .verdict.resource)" "npburn pid $burn (group burn)"
q=$(vget '.evidence[] | select(.metric == "throttled") | .detail')
echo "# $q"
case $q in
*"quota of 0.20 cores"*) ok "the evidence gives the quota of 0.20 cores" ;;
*) not_ok "the evidence gives the quota of 0.20 cores" "got '$q'" ;;
esac
api "/v1/runs/$RUN/report?format=text" >"$T_TMP/text"
check "the text report says cpu: npburn pid $burn" \
    grep -q "^verdict  cpu: npburn pid $burn (group burn)\$" "$T_TMP/text"

# Uncapped and pinned to the last core: that core full while the others
# are idler.  The premise needs the machine's other cores below half busy
# (QUIET_CPU leaves room for npburn's own core); when they were not, the
# verdict may rightly name them, and the resource is only reported.
LAST=$(($(nproc) - 1))
echo "$burn" >"$CGROOT/cgroup.procs"
if [ "$LAST" -gt 0 ] && taskset -pc "$LAST" "$burn" >/dev/null 2>&1; then
	QUIET_CPU=$(((100 + 50 * LAST) / (LAST + 1)))
	measure uncapped cpu "npburn pid $burn on cpu$LAST"
	is "a process alone on one core: class" "$(vget .verdict.class)" cpu
	others=$(vget '.evidence[] | select(.metric == "core busy") |
	    .detail | capture("other [0-9]+ cores (?<o>[0-9]+) %").o')
	res=$(vget .verdict.resource)
	if [ "${others:-100}" -lt 50 ]; then
		is "the resource names npburn and its core (others $others %)" \
		    "$res" "npburn pid $burn on cpu$LAST"
		case $(vget .verdict.summary) in
		"cpu-bound on one core: "*) ok "the summary says one core" ;;
		*) not_ok "the summary says one core" ;;
		esac
	else
		skip "the other cores were ${others:-?} % busy: '$res'"
		skip "the other cores were busy: no single-core case"
	fi
else
	skip "one core only, or no taskset: no single-core case"
	skip "no single-core case"
	skip "no single-core case"
fi
kill "$burn"
wait "$burn" 2>/dev/null

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
