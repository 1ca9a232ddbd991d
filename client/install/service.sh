# shellcheck shell=sh disable=SC2154
# service.sh: the body of nasperfd.sh start|stop|restart|status, after
# the lines nasperf install writes above it (BIN, CONF, PIDF, LOG).
# running: 0 when the pid file names a live nasperfd (a pid reused by
# another program, or a zombie, is not it); sets pid.
running() {
	pid=$(cat "$PIDF" 2>/dev/null) || return 1
	case $pid in '' | *[!0-9]*) return 1 ;; esac
	grep -q nasperfd "/proc/$pid/cmdline" 2>/dev/null
}
pause() { sleep 0.2 2>/dev/null || sleep 1; }
case $1 in
start)
	if running; then echo "nasperfd: already running (pid $pid)"; exit 0; fi
	rm -f "$PIDF"
	s=
	if command -v setsid >/dev/null 2>&1; then s=setsid; fi
	# In a session of its own, so the login that started it may end; the
	# shell writes its pid, takes the limits of the systemd unit (open
	# files for api.max_connections and synth.max_streams, no core file
	# holding the tokens, private files), then becomes nasperfd.
	# shellcheck disable=SC2016
	$s sh -c 'echo $$ >"$1" || exit 1; ulimit -n 16384 2>/dev/null
	    ulimit -c 0 2>/dev/null; umask 077; exec "$2" -f -c "$3"' \
	    nasperfd "$PIDF" "$BIN" "$CONF" </dev/null >>"$LOG" 2>&1 &
	i=0
	while [ ! -s "$PIDF" ] && [ $i -lt 25 ]; do pause; i=$((i + 1)); done
	if running; then echo "nasperfd: started (pid $pid)"; exit 0; fi
	echo "nasperfd: did not start; see $LOG"
	exit 1 ;;
stop)
	if ! running; then
		rm -f "$PIDF"
		echo "nasperfd: not running"
		exit 0
	fi
	kill -TERM "$pid"
	i=0
	while running && [ $i -lt 50 ]; do pause; i=$((i + 1)); done
	if running; then kill -KILL "$pid"; fi
	rm -f "$PIDF"
	echo "nasperfd: stopped (pid $pid)" ;;
restart)
	sh "$0" stop
	exec sh "$0" start ;;
status)
	if running; then echo "nasperfd: running (pid $pid)"; exit 0; fi
	echo "nasperfd: not running"
	exit 3 ;;
*)
	echo "usage: $0 start|stop|restart|status" >&2
	exit 2 ;;
esac
