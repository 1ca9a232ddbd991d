# shellcheck shell=sh disable=SC2154
# common.sh: the start of every script nasperf install and uninstall run
# on the NAS, after the variables they set (P the prefix, S the state
# directory, URL its /healthz, DRY 1 to say rather than do, MANIFEST the
# manifest's name under P): a PATH that reaches the vendors' tools, no
# proxy for the local /healthz, the manifest's path, and helpers.
PATH=$PATH:/usr/sbin:/sbin:/usr/bin:/bin
unset http_proxy HTTP_PROXY all_proxy ALL_PROXY
M=$P/$MANIFEST
np_err() { echo "np.error=$*"; exit 1; }
np_val() { sed -n "s/^$1=//p" "$M" | head -n 1; }
# np_get URL: 0 when it answers 2xx, 1 when not, 2 with no curl or wget
np_get() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsS -m 3 -o /dev/null "$1" 2>/dev/null
	elif command -v wget >/dev/null 2>&1; then
		wget -q -T 3 -O /dev/null "$1" 2>/dev/null
	else
		return 2
	fi
}
# np_stop: stop the daemon the manifest records and take it out of the
# boot sequence; its files stay.
np_stop() {
	case $(np_val init) in
	systemd)
		if [ "$DRY" = 1 ]; then
			echo "np.stopped=would stop and disable nasperfd.service"
			return
		fi
		systemctl stop nasperfd.service >/dev/null 2>&1
		systemctl disable nasperfd.service >/dev/null 2>&1
		echo "np.stopped=nasperfd.service stopped and disabled" ;;
	*)
		s=$(np_val service)
		if [ "$DRY" = 1 ]; then
			echo "np.stopped=would run $s stop"
		elif [ -n "$s" ] && [ -f "$s" ]; then
			sh "$s" stop 2>&1 | sed 's/^/np.stopped=/'
		fi
		q=$(np_val qpkg)
		if [ -n "$q" ] && [ "$DRY" != 1 ]; then
			rmcfg "$q" -f /etc/config/qpkg.conf 2>/dev/null ||
			    setcfg "$q" Enable FALSE -f /etc/config/qpkg.conf
		fi ;;
	esac
}
