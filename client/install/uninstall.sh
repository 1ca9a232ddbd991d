# shellcheck shell=sh disable=SC2154
# uninstall.sh: stop the daemon the manifest records, remove what it
# lists, then the manifest and the directories the install made.
if [ ! -f "$M" ]; then echo np.none=1; exit 0; fi
np_stop
# rmit PATH: remove a file, or say it would
rmit() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		if [ "$DRY" = 1 ] || rm -f "$1"; then echo "np.removed=$1"; fi
	fi
}
# The manifest's paths hold no blanks: nasperf install allows none.
# shellcheck disable=SC2013
for f in $(sed -n 's/^file=//p' "$M"); do rmit "$f"; done
S=$(np_val state)
STATENEW=$(np_val statenew)
if [ -n "$STATENEW" ] && [ -d "$STATENEW" ]; then
	if [ "$DRY" = 1 ] || rm -rf "$STATENEW"; then
		echo "np.removed=$STATENEW/ (state and token)"
	fi
elif [ -n "$S" ] && [ -d "$S" ]; then
	echo "np.kept=$S/ (it was there before the install)"
fi
if [ "$(np_val init)" = systemd ] && [ "$DRY" != 1 ]; then
	systemctl daemon-reload
fi
# Directories last, deepest first; one that is not empty stays.
DIRS=$(sed -n 's/^dir=//p' "$M" | sed -n '1!G;h;$p')
rmit "$M"
for d in $DIRS; do
	if [ ! -d "$d" ]; then continue; fi
	if [ "$DRY" = 1 ]; then echo "np.removed=$d/"
	elif rmdir "$d" 2>/dev/null; then echo "np.removed=$d/"
	else echo "np.kept=$d/ (not empty)"
	fi
done
echo np.done=1
exit 0
