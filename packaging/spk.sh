#!/bin/sh
# spk.sh: build the Synology package (.spk) of nasperf for DSM 7.
#
# usage: spk.sh --arch x86_64|armhf|aarch64 --bin DIR --out FILE
#               [--version X.Y.Z] [--build N] [--config FILE]
#
# DIR holds nasperfd and nasperf for ARCH (static/ARCH from make static).
# The version defaults to configure.ac's; the build number (default 1)
# makes DSM's "X.Y.Z-NNNN", raised to publish a new package of the same
# version.  FILE is the configuration to package instead of
# etc/nasperfd.yaml (the tests package one that listens on loopback).
#
# An .spk is an uncompressed tar of:
#   INFO                 key="value" lines: package, version, arch, ...
#   package.tgz          what DSM extracts into /var/packages/nasperf/target
#   scripts/             installer (lifecycle steps) and start-stop-status
#   conf/privilege       run-as "package" (DSM 7 requires it)
#   conf/resource        /usr/local/bin/nasperf link, firewall ports
#   PACKAGE_ICON.PNG     64x64
#   PACKAGE_ICON_256.PNG 256x256

set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
config=''
arch=''
bin=''
out=''
version=''
build=1

usage() {
	echo "usage: $0 --arch x86_64|armhf|aarch64 --bin DIR --out FILE" \
	    "[--version X.Y.Z] [--build N] [--config FILE]" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=${2:-}; shift 2 || usage ;;
	--bin) bin=${2:-}; shift 2 || usage ;;
	--out) out=${2:-}; shift 2 || usage ;;
	--version) version=${2:-}; shift 2 || usage ;;
	--config) config=${2:-}; shift 2 || usage ;;
	--build) build=${2:-}; shift 2 || usage ;;
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
case $build in
'' | *[!0-9]*) np_die "--build: not a number: $build" ;;
esac
np_check_bin "$arch" "$bin"
[ -n "$config" ] || config=$top/etc/nasperfd.yaml
[ -f "$config" ] || np_die "$config: no such file"

# DSM matches INFO's arch against the box's platform or its arch family
# (the DSM Developer Guide, appendix A, and the platforms that Synology's
# generic toolchains serve).  The binaries are static, so one package fits
# every platform of a family.
case $arch in
x86_64)
	syno_arch="x86_64 apollolake avoton braswell broadwell broadwellnk"
	syno_arch="$syno_arch broadwellnkv2 broadwellntbap bromolow cedarview"
	syno_arch="$syno_arch denverton epyc7002 geminilake grantley kvmx64"
	syno_arch="$syno_arch purley r1000 v1000" ;;
armhf)
	syno_arch="armv7 alpine alpine4k armada370 armada375 armada38x"
	syno_arch="$syno_arch armadaxp comcerto2k monaco" ;;
aarch64)
	syno_arch="armv8 rtd1296 rtd1619 rtd1619b armada37xx" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/spk.XXXXXX")
trap 'rm -rf "$work"' EXIT
pkg=$work/package
spk=$work/spk
mkdir -p "$pkg/bin" "$pkg/etc" "$pkg/conf" "$spk/scripts" "$spk/conf"

# package.tgz: what DSM extracts into the target directory.
install -m 755 "$bin/nasperfd" "$bin/nasperf" "$pkg/bin/"
install -m 755 "$here/nasperfd-ctl.sh" "$pkg/bin/nasperfd-ctl"
np_packaged_config "$config" /var/packages/nasperf/var \
    >"$pkg/etc/nasperfd.yaml"
install -m 644 "$here/synology/nasperf.sc" "$pkg/conf/"
np_tar "$pkg" "$spk/package.tgz" -z bin conf etc

install -m 755 "$here/synology/installer" "$here/synology/start-stop-status" \
    "$spk/scripts/"
for s in preinst postinst preuninst postuninst preupgrade postupgrade; do
	ln -s installer "$spk/scripts/$s"
done
install -m 644 "$here/synology/privilege" "$here/synology/resource" \
    "$spk/conf/"
install -m 644 "$here/icons/nasperf-64.png" "$spk/PACKAGE_ICON.PNG"
install -m 644 "$here/icons/nasperf-256.png" "$spk/PACKAGE_ICON_256.PNG"

cat >"$spk/INFO" <<EOF
package="nasperf"
version="$version-$(printf %04d "$build")"
os_min_ver="7.0-40000"
displayname="nasperf"
description="Tells why a file copy to or from this NAS is as fast as it is. The nasperfd daemon samples CPU, disk and network counters, tests the disks and serves data from memory over an HTTP API (port 9631, synthetic data on 9632); the nasperf client runs benchmarks against it and reports the bottleneck with evidence."
maintainer="nasperf project"
arch="$syno_arch"
thirdparty="yes"
startable="yes"
silent_upgrade="yes"
extractsize="$(du -sk "$pkg" | cut -f1)"
checksum="$(md5sum "$spk/package.tgz" | cut -d' ' -f1)"
EOF

np_tar "$spk" "$work/out.spk" '' INFO package.tgz scripts conf \
    PACKAGE_ICON.PNG PACKAGE_ICON_256.PNG
mv "$work/out.spk" "$out"
echo "$out: nasperf $version-$(printf %04d "$build") for $arch"
