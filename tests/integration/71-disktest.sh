#!/bin/bash
# The disk analyzer through the daemon against block-I/O throttles, set for
# a child cgroup that holds nasperfd itself (AIO is charged to the
# submitting process): on loop devices over files of random data, each
# zone's sequential read, a volume's sequential write and read (O_DIRECT,
# a temp file on ext4), and random 4 KiB read IOPS at QD1 and QD32 come
# within 5 % of the limit (MB = 10^6 bytes).  The results become the
# capability baseline, and the client prints them as a table.
#
# cgroup v1 (blkio.throttle.*) where blkio is a v1 hierarchy, else v2
# (io.max).  Rules are only ever set on our own child cgroup.
. "$(dirname "$0")/lib.sh"
need_root
alone "its rates are a RAM loop device's, which is CPU time another test would take"
need_cmd losetup mkfs.ext4 mount umount curl jq

io_cgroup t71

# run_test BODY: POST it, wait for the end; the result in $T_TMP/res.
run_test() {
	local id st i
	api /v1/disktests -X POST -d "$1" >"$T_TMP/post"
	id=$(jq -r '.id // empty' "$T_TMP/post")
	if [ -z "$id" ]; then
		echo "# POST: $(cat "$T_TMP/post")"
		echo '{}' >"$T_TMP/res"
		return 1
	fi
	for ((i = 0; i < 600; i++)); do
		api "/v1/disktests/$id" >"$T_TMP/res"
		st=$(jq -r .state "$T_TMP/res")
		# Live progress, as the client's bar shows it, kept once.
		[ "$st" = running ] && [ ! -s "$T_TMP/progress.$id" ] &&
		    jq -c .progress "$T_TMP/res" >"$T_TMP/progress.$id"
		[ "$st" = running ] || [ "$st" = checking ] || return 0
		sleep 0.5
	done
	return 1
}
res() {
	jq -r "$1" "$T_TMP/res"
}

head -c 256M /dev/urandom >"$T_TMP/rd.img"
L1=$(losetup -f --show --direct-io=on "$T_TMP/rd.img") || skip_all "no loop device"
loop_at_exit "$L1"
N1=$(basename "$L1")
D1=$(cat "/sys/block/$N1/dev")
truncate -s 400M "$T_TMP/vol.img"
L2=$(losetup -f --show --direct-io=on "$T_TMP/vol.img") || skip_all "no loop device"
loop_at_exit "$L2"
N2=$(basename "$L2")
D2=$(cat "/sys/block/$N2/dev")
mkfs.ext4 -q -F "$L2"
mkdir "$T_TMP/vol"
mount "$L2" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"
# The volume's disk holds random data below the filesystem's free space
# too, so that its zone reads are real reads.
head -c 300M /dev/urandom >"$T_TMP/vol/fill" && rm -f "$T_TMP/vol/fill"

# No busy check (72 tests it): a test starts at once, without the second
# of measuring other I/O.
cat >"$T_TMP/nasperfd.yaml" <<EOF2
disktest:
  volumes: [$T_TMP/vol]
  busy_iops: 0
  busy_mbps: 0
EOF2
start_daemon -c "$T_TMP/nasperfd.yaml" || exit 1
echo "$NPD_PID" >"$CG/cgroup.procs"
at_exit "echo $NPD_PID >$CGROOT/cgroup.procs"

# Sequential read at each zone, 1 MiB blocks, QD4, 40 MB/s, 5 s each.
throttle read_bps "$D1" 40000000
run_test "{\"targets\":[\"$N1\"],\"kind\":\"seq\",\"seconds\":5,
    \"zone_bytes\":67108864}"
is "seq read test of $N1 is done" "$(res .state)" done
for z in outer middle inner; do
	within "$z zone bytes/s" "$(res ".disks[0].zones.$z.bytes_per_s")" \
	    40000000 5
	is "$z zone read with O_DIRECT" "$(res ".disks[0].zones.$z.direct")" \
	    true
done
is "the model and size are stated" "$(res '.disks[0].size_bytes')" 268435456
# The progress seen while it ran: a step of the steps, and a fraction.
check "live progress: step, steps and fraction" jq -e '.step >= 1 and
    .steps >= 3 and .step <= .steps and .fraction >= 0 and .fraction <= 1 and
    (.label | length) > 0' "$T_TMP/progress.$(jq -r .id "$T_TMP/res")" ||
    sed 's/^/# /' "$T_TMP/progress.$(jq -r .id "$T_TMP/res")"
limit read_bps "$D1" 0

# Random 4 KiB reads at 500 IOPS, QD1 and QD32.
throttle read_iops "$D1" 500
run_test "{\"targets\":[\"/dev/$N1\"],\"kind\":\"random\",\"seconds\":5}"
is "random test of $N1 is done" "$(res .state)" done
within "rand read QD1 IOPS" "$(res '.disks[0].rand_qd1.iops')" 500 5
within "rand read QD32 IOPS" "$(res '.disks[0].rand_qd32.iops')" 500 5
echo "# QD1 latency us: p50 $(res '.disks[0].rand_qd1.lat_us.p50')," \
    "QD32: p50 $(res '.disks[0].rand_qd32.lat_us.p50')"
