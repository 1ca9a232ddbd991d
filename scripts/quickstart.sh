#!/bin/sh
# quickstart.sh: build nasperf, start nasperfd on loopback, ask it what it
# sees, and run one benchmark through it for a verdict.  The daemon is left running; the last line says how to stop it.
# Run as root on Debian 12 (it installs what is missing).
set -e
NP_TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$NP_TOP/scripts/deps.sh"
np_install $NP_BUILD_DEPS
np_build "$NP_TOP/_build"

B=$NP_TOP/_build
PIDFILE=/run/nasperfd-quickstart.pid
LOG=/var/log/nasperfd-quickstart.log
STATE=/var/lib/nasperfd
if [ -s "$PIDFILE" ] && kill "$(cat "$PIDFILE")" 2>/dev/null; then
	sleep 1		# an earlier quick start's daemon
fi
nohup "$B/daemon/nasperfd" -f -l 127.0.0.1:9631 -s "$STATE" >"$LOG" 2>&1 &
echo $! >"$PIDFILE"
i=0
until "$B/client/nasperf" --token-file "$STATE/token" info >/dev/null 2>&1; do
	i=$((i + 1))
	if [ "$i" -gt 50 ] || ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
		echo "nasperfd did not start; its log:" >&2
		cat "$LOG" >&2
		exit 1
	fi
	sleep 0.2
done
for cmd in info topology "counters -i 1"; do
	echo
	echo "\$ nasperf $cmd"
	# shellcheck disable=SC2086
	"$B/client/nasperf" --token-file "$STATE/token" $cmd
done
# A run: re-read a file the page cache already holds, and ask why it went
# as fast as it did.
F=$(mktemp /var/tmp/nasperf-quickstart.XXXXXX)
dd if=/dev/urandom of="$F" bs=1M count=128 2>/dev/null
cat "$F" >/dev/null
echo
echo "\$ nasperf run --label 're-read a cached file' --protocol local --op read -- dd if=$F of=/dev/null bs=1M"
"$B/client/nasperf" --token-file "$STATE/token" run --label \
    "re-read a cached file" --protocol local --op read -- \
    dd if="$F" of=/dev/null bs=1M || :
rm -f "$F"
echo
echo "nasperfd is running on 127.0.0.1:9631 (pid $(cat "$PIDFILE"), log $LOG)."
echo "Its page: http://127.0.0.1:9631/ in a browser on this machine, with the"
echo "token in $STATE/token (or $STATE/token.read to watch only)."
echo "Stop it with: kill \$(cat $PIDFILE)"
