#!/bin/bash
# vendor.sh: the Synology (.spk) and QNAP (.qpkg) packages.
#
# Builds both with make, unpacks them (tar for the .spk; for the .qpkg the
# sizes its header records, as the header itself does) and checks their
# layout: INFO and qpkg.cfg keys, arch, version (configure's), executables,
# conf/privilege and conf/resource as JSON, icons as PNGs, and shellcheck on
# every script.  Then it runs the packages' own scripts the way Package
# Center and App Center do, against a scratch root (SYNOPKG_* variables,
# NASPERF_SYSROOT and QINSTALL_PATH point into it), with packages built
# around a configuration that listens on loopback: install, start, start
# again (one daemon), status, /healthz, stop, stop again, upgrade (a saved
# state file survives) and uninstall (nothing is left).

# shellcheck source-path=SCRIPTDIR source=../integration/lib.sh
. "${NP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"

need_cmd shellcheck jq curl tar gzip od md5sum pgrep
B=$NP_BUILDDIR
S=$NP_SRCDIR
VERSION=$(sed -n 's/^VERSION = //p' "$B/Makefile")
[ -n "$VERSION" ] || skip_all "no VERSION in $B/Makefile"
[ "$(uname -m)" = x86_64 ] || skip_all "the packages tested here are x86_64"
if [ ! -x "$B/daemon/nasperfd" ] || [ ! -x "$B/client/nasperf" ]; then
	skip_all "nasperfd and nasperf are not built"
fi

# Stop every daemon that the packages started, by the pids they recorded.
# shellcheck disable=SC2016 # expanded when the test exits
at_exit 'for f in $(find "$T_TMP" -name nasperfd.pid); do kill "$(cat "$f")"; done'

# --- building ------------------------------------------------------------

OUT=$T_TMP/out
mkdir -p "$OUT"
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$B" spk qpkg \
    NASPKG_ARCHES=x86_64 NASPKG_OUTDIR="$OUT" >"$T_TMP/make.log" 2>&1; then
	ok "make spk qpkg"
else
	not_ok "make spk qpkg" "$(tail -n 5 "$T_TMP/make.log")"
fi
SPK=$OUT/nasperf-x86_64-$VERSION-1.spk
QPKG=$OUT/nasperf_${VERSION}_x86_64.qpkg
check "both packages built" test -s "$SPK" -a -s "$QPKG" ||
    stop_testing "no packages to look into"

# The binaries the make targets used, for the packages built below.
if [ -x "$B/static/x86_64/nasperfd" ] && [ -x "$B/static/x86_64/nasperf" ]; then
	BIN=$B/static/x86_64
else
	BIN=$B/naspkg-bin/x86_64
fi

# png_size FILE: "WIDTHxHEIGHT" from the IHDR of a PNG, or "not a PNG".
png_size() {
	local sig w h
	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || { echo "not a PNG"; return; }
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 }')
	echo "${w}x$h"
}

# kv FILE KEY: the value of KEY="value" in an INFO or qpkg.cfg file.
kv() {
	sed -n "s/^$2=\"\\(.*\\)\"\$/\\1/p" "$1"
}

SCRIPTS=()

# quiet CMD...: run CMD with its output kept for the TAP diagnostics of a
# failure only.
quiet() {
	local out rc=0
	out=$("$@" 2>&1) || rc=$?
	[ "$rc" -eq 0 ] || printf '%s\n' "$out" | sed 's/^/#   /'
	return "$rc"
}

# --- the .spk: layout ------------------------------------------------------

X=$T_TMP/spk
mkdir -p "$X/package"
tar -xf "$SPK" -C "$X"
for f in INFO package.tgz scripts/start-stop-status scripts/installer \
    conf/privilege conf/resource PACKAGE_ICON.PNG PACKAGE_ICON_256.PNG; do
	check "spk has $f" test -e "$X/$f"
done
missing=
for s in preinst postinst preuninst postuninst preupgrade postupgrade \
    start-stop-status; do
	[ -x "$X/scripts/$s" ] || missing="$missing $s"
done
is "spk: every lifecycle script is there and executable" "$missing" ""
for k in package version os_min_ver description arch maintainer \
    displayname thirdparty extractsize checksum; do
	check "INFO has $k" test -n "$(kv "$X/INFO" "$k")"
