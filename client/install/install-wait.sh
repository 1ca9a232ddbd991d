# shellcheck shell=sh disable=SC2154
# install-wait.sh: the end of nasperf install: nasperfd ready once it
# answers /healthz (or, with no curl or wget, once it runs and has its
# token), then its pid, version and token as np. lines.
i=0
while :; do
	if ! np_alive; then
		np_log
		np_err "nasperfd exited as it started"
	fi
	if [ -s "$S/token" ]; then
		np_get "$URL"
		r=$?
		if [ $r -eq 0 ]; then echo np.answered=1; break; fi
		if [ $r -eq 2 ]; then break; fi
	fi
	i=$((i + 1))
	if [ $i -ge 100 ]; then
		np_log
		np_err "nasperfd runs but did not answer $URL within 20 s"
	fi
	sleep 0.2 2>/dev/null || sleep 1
done
echo "np.pid=$(np_pid)"
echo "np.version=$("$P/bin/nasperfd" -V 2>/dev/null)"
echo "np.token=$(cat "$S/token")"
exit 0
