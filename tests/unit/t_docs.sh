#!/bin/bash
# The man pages are clean under mandoc -Tlint, every option and command they
# give is in the programs' --help (nasperf's commands' options in the
# command's own --help), and the generated systemd unit passes
# systemd-analyze verify with an exposure score of 5.0 or better.
set -u
S=${NP_SRCDIR:?} B=${NP_BUILDDIR:?}
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	printf '%s\n' "$@" | sed 's/^/#   /'
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
diag() { echo "# $*"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# mandoc -Tlint, warnings and worse.  nasperfd.yaml(5) comes with the
# configuration and may be missing from a tree that has no cfg yet.
for page in nasperfd.8 nasperf.1 nasperfd.yaml.5; do
	if [ ! -f "$S/man/$page" ]; then
		skip "mandoc -Tlint: $page: not written yet"
	elif ! command -v mandoc >/dev/null; then
		skip "mandoc -Tlint: $page: mandoc is not installed"
	elif out=$(mandoc -Tlint -Wwarning "$S/man/$page" 2>&1); then
		ok "mandoc -Tlint: $page"
	else
		not_ok "mandoc -Tlint: $page" "$out"
	fi
done

# The options of a page's SYNOPSIS, one a line: ".Op Fl dfhV" gives -d -f
# -h -V, ".Op Fl c Ar file" gives -c, ".Op Fl Fl root Ar dir" gives --root.
synopsis_opts() {
	sed -n '/^\.Sh SYNOPSIS/,/^\.Sh /p' "$1" |
	    sed -n 's/^\.Op Fl \(.*\)$/\1/p' |
	    while read -r w rest; do
		if [ "$w" = Fl ]; then
			echo "--${rest%% *}"
		elif [ -n "$rest" ] || [ "${#w}" -eq 1 ]; then
			echo "-$w"
		else
			echo "$w" | sed 's/./-&\n/g' | sed '/^$/d'
		fi
	    done
}

# The options of a page's tag list: ".It Fl c Ar file , Fl Fl config Ar
# file" gives -c and --config.
list_opts() {
	sed -n 's/^\.It Fl \(.*\)$/Fl \1/p' "$1" | tr ',' '\n' |
	    sed -n 's/^ *Fl Fl \([A-Za-z][A-Za-z-]*\).*/--\1/p;
		s/^ *Fl \([A-Za-z]\)\( .*\)\{0,1\}$/-\1/p'
}

# Is option $1 in file $2 as an option, not inside another word?  It may
# be followed by its optional argument: --rotate-token[=WHICH].
has_opt() {
	grep -Eq -- "(^|[][ ,|])$1([][ ,=]|\$)" "$2"
}

# check_opts what page help: every option the function "what" finds in the
# page is in the help text.
check_opts() {
	local what=$1 page=$2 help=$3 o all= missing=

	for o in $($what "$page"); do
		all="$all $o"
		has_opt "$o" "$help" || missing="$missing $o"
	done
	if [ -z "$all" ]; then
		not_ok "$(basename "$page"): $what finds options" "none found"
	elif [ -z "$missing" ]; then
		ok "$(basename "$page"): $what:$all in --help"
	else
		not_ok "$(basename "$page"): $what in --help" "missing:$missing"
	fi
}

for pair in nasperfd.8:daemon/nasperfd nasperf.1:client/nasperf; do
	page=$S/man/${pair%%:*} prog=$B/${pair#*:} help=$T/help.${pair%%:*}
	if [ ! -x "$prog" ]; then
		skip "${pair%%:*}: options in --help: no $prog"
		skip "${pair%%:*}: option list in --help: no $prog"
		continue
	fi
	"$prog" --help >"$help" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ] || ! grep -q '^usage: ' "$help"; then
		skip "${pair%%:*}: options in --help: --help prints no usage yet"
		skip "${pair%%:*}: option list in --help: --help prints no usage yet"
		continue
	fi
	# nasperf(1) lists a command's options under the command: they are
	# in the command's own --help, which "nasperf help" leads to.
	all=$T/all.${pair%%:*}
	cp "$help" "$all"
	if [ "${pair%%:*}" = nasperf.1 ]; then
		for c in $("$prog" help | sed -n \
		    '/^Commands:/,/^$/s/^  \([a-z][a-z]*\).*/\1/p'); do
			"$prog" "$c" --help >>"$all" 2>&1
		done
	fi
	check_opts synopsis_opts "$page" "$help"
	check_opts list_opts "$page" "$all"
done

# nasperf(1)'s commands, with the options they take, are in its --help.
help=$T/help.nasperf.1
if [ -s "$help" ] && grep -q '^usage: ' "$help"; then
	cmds= missing=
	while read -r c rest; do
		cmds="$cmds $c"
		if ! grep -Eq "^ +$c( |\$)" "$help"; then
			missing="$missing $c"
			continue
		fi
		# The command's entry in --help: its line and those indented
		# further below it.
		awk -v c="$c" '$1 == c { on = 1; print; next }
		    on && /^      / { print; next } { on = 0 }' "$help" \
		    >"$T/cmd"
		for o in $(echo "$rest" | sed 's/Fl Fl \([A-Za-z][A-Za-z-]*\)/\
--\1\
/g; s/Fl \([A-Za-z]\)/\
-\1\
/g' | grep -- '^-' | grep -vx -- '--Ar'); do
			has_opt "$o" "$T/cmd" || missing="$missing $c:$o"
		done
	done < <(sed -n 's/^\.It Cm \(.*\)$/\1/p' "$S/man/nasperf.1")
	if [ -n "$cmds" ] && [ -z "$missing" ]; then
		ok "nasperf.1: commands$cmds in --help"
	else
		not_ok "nasperf.1: commands in --help" "commands:$cmds" \
		    "missing:$missing"
	fi
else
	skip "nasperf.1: commands in --help: --help prints no usage yet"
fi

# The generated unit: variables expanded, then systemd-analyze.
unit=$B/systemd/nasperfd.service
if [ ! -f "$unit" ]; then
	not_ok "the unit file is generated" "no $unit"
	echo "1..$n"
	exit 1
fi
ok "the unit file is generated"
if grep -q '@[a-z]*@' "$unit"; then
	not_ok "no @variables@ left in the unit" "$(grep '@[a-z]*@' "$unit")"
else
	ok "no @variables@ left in the unit"
fi
if grep -Eq '^ExecStart=/[^ ]*/nasperfd -f -c /[^ ]*/nasperfd/nasperfd\.yaml$' \
    "$unit"; then
	ok "ExecStart runs the installed daemon on the installed file"
else
	not_ok "ExecStart runs the installed daemon on the installed file" \
	    "$(grep '^ExecStart=' "$unit")"
fi

# make install puts the unit in $(systemdsystemunitdir): configure must
# have made that a directory ("/lib/systemd/system", "${prefix}/lib/..."),
# not a relative path the unit would land in under the build tree.
udir=$(sed -n 's/^systemdsystemunitdir = //p' "$B/Makefile")
case $udir in
/* | '${prefix}'* | '$(prefix)'*)
	ok "the unit directory is absolute: $udir" ;;
*)
	not_ok "the unit directory is absolute" \
	    "systemdsystemunitdir = '$udir' in $B/Makefile" ;;
esac

# verify needs ExecStart's binary to exist: point a copy at the build.
export SYSTEMD_LOG_LEVEL=warning SYSTEMD_LOG_COLOR=0
mkdir "$T/ok" "$T/bad"
sed "s|^ExecStart=[^ ]*|ExecStart=$B/daemon/nasperfd|" "$unit" \
    >"$T/ok/nasperfd.service"
sed 's/^ProtectSystem=/ProtectSystm=/' "$T/ok/nasperfd.service" \
    >"$T/bad/nasperfd.service"
# verify complains about the unit by name; anything else is the host.
verify() {
	local out

	out=$(systemd-analyze verify --man=no "$1" 2>&1) &&
	    ! echo "$out" | grep -q 'nasperfd\.service' && return 0
	echo "$out"
	return 1
}
printf '[Service]\nExecStart=/bin/true\n' >"$T/probe.service"
if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze verify: systemd-analyze is not installed"
elif ! why=$(systemd-analyze verify --man=no "$T/probe.service" 2>&1); then
	skip "systemd-analyze verify: it fails here on a trivial unit:" \
	    "$(echo "$why" | head -1)"
elif ! [ -x "$B/daemon/nasperfd" ]; then
	skip "systemd-analyze verify: no $B/daemon/nasperfd to point at"
else
	if out=$(verify "$T/ok/nasperfd.service"); then
		ok "systemd-analyze verify"
	else
		not_ok "systemd-analyze verify" "$out"
	fi
	# The check itself: a misspelt directive must be caught.
	if out=$(verify "$T/bad/nasperfd.service"); then
		not_ok "systemd-analyze verify catches a misspelt directive"
	elif echo "$out" | grep -q ProtectSystm; then
		ok "systemd-analyze verify catches a misspelt directive"
	else
		not_ok "systemd-analyze verify catches a misspelt directive" \
		    "$out"
	fi
fi

if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze security: systemd-analyze is not installed"
elif ! out=$(systemd-analyze security --offline=yes \
    "$T/ok/nasperfd.service" 2>&1); then
	skip "systemd-analyze security --offline=yes fails here:" \
	    "$(echo "$out" | tail -1)"
elif score=$(echo "$out" | sed -n \
    's/.*Overall exposure level for [^:]*: \([0-9][0-9.]*\).*/\1/p') &&
    [ -n "$score" ]; then
	diag "exposure score $score"
	# What the score is made of: each setting that still costs.
	echo "$out" | grep -E ' [0-9]+\.[0-9]$' | sed 's/  */ /g; s/^/#   /'
	if awk -v s="$score" 'BEGIN { exit !(s <= 5.0) }'; then
		ok "systemd-analyze security: exposure $score (at most 5.0)"
	else
		not_ok "systemd-analyze security: exposure $score (at most 5.0)"
	fi
else
	not_ok "systemd-analyze security prints an exposure score" "$out"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
