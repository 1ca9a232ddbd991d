#!/bin/sh
# nasperfd-ctl: start, stop and report the nasperf daemon of a NAS package
# (Synology .spk, QNAP .qpkg).  Installed as bin/nasperfd-ctl; written for
# the BusyBox ash of DSM and QTS.
#
# usage: nasperfd-ctl init|start|stop|restart|status
#
# Environment:
#   NASPERF_HOME  the package directory: bin/nasperfd, etc/nasperfd.yaml
#                 (default: the parent of this script's directory)
#   NASPERF_VAR   the state directory, kept across upgrades and removed
#                 with the package: nasperfd.yaml (the configuration in
#                 use, a copy of etc/nasperfd.yaml at first), state/ (API
#                 token, results), nasperfd.pid, nasperfd.log
#                 (default: NASPERF_HOME/var)
#   NASPERFD_CONF the configuration in use (default: NASPERF_VAR/nasperfd.yaml)
#   NASPERFD_STATE
#                 the daemon's state directory (default: NASPERF_VAR/state;
#                 empty: the configuration's state_dir)
#
# nasperf install writes this script as PREFIX/nasperfd.sh, with the three
# variables set above it for the layout it makes.
#
# Exit status: 0 on success; status exits 0 when running, 3 when not (as
# init scripts and DSM's start-stop-status do); 1 on failure.

set -u

HOME_DIR=${NASPERF_HOME:-$(cd "$(dirname "$0")/.." && pwd)}
VAR_DIR=${NASPERF_VAR:-$HOME_DIR/var}
DAEMON=$HOME_DIR/bin/nasperfd
CONF=${NASPERFD_CONF:-$VAR_DIR/nasperfd.yaml}
STATE=${NASPERFD_STATE-$VAR_DIR/state}
PIDFILE=$VAR_DIR/nasperfd.pid
LOG=$VAR_DIR/nasperfd.log
LOG_MAX=1048576

PID=

# The pid of a running nasperfd from the pid file, in PID; false when none.
# /proc/PID/cmdline is readable by every user, so this also sees a daemon
# started by root while the caller is the package user.
running() {
	PID=
	[ -r "$PIDFILE" ] || return 1
	PID=$(cat "$PIDFILE" 2>/dev/null)
	case $PID in
	'' | *[!0-9]*) PID=; return 1 ;;
	esac
	[ -r "/proc/$PID/cmdline" ] || return 1
	tr '\000' ' ' <"/proc/$PID/cmdline" 2>/dev/null | grep -q nasperfd
}

# Sleep a fifth of a second where sleep takes fractions, else a second.
nap() {
	sleep 0.2 2>/dev/null || sleep 1
}

# Create the state directory and the configuration in use from the
# packaged default; an existing configuration (edited by the user, or kept
# by an upgrade) is left alone.
init() {
	mkdir -p "$VAR_DIR" || return 1
	chmod 700 "$VAR_DIR" 2>/dev/null
	if [ ! -f "$CONF" ]; then
		cp "$HOME_DIR/etc/nasperfd.yaml" "$CONF.tmp" &&
		    mv "$CONF.tmp" "$CONF" || return 1
	fi
	return 0
}

# The limits the daemon starts under, in its own subshell: open files for
# every connection that api.max_connections and synth.max_streams allow,
# as the systemd unit's LimitNOFILE (as root the hard limit rises too; as
# the package user nasperfd raises its soft limit to the hard one itself
# and warns if that is too low), no core files (they would hold the API
# tokens), and files private to the daemon's user.  BusyBox ash, dash and
# bash all take ulimit -n and -c.
# shellcheck disable=SC3045
limits() {
	ulimit -n 16384 2>/dev/null
	ulimit -c 0 2>/dev/null
	umask 077
}

