#!/bin/bash
# t_fixtures.sh: every fixture archive unpacks, every box has the files the
# probes read, each tree agrees with itself (device numbers, links, mounts,
# field counts for its kernel), and capture.sh turns this machine into an
# archive that unpacks and holds none of its MAC addresses.

export LC_ALL=C
src=${NP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
fx=$src/tests/fixtures
tmp=$(mktemp -d "${TMPDIR:-/tmp}/t_fixtures.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

n=0
fails=0
ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}
notok() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do
		echo "#   $l"
	done
}
check() {	# check DESCRIPTION PROBLEMS...: ok when there are none
	local what=$1
	shift
	if [ $# -eq 0 ] || { [ $# -eq 1 ] && [ -z "$1" ]; }; then
		ok "$what"
	else
		notok "$what" "$@"
	fi
}

# The field count /proc/diskstats has on kernel release $1.
fields_for() {
	local maj min
	maj=${1%%.*}
	min=${1#*.}
	min=${min%%[!0-9]*}
	if [ "$maj" -lt 4 ] || { [ "$maj" -eq 4 ] && [ "$min" -lt 18 ]; }; then
		echo 14
	elif [ "$maj" -eq 4 ] || { [ "$maj" -eq 5 ] && [ "$min" -lt 5 ]; }; then
		echo 18
	else
		echo 20
	fi
}
has_psi() {
	local maj min
	maj=${1%%.*}
	min=${1#*.}
	min=${min%%[!0-9]*}
	[ "$maj" -gt 4 ] || { [ "$maj" -eq 4 ] && [ "$min" -ge 20 ]; }
}

box_checks() {	# box_checks NAME ARCHIVE
	local box=$1 ar=$2 t=$tmp/$1 p rel want probs l dev d
	if sh "$fx/unpack.sh" "$ar" "$t" 2>"$tmp/err"; then
		ok "$box: unpacks"
	else
		notok "$box: unpacks" "$(cat "$tmp/err")"
		return
	fi

	probs=()
	for h in box firmware kernel arch date source facts; do
		grep -q "^# $h: " "$ar" || probs+=("no '# $h:' header line")
	done
	grep -q "^# box: $box\$" "$ar" || probs+=("'# box:' does not say $box")
	check "$box: header names box, firmware, kernel, arch, date, source, facts" "${probs[@]}"

	probs=()
	for p in proc/stat proc/cpuinfo proc/meminfo proc/diskstats \
	    proc/partitions proc/mounts proc/self/mountinfo proc/uptime \
	    proc/loadavg proc/version proc/softirqs proc/crypto proc/net/dev \
	    proc/sys/kernel/osrelease proc/sys/kernel/hostname \
	    proc/sys/kernel/ostype; do
		[ -f "$t/$p" ] || probs+=("missing $p")
	done
	[ -d "$t/proc/self" ] && [ ! -L "$t/proc/self" ] ||
	    probs+=("proc/self is not a real directory")
	ls "$t"/sys/block/* >/dev/null 2>&1 || probs+=("no sys/block entries")
	ls "$t"/sys/class/net/* >/dev/null 2>&1 || probs+=("no sys/class/net entries")
	ls "$t"/etc/* >/dev/null 2>&1 || ls "$t"/etc.defaults/* >/dev/null 2>&1 ||
	    probs+=("no identity files under etc/")
	check "$box: has the files the probes read" "${probs[@]}"

	rel=$(cat "$t/proc/sys/kernel/osrelease" 2>/dev/null)
	want=$(fields_for "${rel:-0.0}")
	probs=($(awk -v w="$want" 'NF != w { print NR ":" NF }' "$t/proc/diskstats"))
	check "$box: every diskstats line has $want fields (kernel $rel)" "${probs[@]}"

	if has_psi "${rel:-0.0}"; then
		probs=()
		for p in cpu io memory; do
			[ -f "$t/proc/pressure/$p" ] || probs+=("no proc/pressure/$p")
		done
		check "$box: PSI files present (kernel >= 4.20)" "${probs[@]}"
	else
		if [ -e "$t/proc/pressure" ]; then
			notok "$box: no PSI before 4.20" "proc/pressure exists"
		else
			ok "$box: no PSI before 4.20"
		fi
	fi

	# Every sys/block device and partition, as "MAJ:MIN name".
	: >"$tmp/sysdevs"
	for d in "$t"/sys/block/*; do
		[ -f "$d/dev" ] || continue
		echo "$(cat "$d/dev") ${d##*/}" >>"$tmp/sysdevs"
		for p in "$d"/*/partition; do
			[ -f "$p" ] || continue
			p=${p%/partition}
			echo "$(cat "$p/dev") ${p##*/}" >>"$tmp/sysdevs"
		done
	done
	awk '{ print $1 ":" $2 " " $3 }' "$t/proc/diskstats" | sort >"$tmp/dsdevs"
	sort -o "$tmp/sysdevs" "$tmp/sysdevs"
	probs=($(comm -3 "$tmp/dsdevs" "$tmp/sysdevs" | tr ' \t' '_+'))
	check "$box: diskstats and sys/block list the same MAJ:MIN names" "${probs[@]}"

	awk 'NR > 2 && NF == 4 { print $1 ":" $2 " " $4 }' \
	    "$t/proc/partitions" | sort >"$tmp/ptdevs"
	probs=($(comm -23 "$tmp/ptdevs" "$tmp/sysdevs" | tr ' ' '_'))
	check "$box: every proc/partitions entry is in sys/block" "${probs[@]}"

	probs=()
	for l in "$t"/sys/block/* "$t"/sys/block/*/slaves/* \
	    "$t"/sys/block/*/holders/* "$t"/sys/block/*/*/holders/* \
	    "$t"/sys/block/*/device "$t"/sys/block/*/md/dev-*/block \
	    "$t"/sys/class/net/* "$t"/sys/class/net/*/master \
	    "$t"/sys/fs/btrfs/*/devices/*; do
		[ -L "$l" ] || continue
		[ -e "$l" ] || probs+=("${l#$t/} -> $(readlink "$l") dangles")
	done
	check "$box: block, md, btrfs and net links resolve" "${probs[@]}"

	probs=()
	for l in "$t"/sys/block/*/slaves/*; do
		[ -L "$l" ] || continue
		d=${l%/slaves/*}
		d=${d##*/}
		[ -L "$(readlink -f "$l")/holders/$d" ] ||
		    probs+=("${l#$t/} has no holders/$d back link")
	done
	check "$box: every slaves link has its holders link" "${probs[@]}"

	probs=($(awk '{ split($3, mm, ":"); if (mm[1] != 0) print $3 }' \
	    "$t/proc/self/mountinfo" | sort -u | while read -r dev; do
		grep -q "^$dev " "$tmp/sysdevs" || echo "$dev"
	done))
	check "$box: every mountinfo block MAJ:MIN is a device" "${probs[@]}"

	probs=()
	for p in "$t"/proc/[0-9]*/stat; do
		[ -f "$p" ] || continue
		d=${p%/stat}
		l=$(awk '{ print NF }' "$p")
		[ "$l" -ge 44 ] || probs+=("${p#$t/}: $l fields")
		if [ -f "$d/comm" ]; then
			grep -qF "($(cat "$d/comm"))" "$p" ||
			    probs+=("${d#$t/}: comm and stat disagree")
		fi
		[ -f "$d/cgroup" ] || probs+=("${d#$t/}: no cgroup")
	done
	check "$box: processes have stat, comm and cgroup that agree" "${probs[@]}"

	probs=()
	for p in "$t"/sys/class/net/*; do
		[ -d "$p" ] || continue
		for a in address mtu operstate type statistics/rx_bytes \
		    statistics/tx_bytes; do
			[ -f "$p/$a" ] || probs+=("${p#$t/}: no $a")
		done
	done
	check "$box: every NIC has address, mtu, operstate, type, statistics" "${probs[@]}"

	probs=($(grep -v '^#' "$ar" |
	    grep -oiE '([0-9a-f]{2}:){5}[0-9a-f]{2}' | tr 'A-F' 'a-f' |
	    grep -vE '^(00:00:5e:00:53:..|00:00:00:00:00:00|ff:ff:ff:ff:ff:ff)$' |
	    sort -u))
	check "$box: only documentation MAC addresses" "${probs[@]}"
}

found=0
for ar in "$fx"/*.ttar; do
	[ -f "$ar" ] || continue
	found=$((found + 1))
	b=${ar##*/}
	box_checks "${b%.ttar}" "$ar"
