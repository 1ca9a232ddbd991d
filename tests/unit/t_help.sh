#!/bin/bash
# Each command of nasperf answers --help with its own usage, as "nasperf
# help COMMAND" and -h do; every long option a command's --help lists is
# in nasperf(1) where that command is described, or among the global
# options; every command nasperf(1) describes answers --help; a bad option
# is a usage error; and "run [options] -- command" renders as a command.
set -u
S=${NP_SRCDIR:?} B=${NP_BUILDDIR:?}
prog=$B/client/nasperf page=$S/man/nasperf.1
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	printf '%s\n' "$@" | sed 's/^/#   /'
}
if [ ! -x "$prog" ]; then
	echo "1..0 # SKIP no $prog"
	exit 0
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# The page's global options: its DESCRIPTION up to the command list.
sed -n '/^\.Sh DESCRIPTION/,/^The commands are:/p' "$page" >"$T/global"

# What the page says of command $1: each entry ".It Cm $1 ..." or
# ".It Xo Cm $1" of the command list, up to the next command's.
page_cmd() {
	sed -n '/^The commands are:/,/^\.Sh /p' "$page" | awk -v c="$1" '
	    /^\.It (Xo )?Cm [a-z]/ {
		w = $0
		sub(/^\.It (Xo )?Cm /, "", w)
		sub(/[^a-z].*/, "", w)
		cur = w
	    }
	    cur == c { print }'
}

# The long options a --help lists: in the usage's brackets and at the
# head of each line of its option lists.
help_opts() {
	{
		grep -o -- '[[|] *--[a-z][a-z-]*' "$1" | sed 's/^[[|] *//'
		sed -n 's/^ \{2,\}\(-[A-Za-z][^,]*, \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' \
		    "$1"
	} | sort -u
}

# The commands "nasperf help" lists, and those the page describes.
"$prog" help >"$T/help" 2>"$T/help.err"
rc=$?
cmds=$(sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\).*/\1/p' "$T/help" |
    sort -u)
pcmds=$(sed -n '/^The commands are:/,/^\.Sh /s/^\.It \(Xo \)\{0,1\}Cm \([a-z][a-z]*\).*/\2/p' \
    "$page" | sort -u)
if [ "$rc" -eq 0 ] && [ -n "$cmds" ] && [ ! -s "$T/help.err" ]; then
	ok "nasperf help lists the commands:" "$(echo $cmds)"
else
	not_ok "nasperf help lists the commands" "status $rc" \
	    "$(cat "$T/help.err")"
fi
if [ "$cmds" = "$pcmds" ]; then
	ok "nasperf(1) describes the same commands"
else
	not_ok "nasperf(1) describes the same commands" \
	    "help: $(echo $cmds)" "page: $(echo $pcmds)"
fi

for c in $(printf '%s\n' $cmds $pcmds | sort -u); do
	out=$T/$c.out err=$T/$c.err
	"$prog" "$c" --help >"$out" 2>"$err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ ! -s "$err" ] &&
	    head -n 1 "$out" | grep -q "^usage: nasperf $c\\( \\|\$\\)"; then
		ok "$c --help: its own usage, exit 0"
	else
		not_ok "$c --help: its own usage, exit 0" "status $rc" \
		    "$(head -n 3 "$out" "$err")"
		continue
	fi
	"$prog" help "$c" >"$T/$c.help" 2>&1
	"$prog" "$c" -h >"$T/$c.h" 2>&1
	if cmp -s "$out" "$T/$c.help" && cmp -s "$out" "$T/$c.h"; then
		ok "help $c and $c -h print the same"
	else
		not_ok "help $c and $c -h print the same" \
		    "$(diff "$out" "$T/$c.help"; diff "$out" "$T/$c.h")"
	fi
	page_cmd "$c" >"$T/$c.page"
	all= missing=
	for o in $(help_opts "$out"); do
		all="$all $o"
		grep -Eq -- "Fl Fl ${o#--}([^a-z-]|\$)" "$T/$c.page" \
		    "$T/global" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then
		ok "$c: its long options are in nasperf(1):$all"
	else
		not_ok "$c: its long options are in nasperf(1)" \
		    "missing:$missing"
	fi
	"$prog" "$c" --no-such-option >"$out" 2>"$err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$out" ] &&
	    head -n 1 "$err" | grep -q "^nasperf $c: " &&
	    grep -q "^usage: nasperf $c" "$err"; then
		ok "$c --no-such-option: the usage on stderr, exit 2"
	else
		not_ok "$c --no-such-option: the usage on stderr, exit 2" \
		    "status $rc" "$(head -n 3 "$err")"
	fi
done

# mdoc's "Fl Fl Ar command" renders "--command", an option: the page must
# say "-- command".
if ! command -v mandoc >/dev/null; then
	echo "ok $((n += 1)) # SKIP run's synopsis: mandoc is not installed"
elif mandoc -Tascii "$page" | sed 's/.\x08//g' |
    grep -q '^ *run \[options\] -- command \[arg \.\.\.\]'; then
	ok "run's synopsis renders as \"run [options] -- command [arg ...]\""
else
	not_ok "run's synopsis renders as \"run [options] -- command\"" \
	    "$(mandoc -Tascii "$page" | sed 's/.\x08//g' | grep '^ *run ')"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
