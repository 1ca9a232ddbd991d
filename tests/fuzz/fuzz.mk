# tests/fuzz/fuzz.mk: the parsers against hostile input.
#
# Always a TAP test, tests/fuzz/t_fuzz_probes: the probes' parsers over the
# fixture files, then fixed-seed mutations of them.  With --enable-fuzzing
# (CC=clang) also a libFuzzer target per parser family, run by make check
# over its seed corpus, tests/fuzz/corpus/<family>/, and the inputs made
# from it from a fixed seed, FUZZ_RUNS runs in all (t_libfuzzer.sh); make
# fuzz runs each for FUZZ_SECONDS instead:
#
#   probes     the parsers of fuzz_parsers.c, the first byte picking one
#   mdstat, bonding, cpuinfo   one of them each, the input being the file
#   smbstatus  smbstatus -b, as JSON (daemon/smbsess.c) and as text
#   importers  dd, fio and CrystalDiskMark output (client/import_*.c)
#   cfg        nasperfd.yaml (daemon/cfg.c over libyaml)
#   http       the API's request targets: routes, ids, query numbers
#   synth      the data plane's request heads, routes and queries
#   run        a run's figures as a request body, a saved run, a report
check_PROGRAMS += tests/fuzz/t_fuzz_probes
tests_fuzz_t_fuzz_probes_SOURCES = tests/fuzz/fuzz_probes.c \
	tests/fuzz/fuzz_parsers.c tests/fuzz/fuzz_probes.h
tests_fuzz_t_fuzz_probes_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/tests/fuzz
tests_fuzz_t_fuzz_probes_LDADD = probes/libnasprobe.a
# The targets' seeds, tests/fuzz/corpus/<family>/: real inputs.
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/mkcorpus.sh

FUZZ_FAMILIES = probes mdstat bonding cpuinfo smbstatus importers cfg \
	http synth run
FUZZ_RUNS = 20000
dist_check_SCRIPTS += tests/fuzz/t_libfuzzer.sh

if FUZZING
FUZZ_TARGETS = $(FUZZ_FAMILIES)
# The parsed code is compiled again with the fuzzer's instrumentation, so
# that libFuzzer sees its coverage (libnasprobe.a and the daemon's objects
# are built without it); UBSan's findings stop the run as ASan's do.
FUZZ_COMPILE = -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LINK = -fsanitize=fuzzer,address,undefined -pthread
noinst_LIBRARIES += tests/fuzz/libfuzzprobes.a tests/fuzz/libfuzzdaemon.a
tests_fuzz_libfuzzprobes_a_SOURCES = $(probes_libnasprobe_a_SOURCES) \
	tests/fuzz/fuzz_parsers.c tests/fuzz/fuzz_probes.h
