# deps.sh: install the Debian packages named in "$@" that are missing.
# Sourced by quickstart.sh and test.sh; idempotent, quiet when all is there.
np_install() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q 'install ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "missing packages:$missing (run as root to install them)" >&2
		return 1
	fi
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

NP_BUILD_DEPS="ca-certificates gcc libc6-dev make autoconf automake pkg-config \
libevent-dev libssl-dev libyaml-dev libjansson-dev libsmbclient-dev libnfs-dev"
NP_TEST_DEPS="curl jq sysstat prometheus btrfs-progs mandoc systemd \
util-linux procps fio chromium iperf3 iproute2 shellcheck \
samba smbclient nfs-ganesha nfs-ganesha-vfs rpcbind libnfs-utils tmux \
openssh-server openssh-client nginx-light \
debhelper dpkg-dev build-essential lintian fakeroot adduser file \
perl libio-socket-ssl-perl"
# The libFuzzer targets (configure CC=clang --enable-fuzzing): clang, and
# the compiler-rt archives that hold libFuzzer, only recommended by clang.
NP_FUZZ_DEPS="clang libclang-rt-14-dev"

# The static builds for ARM NAS boxes (packaging/static.sh) and their test:
# cross compilers, qemu-user to run what they build, and Debian's armhf and
# arm64 libevent, libyaml and jansson -dev packages, whose static libraries
# are linked in.  Those are unpacked into a sysroot per architecture under
# NP_CROSS_SYSROOT rather than installed: Debian 12's libevent-dev is not
# Multi-Arch: same (its event-config.h differs per architecture), so
# libevent-dev:armhf would replace the libevent-dev the native build needs,
# and foreign libraries would drag the amd64 ones to their version.
NP_CROSS_DEPS="gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu libc6-dev-armhf-cross \
libc6-dev-arm64-cross qemu-user-static file binutils"
NP_CROSS_LIBS="libevent-dev libssl-dev libyaml-dev libjansson-dev"
NP_CROSS_SYSROOT=${NP_CROSS_SYSROOT:-/var/cache/nasperf/sysroot}

# np_cross_want: the candidate version of each NP_CROSS_LIBS package for
# armhf and arm64, "ARCH name=version" a line (one apt-cache run, as each
# takes seconds); fails when apt does not know one.
np_cross_want() {
	# The status is awk's (the last in the pipe), not sort's.
	# shellcheck disable=SC2046,SC2086
	_want=$(apt-cache policy $(printf '%s:armhf %s:arm64 ' $NP_CROSS_LIBS \
	    $NP_CROSS_LIBS) 2>/dev/null | awk -v n="$(echo $NP_CROSS_LIBS |
	    wc -w)" '
	/^[^ ].*:$/ { split($0, f, ":"); p = f[1]; a = f[2] }
	/^ *Candidate: / && $2 != "(none)" { print a, p "=" $2; k++ }
	END { exit k != 2 * n }') || return 1
	echo "$_want" | sort
}

