# tests/fuzz/fuzz.mk: the parsers against hostile input.  Always a TAP
# test (fixture files, then fixed-seed mutations); with --enable-fuzzing
# (CC=clang) also a libFuzzer target, tests/fuzz/fuzz-probes.
check_PROGRAMS += tests/fuzz/t_fuzz_probes
tests_fuzz_t_fuzz_probes_SOURCES = tests/fuzz/fuzz_probes.c \
	tests/fuzz/fuzz_parsers.c tests/fuzz/fuzz_probes.h
tests_fuzz_t_fuzz_probes_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/tests/fuzz
tests_fuzz_t_fuzz_probes_LDADD = probes/libnasprobe.a
if FUZZING
# The probes are compiled into the target itself, with its flags, so that
# libFuzzer sees their coverage (libnasprobe.a is built without it).
noinst_PROGRAMS = tests/fuzz/fuzz-probes
tests_fuzz_fuzz_probes_SOURCES = $(tests_fuzz_t_fuzz_probes_SOURCES) \
	$(probes_libnasprobe_a_SOURCES)
tests_fuzz_fuzz_probes_CPPFLAGS = $(tests_fuzz_t_fuzz_probes_CPPFLAGS) \
	-DNP_LIBFUZZER
tests_fuzz_fuzz_probes_CFLAGS = $(AM_CFLAGS) -fsanitize=fuzzer,address,undefined
tests_fuzz_fuzz_probes_LDFLAGS = -fsanitize=fuzzer,address,undefined -pthread
endif
