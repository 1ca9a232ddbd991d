# shellcheck shell=sh disable=SC2154
# install-pre.sh: before nasperf install writes its files: an earlier
# install stopped and its files dropped, the upload checked (UP, SIZE),
# the prefix's directories made and remembered in DIRS, and the state
# directory made, STATENEW when this install made it.
umask 022
# The copy in /tmp goes, whatever happens: moved into place, or removed.
trap 'rm -f "$UP"' EXIT
# An install here before: stop it, drop its files, keep what it created.
OLD_DIRS='' OLD_STATENEW=''
if [ -f "$M" ]; then
	np_stop
	OLD_INIT=$(np_val init)
	OLD_DIRS=$(sed -n 's/^dir=/dir=/p' "$M")
	OLD_STATENEW=$(np_val statenew)
	# The manifest's paths hold no blanks: nasperf install allows none.
	# shellcheck disable=SC2013
	for f in $(sed -n 's/^file=//p' "$M"); do rm -f "$f"; done
	if [ "$OLD_INIT" = systemd ] && [ "$INIT" != systemd ]; then
		systemctl daemon-reload
	fi
fi
if np_get "$URL"; then
	np_err "something already answers $URL on the NAS (another" \
	    "nasperfd?): choose another address or port with --listen"
fi
if [ "$(wc -c <"$UP" | tr -d ' ')" != "$SIZE" ]; then
	np_err "the copy of nasperfd is incomplete (is the disk full?)"
fi
# mkd DIR: make DIR and its missing parents, remembering each made.
DIRS=$OLD_DIRS
mkd() {
	if [ -z "$1" ] || [ -d "$1" ]; then return 0; fi
	mkd "${1%/*}" || return 1
	mkdir "$1" || return 1
	DIRS="$DIRS
dir=$1"
}
# shellcheck disable=SC2015
mkd "$P" && mkd "$P/bin" && mkd "$P/etc" || np_err "cannot create $P"
# The state directory is removed whole only if this install made it.
STATENEW=$OLD_STATENEW
if [ -z "$STATENEW" ] && [ ! -d "$S" ]; then
	STATENEW=$S
	while [ -n "${STATENEW%/*}" ] && [ ! -d "${STATENEW%/*}" ]; do
		STATENEW=${STATENEW%/*}
	done
	mkdir -p "$S" || np_err "cannot create $S"
	chmod 700 "$S"
fi
