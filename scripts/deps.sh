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
libevent-dev libyaml-dev libjansson-dev libsmbclient-dev libnfs-dev"
NP_TEST_DEPS="curl jq sysstat prometheus btrfs-progs mandoc systemd \
util-linux procps fio chromium iperf3 iproute2 shellcheck \
samba smbclient nfs-ganesha nfs-ganesha-vfs rpcbind"

# np_build DIR [CONFIGURE ARGS...]: configure and build in DIR.
np_build() {
	dir=$1
	shift
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
