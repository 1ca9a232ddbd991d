#!/bin/sh
# .uninstall.sh: remove the nasperf QPKG.  App Center runs the .uninstall.sh
# in the package directory when the app is removed; by hand over SSH:
#   sh "$(/sbin/getcfg nasperf Install_Path -f /etc/config/qpkg.conf)/.uninstall.sh"
# It stops nasperfd and removes the package directory with its state
# (configuration, token, results), the links in /etc/init.d, /etc/rcS.d
# and /etc/rcK.d, the icons and the [nasperf] section of qpkg.conf.
# NASPERF_SYSROOT, for tests, is a directory that stands for /.

set -u

QPKG_NAME=nasperf
SYSROOT=${NASPERF_SYSROOT:-}
QPKG_CONF=$SYSROOT/etc/config/qpkg.conf
QPKG_DIR=$(cd "$(dirname "$0")" && pwd -P)

if [ -x "$QPKG_DIR/$QPKG_NAME.sh" ]; then
	NASPERF_SYSROOT=$SYSROOT "$QPKG_DIR/$QPKG_NAME.sh" stop
fi
rm -f "$SYSROOT/etc/init.d/$QPKG_NAME.sh"
rm -f "$SYSROOT"/etc/rcS.d/QS*"$QPKG_NAME" "$SYSROOT"/etc/rcK.d/QK*"$QPKG_NAME"
for i in "" _80 _gray; do
	rm -f "$SYSROOT/home/httpd/RSS/images/$QPKG_NAME$i.gif"
done
if [ -f "$QPKG_CONF" ]; then
	awk -v s="[$QPKG_NAME]" '/^\[/ { skip = ($0 == s) } !skip' \
	    "$QPKG_CONF" >"$QPKG_CONF.new" && mv "$QPKG_CONF.new" "$QPKG_CONF"
fi
# A safety net before rm -rf: the directory must be this package's.
case $QPKG_DIR in
*/"$QPKG_NAME") rm -rf "$QPKG_DIR" ;;
*) echo "$QPKG_DIR: not a $QPKG_NAME package directory; left alone" >&2 ;;
esac
exit 0