tests_fuzz_libfuzzprobes_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
tests_fuzz_libfuzzprobes_a_CFLAGS = $(AM_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_libfuzzdaemon_a_SOURCES = daemon/routes.c daemon/http.c \
	daemon/http_head.c \
	common/jsonnum.c daemon/web.c daemon/web_assets.c \
	daemon/synth_parse.c common/synth_pattern.c daemon/smbsess.c daemon/child.c \
	daemon/run.c daemon/verdict_outcome.c \
	daemon/encode.c daemon/log.c client/importers.c client/importers_lex.c \
	client/import_dd.c \
	client/import_fio.c client/import_cdm.c $(CFG_DAEMON_SOURCES) \
	tests/fuzz/fuzz_handlers.c
tests_fuzz_libfuzzdaemon_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon
tests_fuzz_libfuzzdaemon_a_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
FUZZ_PROBES_LIBS = tests/fuzz/libfuzzprobes.a
FUZZ_DAEMON_LIBS = tests/fuzz/libfuzzdaemon.a tests/fuzz/libfuzzprobes.a \
	$(LIBEVENT_LIBS) $(YAML_LIBS) $(JANSSON_LIBS)
FUZZ_DAEMON_INCLUDES = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon \
	-I$(top_srcdir)/client

FUZZERS = tests/fuzz/fuzz-probes tests/fuzz/fuzz-mdstat \
	tests/fuzz/fuzz-bonding tests/fuzz/fuzz-cpuinfo \
	tests/fuzz/fuzz-smbstatus tests/fuzz/fuzz-importers \
	tests/fuzz/fuzz-cfg tests/fuzz/fuzz-http tests/fuzz/fuzz-synth \
	tests/fuzz/fuzz-run
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

# The daemon's and the client's parsers, one source each.
tests_fuzz_fuzz_smbstatus_SOURCES = tests/fuzz/fuzz_smbstatus.c
tests_fuzz_fuzz_smbstatus_CPPFLAGS = $(FUZZ_DAEMON_INCLUDES)
tests_fuzz_fuzz_smbstatus_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_smbstatus_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_smbstatus_LDADD = $(FUZZ_DAEMON_LIBS)
tests_fuzz_fuzz_importers_SOURCES = tests/fuzz/fuzz_importers.c
tests_fuzz_fuzz_importers_CPPFLAGS = $(FUZZ_DAEMON_INCLUDES)
tests_fuzz_fuzz_importers_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_importers_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_importers_LDADD = $(FUZZ_DAEMON_LIBS)
tests_fuzz_fuzz_cfg_SOURCES = tests/fuzz/fuzz_cfg.c
tests_fuzz_fuzz_cfg_CPPFLAGS = $(FUZZ_DAEMON_INCLUDES)
tests_fuzz_fuzz_cfg_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_cfg_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_cfg_LDADD = $(FUZZ_DAEMON_LIBS)
tests_fuzz_fuzz_http_SOURCES = tests/fuzz/fuzz_http.c
tests_fuzz_fuzz_http_CPPFLAGS = $(FUZZ_DAEMON_INCLUDES)
tests_fuzz_fuzz_http_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_http_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_http_LDADD = $(FUZZ_DAEMON_LIBS)
tests_fuzz_fuzz_synth_SOURCES = tests/fuzz/fuzz_synth.c
tests_fuzz_fuzz_synth_CPPFLAGS = $(FUZZ_DAEMON_INCLUDES)
tests_fuzz_fuzz_synth_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_synth_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_synth_LDADD = $(FUZZ_DAEMON_LIBS)
tests_fuzz_fuzz_run_SOURCES = tests/fuzz/fuzz_run.c
tests_fuzz_fuzz_run_CPPFLAGS = $(FUZZ_DAEMON_INCLUDES)
tests_fuzz_fuzz_run_CFLAGS = $(DAEMON_CFLAGS) $(FUZZ_COMPILE)
tests_fuzz_fuzz_run_LDFLAGS = $(FUZZ_LINK)
tests_fuzz_fuzz_run_LDADD = $(FUZZ_DAEMON_LIBS)
else
FUZZ_TARGETS =
FUZZERS =
endif

# make fuzz: every target for FUZZ_SECONDS (60), keeping what it finds in
# tests/fuzz/found/<family>/; FUZZ_FAMILIES="cfg http" runs some only.
fuzz: $(FUZZERS)
	@test -n "$(FUZZ_TARGETS)" || { echo "make fuzz: the libFuzzer" \
	    "targets are built by configure CC=clang --enable-fuzzing" >&2; \
	    exit 1; }
	NP_SRCDIR='$(abs_top_srcdir)' NP_BUILDDIR='$(abs_top_builddir)' \
	    NP_FUZZ_TARGETS='$(FUZZ_FAMILIES)' $(SHELL) \
	    $(srcdir)/tests/fuzz/t_libfuzzer.sh --seconds "$${FUZZ_SECONDS:-60}"
.PHONY: fuzz

CLEANFILES += tests/fuzz/*.fuzz.log
clean-local: clean-local-fuzz
clean-local-fuzz:
	rm -rf tests/fuzz/found tests/fuzz/*-crash-* tests/fuzz/*-leak-* \
	    tests/fuzz/*-oom-* tests/fuzz/*-timeout-* tests/fuzz/*-slow-unit-*
.PHONY: clean-local-fuzz
