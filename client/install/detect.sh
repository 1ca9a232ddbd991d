# shellcheck shell=sh disable=SC2154
# detect.sh: what the NAS is, as np.KEY=VALUE lines: its system, markers
# and vendor files under R (/, or NASPERF_DETECT_ROOT in tests), the
# manifest of an install at P, and whether URL already answers.
echo "np.os=$(uname -s)"
echo "np.uname=$(uname -m)"
echo "np.uid=$(id -u)"
echo "np.pid1=$(cat /proc/1/comm 2>/dev/null)"
for t in curl wget; do
	if command -v $t >/dev/null 2>&1; then echo "np.fetch=$t"; break; fi
done
for m in synoinfo:etc/synoinfo.conf dsm-version:etc.defaults/VERSION \
    ulinux:etc/config/uLinux.conf debian:etc/debian_version; do
	if [ -f "$R/${m#*:}" ]; then echo "np.marker=${m%%:*}"; fi
done
if [ -x "$R/sbin/getcfg" ]; then echo np.marker=getcfg; fi
if [ -x "$R/usr/sbin/readynasd" ]; then echo np.marker=readynasd; fi
np_file() {
	[ -f "$R/$2" ] && head -c 65536 "$R/$2" | sed "s/^/np.f.$1=/"
}
np_file version etc.defaults/VERSION || np_file version etc/VERSION
np_file synoinfo etc/synoinfo.conf ||
    np_file synoinfo etc.defaults/synoinfo.conf
np_file ulinux etc/config/uLinux.conf
np_file osrelease etc/os-release || np_file osrelease usr/lib/os-release
if [ -f "$M" ]; then sed 's/^/np.m./' "$M"; fi
for f in /etc/systemd/system/nasperfd.service \
    /usr/local/etc/rc.d/nasperfd.sh; do
	if [ -e "$f" ]; then echo "np.exists=$f"; fi
done
if [ -f /etc/config/qpkg.conf ] &&
    grep -q '^\[nasperfd\]' /etc/config/qpkg.conf; then
	echo np.exists=qpkg
fi
if np_get "$URL"; then echo np.busy=1; fi
exit 0
