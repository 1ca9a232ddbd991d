# probes/counters.mk: counter probes, their encoders and the counters table
probes_libnasprobe_a_SOURCES += \
	probes/netdev.c probes/netdev.h

COUNTERS_DAEMON_SOURCES =
COUNTERS_CLIENT_SOURCES =

COUNTERS_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit

check_PROGRAMS += tests/unit/t_netdev
tests_unit_t_netdev_SOURCES = tests/unit/t_netdev.c
tests_unit_t_netdev_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_netdev_LDADD = probes/libnasprobe.a
