#!/bin/sh
# mkcorpus.sh: write the seed corpora of the libFuzzer targets,
# tests/fuzz/corpus/<family>/, from real inputs (corpus/README.md says
# which).  Files it does not make (curl's captured request heads, crash-*
# regressions) are left alone; the ones it makes are overwritten.
#
#   sh tests/fuzz/mkcorpus.sh BUILDDIR NAS_SAMPLES
#
# BUILDDIR is a build tree where make check has unpacked the fixture boxes
# (tests/fixtures/trees/); NAS_SAMPLES the nas-samples folder of published
# captures (its repo-fixtures/, other projects' test data, is not used).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
trees=${1:?usage: mkcorpus.sh BUILDDIR NAS_SAMPLES}/tests/fixtures/trees
samples=${2:?usage: mkcorpus.sh BUILDDIR NAS_SAMPLES}
out=$top/tests/fuzz/corpus
token=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
boxes="debian12-6.1-btrfs dsm6-3.10-armhf dsm7-4.4-x86_64 qts5-5.10-x86_64 \
readynas6-4.4-armhf"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
mkdir -p "$out/probes" "$out/mdstat" "$out/bonding" "$out/cpuinfo" \
    "$out/smbstatus" "$out/importers" "$out/cfg" "$out/http" "$out/synth"

# seed FAMILY NAME FILE: copy a file in as it is.
seed() {
	cp "$3" "$out/$1/$2"
}

# heredoc FILE START: the lines of the here-document that starts on the
# line START of FILE, its shell variables given example values.
# shellcheck disable=SC2016
heredoc() {
	sed -n "\\|$2|,/^CONF\$/p" "$1" | sed -e '1d' -e '$d' \
	    -e 's|\$S|/var/lib/nptest/smb|g; s|\$SPORT|4450|g; s|\${2:-lo}|lo|g' \
	    -e 's|\$1|/srv/share|g; s|\$G|/var/lib/nptest/ganesha|g' \
	    -e 's|\$T_TMP|/var/lib/nptest|g'
}

# probes: the first byte picks the parser, by its place in the table of
# fuzz_parsers.c; each parser gets its file from every box that has one,
# from the published captures of that file, and smb.conf and ganesha.conf
# as the integration tests run smbd and ganesha.nfsd with them.
sed -n 's/^	{ "\([a-z]*\)", PROBE_\([A-Z]*\), "\([^"]*\)".*/\1 \2 \3/p' \
    "$top/tests/fuzz/fuzz_parsers.c" | {
	i=0
	while read -r name fs file; do
		# shellcheck disable=SC2059
		sel=$(printf "\\$(printf %03o "$i")")
		dir=$(echo "$fs" | tr '[:upper:]' '[:lower:]')
		for box in $boxes; do
			f=$trees/$box/$dir/$file
			[ -f "$f" ] || continue
			{ printf '%s' "$sel"; cat "$f"; } >"$out/probes/$name-$box"
		done
		case $name in
		crypto)	f=generic-armada385-marvell-cesa-2025/proc-crypto-after-modprobe.txt ;;
		diskstats) f=synology-sata-naming-lvm-2024/diskstats.txt ;;
		exports) f=synology-dsm7-nfs/etc-exports-line.txt ;;
		*)	f= ;;
		esac
		[ -z "$f" ] || { printf '%s' "$sel"; cat "$samples/$f"; } \
		    >"$out/probes/$name-$(dirname "$f")"
		# shellcheck disable=SC2016
		case $name in
		smbconf) heredoc "$top/tests/integration/lib.sh" \
		    'cat >"$S/smb.conf" <<CONF' ;;
		ganesha) heredoc "$top/tests/integration/87-verdict-path-nfs.sh" \
		    'cat >"$G/ganesha.conf" <<CONF' ;;
		esac >"$tmp"
		[ ! -s "$tmp" ] || { printf '%s' "$sel"; cat "$tmp"; } \
		    >"$out/probes/$name-integration"
		i=$((i + 1))
	done
}

# mdstat, bonding, cpuinfo: the boxes' files and the published captures.
for box in $boxes; do
	for p in mdstat:proc/mdstat cpuinfo:proc/cpuinfo \
	    bonding:proc/net/bonding/bond0; do
		f=$trees/$box/${p#*:}
		[ -f "$f" ] && seed "${p%%:*}" "$box" "$f"
	done
done
for f in "$samples"/*/mdstat*.txt; do
	d=$(basename "$(dirname "$f")")
	seed mdstat "$d-$(basename "$f" .txt)" "$f"
done
for f in "$samples"/*/cpuinfo.txt; do
	seed cpuinfo "$(basename "$(dirname "$f")")" "$f"
done
seed bonding generic-centos-bond-8023ad \
    "$samples/generic-centos-bond-8023ad/proc-net-bonding-bond0.txt"

# smbstatus, importers, cfg: the unit tests' captures and files.
for f in "$top"/tests/fixtures/smbstatus/*; do
	seed smbstatus "$(basename "$f")" "$f"
done
for f in "$top"/tests/fixtures/importers/*; do
	[ "$(basename "$f")" = README ] || seed importers "$(basename "$f")" "$f"
done
for f in "$top"/tests/unit/cfg/*.yaml; do
	seed cfg "$(basename "$f")" "$f"
done
seed cfg nasperfd.yaml "$top/etc/nasperfd.yaml"

# http: the request targets nasperf and the integration tests send (ids
# made numbers), and a token as the Authorization header carries it.
n=0
for t in /healthz /metrics /v1/info /v1/topology /v1/time /v1/counters \
    '/v1/counters?interval=2' /v1/samples '/v1/samples?from=-30&step=1' \
    '/v1/samples?from=1000000000&to=1000000100' '/v1/samples?from=yesterday' \
    '/v1/verdict?seconds=5' /v1/runs /v1/runs/12 /v1/runs/12/end \
    /v1/runs/12/report '/v1/runs/12/report?format=text' \
    '/v1/runs/12/report?format=pdf' /v1/runs/abc /v1/transfers \
    '/v1/transfers?client=192.0.2.77' '/v1/transfers?client=nas.lan' \
    /v1/transfers/3/report /v1/disktests /v1/disktests/1 /v1/cache/drop \
    /v1/nope '/v1/synth?bytes=1'; do
	n=$((n + 1))
	printf '%s' "$t" >"$out/http/target-$n"
done
printf 'Bearer %s' "$token" >"$out/http/bearer"

# synth: the request heads of nasperf synth, as cmd_synth.c writes them.
# reqhead FILE LINE...: a head of those lines, each ended by CRLF.
reqhead() {
	f=$1
	shift
	printf '%s\r\n' "$@" "" >"$out/synth/$f"
}
auth="Authorization: Bearer $token"
ua="User-Agent: nasperf/$(sed -n \
    's/^AC_INIT(\[nasperf\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")"
reqhead nasperf-get-bytes \
    "GET /v1/synth?bytes=1073741824&pattern=random&seed=0 HTTP/1.1" \
    "Host: 192.0.2.10:9632" "$auth" "$ua" "Connection: close"
reqhead nasperf-get-seconds \
    "GET /v1/synth?seconds=10&pattern=mixed&seed=3 HTTP/1.1" \
    "Host: [2001:db8::10]:9632" "$auth" "$ua" "Connection: close"
reqhead nasperf-put "PUT /v1/synth?pattern=zero&seed=0&verify=1 HTTP/1.1" \
    "Host: 192.0.2.10:9632" "$auth" "$ua" "Content-Length: 1073741824" \
    "Expect: 100-continue" "Connection: close"
