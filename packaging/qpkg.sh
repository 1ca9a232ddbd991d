#!/bin/sh
# qpkg.sh: build the QNAP package (.qpkg) of nasperf, in the layout that
# QNAP's QDK (qbuild) makes, without QDK.
#
# usage: qpkg.sh --arch x86_64|armhf|aarch64 --bin DIR --out FILE
#                [--version X.Y.Z] [--config FILE]
#
# DIR holds nasperfd and nasperf for ARCH (static/ARCH from make static).
# The version defaults to configure.ac's.  FILE is the configuration to
# package instead of etc/nasperfd.yaml (the tests package one that listens
# on loopback).
#
# A .qpkg is the concatenation of:
#   a shell header     (qnap/header.sh) that checks the NAS, extracts the
#                      next two parts and runs qinstall.sh; it records the
#                      sizes of the parts as script_len, ctrl_len, data_len
#   control.tar        a tar holding control.tar.gz: qinstall.sh, qpkg.cfg,
#                      package_routines, built_info
#   data.tar.gz        the package directory: nasperf.sh (the service
#                      script), .uninstall.sh, bin/, etc/, icons
#   a 100-byte tail    MODEL(10) RESERVED(40) FW_VERSION(10) NAME(20)
#                      VERSION(10) "QNAPQPKG  "; RESERVED's last 10 bytes
#                      (60 from the end) hold QTS's size check, the first
#                      10 digits of size * 3589 + 1000000000 (qpkg_encrypt)
# No QDK signature area: the package is unsigned.

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
config=''
arch=''
bin=''
out=''
version=''

usage() {
	echo "usage: $0 --arch x86_64|armhf|aarch64 --bin DIR --out FILE" \
	    "[--version X.Y.Z] [--config FILE]" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:-}; shift 2 || usage ;;
	--bin) bin=${2:-}; shift 2 || usage ;;
	--out) out=${2:-}; shift 2 || usage ;;
	--version) version=${2:-}; shift 2 || usage ;;
	--config) config=${2:-}; shift 2 || usage ;;
	*) usage ;;
	esac
done
if [ -z "$arch" ] || [ -z "$bin" ] || [ -z "$out" ]; then
	usage
fi

# shellcheck source-path=SCRIPTDIR source=vendor-lib.sh
. "$here/vendor-lib.sh"

[ -n "$version" ] || version=$(np_configure_version "$top")
np_check_version "$version"
np_check_bin "$arch" "$bin"
[ -n "$config" ] || config=$top/etc/nasperfd.yaml
[ -f "$config" ] || np_die "$config: no such file"

# What uname -m says on a NAS that can run the package.
case $arch in
x86_64) uname_pat=x86_64 ;;
armhf) uname_pat='armv7*' ;;
aarch64) uname_pat=aarch64 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/qpkg.XXXXXX")
trap 'rm -rf "$work"' EXIT
data=$work/data
ctrl=$work/control
mkdir -p "$data/bin" "$data/etc" "$ctrl"

# data.tar.gz: the package directory.
install -m 755 "$bin/nasperfd" "$bin/nasperf" "$data/bin/"
install -m 755 "$here/nasperfd-ctl.sh" "$data/bin/nasperfd-ctl"
install -m 755 "$here/qnap/nasperf.sh" "$data/nasperf.sh"
install -m 755 "$here/qnap/uninstall.sh" "$data/.uninstall.sh"
np_packaged_config "$config" "the package's var" >"$data/etc/nasperfd.yaml"
# QTS shows the icons named .gif; PNG data in them is what QDK ships.
install -m 644 "$here/icons/nasperf-64.png" "$data/.qpkg_icon.gif"
install -m 644 "$here/icons/nasperf-80.png" "$data/.qpkg_icon_80.gif"
install -m 644 "$here/icons/nasperf-gray.png" "$data/.qpkg_icon_gray.gif"
np_tar "$data" "$work/data.tar.gz" -z .

# control.tar: a tar holding control.tar.gz.
install -m 755 "$here/qnap/qinstall.sh" "$ctrl/qinstall.sh"
install -m 644 "$here/qnap/package_routines" "$ctrl/package_routines"
sed -e "s/@VERSION@/$version/" "$here/qnap/qpkg.cfg.in" >"$ctrl/qpkg.cfg"
echo "time = $(date -u ${SOURCE_DATE_EPOCH:+-d @$SOURCE_DATE_EPOCH} +%Y%m%d)" \
    >"$ctrl/built_info"
np_tar "$ctrl" "$work/control.tar.gz" -z ./qinstall.sh ./package_routines \
    ./qpkg.cfg ./built_info
np_tar "$work" "$work/control.tar" '' control.tar.gz

# The header records the sizes of the parts in fixed-width fields, so its
# own size is known before the values are.
header() {
	sed -e "s/@VERSION@/$version/g" -e "s/@ARCH@/$arch/g" \
	    -e "s/@UNAME@/$uname_pat/" \
	    -e "s/@SCRIPT_LEN@/$(printf '%-10s' "$1")/" \
	    -e "s/@CTRL_LEN@/$(printf '%-10s' "$2")/" \
	    -e "s/@DATA_LEN@/$(printf '%-10s' "$3")/" "$here/qnap/header.sh"
}
ctrl_len=$(wc -c <"$work/control.tar")
data_len=$(wc -c <"$work/data.tar.gz")
script_len=$(header 0 0 0 | wc -c)
header "$script_len" "$ctrl_len" "$data_len" >"$work/out.qpkg"
cat "$work/control.tar" "$work/data.tar.gz" >>"$work/out.qpkg"

# The tail: model (none: any), reserved, name, version, flag.
printf '%-10s%-50s%-20s%-10s%-10s' "" "" nasperf "$version" QNAPQPKG \
    >>"$work/out.qpkg"
size=$(wc -c <"$work/out.qpkg")
check=$(echo "$((size * 3589 + 1000000000))" | cut -c1-10)
printf '%s' "$check" |
    dd of="$work/out.qpkg" bs=1 seek="$((size - 60))" conv=notrunc 2>/dev/null
mv "$work/out.qpkg" "$out"
echo "$out: nasperf $version for $arch"