done
is "INFO package" "$(kv "$X/INFO" package)" nasperf
is "INFO version is configure's, with DSM's build number" \
    "$(kv "$X/INFO" version)" "$VERSION-0001"
is "INFO os_min_ver is DSM 7's" "$(kv "$X/INFO" os_min_ver)" 7.0-40000
is "INFO arch names the x86_64 family" \
    "$(kv "$X/INFO" arch | tr ' ' '\n' | grep -cx x86_64)" 1
is "INFO checksum is package.tgz's md5" "$(kv "$X/INFO" checksum)" \
    "$(md5sum <"$X/package.tgz" | cut -d' ' -f1)"
is "conf/privilege is JSON running as the package user" \
    "$(jq -r '.defaults["run-as"]' "$X/conf/privilege" 2>&1)" package
check "conf/resource is JSON" quiet jq -e . "$X/conf/resource"
is "conf/resource links bin/nasperf into /usr/local/bin" \
    "$(jq -r '."usr-local-linker".bin[0]' "$X/conf/resource")" bin/nasperf
is "PACKAGE_ICON.PNG is a 64x64 PNG" "$(png_size "$X/PACKAGE_ICON.PNG")" 64x64
is "PACKAGE_ICON_256.PNG is a 256x256 PNG" \
    "$(png_size "$X/PACKAGE_ICON_256.PNG")" 256x256
tar -xzf "$X/package.tgz" -C "$X/package"
for f in bin/nasperfd bin/nasperf bin/nasperfd-ctl; do
	check "package.tgz: $f is executable" test -x "$X/package/$f"
done
check "package.tgz has the port file that conf/resource names" \
    test -f "$X/package/$(jq -r '."port-config"."protocol-file"' "$X/conf/resource")"
is "package.tgz: nasperfd -V" "$("$X/package/bin/nasperfd" -V)" \
    "nasperfd $VERSION"
check "package.tgz: etc/nasperfd.yaml is etc/nasperfd.yaml with a note" \
    cmp -s <(grep -v '^#' "$X/package/etc/nasperfd.yaml") \
    <(grep -v '^#' "$S/etc/nasperfd.yaml")
SCRIPTS+=("$X/scripts/installer" "$X/scripts/start-stop-status"
    "$X/package/bin/nasperfd-ctl")

# --- the .qpkg: layout -----------------------------------------------------

# qpkg_split QPKG DIR: the parts of a QPKG, by the sizes its header
# records: DIR/header, DIR/control (control.tar.gz's files), DIR/data (the
# package directory), DIR/tail.
qpkg_split() {
	local q=$1 d=$2 script_len ctrl_len data_len
	mkdir -p "$d/control" "$d/data"
	head -c 4096 "$q" | sed -n '1,/^exit 1$/p' >"$d/head.txt"
	script_len=$(sed -n 's/^script_len=\([0-9]*\) *$/\1/p' "$d/head.txt")
	ctrl_len=$(sed -n 's/^ctrl_len=\([0-9]*\) *$/\1/p' "$d/head.txt")
	data_len=$(sed -n 's/^data_len=\([0-9]*\) *$/\1/p' "$d/head.txt")
	[ -n "$script_len" ] && [ -n "$ctrl_len" ] && [ -n "$data_len" ] ||
	    return 1
	echo "$script_len $ctrl_len $data_len" >"$d/lengths"
	head -c "$script_len" "$q" >"$d/header"
	tail -c +$((script_len + 1)) "$q" | head -c "$ctrl_len" >"$d/control.tar"
	tail -c +$((script_len + ctrl_len + 1)) "$q" | head -c "$data_len" \
	    >"$d/data.tar.gz"
	tail -c 100 "$q" >"$d/tail"
	tar -xOf "$d/control.tar" control.tar.gz | tar -xzf - -C "$d/control" &&
	    tar -xzf "$d/data.tar.gz" -C "$d/data"
}

Q=$T_TMP/qpkg
check "qpkg: the header's sizes split it into its parts" qpkg_split "$QPKG" "$Q"
read -r script_len ctrl_len data_len <"$Q/lengths"
is "qpkg: header + control + data + 100-byte tail is the whole file" \
    "$((script_len + ctrl_len + data_len + 100))" "$(wc -c <"$QPKG")"
is "qpkg: control.tar holds control.tar.gz" \
    "$(tar -tf "$Q/control.tar")" control.tar.gz