done
# The trees make check unpacked are the archives as they are now.
if [ -n "$NP_FIXTURES" ] && [ -d "$NP_FIXTURES" ]; then
	for ar in "$fx"/*.ttar; do
		[ -f "$ar" ] || continue
		b=${ar##*/}
		b=${b%.ttar}
		if [ ! -d "$NP_FIXTURES/$b" ]; then
			notok "$b: unpacked in \$NP_FIXTURES" "no $NP_FIXTURES/$b"
		elif d=$(diff -r --no-dereference "$tmp/$b" "$NP_FIXTURES/$b" 2>&1); then
			ok "$b: \$NP_FIXTURES/$b is the archive unpacked"
		else
			notok "$b: \$NP_FIXTURES/$b is the archive unpacked" \
			    "$(echo "$d" | head -3)"
		fi
	done
	if [ -d "$NP_FIXTURES/empty" ] && [ -z "$(ls -A "$NP_FIXTURES/empty")" ]; then
		ok "\$NP_FIXTURES/empty is an empty root"
	else
		notok "\$NP_FIXTURES/empty is an empty root"
	fi
fi
if [ "$found" -ge 5 ]; then
	ok "at least five fixture boxes ($found)"
else
	notok "at least five fixture boxes" "found $found"
fi

# The unpacker refuses what it must refuse, with the line number.
printf '# nasperf fixture archive 1\nF ../etc/passwd 0\n' >"$tmp/bad1.ttar"
printf '# nasperf fixture archive 1\nF /etc/passwd 0\n' >"$tmp/bad2.ttar"
printf '# nasperf fixture archive 1\nD proc\nF proc/stat 3\ncpu 1\n' >"$tmp/bad3.ttar"
printf '# nasperf fixture archive 1\nD proc\nbogus line\n' >"$tmp/bad4.ttar"
for i in 1 2 3 4; do
	if sh "$fx/unpack.sh" "$tmp/bad$i.ttar" "$tmp/bad$i" 2>"$tmp/err"; then
		notok "unpack.sh refuses bad archive $i"
	elif grep -q "bad$i.ttar:[0-9]*:" "$tmp/err"; then
		ok "unpack.sh refuses bad archive $i: $(cat "$tmp/err")"
	else
		notok "unpack.sh refuses bad archive $i with a line number" "$(cat "$tmp/err")"
	fi
