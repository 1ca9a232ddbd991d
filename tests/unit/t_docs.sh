#!/bin/bash
# The man pages are clean under mandoc -Tlint, every option they give is in
# the programs' --help, and the systemd unit passes systemd-analyze verify
# with an exposure score of 5.0 or better.
set -u
S=${NP_SRCDIR:?} B=${NP_BUILDDIR:?}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; for l; do echo "#   $l"; done; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for page in nasperfd.8 nasperf.1 nasperfd.yaml.5; do
	if ! command -v mandoc >/dev/null; then
		skip "mandoc is not installed"
	elif out=$(mandoc -Tlint -Wwarning "$S/man/$page" 2>&1); then
		ok "mandoc -Tlint: $page"
	else
		not_ok "mandoc -Tlint: $page" "$out"
	fi
done

# Every long and short option of a page's OPTIONS list is in --help.
opts() {	# the Fl words of a page's tag list: "-c" "--config" ...
	sed -n 's/^\.It Fl \(.*\)$/\1/p' "$1" | tr ',' '\n' |
	    sed -n 's/^ *\(Fl \)\{0,1\}\(Fl \)\{0,1\}\([A-Za-z-]*\).*/\2\3/p' |
	    sed 's/^Fl /--/; s/^\([A-Za-z]\)$/-\1/; s/^\([a-z][a-z-]\{1,\}\)$/--\1/'
}
for pair in nasperfd.8:daemon/nasperfd nasperf.1:client/nasperf; do
	page=${pair%%:*} prog=$B/${pair#*:}
	"$prog" --help >"$T/help" 2>&1 || :
	missing=
	for o in $(opts "$S/man/$page"); do
		grep -q -- "$o\b" "$T/help" || missing="$missing $o"
	done
	if [ -z "$missing" ] && [ -s "$T/help" ]; then
		ok "every option of $page is in $(basename "$prog") --help"
	else
		not_ok "every option of $page is in $(basename "$prog") --help" "missing:$missing"
	fi
done

unit=$B/systemd/nasperfd.service
if [ ! -f "$unit" ]; then
	not_ok "the unit file is generated" "no $unit"
elif ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze is not installed"
else
	ok "the unit file is generated"
	grep -q '@[a-z]*@' "$unit" && not_ok "no @variables@ left in the unit" \
	    "$(grep '@[a-z]*@' "$unit")" || ok "no @variables@ left in the unit"
	# verify needs ExecStart's binary to exist: point it at the build.
	sed "s|^ExecStart=[^ ]*|ExecStart=$B/daemon/nasperfd|" "$unit" >"$T/nasperfd.service"
	if out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --man=no "$T/nasperfd.service" 2>&1) &&
	    ! echo "$out" | grep -q 'nasperfd.service'; then
		ok "systemd-analyze verify"
	else
		not_ok "systemd-analyze verify" "$out"
	fi
	if score=$(systemd-analyze security --offline=yes "$T/nasperfd.service" 2>/dev/null |
	    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p') && [ -n "$score" ]; then
		if awk -v s="$score" 'BEGIN { exit !(s <= 5.0) }'; then
			ok "systemd-analyze security: exposure $score (at most 5.0)"
		else
			not_ok "systemd-analyze security: exposure $score (at most 5.0)"
		fi
	else
		skip "systemd-analyze security --offline is not supported here"
	fi
fi
echo "1..$n"
[ "$failed" -eq 0 ]