# np_install_cross: install NP_CROSS_DEPS, and unpack the armhf and arm64
# -dev packages into NP_CROSS_SYSROOT/ARCH (again when apt has newer ones).
np_install_cross() {
	# shellcheck disable=SC2086
	np_install $NP_CROSS_DEPS || return 1
	if ! want=$(np_cross_want); then
		if [ "$(id -u)" -ne 0 ]; then
			echo "apt does not know the armhf and arm64 packages" \
			    "(run as root)" >&2
			return 1
		fi
		for a in armhf arm64; do
			dpkg --print-foreign-architectures | grep -qx "$a" ||
			    dpkg --add-architecture "$a"
		done
		apt-get update -qq || return 1
		want=$(np_cross_want) || return 1
	fi
	np_openssl_src || echo "the OpenSSL source could not be fetched:" \
	    "the static builds link Debian's full libcrypto" >&2
	for a in armhf arm64; do
		dir=$NP_CROSS_SYSROOT/$a
		v=$(echo "$want" | sed -n "s/^$a //p")
		[ "$(cat "$dir/.versions" 2>/dev/null)" = "$v" ] && continue
		echo "unpacking $NP_CROSS_LIBS ($a) into $dir"
		rm -rf "$dir.new"
		mkdir -p "$dir.new/debs" || return 1
		# shellcheck disable=SC2046,SC2086
		(cd "$dir.new/debs" && apt-get download -q \
		    $(printf "%s:$a " $NP_CROSS_LIBS)) >"$dir.new/log" 2>&1 || {
			cat "$dir.new/log" >&2
			return 1
		}
		for d in "$dir.new"/debs/*.deb; do
			dpkg-deb -x "$d" "$dir.new" || return 1
		done
		rm -rf "$dir.new/debs" "$dir.new/log"
		echo "$v" >"$dir.new/.versions"
		rm -rf "$dir"
		mv "$dir.new" "$dir"
	done
}

# np_openssl_src: Debian's source package of OpenSSL, unpacked with its
# patches into NP_OPENSSL_SRC/openssl-VERSION (VERSION the package's), for
# packaging/openssl.sh to build the smaller libcrypto and libssl that the
# static binaries link; the newest version apt can fetch, again when apt
# has a newer one.  apt runs with a state of its own under NP_OPENSSL_SRC,
# whose deb-src entries are the machine's deb ones: /etc/apt is left as it
# is.  apt checks what it fetches against the archive's signed index.
NP_OPENSSL_SRC=${NP_OPENSSL_SRC:-/var/cache/nasperf/openssl-src}
np_openssl_src() {
	np_install dpkg-dev xz-utils || return 1
	_s=$NP_OPENSSL_SRC
	mkdir -p "$_s/apt/parts" "$_s/apt/lists/partial" \
	    "$_s/apt/cache/archives/partial" || return 1
	# The machine's Debian entries, as source ones.
	for _f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$_f" ] && sed 's/^Types:.*/Types: deb-src/' "$_f"
		echo
	done >"$_s/apt/parts/src.sources"
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
	    sed -n 's/^deb[[:space:]]/deb-src /p' >"$_s/apt/sources.list"
	set -- -o Dir::Etc::SourceList="$_s/apt/sources.list" \
	    -o Dir::Etc::SourceParts="$_s/apt/parts" \
	    -o Dir::State::Lists="$_s/apt/lists" \
	    -o Dir::Cache="$_s/apt/cache" -o APT::Sandbox::User=root
	# An entry without sources (a vendor's) fails alone: the others
	# are read all the same.
	apt-get -qq "$@" update >"$_s/apt/update.log" 2>&1 ||
	    cp "$_s/apt/update.log" "$_s/apt/log"
	# Newest first; a version whose files the mirror no longer has is
	# passed over for the next.
	for _v in $(apt-cache "$@" showsrc openssl 2>/dev/null |
	    sed -n 's/^Version: //p' | sort -rV | uniq); do
		_u=${_v%-*}
		_u=${_u#*:}
		if [ -f "$_s/openssl-$_u/.debian-version" ] &&
		    [ "$(cat "$_s/openssl-$_u/.debian-version")" = "$_v" ]; then
			rm -rf "$_s/fetch"
			echo "$_s/openssl-$_u" >"$_s/current"
			return 0
		fi
		rm -rf "$_s/fetch"
		mkdir -p "$_s/fetch" || return 1
		(cd "$_s/fetch" && apt-get -q "$@" source --download-only \
		    "openssl=$_v") >"$_s/apt/log" 2>&1 || continue
		echo "unpacking Debian's OpenSSL $_v into $_s/openssl-$_u"
		rm -rf "$_s/openssl-$_u.new"
		(cd "$_s/fetch" && dpkg-source -q -x ./*.dsc \
		    "$_s/openssl-$_u.new") >"$_s/apt/log" 2>&1 || {
			cat "$_s/apt/log" >&2
			return 1
		}
		echo "$_v" >"$_s/openssl-$_u.new/.debian-version"
		# The source in use stays until this one is in place.
		rm -rf "$_s/openssl-$_u"
		mv "$_s/openssl-$_u.new" "$_s/openssl-$_u" || return 1
		echo "$_s/openssl-$_u" >"$_s/current"
		# Other versions, and the upstream tarball that dpkg-source
		# leaves beside what it unpacks.
		for _d in "$_s"/openssl-[0-9]* "$_s"/openssl_*; do
			[ "$_d" = "$_s/openssl-$_u" ] || rm -rf "$_d"
		done
		rm -rf "$_s/fetch"
		return 0
	done
	cat "$_s/apt/log" >&2 2>/dev/null
	echo "apt could fetch no source package of openssl" >&2
	return 1
}

# np_web: the page's npm packages (web/package-lock.json) into
# web/node_modules of NP_TOP (default: here), once and again when the
# lock file changes.  Node.js and npm from Debian, unless a node and an
# npm are there already.
np_web() {
	_top=${NP_TOP:-.}
	command -v node >/dev/null 2>&1 || np_install nodejs || return 1
	command -v npm >/dev/null 2>&1 || np_install npm || return 1
	[ "$_top/web/node_modules/.package-lock.json" -nt \
	    "$_top/web/package-lock.json" ] && return 0
	echo "installing the page's npm packages (web/package-lock.json)"
	(cd "$_top/web" && npm ci --no-audit --no-fund --loglevel=error) ||
	    return 1
	touch "$_top/web/node_modules/.package-lock.json"
}

# np_build DIR [CONFIGURE ARGS...]: configure and build in DIR.
np_build() {
	dir=$1
	shift
	np_web || return 1
	if ! [ -x "$NP_TOP/configure" ] ||
	    ! [ "$NP_TOP/configure" -nt "$NP_TOP/configure.ac" ]; then
		if ! (cd "$NP_TOP" && autoreconf -fi) >"$NP_TOP/autoreconf.log" 2>&1; then
			cat "$NP_TOP/autoreconf.log" >&2
			echo "autoreconf failed" >&2
			return 1
		fi
	fi
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || "$NP_TOP/configure" -q "$@"; } &&
	    make -s -j"$(nproc)")
}