done
printf '# nasperf fixture archive 1\nf a/b 2\nx\t \ny\nF a/c 0\nL a/d b\n' >"$tmp/good.ttar"
sh "$fx/unpack.sh" "$tmp/good.ttar" "$tmp/good" 2>"$tmp/err"
if [ "$(od -An -c "$tmp/good/a/b" | tr -s ' ')" = " x \t \n y" ] &&
    [ ! -s "$tmp/good/a/c" ] && [ "$(readlink "$tmp/good/a/d")" = b ]; then
	ok "unpack.sh keeps tabs, trailing blanks, a missing last newline, links"
else
	notok "unpack.sh keeps tabs, trailing blanks, a missing last newline, links" \
	    "$(od -c "$tmp/good/a/b" 2>&1 | head -3)"
fi

# capture.sh on this machine.
if sh "$fx/capture.sh" "$tmp/live.ttar" 2>"$tmp/caperr"; then
	ok "capture.sh captures this machine"
else
	notok "capture.sh captures this machine" "$(tail -5 "$tmp/caperr")"
fi
if sh "$fx/unpack.sh" "$tmp/live.ttar" "$tmp/live" 2>"$tmp/err"; then
	ok "the capture unpacks"
else
	notok "the capture unpacks" "$(cat "$tmp/err")"
fi
probs=()
[ -s "$tmp/live/proc/diskstats" ] || probs+=("no proc/diskstats")
[ -f "$tmp/live/proc/self/mountinfo" ] || probs+=("no proc/self/mountinfo")
[ -f "$tmp/live/proc/stat" ] || probs+=("no proc/stat")
blk=$(ls /sys/block 2>/dev/null | head -1)
if [ -n "$blk" ]; then
	[ -f "$tmp/live/sys/block/$blk/dev" ] ||
	    probs+=("no sys/block/$blk/dev")
	[ "$(cat "$tmp/live/sys/block/$blk/dev" 2>/dev/null)" = \
	    "$(cat "/sys/block/$blk/dev")" ] || probs+=("sys/block/$blk/dev differs")
fi
check "the capture has proc/diskstats, mountinfo and sys/block/${blk:-?}" "${probs[@]}"
probs=()
for a in /sys/class/net/*/address; do
	m=$(cat "$a" 2>/dev/null) || continue
	case $m in
	00:00:00:00:00:00|"") continue ;;
	esac
	grep -qiF "$m" "$tmp/live.ttar" && probs+=("$m of ${a%/address} is in the archive")
done
h=$(hostname 2>/dev/null)
if [ -n "$h" ] && [ "$h" != nas ] && [ "${#h}" -ge 4 ] &&
    grep -v '^#' "$tmp/live.ttar" | grep -qwF "$h"; then
	probs+=("hostname $h is in the archive")
fi
check "the capture holds no MAC address or hostname of this machine" "${probs[@]}"

echo "1..$n"
[ "$fails" -eq 0 ]
