#!/bin/sh
# static.sh: build nasperfd and nasperf fully static for a NAS.
#
# usage: static.sh x86_64|armhf|aarch64 OUTDIR
#
# Writes OUTDIR/nasperfd and OUTDIR/nasperf, stripped; the tree is
# configured and built out of source in OUTDIR/.build (kept, so that a
# second run rebuilds only what changed; its binaries keep their symbols).
# glibc, libevent, OpenSSL, libyaml and jansson are linked in statically, so the
# binaries run on any Linux from 3.2 (3.7 on aarch64), whatever C library
# the box has.  OpenSSL is the smaller build that packaging/openssl.sh makes
# of Debian's source, or Debian's own libraries when that source is missing
# (said on stderr).  libevent, libyaml and jansson are Debian's: the build
# machine's own -dev packages for its architecture, and for another one
# those that scripts/deps.sh (np_install_cross) unpacks into
# NP_CROSS_SYSROOT/DEBARCH, or else the multiarch ones installed in
# /usr/lib/TRIPLET.  The cross compilers are Debian's
# gcc-arm-linux-gnueabihf and gcc-aarch64-linux-gnu.
#
# Environment: NP_CROSS_SYSROOT (default /var/cache/nasperf/sysroot),
# NP_STATIC_TESTS: check programs to build as well ("tests/unit/t_mdstat
# ..."), copied into OUTDIR/tests/ for tests/packaging/static.sh to run
# under qemu-user.
set -eu

usage() {
	echo "usage: $0 x86_64|armhf|aarch64 OUTDIR" >&2
	exit 2
}
[ $# -eq 2 ] || usage
arch=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)

case $arch in
x86_64) triplet=x86_64-linux-gnu debarch=amd64 ;;
armhf) triplet=arm-linux-gnueabihf debarch=armhf ;;
aarch64) triplet=aarch64-linux-gnu debarch=arm64 ;;
*) usage ;;
esac

die() {
	echo "static.sh: $*" >&2
	exit 1
}

# Native when the machine is ARCH (armv7l for armhf), else cross.
case $(uname -m) in
"$arch" | armv7l | armv8l)
	if [ "$(uname -m)" = "$arch" ] || [ "$arch" = armhf ]; then
		cross=no
	else
		cross=yes
	fi ;;
*) cross=yes ;;
esac
if [ "$cross" = yes ]; then
	cc=$triplet-gcc
	strip=$triplet-strip
	host="--host=$triplet"
else
	cc=${CC:-gcc}
	strip=strip
	host=
fi
command -v "$cc" >/dev/null 2>&1 || die "$cc is not installed" \
    "(scripts/deps.sh: np_install_cross)"
command -v "$strip" >/dev/null 2>&1 || die "$strip is not installed"
[ -x "$top/configure" ] || die "$top/configure is missing: run autoreconf -fi"
# A tree configured in place refuses a build out of it ("source directory
# already configured"), which the static builds are.
[ -f "$top/config.status" ] && die "$top is configured in place:" \
    "run make distclean there, and build in _build (README: Building by hand)"

# Where pkg-config finds the libraries: a cross build needs the unpacked
# sysroot (its paths prefixed by PKG_CONFIG_SYSROOT_DIR) or the multiarch
# -dev packages, never the build machine's own.
sysroot=${NP_CROSS_SYSROOT:-/var/cache/nasperf/sysroot}/$debarch
if [ "$cross" = no ]; then
	unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
elif [ -f "$sysroot/usr/lib/$triplet/pkgconfig/libevent_core.pc" ]; then
	PKG_CONFIG_LIBDIR=$sysroot/usr/lib/$triplet/pkgconfig:$sysroot/usr/share/pkgconfig
	PKG_CONFIG_SYSROOT_DIR=$sysroot
	export PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
	# OpenSSL's headers that differ per architecture (opensslconf.h)
	# are in the multiarch directory, which openssl.pc does not name.
	cppflags="-I$sysroot/usr/include/$triplet"
elif [ -f "/usr/lib/$triplet/pkgconfig/libevent_core.pc" ]; then
	PKG_CONFIG_LIBDIR=/usr/lib/$triplet/pkgconfig:/usr/share/pkgconfig
	export PKG_CONFIG_LIBDIR
	unset PKG_CONFIG_SYSROOT_DIR
else
	die "no $debarch libevent-dev in $sysroot or /usr/lib/$triplet" \
	    "(scripts/deps.sh: np_install_cross)"
