#!/bin/sh
# openssl.sh: a smaller libcrypto and libssl for the static binaries.
#
# usage: openssl.sh x86_64|armhf|aarch64
#
# Builds Debian's OpenSSL source (scripts/deps.sh: np_openssl_src fetches
# it) for ARCH with what nasperf's TLS needs and nothing more, installs
# its headers and static libraries into NP_OPENSSL_BUILT/ARCH and prints
# that directory.  A second run with the same source and options prints it
# at once.  Exits 3, printing nothing, when there is no source.
#
# Debian's own libcrypto.a holds every algorithm OpenSSL has: its default
# provider names them all, so a static link keeps them all, and it is most
# of the static nasperfd.  Kept here: TLS 1.2 and 1.3; AES-GCM and
# ChaCha20-Poly1305, with the assembler of each architecture; ECDHE over
# X25519 and the NIST curves; RSA and ECDSA certificates and keys, as
# nasperfd makes them and as an operator brings them; SHA-1/2/3, HMAC and
# the TLS and HKDF key derivations; X.509 verification; the error strings.
# Left out: SSL 3, TLS 1.0 and 1.1, DTLS, finite-field DH and DSA, the
# legacy and national ciphers, engines, modules, CMS, OCSP, CT, CMP, TS,
# SRP and PSK, and the configuration file (nasperf sets what it uses).
#
# Environment: NP_OPENSSL_SRC (default /var/cache/nasperf/openssl-src),
# NP_OPENSSL_BUILT (default /var/cache/nasperf/openssl).
set -eu

arch=${1:-}
case $arch in
x86_64) target=linux-x86_64 triplet=x86_64-linux-gnu ;;
armhf) target=linux-armv4 triplet=arm-linux-gnueabihf ;;
aarch64) target=linux-aarch64 triplet=aarch64-linux-gnu ;;
*)
	echo "usage: $0 x86_64|armhf|aarch64" >&2
	exit 2 ;;
esac
srcs=${NP_OPENSSL_SRC:-/var/cache/nasperf/openssl-src}
built=${NP_OPENSSL_BUILT:-/var/cache/nasperf/openssl}

die() {
	echo "openssl.sh: $*" >&2
	exit 1
}

src=$(cat "$srcs/current" 2>/dev/null) || exit 3
[ -f "$src/Configure" ] || exit 3

options="no-shared no-module no-dso no-engine no-legacy no-deprecated
no-autoload-config no-ssl3 no-tls1 no-tls1_1 no-dtls no-dgram no-sctp no-srtp
no-dh no-dsa no-ec2m no-sm2 no-sm3 no-sm4 no-gost no-idea no-seed no-bf
no-cast no-camellia no-aria no-des no-rc2 no-rc4 no-rc5 no-md4 no-mdc2
no-rmd160 no-whirlpool no-blake2 no-siphash no-cmac no-ocb no-scrypt
no-comp no-ct no-ocsp no-cms no-ts no-cmp no-srp no-psk no-nextprotoneg
no-rfc3779 no-multiblock no-async no-ui-console no-filenames no-tests"
cflags="-Os -ffunction-sections -fdata-sections"

# The cross compiler, unless the machine is ARCH.
case $(uname -m) in
"$arch") cross= ;;
armv7l | armv8l) if [ "$arch" = armhf ]; then cross=; else cross=$triplet-; fi ;;
*) cross=$triplet- ;;
esac
command -v "${cross}gcc" >/dev/null 2>&1 || die "${cross}gcc is not installed"

dir=$built/$arch
stamp="$(cat "$src/.debian-version" 2>/dev/null || echo "$src")
$target $cross $cflags
$options"
# Built already from this source with these options: the stamp is written
# last.
built_already() {
	[ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ] &&
	    [ -f "$dir/lib/libcrypto.a" ] && [ -f "$dir/lib/libssl.a" ]
}
if built_already; then
	echo "$dir"
	exit 0
fi

mkdir -p "$built"
# One build at a time; another that finished meanwhile is taken as it is.
exec 9>"$built/.lock"
command -v flock >/dev/null 2>&1 && flock 9
if built_already; then
	echo "$dir"
	exit 0
fi

echo "openssl.sh: building $(basename "$src") for $arch into $dir" >&2
rm -rf "$dir" "$dir.build"
mkdir -p "$dir.build"
# OPENSSLDIR as Debian's, where a certificate directory would be looked
# for; nasperf itself names the files it verifies against.
# shellcheck disable=SC2086
if ! (cd "$dir.build" && "$src/Configure" $target $options $cflags \
    ${cross:+--cross-compile-prefix=$cross} --prefix="$dir" --libdir=lib \
    --openssldir=/usr/lib/ssl &&
    make -j"$(nproc)" build_libs && make install_dev) \
    >"$built/$arch.log" 2>&1; then
	tail -n 30 "$built/$arch.log" >&2
	die "the build failed (all of it in $built/$arch.log)"
fi
rm -rf "$dir.build" "$dir/lib/pkgconfig"
echo "$stamp" >"$dir/.stamp"
echo "$dir"
