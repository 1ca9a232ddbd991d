#!/bin/sh
# qinstall.sh: install or upgrade the nasperf QPKG.  The QPKG's header runs
# it in a directory under the install path (.../.qpkg/.tmp-nasperf) that
# holds qpkg.cfg and data.tar.gz, as QDK's installer of the same name is.
#
# It extracts data.tar.gz into INSTALL_PATH/nasperf, keeping the state
# directory var/ of an earlier version (the live configuration, the API
# token, results), registers the package in /etc/config/qpkg.conf, links
# the service script into /etc/init.d, /etc/rcS.d and /etc/rcK.d (QTS
# starts and stops it with the NAS), and starts it unless it was disabled.
#
# NASPERF_SYSROOT, for tests, is a directory that stands for /.

set -u

# shellcheck disable=SC1091 # written by qpkg.sh from qpkg.cfg.in
. ./qpkg.cfg
: "${QPKG_NAME:?}" "${QPKG_DISPLAY_NAME:?}" "${QPKG_VER:?}" "${QPKG_AUTHOR:?}"
: "${QPKG_RC_NUM:?}" "${QPKG_SERVICE_PROGRAM:?}" "${QPKG_SERVICE_PORT:?}"

SYSROOT=${NASPERF_SYSROOT:-}
QPKG_CONF=$SYSROOT/etc/config/qpkg.conf
INIT_DIR=$SYSROOT/etc/init.d
START_DIR=$SYSROOT/etc/rcS.d
STOP_DIR=$SYSROOT/etc/rcK.d
ICON_DIR=$SYSROOT/home/httpd/RSS/images
INSTALL_PATH=$(dirname "$PWD")
QPKG_DIR=$INSTALL_PATH/$QPKG_NAME

# Tell App Center how far we are (0 begin, 1 before, 2 after, 3 end, -1
# failed), as QDK's installer does.
progress() {
	mkdir -p "$SYSROOT/tmp" 2>/dev/null
	echo "$1" >"$SYSROOT/tmp/update_process" 2>/dev/null
}

# A message for the terminal and, on a NAS, for the system log.
log() {
	echo "$1"
	[ -z "$SYSROOT" ] && [ -x /sbin/log_tool ] &&
	    /sbin/log_tool -t"${2:-0}" -uSystem -p127.0.0.1 -mlocalhost \
	    -a "[App Center] $1"
	return 0
}

fail() {
	log "Failed to install $QPKG_DISPLAY_NAME $QPKG_VER: $1" 2 >&2
	progress -1
	exit 1
}