tailtxt=$(cat "$Q/tail")
is "qpkg tail: flag" "${tailtxt:90:10}" "QNAPQPKG  "
is "qpkg tail: name" "${tailtxt:60:20}" "$(printf '%-20s' nasperf)"
is "qpkg tail: version" "${tailtxt:80:10}" "$(printf '%-10s' "$VERSION")"
size=$(wc -c <"$QPKG")
is "qpkg tail: QTS's size check (qpkg_encrypt)" "${tailtxt:40:10}" \
    "$(echo $((size * 3589 + 1000000000)) | cut -c1-10)"
for f in qinstall.sh package_routines qpkg.cfg built_info; do
	check "qpkg control has $f" test -f "$Q/control/$f"
done
for k in QPKG_NAME QPKG_VER QPKG_AUTHOR QPKG_DISPLAY_NAME QPKG_SUMMARY \
    QPKG_RC_NUM QPKG_SERVICE_PROGRAM QPKG_SERVICE_PORT; do
	check "qpkg.cfg has $k" test -n "$(kv "$Q/control/qpkg.cfg" "$k")"
done
is "qpkg.cfg QPKG_NAME" "$(kv "$Q/control/qpkg.cfg" QPKG_NAME)" nasperf
is "qpkg.cfg QPKG_VER is configure's version" \
    "$(kv "$Q/control/qpkg.cfg" QPKG_VER)" "$VERSION"
svc=$(kv "$Q/control/qpkg.cfg" QPKG_SERVICE_PROGRAM)
for f in "$svc" .uninstall.sh bin/nasperfd bin/nasperf bin/nasperfd-ctl; do
	check "qpkg data: $f is executable" test -x "$Q/data/$f"
done
is "qpkg data: .qpkg_icon.gif is a 64x64 PNG" \
    "$(png_size "$Q/data/.qpkg_icon.gif")" 64x64
is "qpkg data: .qpkg_icon_80.gif is an 80x80 PNG" \
    "$(png_size "$Q/data/.qpkg_icon_80.gif")" 80x80
is "qpkg data: .qpkg_icon_gray.gif is a 64x64 PNG" \
    "$(png_size "$Q/data/.qpkg_icon_gray.gif")" 64x64
is "qpkg header: checks the NAS is x86_64" \
    "$(grep -c '^x86_64) ;;$' "$Q/header")" 1
SCRIPTS+=("$Q/header" "$Q/control/qinstall.sh" "$Q/data/$svc"
    "$Q/data/.uninstall.sh" "$Q/data/bin/nasperfd-ctl")

# --- shellcheck --------------------------------------------------------------

for f in "${SCRIPTS[@]}" "$S/packaging/spk.sh" "$S/packaging/qpkg.sh" \
    "$S/tests/packaging/vendor.sh"; do
	if out=$(shellcheck -x -s "$(sed -n '1s|^#!.*/||p' "$f")" "$f" 2>&1); then
		ok "shellcheck ${f#"$T_TMP"/}"
	else
		not_ok "shellcheck ${f#"$T_TMP"/}" "$out"
	fi
done

# --- packages to run here ----------------------------------------------------

PORT=$(free_port)
SYNTH=$(free_port)
sed -e "s/^  listen: 0\\.0\\.0\\.0:9631/  listen: 127.0.0.1:$PORT/" \
    -e "s/^  listen: 9632/  listen: $SYNTH/" "$S/etc/nasperfd.yaml" \
    >"$T_TMP/loopback.yaml"
is "the test configuration listens on loopback" \
    "$(grep -c "127.0.0.1:$PORT" "$T_TMP/loopback.yaml")" 1
L=$T_TMP/run
mkdir -p "$L"
sh "$S/packaging/spk.sh" --arch x86_64 --bin "$BIN" --config "$T_TMP/loopback.yaml" \
    --out "$L/1.spk" >/dev/null &&
sh "$S/packaging/spk.sh" --arch x86_64 --bin "$BIN" --config "$T_TMP/loopback.yaml" \
    --build 2 --out "$L/2.spk" >/dev/null &&
sh "$S/packaging/qpkg.sh" --arch x86_64 --bin "$BIN" --config "$T_TMP/loopback.yaml" \
    --out "$L/1.qpkg" >/dev/null &&
