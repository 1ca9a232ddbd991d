# client/client.mk: nasperf
bin_PROGRAMS += client/nasperf
client_nasperf_SOURCES = client/nasperf.c client/show.c client/show.h \
	client/client.h client/cmd_runs.c \
	$(COUNTERS_CLIENT_SOURCES) $(TOPOLOGY_CLIENT_SOURCES)
client_nasperf_CFLAGS = $(DAEMON_CFLAGS)
client_nasperf_LDADD = $(DAEMON_LIBS)
