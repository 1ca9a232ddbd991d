#!/bin/bash
# nasperf bench on a directory, as on a mounted share: the --quick matrix
# on an ext4 volume on a loop device completes, reads back what it wrote,
# has positive figures and a verdict from the daemon for every test, and
# leaves nothing behind; bad targets and options fail clearly.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount curl jq

truncate -s 600M "$T_TMP/vol.img"
L=$(losetup -f --show --direct-io=on "$T_TMP/vol.img") || skip_all "no loop device"
loop_at_exit "$L"
mkfs.ext4 -q -F "$L"
mkdir "$T_TMP/vol"
mount "$L" "$T_TMP/vol"
at_exit "retry umount $T_TMP/vol"

start_daemon || { echo "Bail out! nasperfd did not start"; exit 1; }

out=$T_TMP/bench.json
client -j bench --quick "$T_TMP/vol" >"$out" 2>"$T_TMP/bench.err"
rc=$?
is "bench --quick on a directory exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_TMP/bench.err" "$out"
is "the protocol of an ext4 directory is local" \
    "$(jq -r .protocol "$out")" local
check "the client cache is bypassed with O_DIRECT" \
    jq -e '.client_cache | test("O_DIRECT")' "$out"
is "a local file's report has nothing to say of requests in flight" \
    "$(jq .requests "$out")" null
check "the server cache was dropped before reads" \
    jq -e '.server_cache | test("dropped before each read")' "$out"
is "15 tests ran" "$(jq '.rows | length' "$out")" 15
check "the ceilings of a read and a write, from their reports" jq -e \
    '.ceilings.read.disks and .ceilings.read.network and
    .ceilings.write.disks' "$out"
is "every test completed" \
    "$(jq '[.rows[] | select(.status != "done")] | length' "$out")" 0
is "every read was checked against what was written" \
    "$(jq '[.rows[] | select(.op == "read" and .verified != true)] |
    length' "$out")" 0
is "every figure is positive" \
    "$(jq '[.rows[] | select(.seconds <= 0 or (.op != "list" and
    .bytes <= 0) or .files <= 0)] | length' "$out")" 0
is "every test has the daemon's verdict" \
    "$(jq '[.rows[] | select((.verdict.class // "") == "")] | length' \
    "$out")" 0
is "every test is a run on the daemon" \
    "$(jq '[.rows[].run] | unique | map(select(. > 0)) | length' "$out")" 15
is "the 1 KiB test made 4096 requests each way" \
    "$(jq '[.rows[] | select(.test | test("at 1 KiB")) | .ops] |
    join(",")' "$out")" '"4096,4096"'
is "the listing of 1000 files found 1000" \
    "$(jq '.rows[] | select(.test == "list 1000 files") | .files' "$out")" 1000
is "the best of 3 has a median" \
    "$(jq '[.rows[] | select(.repeats == 3 and
    .median_bytes_per_second > 0)] | length' "$out")" 2
is "the repeat test goes at 4 MiB a request" \
    "$(jq '[.rows[] | select(.repeats == 3) | "\(.block_size)/\(.ops)"] |
    join(",")' "$out")" '"4194304/16,4194304/16"'
runs=$(api /v1/runs | jq '[.runs[] | select(.label | test("^bench: "))] |
    length')
check "the daemon kept the runs ($runs)" test "$runs" -ge 15
is "nothing is left in the target" "$(ls -A "$T_TMP/vol" |
    grep -v lost+found)" ""

# The table, as a terminal user sees it, and --keep.
client bench --quick --tests seq,list --scale 0.5 --keep "$T_TMP/vol" \
    >"$T_TMP/table" 2>&1
is "a table run exits 0" "$?" 0
sed 's/^/#   /' "$T_TMP/table"
check "the table has its header" grep -q \
    '^test  *client  *seconds  *of low  *verdict' "$T_TMP/table"
check "the ceilings each way above it" grep -q \
    '^read ceilings: disks .*, network .*' "$T_TMP/table"
check "and a row per test" grep -q '^32 MiB at 1 MiB read  *[0-9.]* MB/s' \
    "$T_TMP/table"
check "a read row gives its share of the lower ceiling" grep -Eq \
    '^32 MiB at 1 MiB read  *[0-9.]* MB/s  *[0-9.]+ +([0-9]+%|-) ' "$T_TMP/table"
check "--keep keeps the files" test -s "$T_TMP/vol/nasperf-bench/seq/f000000"
rm -rf "$T_TMP/vol/nasperf-bench"

# --block sets the repeat test's request: 16 MiB at 8 MiB is 2 each way.
client -j bench --quick --tests repeat --repeat 1 --scale 0.25 --block 8M \
    "$T_TMP/vol" >"$T_TMP/block.json" 2>"$T_TMP/err"
rc=$?
is "a repeat at --block 8M exits 0" "$rc" 0
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T_TMP/err" "$T_TMP/block.json"
is "its rows went 8 MiB at a time, read back checked" \
    "$(jq '[.rows[] | "\(.block_size)/\(.ops)/\(.verified // "w")"] |
    join(",")' "$T_TMP/block.json")" '"8388608/2/w,8388608/2/true"'
for bad in 0 3k 65M x; do
	client bench --block "$bad" "$T_TMP/vol" >/dev/null 2>"$T_TMP/err"
	is "--block $bad is a usage error" "$?" 2
	check "and says what it takes" grep -q 'multiple of 4 KiB' "$T_TMP/err"
done

# Bad targets and options.
client bench --quick "$T_TMP/none" >/dev/null 2>"$T_TMP/err"
is "a missing directory fails" "$?" 1
check "and says so" grep -q 'none: No such file or directory' "$T_TMP/err"
client bench --quick "$T_TMP/vol.img" >/dev/null 2>"$T_TMP/err"
is "a file is not a target" "$?" 1
check "and says so" grep -q 'not a directory' "$T_TMP/err"
client bench --quick --signing required "$T_TMP/vol" >/dev/null 2>"$T_TMP/err"
is "an SMB option on a directory is a usage error" "$?" 2
check "... that says so" grep -q -- '--signing is for an smb:// target' \
    "$T_TMP/err"
client bench --quick ftp://x/y >/dev/null 2>"$T_TMP/err"
is "an unknown URL fails" "$?" 1
client bench --tests bogus "$T_TMP/vol" >/dev/null 2>&1
is "an unknown test is a usage error" "$?" 2
client bench >/dev/null 2>&1
is "no target is a usage error" "$?" 2
NASPERF_TOKEN=bad "$NASPERF" -H "127.0.0.1:$NPD_PORT" bench --quick \
    "$T_TMP/vol" >/dev/null 2>"$T_TMP/err"
is "a wrong token fails before any data moves" "$?" 1
is "and leaves nothing" "$(ls -A "$T_TMP/vol" | grep -v lost+found)" ""

stop_daemon
is "nasperfd exits 0" "$NPD_RC" 0
done_testing