# getcfg SECTION KEY DEFAULT: a value of qpkg.conf.  QTS's own getcfg and
# setcfg on a NAS; a reader of the same ini format elsewhere.
getcfg() {
	if [ -z "$SYSROOT" ] && [ -x /sbin/getcfg ]; then
		/sbin/getcfg "$1" "$2" -d "$3" -f "$QPKG_CONF"
		return
	fi
	awk -v s="[$1]" -v k="$2" -v d="$3" '
	    /^\[/ { in_s = ($0 == s); next }
	    in_s { i = index($0, "="); if (i == 0) next
		key = substr($0, 1, i - 1); gsub(/^[ \t]+|[ \t]+$/, "", key)
		if (key == k) { v = substr($0, i + 1)
		    gsub(/^[ \t]+|[ \t]+$/, "", v); found = 1 } }
	    END { print (found ? v : d) }' "$QPKG_CONF" 2>/dev/null ||
	    echo "$3"
}

# setcfg KEY VALUE: set a value in the package's section of qpkg.conf.
setcfg() {
	if [ -z "$SYSROOT" ] && [ -x /sbin/setcfg ]; then
		/sbin/setcfg "$QPKG_NAME" "$1" "$2" -f "$QPKG_CONF"
		return
	fi
	[ -f "$QPKG_CONF" ] || : >"$QPKG_CONF"
	awk -v s="[$QPKG_NAME]" -v k="$1" -v v="$2" '
	    function put() { if (!done) print k " = " v; done = 1 }
	    /^\[/ { if (in_s) put(); in_s = ($0 == s); seen = seen || in_s
		print; next }
	    in_s { i = index($0, "="); key = substr($0, 1, i - 1)
		gsub(/^[ \t]+|[ \t]+$/, "", key)
		if (i && key == k) { put(); next } }
	    { print }
	    END { if (in_s) put(); else if (!seen) { print s; put() } }' \
	    "$QPKG_CONF" >"$QPKG_CONF.new" && mv "$QPKG_CONF.new" "$QPKG_CONF"
}

progress 0
[ -f data.tar.gz ] || fail "no data.tar.gz"
mkdir -p "$QPKG_DIR" "$INIT_DIR" "$START_DIR" "$STOP_DIR" \
    "$(dirname "$QPKG_CONF")" ||
    fail "cannot create $QPKG_DIR"

# An earlier version: stop it, remember whether it was enabled, and remove
# its files but its state.
enabled=TRUE
if [ -x "$QPKG_DIR/$QPKG_SERVICE_PROGRAM" ]; then
	enabled=$(getcfg "$QPKG_NAME" Enable TRUE)
	log "Upgrading $QPKG_DISPLAY_NAME $(getcfg "$QPKG_NAME" Version -) to $QPKG_VER"
	NASPERF_SYSROOT=$SYSROOT "$QPKG_DIR/$QPKG_SERVICE_PROGRAM" stop
	for f in "$QPKG_DIR"/* "$QPKG_DIR"/.[!.]*; do
		[ -e "$f" ] || [ -h "$f" ] || continue
		[ "$f" = "$QPKG_DIR/var" ] || rm -rf "$f"
	done
fi
progress 1

tar -xzf data.tar.gz -C "$QPKG_DIR" || fail "cannot extract data.tar.gz"
NASPERF_HOME=$QPKG_DIR NASPERF_VAR=$QPKG_DIR/var \
    "$QPKG_DIR/bin/nasperfd-ctl" init || fail "cannot create $QPKG_DIR/var"

setcfg Name "$QPKG_NAME"
setcfg Display_Name "$QPKG_DISPLAY_NAME"
setcfg Version "$QPKG_VER"
setcfg Author "$QPKG_AUTHOR"
setcfg QPKG_File "$QPKG_NAME.qpkg"
setcfg Date "$(date +%F)"
setcfg Shell "$QPKG_DIR/$QPKG_SERVICE_PROGRAM"
setcfg Install_Path "$QPKG_DIR"
setcfg RC_Number "$QPKG_RC_NUM"
setcfg Service_Port "$QPKG_SERVICE_PORT"
setcfg Pid_File "$QPKG_DIR/var/nasperfd.pid"
setcfg Enable "$enabled"
setcfg Status complete

ln -sf "$QPKG_DIR/$QPKG_SERVICE_PROGRAM" "$INIT_DIR/$QPKG_SERVICE_PROGRAM"
ln -sf "$INIT_DIR/$QPKG_SERVICE_PROGRAM" "$START_DIR/QS$QPKG_RC_NUM$QPKG_NAME"
ln -sf "$INIT_DIR/$QPKG_SERVICE_PROGRAM" \
    "$STOP_DIR/QK$((1000 - QPKG_RC_NUM))$QPKG_NAME"
if [ -d "$ICON_DIR" ]; then
	for i in "" _80 _gray; do
		cp -f "$QPKG_DIR/.qpkg_icon$i.gif" "$ICON_DIR/$QPKG_NAME$i.gif"
	done
fi
progress 2

if [ "$enabled" = TRUE ]; then
	NASPERF_SYSROOT=$SYSROOT "$QPKG_DIR/$QPKG_SERVICE_PROGRAM" start ||
	    log "$QPKG_DISPLAY_NAME $QPKG_VER is installed but did not start" 1
fi
log "$QPKG_DISPLAY_NAME $QPKG_VER installed in $QPKG_DIR"
progress 3
exit 0