limit read_iops "$D1" 0

# The volume: 20 MB/s write, 30 MB/s read on its disk, 64 MiB file.
throttle write_bps "$D2" 20000000
throttle read_bps "$D2" 30000000
run_test "{\"targets\":[\"$T_TMP/vol\"],\"kind\":\"seq\",\"seconds\":5,
    \"size\":67108864,\"zone_bytes\":33554432}"
is "volume test is done" "$(res .state)" done
is "the volume's disk was found" "$(res '.volumes[0].members[0].disk')" "$N2"
is "its layout" "$(res '.volumes[0].layout')" single
within "volume write bytes/s" "$(res '.volumes[0].write.bytes_per_s')" \
    20000000 5
within "volume read bytes/s" "$(res '.volumes[0].read.bytes_per_s')" \
    30000000 5
is "the write is a new file written once, not wrapped round" \
    "$(res '.volumes[0].write.bytes')" 67108864
is "the cache state is stated" "$(res '.volumes[0].direct')" true
check "the cache state says O_DIRECT" grep -q O_DIRECT <(res '.volumes[0].cache')
within "expected read from the disk" \
    "$(res '.volumes[0].expected.read_bytes_per_s')" 30000000 5
e=$(res '.volumes[0].expected.efficiency.read')
within "read efficiency" "$e" 1 10
check "the temp file is gone" test ! -e "$T_TMP/vol/.nasperfd-disktest.tmp"
limit write_bps "$D2" 0
limit read_bps "$D2" 0

# The baseline: both disks and the volume, with date, kernel, firmware.
B=$NPD_STATE/baseline.json
check "baseline.json is saved" test -s "$B"
within "baseline: $N1 outer zone" \
    "$(jq -r ".disks.\"$N1\".seq_read_bytes_per_s.outer" "$B")" 40000000 5
within "baseline: $N1 IOPS QD32" \
    "$(jq -r ".disks.\"$N1\".rand_read_iops_qd32" "$B")" 500 5
within "baseline: volume write" \
    "$(jq -r ".volumes.\"$T_TMP/vol\".seq_write_bytes_per_s" "$B")" \
    20000000 5
is "baseline: kernel" "$(jq -r .kernel "$B")" "$(uname -r)"
check "baseline: the box's firmware and each disk's" jq -e --arg d "$N1" \
    '(.firmware | type) == "string" and
    (.disks[$d].firmware | type) == "string"' "$B"
check "baseline: a date" sh -c "jq -e '.updated > 1e9' '$B' >/dev/null"
is "the list has three tests" \
    "$(api /v1/disktests | jq '[.disktests[] | select(.state == "done")] | length')" 3
check "each is saved" test -s "$NPD_STATE/disktests/3.json"

# The client: the final table of a finished test.
client disktest --show 3 >"$T_TMP/table" 2>&1
is "nasperf disktest --show exits 0" "$?" 0
check "the table has the volume and expected vs measured" \
    grep -q "expected" "$T_TMP/table"
sed 's/^/#   /' "$T_TMP/table"
# Each disk's row, its LAT1 p50 column being its QD1 median latency (it
# once printed the outer zone's MB/s).
api /v1/disktests/3 | jq -r '.disks[] | "\(.name) \(.rand_qd1.lat_us.p50 //
    "-" | if type == "number" then round else . end)"' >"$T_TMP/lat.want"
awk 'NF >= 9 && $1 != "DISK" && $1 !~ /^(volume|all|expected)/ &&
    $3 ~ /^[0-9.-]+$/ { print $1, $9 }' "$T_TMP/table" >"$T_TMP/lat.got"
is "the table's LAT1 p50 is each disk's QD1 median latency" \
    "$(cat "$T_TMP/lat.got")" "$(cat "$T_TMP/lat.want")"

# A loop device over a sparse file reads its holes as zeros without I/O:
# the test says its figures are not a disk's.
truncate -s 64M "$T_TMP/sparse.img"
L3=$(losetup -f --show --direct-io=on "$T_TMP/sparse.img") || skip_all "no loop device"
loop_at_exit "$L3"
N3=$(basename "$L3")
run_test "{\"targets\":[\"$N3\"],\"kind\":\"seq\",\"seconds\":1,
    \"zone_bytes\":8388608}"
is "the sparse image's test is done" "$(res .state)" done
check "its figures are called implausible: a sparse file" \
    jq -e '.disks[0].implausible[0] | test("a sparse file \\(0 % of it allocated\\)")' "$T_TMP/res"
is "the plain image's are not" \
    "$(api /v1/disktests/1 | jq '.disks[0].implausible | length')" 0
check "the baseline keeps why" \
    jq -e --arg d "$N3" '.disks[$d].implausible | length == 1' "$B"
client disktest --show "$(res .id)" >"$T_TMP/table" 2>&1
check "the table says so" grep -q "IMPLAUSIBLE: $N3 is a loop device" "$T_TMP/table"

check "the daemon is still running" kill -0 "$NPD_PID"
done_testing
