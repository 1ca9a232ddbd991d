#!/bin/sh
# test.sh: build nasperf and run the whole test suite (unit tests over the
# fixture trees, and integration tests that start the real daemon and the
# real devices and tools they use, then stop and remove them).  Run as root
# on Debian 12: it installs what is missing.
#
#   BUILD=dir            build directory (default _build)
#   CONFIGURE_FLAGS=...  e.g. --enable-sanitizers
#   FUZZ_BUILD=dir       where the libFuzzer targets are built with clang
#                        and run over their corpora, after the suite
#                        (default BUILD-fuzz; empty: not)
set -e
NP_TOP=$(cd "$(dirname "$0")/.." && pwd)
. "$NP_TOP/scripts/deps.sh"
np_install $NP_BUILD_DEPS $NP_TEST_DEPS $NP_FUZZ_DEPS
BUILD=${BUILD:-$NP_TOP/_build}
FUZZ_BUILD=${FUZZ_BUILD-$BUILD-fuzz}
# shellcheck disable=SC2086
np_build "$BUILD" ${CONFIGURE_FLAGS:-}
cd "$BUILD"
# Three tests at a time: most wait on a throttled disk or link.  A test
# that needs the machine to itself says so (tests/integration/lib.sh:
# alone), and the NFS tests take turns (one_at_a_time).
set +e
make -s -j"${NP_TEST_JOBS:-3}" check
rc=$?
if [ "$rc" -ne 0 ]; then
	echo "failures (from $BUILD/test-suite.log):"
	grep -E '^(not ok|ERROR|FAIL)' "$BUILD"/tests/*/*.log "$BUILD"/tests/*.log 2>/dev/null | head -50
fi
# The fuzz build runs its fuzz test only: the rest of the suite just ran.
if [ -n "$FUZZ_BUILD" ]; then
	if np_build "$FUZZ_BUILD" CC=clang --enable-fuzzing &&
	    (cd "$FUZZ_BUILD" && make -s check TESTS=tests/fuzz/t_libfuzzer.sh); then
		:
	else
		echo "the libFuzzer targets failed (from $FUZZ_BUILD/tests/fuzz/t_libfuzzer.sh.log):"
		grep -E '^(not ok|#)' "$FUZZ_BUILD"/tests/fuzz/t_libfuzzer.sh.log 2>/dev/null | head -50
		rc=1
	fi
fi
exit "$rc"
