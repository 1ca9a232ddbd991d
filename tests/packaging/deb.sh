#!/bin/bash
# deb.sh: the Debian package.  dpkg-buildpackage -b builds it from a copy
# of the tree (tests skipped with nocheck: make check runs them), lintian
# finds no error in it, and its contents are the daemon and client, the
# systemd unit, the configuration as a conffile under /etc/nasperfd, the
# manual pages and the maintainer scripts (shellcheck-clean).  Then it is
# installed here with dpkg: the system user nasperfd exists in group disk,
# the unit is enabled, and a purge removes the files and the state while a
# removal keeps the configuration.

# shellcheck source-path=SCRIPTDIR source=../integration/lib.sh
. "${NP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"

need_root
need_cmd dpkg-buildpackage dh lintian dpkg-deb shellcheck tar curl
S=$NP_SRCDIR
[ -d "$S/debian" ] || skip_all "no debian/ in $S"
dpkg-query -W -f='${Status}' nasperf 2>/dev/null | grep -q 'ok installed' &&
    skip_all "a nasperf package is installed here already"

# A copy of the tree: the files git knows (as they are now), or the whole
# source tree of a tarball, without build directories.
W=$T_TMP/src
mkdir -p "$W"
if git -C "$S" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$S" && git ls-files -z --cached --others --exclude-standard |
	    tar --null -T - -cf -) | tar -xf - -C "$W"
	# The page's chart library, which npm put beside the sources.
	if [ -d "$S/web/node_modules/uplot" ]; then
		mkdir -p "$W/web/node_modules"
		cp -a "$S/web/node_modules/uplot" "$W/web/node_modules/"
	fi
else
	tar -C "$S" --exclude='./_build*' --exclude='./debian/build' -cf - . |
	    tar -xf - -C "$W"
fi
(cd "$W" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
    dpkg-buildpackage -b -us -uc) >"$T_TMP/build.log" 2>&1
rc=$?
is "dpkg-buildpackage -b exits 0" "$rc" 0
if [ "$rc" -ne 0 ]; then
	tail -n 20 "$T_TMP/build.log" | sed 's/^/# /'
	stop_testing "no package was built"
fi
VERSION=$(dpkg-parsechangelog -l "$S/debian/changelog" -S Version)
ARCH=$(dpkg --print-architecture)
DEB=$T_TMP/nasperf_${VERSION}_$ARCH.deb
CHANGES=$T_TMP/nasperf_${VERSION}_$ARCH.changes
check "the package is built" test -s "$DEB" ||
    stop_testing "no $DEB to look into"

lintian --fail-on error "$CHANGES" >"$T_TMP/lintian" 2>&1
rc=$?
is "lintian finds no error" "$rc" 0
grep -v '^running with root' "$T_TMP/lintian" | sed 's/^/# /'

dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$T_TMP/files"
for f in /usr/sbin/nasperfd /usr/bin/nasperf /etc/nasperfd/nasperfd.yaml \
    /lib/systemd/system/nasperfd.service /usr/share/man/man8/nasperfd.8.gz \
    /usr/share/man/man1/nasperf.1.gz /usr/share/man/man5/nasperfd.yaml.5.gz \
    /usr/share/doc/nasperf/README.Debian /usr/share/doc/nasperf/copyright; do
	check "it has $f" grep -qx "$f" "$T_TMP/files"
done
mkdir "$T_TMP/ctl"
dpkg-deb -e "$DEB" "$T_TMP/ctl"
check "the configuration is a conffile" \
    grep -qx /etc/nasperfd/nasperfd.yaml "$T_TMP/ctl/conffiles"
check "it depends on adduser for its user" \
    sh -c "dpkg-deb -f '$DEB' Depends | grep -q adduser"
for m in postinst postrm prerm; do
	[ -f "$T_TMP/ctl/$m" ] || continue
	check "$m is shellcheck-clean" shellcheck -s sh "$T_TMP/ctl/$m"
done

# Installed here (systemd is not running: the unit is enabled, not started).
had_user=0
getent passwd nasperfd >/dev/null && had_user=1
dpkg -i "$DEB" >"$T_TMP/install.log" 2>&1
rc=$?
at_exit "dpkg --purge nasperf >/dev/null 2>&1; [ $had_user = 1 ] ||
	deluser --system nasperfd >/dev/null 2>&1"
is "dpkg -i installs it" "$rc" 0
if [ "$rc" -ne 0 ]; then
	sed 's/^/# /' "$T_TMP/install.log"
	stop_testing "the package is not installed"
fi
check "the system user nasperfd exists" getent passwd nasperfd
check "and is in group disk" sh -c "id -nG nasperfd | tr ' ' '\n' | grep -qx disk"
is "its home is the state directory" "$(getent passwd nasperfd | cut -d: -f6)" \
    /var/lib/nasperfd
check "the unit is enabled" \
    test -L /etc/systemd/system/multi-user.target.wants/nasperfd.service
is "nasperfd -V from the package" "$(/usr/sbin/nasperfd -V)" \
    "nasperfd $(sed -n 's/^VERSION = //p' "$NP_BUILDDIR/Makefile")"
# The installed daemon with the installed configuration, on loopback.
port=$(free_port)
/usr/sbin/nasperfd -f -c /etc/nasperfd/nasperfd.yaml -l "127.0.0.1:$port" \
    -s "$T_TMP/debstate" >"$T_TMP/npd.log" 2>&1 &
pid=$!
wait_healthz "$port"
check "it runs with the installed configuration" \
    curl -fsS "http://127.0.0.1:$port/healthz" || sed 's/^/# /' "$T_TMP/npd.log"
kill -TERM "$pid"
wait "$pid"
is "and stops with status 0" "$?" 0
dpkg -i "$DEB" >"$T_TMP/install2.log" 2>&1
is "installing it again (an upgrade) works" "$?" 0
mkdir -p /var/lib/nasperfd
echo kept >/var/lib/nasperfd/marker
dpkg --remove nasperf >/dev/null 2>&1
is "dpkg --remove works" "$?" 0
check "a removal keeps the configuration" test -f /etc/nasperfd/nasperfd.yaml
check "and the state" test -f /var/lib/nasperfd/marker
check "but not the programs" test ! -e /usr/sbin/nasperfd
dpkg --purge nasperf >/dev/null 2>&1
is "dpkg --purge works" "$?" 0
check "a purge removes the configuration" test ! -e /etc/nasperfd
check "and the state" test ! -e /var/lib/nasperfd
check "and the unit's enablement" \
    test ! -e /etc/systemd/system/multi-user.target.wants/nasperfd.service
done_testing
