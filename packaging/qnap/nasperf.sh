#!/bin/sh
# nasperf.sh: the QTS service script of the nasperf QPKG (QPKG_SERVICE_PROGRAM),
# linked as /etc/init.d/nasperf.sh.  App Center runs it to start and stop
# the app, and QTS at boot and shutdown through /etc/rcS.d and /etc/rcK.d.
# It runs as root (admin), so nasperfd sees everything: raw disks, other
# processes' I/O, smbstatus.
#
# usage: nasperf.sh start|stop|restart|status
#
# The package directory is Install_Path of [nasperf] in
# /etc/config/qpkg.conf; start does nothing while Enable is not TRUE (App
# Center sets it when the app is switched on).  NASPERF_SYSROOT, for tests,
# is a directory that stands for /.

set -u

QPKG_NAME=nasperf
SYSROOT=${NASPERF_SYSROOT:-}
QPKG_CONF=$SYSROOT/etc/config/qpkg.conf

# getcfg KEY DEFAULT: a value of the package's section of qpkg.conf, with
# QTS's getcfg on a NAS and a reader of the same ini format elsewhere.
getcfg() {
	if [ -z "$SYSROOT" ] && [ -x /sbin/getcfg ]; then
		/sbin/getcfg "$QPKG_NAME" "$1" -d "$2" -f "$QPKG_CONF"
		return
	fi
	awk -v s="[$QPKG_NAME]" -v k="$1" -v d="$2" '
	    /^\[/ { in_s = ($0 == s); next }
	    in_s { i = index($0, "="); if (i == 0) next
		key = substr($0, 1, i - 1); gsub(/^[ \t]+|[ \t]+$/, "", key)
		if (key == k) { v = substr($0, i + 1)
		    gsub(/^[ \t]+|[ \t]+$/, "", v); found = 1 } }
	    END { print (found ? v : d) }' "$QPKG_CONF" 2>/dev/null ||
	    echo "$2"
}

QPKG_ROOT=$(getcfg Install_Path "")
if [ -z "$QPKG_ROOT" ] || [ ! -x "$QPKG_ROOT/bin/nasperfd-ctl" ]; then
	# Not registered (yet): the directory of this script.
	QPKG_ROOT=$(cd "$(dirname "$0")" && pwd -P)
fi
NASPERF_HOME=$QPKG_ROOT
NASPERF_VAR=$QPKG_ROOT/var
export NASPERF_HOME NASPERF_VAR
CTL=$QPKG_ROOT/bin/nasperfd-ctl

case ${1:-} in
start)
	if [ "$(getcfg Enable FALSE)" != TRUE ]; then
		echo "$QPKG_NAME is disabled."
		exit 1
	fi
	exec "$CTL" start
	;;
stop | status)
	exec "$CTL" "$1"
	;;
restart)
	"$CTL" stop
	exec "$0" start
	;;
remove)
	# QDK's uninstallers call "remove" after "stop": nothing to do.
	;;
*)
	echo "usage: $0 start|stop|restart|status" >&2
	exit 1
	;;
esac
exit 0
