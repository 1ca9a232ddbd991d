#!/bin/sh
# nasperf @VERSION@ for QNAP QTS on @ARCH@: a self-extracting QPKG, in the
# layout that QNAP's QDK builds.  App Center runs this file, and so does
# "sh FILE.qpkg" over SSH.  After this header come control.tar (holding
# control.tar.gz: qinstall.sh, qpkg.cfg, package_routines, built_info),
# data.tar.gz (the package directory) and QNAP's 100-byte tail.
#
# QINSTALL_PATH, when set (App Center sets it to the volume chosen), is the
# directory that holds the packages (.../.qpkg); otherwise it is the .qpkg
# directory on the volume of the Public share.  NASPERF_SYSROOT, for tests,
# is a directory that stands for / (etc/config/qpkg.conf, etc/init.d ...).
#
# Exit status: 10 when installed (QDK's "installed, the file may go"),
# 1 when not.

QPKG_NAME=nasperf
script_len=@SCRIPT_LEN@
ctrl_len=@CTRL_LEN@
data_len=@DATA_LEN@

fail() {
	echo "Installation Abort. $*" >&2
	echo -1 >"${NASPERF_SYSROOT:-}/tmp/update_process" 2>/dev/null
	exit 1
}

echo "Installing $QPKG_NAME @VERSION@ (@ARCH@)..."
if [ -z "${NASPERF_SYSROOT:-}" ] &&
    ! grep -q /mnt/HDA_ROOT /proc/mounts 2>/dev/null; then
	fail "This is not a QNAP NAS (no /mnt/HDA_ROOT)."
fi
case $(uname -m) in
@UNAME@) ;;
*) fail "This package is for @ARCH@; this NAS is $(uname -m)." ;;
esac

if [ -n "${QINSTALL_PATH:-}" ]; then
	install_path=$QINSTALL_PATH
else
	public=$(/sbin/getcfg Public path -f /etc/config/smb.conf 2>/dev/null)
	[ -n "$public" ] ||
	    fail "No Public share: set QINSTALL_PATH to a volume's .qpkg directory."
	install_path=${public%/*}/.qpkg
fi
# qinstall.sh finds the install path as the parent of this directory.
extract=$install_path/.tmp-$QPKG_NAME
rm -rf "$extract"
mkdir -p "$extract" || fail "Cannot create $extract."
tail -c +$((script_len + 1)) "$0" | head -c "$ctrl_len" | tar -xOf - |
    tar -xzf - -C "$extract" || fail "The package is damaged (control)."
tail -c +$((script_len + ctrl_len + 1)) "$0" | head -c "$data_len" \
    >"$extract/data.tar.gz" || fail "The package is damaged (data)."
(cd "$extract" && sh ./qinstall.sh)
rc=$?
rm -rf "$extract"
[ "$rc" -eq 0 ] || exit 1
exit 10
# QDK's tools read a header up to its "exit 1" line.
# shellcheck disable=SC2317
exit 1
