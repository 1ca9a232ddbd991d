#!/bin/sh
# mkbox24.sh DIR: write a 24-disk box under DIR for bench/probe-cost: the
# live /proc files the probes read, plus 24 SATA disks of 3 partitions each,
# two RAID6 md arrays over them, and four NICs, in /proc/diskstats and /sys.
set -eu
D=$1
rm -rf "$D"
mkdir -p "$D/proc/self" "$D/sys/block" "$D/sys/class/net" "$D/etc"
for f in stat meminfo softirqs uptime loadavg version crypto; do
	cat "/proc/$f" >"$D/proc/$f" 2>/dev/null || :
done
cat /proc/self/mountinfo >"$D/proc/self/mountinfo"
if [ -d /proc/pressure ]; then
	mkdir -p "$D/proc/pressure"
	for f in cpu io memory; do
		cat "/proc/pressure/$f" >"$D/proc/pressure/$f" 2>/dev/null || :
	done
fi
: >"$D/proc/diskstats"
{
	echo "Personalities : [raid6] [raid5] [raid4]"
} >"$D/proc/mdstat"
i=0
for l in a b c d e f g h i j k l m n o p q r s t u v w x; do
	n=sd$l
	minor=$((i * 16))
	dev=$D/sys/devices/pci0000:00/0000:00:17.0/ata$((i + 1))/host$i/target$i:0:0/$i:0:0:0/block/$n
	mkdir -p "$dev/queue" "$dev/holders" "$dev/slaves"
	ln -s "../devices/pci0000:00/0000:00:17.0/ata$((i + 1))/host$i/target$i:0:0/$i:0:0:0/block/$n" "$D/sys/block/$n"
	echo "8:$minor" >"$dev/dev"
	echo 7814037168 >"$dev/size"
	echo 1 >"$dev/queue/rotational"
	echo "8 $minor $n 123456 789 98765432 45678 234567 890 87654321 56789 0 123456 102467" >>"$D/proc/diskstats"
	for p in 1 2 3; do
		mkdir -p "$dev/$n$p/holders"
		echo "8:$((minor + p))" >"$dev/$n$p/dev"
		echo "$p" >"$dev/$n$p/partition"
		echo "8 $((minor + p)) $n$p 12345 78 9876543 4567 23456 89 8765432 5678 0 12345 10246" >>"$D/proc/diskstats"
	done
	i=$((i + 1))
done
for m in 0 1; do
	mkdir -p "$D/sys/devices/virtual/block/md$m/md" "$D/sys/devices/virtual/block/md$m/slaves"
	ln -s "../devices/virtual/block/md$m" "$D/sys/block/md$m"
	echo "9:$m" >"$D/sys/devices/virtual/block/md$m/dev"
	echo raid6 >"$D/sys/devices/virtual/block/md$m/md/level"
	echo "9 $m md$m 2345678 0 187654321 0 3456789 0 176543210 0 0 0 0" >>"$D/proc/diskstats"
	members=
	for l in a b c d e f g h i j k l; do
		[ "$m" = 1 ] && l=$(echo "$l" | tr 'a-l' 'm-x')
		ln -s "../../../../pci0000:00/sd$l/sd${l}3" "$D/sys/devices/virtual/block/md$m/slaves/sd${l}3"
		members="$members sd${l}3[$(printf %d "'$l")]"
	done
	echo "md$m : active raid6$members" >>"$D/proc/mdstat"
	echo "      117187500032 blocks super 1.2 level 6, 64k chunk, algorithm 2 [12/12] [UUUUUUUUUUUU]" >>"$D/proc/mdstat"
done
echo "unused devices: <none>" >>"$D/proc/mdstat"
for k in 0 1 2 3; do
	n=$D/sys/devices/pci0000:00/0000:00:1c.$k/net/eth$k
	mkdir -p "$n/statistics"
	ln -s "../../devices/pci0000:00/0000:00:1c.$k/net/eth$k" "$D/sys/class/net/eth$k"
	echo 10000 >"$n/speed"; echo full >"$n/duplex"; echo 9000 >"$n/mtu"; echo up >"$n/operstate"
	for s in rx_bytes tx_bytes rx_packets tx_packets rx_errors tx_errors rx_dropped tx_dropped; do
		echo 123456789 >"$n/statistics/$s"
	done
done
