#!/bin/sh
# The shell nasperf install and uninstall run on the NAS
# (client/install/*.sh) passes sh -n and shellcheck as POSIX sh, for the
# BusyBox ash and dash of the firmwares.
top=$(cd "$(dirname "$0")/../.." && pwd)
n=0 bad=0
for f in "$top"/client/install/*.sh; do
	name=${f#"$top"/}
	n=$((n + 1))
	if sh -n "$f" 2>/dev/null; then
		echo "ok $n - sh -n $name"
	else
		echo "not ok $n - sh -n $name"
		bad=1
	fi
	n=$((n + 1))
	if ! command -v shellcheck >/dev/null 2>&1; then
		echo "ok $n - shellcheck $name # SKIP shellcheck is not installed"
	elif out=$(shellcheck -s sh "$f" 2>&1); then
		echo "ok $n - shellcheck -s sh $name"
	else
		echo "not ok $n - shellcheck -s sh $name"
		printf '%s\n' "$out" | sed 's/^/#   /'
		bad=1
	fi
done
echo "1..$n"
exit "$bad"
