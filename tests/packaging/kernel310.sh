#!/bin/bash
# kernel310.sh: nasperfd and nasperf with every system call newer than
# Linux 3.10 refused with ENOSYS (tests/packaging/enosys, a seccomp
# filter), as DSM 6's kernel refuses them.  Their fallbacks: getrandom
# (3.17) -> /dev/urandom for the token; clone3 (5.3) -> clone, in glibc's
# pthread_create and posix_spawn (the cache-drop thread, smbstatus);
# statx (4.11) and rseq (4.18) -> what glibc does without them; io_uring
# (5.1) is never used (the disk analyzer uses threads or native AIO).
# The native build and the static x86_64 one (whose glibc is the one a
# NAS runs; "make static" here rebuilds only what changed since static.sh
# or an earlier run made it) are both tried.

# shellcheck source-path=SCRIPTDIR source=../integration/lib.sh
. "${NP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/integration/lib.sh"

need_cmd curl jq
B=$NP_BUILDDIR
E=$B/tests/packaging/enosys
[ -x "$E" ] || skip_all "tests/packaging/enosys is not built"
"$E" -t getrandom >/dev/null 2>&1
[ $? -ne 77 ] || skip_all "no seccomp architecture for $(uname -m)"

# The filter works: a call newer than 3.10 is refused, an old one is not.
is "getrandom is there without the filter" "$("$E" -t getrandom)" \
    "getrandom: available"
is "and refused under -k 3.10" "$("$E" -k 3.10 "$E" -t getrandom)" \
    "getrandom: ENOSYS"
is "memfd_create is refused under -k 3.10" \
    "$("$E" -k 3.10 "$E" -t memfd_create)" "memfd_create: ENOSYS"
is "renameat2 (3.15) is there under -k 3.16" \
    "$("$E" -k 3.16 "$E" -t renameat2)" "renameat2: available"
echo "# refused under -k 3.10: $("$E" -l | awk '{printf "%s(%s) ", $1, $2}')"

# try NAME NASPERFD NASPERF: one pair of binaries under -k 3.10.
try() {
	local n=$1 npd=$2 cli=$3 port sport pid tok id
	port=$(free_port)
	sport=$(free_port)
	cat >"$T_TMP/$n.yaml" <<EOF
synth:
  listen: 127.0.0.1:$sport
samba:
  sessions_interval: 1
EOF
	"$E" -k 3.10 "$npd" -f -c "$T_TMP/$n.yaml" -l "127.0.0.1:$port" \
	    -s "$T_TMP/st.$n" >"$T_TMP/npd.$n" 2>&1 &
	pid=$!
	wait_healthz "$port"
	check "$n: starts and answers /healthz" \
	    curl -fsS "http://127.0.0.1:$port/healthz" ||
	    sed 's/^/# /' "$T_TMP/npd.$n"
	tok=$(cat "$T_TMP/st.$n/token" 2>/dev/null)
	is "$n: a token from /dev/urandom (64 hex digits)" \
	    "$(printf '%s' "$tok" | tr -d '0-9a-f' | wc -c) ${#tok}" "0 64"
	cli_() {
		NASPERF_TOKEN=$tok "$E" -k 3.10 "$cli" -H "127.0.0.1:$port" "$@"
	}
	check "$n: nasperf info" cli_ info
	check "$n: /v1/counters" sh -c "NASPERF_TOKEN=$tok '$E' -k 3.10 \
	    '$cli' -H 127.0.0.1:$port -j counters | jq -e '.cpu.cores | length > 0'"
	check "$n: /v1/topology" sh -c "curl -fsS -H 'Authorization: Bearer \
	    $tok' http://127.0.0.1:$port/v1/topology | jq -e .disks"
	# A thread (pthread_create without clone3): the cache-drop worker.
	is "$n: POST /v1/cache/drop (a thread)" "$(curl -s -o /dev/null -w \
	    '%{http_code}' -X POST -H "Authorization: Bearer $tok" \
	    "http://127.0.0.1:$port/v1/cache/drop")" 200
	# A child process (posix_spawn without clone3): smbstatus.
	sleep 1.5
	check "$n: smbstatus ran as a child (posix_spawn)" sh -c "curl -fsS \
	    -H 'Authorization: Bearer $tok' http://127.0.0.1:$port/v1/topology |
	    jq -e '.protocols.smb.sessions | .available or
	    (.error | test(\"cannot run\") | not)'"
	# A run with its report, and the synthetic data plane.
	id=$(curl -fsS -X POST -H "Authorization: Bearer $tok" -d \
	    '{"label":"k310"}' "http://127.0.0.1:$port/v1/runs" | jq -r .id)
	check "$n: a synthetic download of 8 MB" sh -c "NASPERF_TOKEN=$tok \
	    NASPERF_SYNTH_PORT=$sport '$E' -k 3.10 '$cli' -H 127.0.0.1:$port \
	    -j synth --download --bytes 8000000 --verify |
	    jq -e '.download.bytes == 8000000 and .download.verified'"
	check "$n: the run ends with its report" sh -c "curl -fsS -X POST \
	    -H 'Authorization: Bearer $tok' -d '{}' \
	    http://127.0.0.1:$port/v1/runs/$id/end | jq -e .verdict.class"
	kill -TERM "$pid"
	wait "$pid"
	is "$n: stops with status 0" "$?" 0
}

try native "$B/daemon/nasperfd" "$B/client/nasperf"
# static.sh builds in the same place: one at a time.
one_at_a_time static
if [ "$(uname -m)" != x86_64 ]; then
	skip "the static x86_64 build: this machine is $(uname -m)"
elif ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$B" static \
    STATIC_ARCHES=x86_64 >"$T_TMP/make.static" 2>&1; then
	skip "the static x86_64 build: make static failed: $(grep -m1 \
	    'static.sh:' "$T_TMP/make.static" || tail -n1 "$T_TMP/make.static")"
else
	try static "$B/static/x86_64/nasperfd" "$B/static/x86_64/nasperf"
fi
done_testing
