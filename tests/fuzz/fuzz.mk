# tests/fuzz/fuzz.mk: the parsers against hostile input.
#
# Always a TAP test, tests/fuzz/t_fuzz_probes: the probes' parsers over the
# fixture files, then fixed-seed mutations of them.  With --enable-fuzzing
# (CC=clang) also a libFuzzer target per parser family:
#
#   probes     the parsers of fuzz_parsers.c, the first byte picking one
#   mdstat, bonding, cpuinfo   one of them each, the input being the file
check_PROGRAMS += tests/fuzz/t_fuzz_probes
tests_fuzz_t_fuzz_probes_SOURCES = tests/fuzz/fuzz_probes.c \
	tests/fuzz/fuzz_parsers.c tests/fuzz/fuzz_probes.h
tests_fuzz_t_fuzz_probes_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/tests/fuzz
tests_fuzz_t_fuzz_probes_LDADD = probes/libnasprobe.a

if FUZZING
# The parsed code is compiled again with the fuzzer's instrumentation, so
# that libFuzzer sees its coverage (libnasprobe.a is built without it);
# UBSan's findings stop the run as ASan's do.
FUZZ_COMPILE = -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LINK = -fsanitize=fuzzer,address,undefined -pthread
noinst_LIBRARIES += tests/fuzz/libfuzzprobes.a
tests_fuzz_libfuzzprobes_a_SOURCES = $(probes_libnasprobe_a_SOURCES) \
	tests/fuzz/fuzz_parsers.c tests/fuzz/fuzz_probes.h
tests_fuzz_libfuzzprobes_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
tests_fuzz_libfuzzprobes_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_COMPILE)
FUZZ_PROBES_LIBS = tests/fuzz/libfuzzprobes.a

FUZZERS = tests/fuzz/fuzz-probes tests/fuzz/fuzz-mdstat \
	tests/fuzz/fuzz-bonding tests/fuzz/fuzz-cpuinfo
noinst_PROGRAMS = $(FUZZERS)

# The probes' targets: fuzz_probes.c over the table of fuzz_parsers.c.
tests_fuzz_fuzz_probes_SOURCES = tests/fuzz/fuzz_probes.c
tests_fuzz_fuzz_probes_CPPFLAGS = $(AM_CPPFLAGS) -DNP_LIBFUZZER \
	-I$(top_srcdir)/tests/fuzz
tests_fuzz_fuzz_probes_CFLAGS = $(AM_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_probes_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_probes_LDADD = $(FUZZ_PROBES_LIBS)
tests_fuzz_fuzz_mdstat_SOURCES = tests/fuzz/fuzz_probes.c
tests_fuzz_fuzz_mdstat_CPPFLAGS = $(tests_fuzz_fuzz_probes_CPPFLAGS) \
	-DFUZZ_PARSER='"mdstat"'
tests_fuzz_fuzz_mdstat_CFLAGS = $(AM_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_mdstat_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_mdstat_LDADD = $(FUZZ_PROBES_LIBS)
tests_fuzz_fuzz_bonding_SOURCES = tests/fuzz/fuzz_probes.c
tests_fuzz_fuzz_bonding_CPPFLAGS = $(tests_fuzz_fuzz_probes_CPPFLAGS) \
	-DFUZZ_PARSER='"bonding"'
tests_fuzz_fuzz_bonding_CFLAGS = $(AM_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_bonding_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_bonding_LDADD = $(FUZZ_PROBES_LIBS)
tests_fuzz_fuzz_cpuinfo_SOURCES = tests/fuzz/fuzz_probes.c
tests_fuzz_fuzz_cpuinfo_CPPFLAGS = $(tests_fuzz_fuzz_probes_CPPFLAGS) \
	-DFUZZ_PARSER='"cpuinfo"'
tests_fuzz_fuzz_cpuinfo_CFLAGS = $(AM_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_cpuinfo_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_cpuinfo_LDADD = $(FUZZ_PROBES_LIBS)
endif