fi
pc() {
	pkg-config --static "$@" || die "pkg-config $*: failed"
}
# OpenSSL: the smaller build of Debian's source (packaging/openssl.sh), or
# else Debian's own libraries, whole.
# ossl_v is the Debian version it was built from, first in its stamp.
ossl_rc=0
ossl=$(sh "$top/packaging/openssl.sh" "$arch") || ossl_rc=$?
case $ossl_rc in
0) ossl_v=$(head -n 1 "$ossl/.stamp")
   echo "static.sh: $arch: OpenSSL built from openssl-$ossl_v by" \
    "packaging/openssl.sh" >&2
   # Its headers ahead of Debian's (the cross sysroot's opensslconf.h
   # among them).
   cppflags="-I$ossl/include ${cppflags:-}" ;;
3) echo "static.sh: $arch: no OpenSSL source (scripts/deps.sh:" \
    "np_openssl_src): linking Debian's whole libcrypto, about 1.8 MB more" >&2
   ossl='' ossl_v='' ;;
*) die "packaging/openssl.sh $arch failed" ;;
esac

# libevent_extra (evhttp) uses libevent_core: in a static link it must
# come first, and configure.ac lists them the other way round.
ev_cflags=$(pc --cflags libevent_extra libevent_core)
ev_libs="$(pc --libs libevent_extra) $(pc --libs libevent_core)"

# -Os and sections per function, that the linker drops what nothing
# calls; no unwind tables for our C (nothing unwinds it: no C++, no
# pthread_cancel or pthread_exit).  /usr and /etc as a package installs
# them: the state directory is /var/lib/nasperfd whatever the prefix.
cflags="-Os -fno-pie -ffunction-sections -fdata-sections"
cflags="$cflags -fno-asynchronous-unwind-tables -fno-unwind-tables"
ldflags="-static -no-pie -Wl,--gc-sections"
# shellcheck disable=SC2086
set -- $host --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
    --disable-sanitizers --enable-numeric-resolver
# Optional client features whose libraries have no static build here.
for w in smbclient libnfs; do
	if "$top/configure" --help | grep -q -- "--with-$w"; then
		set -- "$@" "--without-$w"
	fi
done
set -- "$@" CC="$cc" PKG_CONFIG="pkg-config --static" \
    CPPFLAGS="${cppflags:-}" CFLAGS="$cflags" LDFLAGS="$ldflags" \
    LIBEVENT_CFLAGS="$ev_cflags" LIBEVENT_LIBS="$ev_libs"
# The smaller OpenSSL's libraries in place of Debian's libssl and
# libcrypto after libevent_openssl.
if [ -n "$ossl" ]; then
	set -- "$@" OPENSSL_CFLAGS="-I$ossl/include $ev_cflags" \
	    OPENSSL_LIBS="$(pc --libs-only-L libevent_openssl) -levent_openssl \
$ossl/lib/libssl.a $ossl/lib/libcrypto.a -pthread"
fi

mkdir -p "$out/.build"
out=$(cd "$out" && pwd)
b=$out/.build
# Configure again when the arguments or configure itself changed, from a
# clean tree when the arguments or the OpenSSL build did: make would not
# link again for new flags or libraries alone.
args="$(printf '%s\n' "$@")
openssl: $ossl_v"
if [ "$(cat "$b/.args" 2>/dev/null)" != "$args" ]; then
	rm -rf "$b"
	mkdir -p "$b"
fi
if ! [ -f "$b/Makefile" ] || ! [ "$b/config.status" -nt "$top/configure" ]
then
	rm -f "$b/.args"
	(cd "$b" && "$top/configure" -q "$@") || die "configure failed" \
	    "(see $b/config.log)"
	echo "$args" >"$b/.args"
fi
# glibc warns that getaddrinfo and getservbyname, in a static binary,
# load the NSS modules of the glibc they were linked with: only for host
# names that are neither numeric nor in /etc/hosts ("files" is built in).
# shellcheck disable=SC2086
if ! make -C "$b" -s -j"$(nproc)" daemon/nasperfd client/nasperf \
    ${NP_STATIC_TESTS:-} >"$b/make.log" 2>&1; then
	cat "$b/make.log" >&2
	die "make failed in $b"
fi
grep -v -E '^  [A-Z]+ |in statically linked applications requires|: in function .' \
    "$b/make.log" >&2 || :
for p in nasperfd nasperf; do
	case $p in nasperfd) src=$b/daemon/$p ;; *) src=$b/client/$p ;; esac
	"$strip" --strip-all -R .comment -o "$out/$p.new" "$src"
	mv "$out/$p.new" "$out/$p"
done
if [ -n "${NP_STATIC_TESTS:-}" ]; then
	mkdir -p "$out/tests"
	for t in $NP_STATIC_TESTS; do
		cp "$b/$t" "$out/tests/"
	done
fi
echo "$out: nasperfd $(wc -c <"$out/nasperfd") bytes, nasperf" \
    "$(wc -c <"$out/nasperf") bytes ($arch, static)"
