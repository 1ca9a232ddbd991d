# vendor-lib.sh: shared by spk.sh and qpkg.sh (sourced, POSIX sh).

# np_die MESSAGE: print to stderr and exit 1.
np_die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

# np_configure_version TOP: the version in TOP/configure.ac's AC_INIT.
np_configure_version() {
	sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$1/configure.ac"
}

# np_check_version V: DSM takes digits and dots before its build number,
# and QTS at most 10 characters.
np_check_version() {
	case $1 in
	'' | *[!0-9.]* | .* | *. | *..*)
		np_die "version '$1': the NAS packages take digits and dots" ;;
	esac
	[ "${#1}" -le 10 ] || np_die "version '$1': more than 10 characters"
}

# np_check_bin ARCH DIR: DIR has executable nasperfd and nasperf built for
# ARCH (e_machine of the ELF header: 62 x86-64, 40 ARM, 183 AArch64).
np_check_bin() {
	case $1 in
	x86_64) want=62 ;;
	armhf) want=40 ;;
	aarch64) want=183 ;;
	*) np_die "--arch $1: not x86_64, armhf or aarch64" ;;
	esac
	for b in nasperfd nasperf; do
		[ -x "$2/$b" ] || np_die "$2/$b: no such executable"
		m=$(od -An -tu2 -j18 -N2 "$2/$b" | tr -d ' ')
		[ "$m" = "$want" ] ||
		    np_die "$2/$b: built for ELF machine $m, not $1"
	done
}

# np_packaged_config FILE STATE: the configuration FILE with a note on where
# the package keeps its state.
np_packaged_config() {
	cat <<EOF
# The nasperf NAS package copies this file to $2/nasperfd.yaml
# at installation and starts nasperfd with that copy: edit the copy, which
# upgrades keep.  The package starts nasperfd with -s $2/state,
# which takes the place of state_dir below.
#
EOF
	cat "$1"
}

# np_tar DIR OUT FLAG MEMBER...: a tar of DIR's MEMBERs, owned by root,
# in name order, in the ustar format that BusyBox tar reads; FLAG is -z
# for gzip or empty.  SOURCE_DATE_EPOCH, when set, fixes the times.
np_tar() {
	_np_dir=$1 _np_out=$2 _np_flag=$3
	shift 3
	tar --format=ustar --owner=0 --group=0 --numeric-owner --sort=name \
	    ${SOURCE_DATE_EPOCH:+--mtime=@$SOURCE_DATE_EPOCH} \
	    -cf "$_np_out.tar" -C "$_np_dir" "$@" || return 1
	if [ "$_np_flag" = -z ]; then
		gzip -n -9 -c "$_np_out.tar" >"$_np_out" || return 1
		rm -f "$_np_out.tar"
	else
		mv "$_np_out.tar" "$_np_out"
	fi
}
