# client/client.mk: nasperf
bin_PROGRAMS += client/nasperf
client_nasperf_SOURCES = client/nasperf.c client/show.c client/show.h \
	client/client.h client/cmd_runs.c client/cmd_synth.c \
	client/cmd_disktest.c \
	daemon/synth_pattern.c daemon/synth_pattern.h \
	$(COUNTERS_CLIENT_SOURCES) $(TOPOLOGY_CLIENT_SOURCES)
client_nasperf_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon
client_nasperf_CFLAGS = $(DAEMON_CFLAGS) -pthread
client_nasperf_LDADD = $(DAEMON_LIBS) -lpthread
