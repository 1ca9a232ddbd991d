# daemon/disktest.mk: the disk analyzer (POST /v1/disktests, nasperf disktest)
daemon_nasperfd_SOURCES += daemon/disktest.c daemon/disktest.h \
	daemon/disktest_plan.c daemon/disktest_plan.h \
	daemon/baseline.c daemon/baseline.h \
	daemon/api_disktest.c daemon/api_disktest.h
# The disk benchmark engine in libnasprobe runs POSIX threads.
daemon_nasperfd_LDFLAGS = $(AM_LDFLAGS) -pthread

check_PROGRAMS += tests/unit/t_disktest
tests_unit_t_disktest_SOURCES = tests/unit/t_disktest.c daemon/disktest.c \
	daemon/disktest_plan.c daemon/baseline.c daemon/http.c common/jsonnum.c \
	daemon/log.c daemon/state.c $(CFG_DAEMON_SOURCES)
tests_unit_t_disktest_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_disktest_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_disktest_LDADD = $(DAEMON_LIBS)
tests_unit_t_disktest_LDFLAGS = $(AM_LDFLAGS) -pthread

dist_check_SCRIPTS += tests/integration/72-disktest-safety.sh \
	tests/integration/74-disktest-symlink.sh
