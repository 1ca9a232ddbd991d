#!/bin/sh
# t_libfuzzer.sh: each libFuzzer target of tests/fuzz/fuzz.mk over its seed
# corpus, tests/fuzz/corpus/<family>/, then over the inputs libFuzzer makes
# from it.  A target passes when nothing crashed, leaked or tripped ASan or
# UBSan, and every parser kept its promises (the targets abort otherwise).
#
#   t_libfuzzer.sh               make check: NP_FUZZ_RUNS runs in all (the
#                                seeds among them) from seed 1, the same
#                                inputs every time, whatever the clock says
#                                (no corpus reloads on a timer, and no
#                                address randomisation, whose pointers
#                                libFuzzer would take up as values)
#   t_libfuzzer.sh --seconds N   make fuzz: N seconds each from a random
#                                seed; new inputs are kept in
#                                tests/fuzz/found/<family>/ in the build tree
#
# NP_FUZZ_TARGETS names the families built; it is empty when configure had
# no --enable-fuzzing, and then the test skips.  A crash leaves its input
# in the build tree as tests/fuzz/<family>-crash-<sha1> (or leak-, oom-,
# timeout-), and each run's output in tests/fuzz/<family>.fuzz.log.
set -u
src=${NP_SRCDIR:?}/tests/fuzz
build=${NP_BUILDDIR:?}/tests/fuzz
seconds=
if [ "${1:-}" = --seconds ]; then
	seconds=${2:?--seconds takes a number}
fi

if [ -z "${NP_FUZZ_TARGETS:-}" ]; then
	echo "1..0 # SKIP the libFuzzer targets are built by" \
	    "configure CC=clang --enable-fuzzing"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export UBSAN_OPTIONS
fixed=
if [ -z "$seconds" ] && setarch -R true 2>/dev/null; then
	fixed="setarch -R"
fi

# shellcheck disable=SC2086
echo "1..$(echo $NP_FUZZ_TARGETS | wc -w)"
n=0 bad=0
for f in $NP_FUZZ_TARGETS; do
	n=$((n + 1))
	corpus=$src/corpus/$f
	log=$build/$f.fuzz.log
	nseeds=$(find "$corpus" -type f | wc -l)
	if [ -n "$seconds" ]; then
		out=$build/found/$f
		what="$nseeds seeds, $seconds s"
		opts="-max_total_time=$seconds"
	else
		out=$tmp/$f
		what="$nseeds seeds, ${NP_FUZZ_RUNS:-20000} runs from seed 1"
		opts="-runs=${NP_FUZZ_RUNS:-20000} -seed=1 -reload=0"
	fi
	mkdir -p "$out" || exit 1
	rm -f "$log"
	# -timeout only catches an input that hangs: one takes microseconds.
	# shellcheck disable=SC2086
	$fixed "$build/fuzz-$f" $opts -timeout=60 -print_final_stats=1 \
	    -artifact_prefix="$build/$f-" "$out" "$corpus" >"$log" 2>&1
	rc=$?
	# The last status line: "#20000 DONE cov: 812 ft: 2301 corp: ..."
	cov=$(sed -n 's/^#[0-9].* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p' \
	    "$log" | tail -1)
	if [ "$rc" -eq 0 ] && [ "$nseeds" -gt 0 ]; then
		echo "ok $n - $f: $what: ${cov:-no coverage line}"
		continue
	fi
	bad=1
	echo "not ok $n - $f: $what: exit status $rc"
	[ "$nseeds" -gt 0 ] || echo "# no seed in $corpus"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
	    "$log" | head -8 | sed 's/^/# /'
	echo "# the whole output: $log"
done
exit "$bad"
