#!/bin/bash
# static.sh: the static builds for x86_64, armhf and aarch64 (make static),
# each run on this machine, the ARM ones under qemu-user: the binaries are
# static executables of their architecture, print their version, nasperfd
# serves /healthz and /v1/counters over TLS on loopback, the architecture's
# own nasperf runs a synth download over TLS that gets a verdict, nasperfd
# stops cleanly, and the unit tests built for the architecture pass against
# the fixtures.  They link the smaller OpenSSL that packaging/openssl.sh
# builds from Debian's source, and so try its TLS.
# An architecture whose cross compiler, libraries or qemu are missing is
# skipped with the reason (scripts/deps.sh: np_install_cross installs them).

# shellcheck source-path=SCRIPTDIR source=../integration/lib.sh
. "${NP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"

need_cmd curl jq file
# The static builds are made in BUILDDIR/static, which kernel310.sh
# builds and uses too.
one_at_a_time static
B=$NP_BUILDDIR
VERSION=$(sed -n 's/^VERSION = //p' "$B/Makefile")
[ -n "$VERSION" ] || skip_all "no VERSION in $B/Makefile"
[ "$(uname -m)" = x86_64 ] || skip_all "the cross builds are made on x86_64"
[ -d "$NP_FIXTURES/dsm6-3.10-armhf" ] || skip_all "the fixtures are not unpacked"

# one ARCH CC QEMU FILE-SAYS: build and try one architecture.
one() {
	local arch=$1 cc=$2 qemu=$3 says=$4 o=$B/static/$1 port sport pid t n
	local -a run=()
	if ! command -v "$cc" >/dev/null 2>&1; then
		skip "$arch: $cc is not installed (scripts/deps.sh: np_install_cross)"
		return
	fi
	if [ -n "$qemu" ]; then
		if ! command -v "$qemu" >/dev/null 2>&1; then
			skip "$arch: $qemu is not installed (qemu-user-static)"
			return
		fi
		run=("$qemu")
	fi
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$B" static \
	    STATIC_ARCHES="$arch" STATIC_WITH_TESTS=1 >"$T_TMP/make.$arch" 2>&1
	then
		if grep -q "libevent-dev in" "$T_TMP/make.$arch"; then
			skip "$arch: $(grep -o 'no .*libevent-dev in [^ ]*' \
			    "$T_TMP/make.$arch" | head -1) (np_install_cross)"
			return
		fi
		not_ok "$arch: make static" "$(tail -n 5 "$T_TMP/make.$arch")"
		return
	fi
	ok "$arch: make static"
	# The smaller OpenSSL (packaging/openssl.sh), whose TLS the checks
	# below use, when its source is there.
	if grep -q "no OpenSSL source" "$T_TMP/make.$arch"; then
		skip "$arch: linked Debian's whole libcrypto: no OpenSSL" \
		    "source (scripts/deps.sh: np_openssl_src)"
	else
		check "$arch: linked the OpenSSL of packaging/openssl.sh" \
		    grep -q "$arch: OpenSSL built from openssl-" "$T_TMP/make.$arch"
	fi
	for b in nasperfd nasperf; do
		check "$arch: $b is a static $says executable" sh -c \
		    "file -b '$o/$b' | grep -q '$says.*statically linked'"
	done
	echo "# $arch: nasperfd $(wc -c <"$o/nasperfd") bytes," \
	    "nasperf $(wc -c <"$o/nasperf") bytes"
	is "$arch: nasperfd -V" "$("${run[@]}" "$o/nasperfd" -V 2>&1)" \
	    "nasperfd $VERSION"
	is "$arch: nasperf --version" \
	    "$("${run[@]}" "$o/nasperf" --version 2>&1 | head -1)" \
	    "nasperf $VERSION"

	# Both listeners over TLS, with the certificate the daemon makes.
	port=$(free_port)
	sport=$(free_port)
	while [ "$sport" = "$port" ]; do sport=$(free_port); done
	printf 'api:\n  tls: true\nsynth:\n  listen: 127.0.0.1:%d\n  tls: true\n' \
	    "$sport" >"$T_TMP/c.$arch.yaml"
	"${run[@]}" "$o/nasperfd" -f -c "$T_TMP/c.$arch.yaml" \
	    -l "127.0.0.1:$port" -s "$T_TMP/st.$arch" >"$T_TMP/npd.$arch" 2>&1 &
	pid=$!
	for ((t = 0; t < 100; t++)); do
		curl -fsk -o /dev/null "https://127.0.0.1:$port/healthz" &&
		    grep -q "synth: listening" "$T_TMP/npd.$arch" && break
		sleep 0.1
	done
	check "$arch: /healthz over TLS" curl -fsSk \
	    "https://127.0.0.1:$port/healthz"
	curl -fsSk -H "Authorization: Bearer $(cat "$T_TMP/st.$arch/token" \
	    2>/dev/null)" "https://127.0.0.1:$port/v1/counters" \
	    >"$T_TMP/ctr.$arch" 2>&1
	check "$arch: /v1/counters has this machine's cores and disks" jq -e \
	    '(.cpu.cores | length) > 0 and (.disks | length) > 0' \
	    "$T_TMP/ctr.$arch" || cut -c1-300 "$T_TMP/ctr.$arch" | sed 's/^/# /'
	# The architecture's own client: a synth download over TLS, judged
	# (the run's report is where 32-bit argument widths would show).
	NASPERF_TOKEN=$(cat "$T_TMP/st.$arch/token" 2>/dev/null) \
	    NASPERF_KNOWN_HOSTS=$T_TMP/kh.$arch "${run[@]}" "$o/nasperf" \
	    -H "https://127.0.0.1:$port" --json synth --time 1 \
	    >"$T_TMP/syn.$arch" 2>"$T_TMP/syn.$arch.err"
	check "$arch: a synth download over TLS has a verdict" jq -e \
	    '.download.bytes > 0 and .download.tls and
	    (.download.report.verdict.class | length) > 0' "$T_TMP/syn.$arch" ||
	    sed 's/^/# /' "$T_TMP/syn.$arch.err"
	kill -TERM "$pid"
	wait "$pid"
	is "$arch: nasperfd stops with status 0" "$?" 0

	n=0
	for t in "$o"/tests/t_*; do
		n=$((n + 1))
		if NP_FIXTURES=$NP_FIXTURES NP_SRCDIR=$NP_SRCDIR "${run[@]}" "$t" \
		    >"$T_TMP/unit.$arch" 2>&1 &&
		    ! grep -q '^not ok' "$T_TMP/unit.$arch"; then
			ok "$arch: $(basename "$t") ($(grep -c '^ok' \
			    "$T_TMP/unit.$arch") checks)"
		else
			not_ok "$arch: $(basename "$t")"
			grep -A3 '^not ok' "$T_TMP/unit.$arch" | head -12 |
			    sed 's/^/#   /'
		fi
	done
	[ "$n" -gt 0 ] || not_ok "$arch: the probe unit tests were built"
}

one x86_64 gcc "" "x86-64"
one armhf arm-linux-gnueabihf-gcc qemu-arm-static "32-bit LSB executable, ARM"
one aarch64 aarch64-linux-gnu-gcc qemu-aarch64-static "ARM aarch64"
done_testing