sh "$S/packaging/qpkg.sh" --arch x86_64 --bin "$BIN" --config "$T_TMP/loopback.yaml" \
    --version "$VERSION.1" --out "$L/2.qpkg" >/dev/null
check "packages with the loopback configuration built" test -s "$L/2.qpkg" ||
    stop_testing "no packages to install"

URL=http://127.0.0.1:$PORT

# healthz: the HTTP status of /healthz, waiting a little for the listener.
healthz() {
	curl -s -o /dev/null -w '%{http_code}' --retry 10 --retry-delay 1 \
	    --retry-connrefused --retry-max-time 15 --max-time 5 "$URL/healthz"
}

# daemons ROOT: how many nasperfd processes run from under ROOT (the
# package scripts start "BIN/nasperfd -f -c VAR/nasperfd.yaml ...").
daemons() {
	pgrep -c -f -- "/nasperfd -f -c $1/" || true
}

# started_limits WHO PIDFILE: the daemon of PIDFILE runs under the limits
# nasperfd-ctl gives it: 16384 open files (as root; as another user the
# hard limit may be lower), no core file, umask 077.
started_limits() {
	local pid lim
	pid=$(cat "$2" 2>/dev/null)
	lim=$(awk '/^Max open files/ { print $4, $5 } /^Max core file size/ {
	    print $5, $6 }' "/proc/$pid/limits" 2>/dev/null | tr '\n' ' ')
	if [ "$(id -u)" -eq 0 ]; then
		is "$1: nasperfd runs with 16384 open files and no core file" \
		    "$lim" "0 0 16384 16384 "
	else
		skip "$1: the limits are root's to raise"
	fi
	is "$1: and umask 077" "$(awk '/^Umask:/ { print $2 }' \
	    "/proc/$pid/status" 2>/dev/null)" 0077
}

# --- Synology: Package Center's steps ------------------------------------------

R=$T_TMP/dsm
STORE=$R/volume1/@appstore/nasperf
DATA=$R/volume1/@appdata/nasperf
P=$R/var/packages/nasperf

# syno_env STATUS: Package Center's environment for the scripts (DSM 7).
syno_env() {
	export SYNOPKG_PKGNAME=nasperf SYNOPKG_PKGDEST=$P/target
	export SYNOPKG_PKGVAR=$P/var SYNOPKG_PKG_STATUS=$1
	export SYNOPKG_TEMP_UPGRADE_FOLDER=$R/tmp/upgrade
	export SYNOPKG_TEMP_LOGFILE=$R/tmp/log SYNOPKG_DSM_VERSION_MAJOR=7
	mkdir -p "$SYNOPKG_TEMP_UPGRADE_FOLDER"
}

# syno_unpack SPK DIR: the package as Package Center first extracts it.
syno_unpack() {
	rm -rf "$2"
	mkdir -p "$2"
	tar -xf "$1" -C "$2"
}

# syno_place DIR: extract package.tgz into the target and keep the
# package's INFO, scripts and conf, as DSM 7 lays them out.
syno_place() {
	mkdir -p "$STORE" "$DATA"
	ln -sfn "$STORE" "$P/target"
	[ -e "$P/var" ] || ln -sfn "$DATA" "$P/var"
	tar -xzf "$1/package.tgz" -C "$STORE"
	rm -rf "$P/scripts" "$P/conf"
	cp -a "$1/scripts" "$1/conf" "$1/INFO" "$P/"
}

syno_install() {
	syno_env INSTALL
	syno_unpack "$1" "$R/tmp/inst"
	mkdir -p "$P"
	"$R/tmp/inst/scripts/preinst" && syno_place "$R/tmp/inst" &&
	    "$P/scripts/postinst"
}

# syno_upgrade SPK: preupgrade (new), stop, preuninst and postuninst (old),
# then preinst, postinst and postupgrade (new), and start.
syno_upgrade() {
	syno_env UPGRADE
	syno_unpack "$1" "$R/tmp/inst"
	"$R/tmp/inst/scripts/preupgrade" &&
	    "$P/scripts/start-stop-status" stop >/dev/null &&
	    "$P/scripts/preuninst" && rm -rf "$STORE" "$P/target" &&
	    "$P/scripts/postuninst" && "$R/tmp/inst/scripts/preinst" &&
	    syno_place "$R/tmp/inst" && "$P/scripts/postinst" &&
	    "$P/scripts/postupgrade" &&
	    "$P/scripts/start-stop-status" start >/dev/null
}

