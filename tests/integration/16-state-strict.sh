#!/bin/bash
# The state directory and the token are trusted only when nobody else can
# have put them there, as sshd's StrictModes: nasperfd refuses, with a
# message saying why and what to do, a state directory that is writable
# by others, a symbolic link, or owned by another user, and a token file
# owned by another user (a token planted there would authenticate its
# planter) or with other names; it starts on a directory of its own.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl

# refuses DESC DIR WHY: nasperfd with state directory DIR exits non-zero
# at once, saying WHY.
refuses() {
	local rc=0
	timeout 20 "$NASPERFD" -f -l "127.0.0.1:$(free_port)" -s "$2" \
	    >"$T_TMP/out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -qF "$3" "$T_TMP/out"
	then
		ok "$1"
	else
		not_ok "$1" "exit $rc: $(tr '\n' ' ' <"$T_TMP/out")"
	fi
}

mkdir -m 777 "$T_TMP/open"
refuses "a state directory anyone may write is refused" "$T_TMP/open" \
    "is writable by anyone (mode 777): refusing it (chmod go-w it)"
mkdir -m 770 "$T_TMP/group"
refuses "one its group may write too" "$T_TMP/group" \
    "is writable by its group (mode 770)"
mkdir -m 700 "$T_TMP/real"
ln -s "$T_TMP/real" "$T_TMP/link"
refuses "a symbolic link is refused" "$T_TMP/link" \
    "is a symbolic link: refusing it"
mkdir -m 700 "$T_TMP/theirs"
chown 65534 "$T_TMP/theirs"
refuses "a directory of another user is refused" "$T_TMP/theirs" \
    "is owned by uid 65534, not by the user nasperfd runs as (0)"

# A token planted by another user, valid and 0600: refused.
mkdir -m 700 "$T_TMP/planted"
printf '%064d\n' 7 >"$T_TMP/planted/token"
chmod 600 "$T_TMP/planted/token"
chown 65534 "$T_TMP/planted/token"
refuses "a token owned by another user is refused" "$T_TMP/planted" \
    "token $T_TMP/planted/token: owned by another user: refusing it"
chown 0 "$T_TMP/planted/token"
ln "$T_TMP/planted/token" "$T_TMP/elsewhere"
refuses "a token with another name is refused" "$T_TMP/planted" \
    "it has other names (hard links)"
rm -f "$T_TMP/elsewhere"

# Its own directory and token: it starts, and the token authenticates.
port=$(free_port)
"$NASPERFD" -f -l "127.0.0.1:$port" -s "$T_TMP/planted" >"$T_TMP/log" 2>&1 &
pid=$!
at_exit "kill -TERM $pid 2>/dev/null; wait $pid"
for ((i = 0; i < 100; i++)); do
	curl -fsS -o /dev/null "http://127.0.0.1:$port/healthz" 2>/dev/null && break
	sleep 0.1
done
is "its own token authenticates" "$(curl -s -o /dev/null -w '%{http_code}' \
    -H "Authorization: Bearer $(printf '%064d' 7)" \
    "http://127.0.0.1:$port/v1/info")" 200
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
is "nasperfd exits 0" "$rc" 0
done_testing