start() {
	if running; then
		echo "nasperfd is already running (pid $PID)"
		return 0
	fi
	init || { echo "nasperfd: cannot create $VAR_DIR" >&2; return 1; }
	if [ -n "$STATE" ] && [ -f "$STATE/token" ] &&
	    [ ! -r "$STATE/token" ]; then
		echo "nasperfd: $STATE belongs to another user (a daemon that" \
		    "ran as root?); run '$0 stop' as root to hand it back" >&2
		return 1
	fi
	# Keep the log small: one previous generation.
	if [ -f "$LOG" ] && [ "$(wc -c <"$LOG")" -gt "$LOG_MAX" ]; then
		mv -f "$LOG" "$LOG.old"
	fi
	lines=0
	[ -f "$LOG" ] && lines=$(wc -l <"$LOG")
	# In a session of its own where setsid is, so that the login that
	# started it (nasperf install's ssh) may end.  setsid may fork: the
	# shell that becomes nasperfd writes its own pid.
	s=
	command -v setsid >/dev/null 2>&1 && s=setsid
	if [ -n "$STATE" ]; then
		set -- -f -c "$CONF" -s "$STATE"
	else
		set -- -f -c "$CONF"
	fi
	rm -f "$PIDFILE"
	# shellcheck disable=SC2016 # $$ is the inner shell's
	(limits; exec $s sh -c 'echo $$ >"$0" && exec "$@"' "$PIDFILE" \
	    "$DAEMON" "$@") </dev/null >>"$LOG" 2>&1 &
	i=0
	while [ ! -s "$PIDFILE" ] && [ "$i" -lt 25 ]; do
		nap
		i=$((i + 1))
	done
	PID=$(cat "$PIDFILE" 2>/dev/null)
	case $PID in
	'' | *[!0-9]*)
		echo "nasperfd did not start; see $LOG" >&2
		return 1 ;;
	esac
	# nasperfd logs "nasperfd VERSION: root ..., state ..." once its
	# listeners are up; a bad configuration ends it at once.
	i=0
	while [ "$i" -lt 100 ]; do
		if ! kill -0 "$PID" 2>/dev/null; then
			rm -f "$PIDFILE"
			echo "nasperfd exited at start-up; see $LOG:" >&2
			tail -n +"$((lines + 1))" "$LOG" | tail -n 5 >&2
			return 1
		fi
		if tail -n +"$((lines + 1))" "$LOG" |
		    grep -q '^nasperfd: nasperfd .*: root .*, state '; then
			echo "nasperfd started (pid $PID)"
			return 0
		fi
		nap
		i=$((i + 1))
	done
	echo "nasperfd started (pid $PID) but has not said it is ready;" \
	    "see $LOG" >&2
	return 0
}

stop() {
	if ! running; then
		rm -f "$PIDFILE" 2>/dev/null
		echo "nasperfd is not running"
		return 0
	fi
	if ! kill -TERM "$PID" 2>/dev/null; then
		echo "nasperfd (pid $PID) runs as another user (started as" \
		    "root?); stop it as that user: $0 stop" >&2
		return 1
	fi
	i=0
	while [ -d "/proc/$PID" ] && [ "$i" -lt 50 ]; do
		nap
		i=$((i + 1))
	done
	if [ -d "/proc/$PID" ]; then
		kill -KILL "$PID" 2>/dev/null
		echo "nasperfd did not stop in 10 s: killed" >&2
	fi
	rm -f "$PIDFILE"
	# A daemon started by root (Task Scheduler, SSH) wrote its files as
	# root: give them back to the owner of the state directory, so that
	# the package can start it again as its own user.
	if [ "$(id -u)" -eq 0 ]; then
		owner=$(stat -c %u:%g "$VAR_DIR" 2>/dev/null)
		[ -n "$owner" ] && [ "$owner" != 0:0 ] &&
		    chown -R "$owner" "$VAR_DIR"
	fi
	echo "nasperfd stopped (pid $PID)"
	return 0
}

case ${1:-} in
init)
	init ;;
start)
	start ;;
stop)
	stop ;;
restart)
	stop && start ;;
status)
	if running; then
		echo "nasperfd is running (pid $PID)"
		exit 0
	fi
	echo "nasperfd is not running"
	exit 3 ;;
*)
	echo "usage: $0 init|start|stop|restart|status" >&2
	exit 1 ;;
esac