syno_uninstall() {
	syno_env UNINSTALL
	"$P/scripts/start-stop-status" stop >/dev/null &&
	    "$P/scripts/preuninst" && rm -rf "$STORE" "$P/target" &&
	    "$P/scripts/postuninst"
}

check "dsm: install" quiet syno_install "$L/1.spk"
check "dsm: postinst put the configuration in the state directory" \
    test -f "$DATA/nasperfd.yaml"
syno_env START
SSS=$P/scripts/start-stop-status
check "dsm: start" quiet "$SSS" start
pid=$(cat "$DATA/nasperfd.pid" 2>/dev/null)
check "dsm: start again succeeds" quiet "$SSS" start
is "dsm: start again keeps one daemon" "$(daemons "$P")" 1
is "dsm: start again keeps the same pid" "$(cat "$DATA/nasperfd.pid")" "$pid"
check "dsm: status while running" quiet "$SSS" status
started_limits dsm "$DATA/nasperfd.pid"
is "dsm: /healthz on the packaged loopback port" "$(healthz)" 200
token=$(cat "$DATA/state/token" 2>/dev/null)
is "dsm: /v1/info with the token in the state directory" \
    "$(curl -s -H "Authorization: Bearer $token" "$URL/v1/info" | jq -r .version)" \
    "$VERSION"
is "dsm: log names the log file" "$("$SSS" log)" "$P/var/nasperfd.log"
check "dsm: stop" quiet "$SSS" stop
is "dsm: no daemon after stop" "$(daemons "$P")" 0
check "dsm: stop again succeeds" quiet "$SSS" stop
"$SSS" status >/dev/null
is "dsm: status when stopped is 3" "$?" 3

"$SSS" start >/dev/null
echo kept >"$DATA/state/saved"
echo "# edited" >>"$DATA/nasperfd.yaml"
check "dsm: upgrade to build 2 while running" quiet syno_upgrade "$L/2.spk"
is "dsm: upgrade installed build 2" "$(kv "$P/INFO" version)" "$VERSION-0002"
is "dsm: upgrade kept a saved state file" "$(cat "$DATA/state/saved" 2>&1)" kept
is "dsm: upgrade kept the edited configuration" \
    "$(tail -n 1 "$DATA/nasperfd.yaml")" "# edited"
is "dsm: the upgraded package runs" "$(healthz)" 200
is "dsm: one daemon after the upgrade" "$(daemons "$P")" 1
check "dsm: uninstall" quiet syno_uninstall
is "dsm: no daemon after uninstall" "$(daemons "$P")" 0
check "dsm: uninstall removed the target" test ! -e "$STORE"
check "dsm: uninstall removed the state directory" test ! -e "$DATA"
check "dsm: uninstall removed the state link" test ! -e "$P/var" -a ! -L "$P/var"

# DSM 6 sets no SYNOPKG_PKGVAR: the state lives in target/var, which
# preupgrade saves and postupgrade restores.
rm -rf "$R"
check "dsm6: install" quiet syno_install "$L/1.spk"
unset SYNOPKG_PKGVAR
rm -f "$P/var"
mkdir -p "$STORE/var/state"
echo kept >"$STORE/var/state/saved"
syno_upgrade6() {
	syno_env UPGRADE
	unset SYNOPKG_PKGVAR
	syno_unpack "$1" "$R/tmp/inst"
	"$R/tmp/inst/scripts/preupgrade" && "$P/scripts/preuninst" &&
	    rm -rf "$STORE" && "$P/scripts/postuninst" &&
	    syno_place "$R/tmp/inst" && rm -f "$P/var" &&
	    "$P/scripts/postinst" && "$P/scripts/postupgrade"
}
check "dsm6: upgrade" quiet syno_upgrade6 "$L/2.spk"
is "dsm6: upgrade kept target/var" "$(cat "$STORE/var/state/saved" 2>&1)" kept
syno_env UNINSTALL
unset SYNOPKG_PKGVAR
"$P/scripts/preuninst" && rm -rf "${STORE:?}/bin" && "$P/scripts/postuninst"
check "dsm6: uninstall removed target/var" test ! -e "$STORE/var"
unset SYNOPKG_PKGNAME SYNOPKG_PKGDEST SYNOPKG_PKG_STATUS \
    SYNOPKG_TEMP_UPGRADE_FOLDER SYNOPKG_TEMP_LOGFILE SYNOPKG_DSM_VERSION_MAJOR

