# daemon/daemon.mk: nasperfd
sbin_PROGRAMS += daemon/nasperfd
daemon_nasperfd_SOURCES = daemon/main.c \
	$(CFG_DAEMON_SOURCES) $(COUNTERS_DAEMON_SOURCES) $(TOPOLOGY_DAEMON_SOURCES)
daemon_nasperfd_CFLAGS = $(DAEMON_CFLAGS)
daemon_nasperfd_LDADD = $(DAEMON_LIBS)
