# daemon/daemon.mk: nasperfd
sbin_PROGRAMS += daemon/nasperfd
daemon_nasperfd_SOURCES = daemon/main.c daemon/daemon.h \
	daemon/api.c daemon/api.h daemon/encode.c daemon/encode.h daemon/log.c daemon/log.h \
	daemon/state.c daemon/state.h \
	daemon/history.c daemon/history.h daemon/sampler.c daemon/sampler.h \
	daemon/runs.c daemon/runs.h daemon/verdict.c daemon/verdict.h \
	$(CFG_DAEMON_SOURCES) $(COUNTERS_DAEMON_SOURCES) $(TOPOLOGY_DAEMON_SOURCES)
daemon_nasperfd_CPPFLAGS = $(AM_CPPFLAGS) -DSYSCONFDIR='"$(sysconfdir)"' \
	-DLOCALSTATEDIR='"$(localstatedir)"'
daemon_nasperfd_CFLAGS = $(DAEMON_CFLAGS)
daemon_nasperfd_LDADD = $(DAEMON_LIBS)