# --- QNAP: App Center's steps ------------------------------------------------

R=$T_TMP/qts
INST=$R/share/CACHEDEV1_DATA/.qpkg
D=$INST/nasperf
CONF=$R/etc/config/qpkg.conf
mkdir -p "$INST" "$R/home/httpd/RSS/images"
export NASPERF_SYSROOT=$R

# qpkg_install QPKG: App Center runs the QPKG itself (exit 10: installed).
qpkg_install() {
	local rc=0
	QINSTALL_PATH=$INST sh "$1" >"$T_TMP/qinstall.log" 2>&1 || rc=$?
	[ "$rc" -eq 10 ] || { sed 's/^/#   /' "$T_TMP/qinstall.log"; return 1; }
}

# cfg KEY: a value of [nasperf] in qpkg.conf.
cfg() {
	awk -v k="$1" '/^\[/ { s = ($0 == "[nasperf]"); next }
	    s && $1 == k { sub(/^[^=]*= */, ""); print }' "$CONF"
}

check "qts: install by running the QPKG (exit 10)" qpkg_install "$L/1.qpkg"
is "qts: qpkg.conf Version" "$(cfg Version)" "$VERSION"
is "qts: qpkg.conf Install_Path" "$(cfg Install_Path)" "$D"
is "qts: qpkg.conf Shell" "$(cfg Shell)" "$D/nasperf.sh"
is "qts: qpkg.conf Enable" "$(cfg Enable)" TRUE
check "qts: /etc/init.d/nasperf.sh" test -x "$R/etc/init.d/nasperf.sh"
check "qts: boot link" test -L "$R/etc/rcS.d/QS101nasperf"
check "qts: shutdown link" test -L "$R/etc/rcK.d/QK899nasperf"
check "qts: App Center icon" test -f "$R/home/httpd/RSS/images/nasperf.gif"
is "qts: the install started nasperfd" "$(healthz)" 200
SVC=$R/etc/init.d/nasperf.sh
check "qts: start again succeeds" quiet "$SVC" start
is "qts: start again keeps one daemon" "$(daemons "$D")" 1
check "qts: status while running" quiet "$SVC" status
started_limits qts "$D/var/nasperfd.pid"
check "qts: stop" quiet "$SVC" stop
is "qts: no daemon after stop" "$(daemons "$D")" 0
check "qts: stop again succeeds" quiet "$SVC" stop
"$SVC" status >/dev/null
is "qts: status when stopped is 3" "$?" 3
sed -i 's/^Enable = TRUE/Enable = FALSE/' "$CONF"
"$SVC" start >/dev/null
is "qts: start refuses while the app is disabled" "$?" 1
sed -i 's/^Enable = FALSE/Enable = TRUE/' "$CONF"
check "qts: start" quiet "$SVC" start
is "qts: /healthz after start" "$(healthz)" 200

echo kept >"$D/var/state/saved"
check "qts: upgrade to $VERSION.1 while running" qpkg_install "$L/2.qpkg"
is "qts: qpkg.conf Version after the upgrade" "$(cfg Version)" "$VERSION.1"
is "qts: one [nasperf] section" "$(grep -c '^\[nasperf\]$' "$CONF")" 1
is "qts: upgrade kept a saved state file" "$(cat "$D/var/state/saved" 2>&1)" kept
is "qts: the upgraded package runs" "$(healthz)" 200
is "qts: one daemon after the upgrade" "$(daemons "$D")" 1
check "qts: uninstall (.uninstall.sh)" quiet sh "$D/.uninstall.sh"
is "qts: no daemon after uninstall" "$(daemons "$D")" 0
check "qts: package directory removed" test ! -e "$D"
is "qts: nothing left in /etc and the icons" \
    "$(find "$R/etc/init.d" "$R/etc/rcS.d" "$R/etc/rcK.d" \
       "$R/home/httpd/RSS/images" -mindepth 1)" ""
is "qts: [nasperf] removed from qpkg.conf" "$(grep -c nasperf "$CONF")" 0
is "qts: nothing left in the install path" "$(ls -A "$INST")" ""

done_testing
