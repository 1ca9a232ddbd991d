# daemon/daemon.mk: nasperfd
sbin_PROGRAMS += daemon/nasperfd
daemon_nasperfd_SOURCES = daemon/main.c
daemon_nasperfd_CFLAGS = $(DAEMON_CFLAGS)
daemon_nasperfd_LDADD = $(DAEMON_LIBS)
