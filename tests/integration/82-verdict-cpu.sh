#!/bin/bash
# CPU verdicts judge the transfer's own path, on a box that is busy with
# other work.  Each scenario is a real nasperf synth download over
# loopback, whose serving process is nasperfd itself, with a neighbour that
# is not on the path (npburn, a copy of yes, spinning a whole core), and
# is asserted on its first attempt.  Parameters are drawn at random each
# run; the seed is printed and NP_SEED=N repeats a run.
#
#   quota       nasperfd in a cgroup with a CPU quota of Q cores, npburn
#               spinning beside it: "cpu", naming nasperfd's pid and its
#               quota, never npburn or its core; the rate is not kept as
#               the path's capacity, and the log says why.
#   contention  nasperfd pinned to one core with npburn at a higher
#               priority (nice N) on the same core, the client on another:
#               "contention", naming nasperfd and npburn by pid.
#
# cgroup v1 (cpu.cfs_quota_us) where cpu is a v1 hierarchy, else v2
# (cpu.max).
. "$(dirname "$0")/lib.sh"
need_root
alone "its verdicts are CPU time, which another test would take"
need_cmd curl jq taskset
[ "$(nproc)" -ge 2 ] || skip_all "one CPU: no core to keep the client off"

SEED=${NP_SEED:-$((($$ + $(date +%s)) % 32768))}
RANDOM=$SEED
echo "# seed $SEED (NP_SEED=$SEED repeats this run)"
QUOTA=$((10 + RANDOM % 31))		# 0.10 to 0.40 cores, in hundredths
NICE=$((-5 - RANDOM % 11))		# -5 to -15
NCPU=$(nproc)
CORE=$((RANDOM % NCPU))			# where the contention happens
CCORE=$(((CORE + 1 + RANDOM % (NCPU - 1)) % NCPU))	# the client's
SECS=$((2 + RANDOM % 3))		# each download's seconds
echo "# quota 0.$(printf %02d $QUOTA) cores, nice $NICE, nasperfd on" \
    "cpu$CORE, client on cpu$CCORE, ${SECS} s each"

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
	echo "${QUOTA}000" >"$CG/cpu.cfs_quota_us"
else
	echo "${QUOTA}000 100000" >"$CG/cpu.max"
fi

SPORT=$(free_port)
printf 'synth:\n  listen: 127.0.0.1:%d\n' "$SPORT" >"$T_TMP/c.yaml"
start_daemon -c "$T_TMP/c.yaml" ||
    { echo "Bail out! nasperfd did not start"; exit 1; }

cp /usr/bin/yes "$T_TMP/npburn"

# download NAME: a synth download of SECS seconds by the client pinned to
# CCORE; its JSON goes to $T_TMP/NAME.json, the verdict to V*.
download() {
	NASPERF_TOKEN=$NPD_TOKEN taskset -c "$CCORE" "$NASPERF" \
	    -H "127.0.0.1:$NPD_PORT" --json synth --time "$SECS" \
	    >"$T_TMP/$1.json" 2>"$T_TMP/$1.err"
	VCLASS=$(jq -r '.download.report.verdict.class' "$T_TMP/$1.json")
	VRES=$(jq -r '.download.report.verdict.resource' "$T_TMP/$1.json")
	VSUM=$(jq -r '.download.report.verdict.summary' "$T_TMP/$1.json")
	echo "# $1: $(jq -r '.download.bytes_per_second / 1e6 |
	    floor' "$T_TMP/$1.json") MB/s"
	echo "# $1: $VCLASS: $VRES: $VSUM"
	jq -r '.download.report.path.summary,
	    (.download.report.observations[].text)' "$T_TMP/$1.json" |
	    sed "s/^/# $1: /"
}

# -- quota: nasperfd held by its cgroup's quota, npburn spinning beside
"$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn 2>/dev/null"
echo "$NPD_PID" >"$CG/cgroup.procs"
download quota
is "quota: class" "$VCLASS" cpu
is "quota: the resource is nasperfd's pid" "$VRES" "nasperfd pid $NPD_PID"
case $VSUM in
*"held by its cgroup's CPU quota (0.$(printf %02d $QUOTA) cores)"*)
	ok "quota: the summary gives the quota of 0.$(printf %02d $QUOTA) cores" ;;
*)	not_ok "quota: the summary gives the quota" "got '$VSUM'" ;;
esac
check "quota: npburn is not the verdict" test "${VRES#npburn}" = "$VRES"
check "quota: the path's process has its cgroup" \
    jq -e ".download.report.path.processes[] | select(.pid == $NPD_PID) |
    .cgroup.quota_cores > 0" "$T_TMP/quota.json"
check "quota: the rate is not kept as the path's capacity" \
    sh -c "! jq -e '.paths[] | select(.client == \"127.0.0.1\" and
    .direction == \"download\")' '$NPD_STATE/paths.json' 2>/dev/null"
check "quota: the log says why" grep -q \
    "synth: 127.0.0.1 download: .* is not kept as the path's capacity: nasperfd's cgroup was throttled by its CPU quota" \
    "$NPD_LOG"
echo "$NPD_PID" >"$CGROOT/cgroup.procs"
kill "$burn"
wait "$burn" 2>/dev/null

# -- contention: npburn at a higher priority on nasperfd's core
taskset -c "$CORE" nice -n "$NICE" "$T_TMP/npburn" >/dev/null &
burn=$!
at_exit "kill $burn 2>/dev/null"
taskset -apc "$CORE" "$NPD_PID" >/dev/null
download contention
is "contention: class" "$VCLASS" contention
is "contention: the resource is nasperfd's pid" "$VRES" \
    "nasperfd pid $NPD_PID"
case $VSUM in
*"npburn pid $burn used "*) ok "contention: the summary names npburn pid $burn" ;;
*)	not_ok "contention: the summary names npburn pid $burn" "got '$VSUM'" ;;
esac
check "contention: nasperfd waited for a CPU" \
    jq -e ".download.report.path.processes[] | select(.pid == $NPD_PID) |
    .cpu_wait_pct >= 30" "$T_TMP/contention.json"
kill "$burn"
wait "$burn" 2>/dev/null

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
