#!/bin/bash
# Without root nasperfd still runs, serves what it can read, and says in
# /v1/info what it cannot see.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl jq setpriv
chmod 755 "$T_TMP"
mkdir "$T_TMP/nobody"
chown 65534:65534 "$T_TMP/nobody"
port=$(free_port)
setpriv --reuid=65534 --regid=65534 --clear-groups \
    env HOME="$T_TMP/nobody" "$NASPERFD" -f -l "127.0.0.1:$port" \
    -s "$T_TMP/nobody/state" >"$T_TMP/d.log" 2>&1 &
pid=$!
at_exit "kill -TERM $pid"
for i in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
tok=$(cat "$T_TMP/nobody/state/token" 2>/dev/null)
is "the token belongs to the user the daemon runs as" \
    "$(stat -c '%u %a' "$T_TMP/nobody/state/token")" "65534 600"
curl -sS -H "Authorization: Bearer $tok" "http://127.0.0.1:$port/v1/info" >"$T_TMP/info"
is "info says it is not root" "$(jq .running_as_root "$T_TMP/info")" false
check "and names what it cannot read" sh -c "jq -e '.limits[0] | test(\"not running as root\")' '$T_TMP/info' >/dev/null"
check "the log says so too" grep -q 'not running as root' "$T_TMP/d.log"
is "counters still answer" "$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $tok" "http://127.0.0.1:$port/v1/counters")" 200
check "with the CPUs in them" sh -c "curl -sS -H 'Authorization: Bearer $tok' http://127.0.0.1:$port/v1/counters | jq -e '.cpu != null' >/dev/null"
is "topology still answers" "$(curl -sS -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $tok" "http://127.0.0.1:$port/v1/topology")" 200
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
is "it exits 0 on SIGTERM" "$rc" 0
done_testing
