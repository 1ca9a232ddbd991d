# client/client.mk: nasperf
bin_PROGRAMS += client/nasperf
client_nasperf_SOURCES = client/nasperf.c client/args.c client/args.h \
	client/progress.c \
	client/show.c client/show.h \
	client/client.h client/cmd_runs.c client/cmd_watch.c client/cmd_synth.c \
	client/cmd_disktest.c client/cmd_bench.c client/bench.h \
	client/cmd_diagnose.c client/diag_html.c \
	client/bench_local.c client/bench_smb.c client/bench_nfs.c \
	client/tls.c client/tls.h \
	$(COUNTERS_CLIENT_SOURCES) $(TOPOLOGY_CLIENT_SOURCES)
# What it shares with nasperfd (the synthetic data's patterns, certificate
# fingerprints, JSON numbers, the advice, and the report's style sheet,
# which the diagnose page wears) is in DAEMON_LIBS's common/libnascommon.a.
client_nasperf_CPPFLAGS = $(AM_CPPFLAGS)
client_nasperf_CFLAGS = $(DAEMON_CFLAGS) $(SMBCLIENT_CFLAGS) \
	$(LIBNFS_CFLAGS) -pthread
client_nasperf_LDADD = $(DAEMON_LIBS) $(SMBCLIENT_LIBS) $(LIBNFS_LIBS) \
	-lpthread

check_PROGRAMS += tests/unit/t_args
tests_unit_t_args_SOURCES = tests/unit/t_args.c client/args.c client/args.h \
	client/progress.c
tests_unit_t_args_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_args_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/client
tests_unit_t_args_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_tlspin
tests_unit_t_tlspin_SOURCES = tests/unit/t_tlspin.c client/tls.c \
	client/tls.h common/tls_fp.c common/tls_fp.h client/args.c \
	client/args.h client/progress.c
tests_unit_t_tlspin_CFLAGS = $(DAEMON_CFLAGS) -pthread
tests_unit_t_tlspin_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/client
tests_unit_t_tlspin_LDADD = $(DAEMON_LIBS) -lpthread
