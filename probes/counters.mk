# probes/counters.mk: counter probes, their encoders and the counters table
probes_libnasprobe_a_SOURCES += \
	probes/netdev.c probes/netdev.h \
	probes/cpustat.c probes/cpustat.h \
	probes/meminfo.c probes/meminfo.h \
	probes/diskstats.c probes/diskstats.h \
	probes/pressure.c probes/pressure.h \
	probes/softirqs.c probes/softirqs.h \
	probes/crypto.c probes/crypto.h \
	probes/nfsd.c probes/nfsd.h \
	probes/cgroup.c probes/cgroup.h \
	probes/procgroup.c probes/procgroup.h \
	probes/pidstat.c probes/pidstat.h \
	probes/rate.c probes/rate.h \
	probes/snapshot.c probes/snapshot.h

COUNTERS_DAEMON_SOURCES = daemon/enc_counters.c daemon/metrics.c
COUNTERS_CLIENT_SOURCES = client/show_counters.c

COUNTERS_TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit

check_PROGRAMS += tests/unit/t_netdev
tests_unit_t_netdev_SOURCES = tests/unit/t_netdev.c
tests_unit_t_netdev_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_netdev_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_cpustat
tests_unit_t_cpustat_SOURCES = tests/unit/t_cpustat.c
tests_unit_t_cpustat_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_cpustat_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_diskstats
tests_unit_t_diskstats_SOURCES = tests/unit/t_diskstats.c
tests_unit_t_diskstats_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_diskstats_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_procgroup
tests_unit_t_procgroup_SOURCES = tests/unit/t_procgroup.c
tests_unit_t_procgroup_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_procgroup_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_crypto
tests_unit_t_crypto_SOURCES = tests/unit/t_crypto.c
tests_unit_t_crypto_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_crypto_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_rate
tests_unit_t_rate_SOURCES = tests/unit/t_rate.c
tests_unit_t_rate_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_rate_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_snapshot
tests_unit_t_snapshot_SOURCES = tests/unit/t_snapshot.c
tests_unit_t_snapshot_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_snapshot_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_enc_counters
tests_unit_t_enc_counters_SOURCES = tests/unit/t_enc_counters.c \
	daemon/enc_counters.c daemon/metrics.c daemon/encode.c \
	daemon/verdict_outcome.c
tests_unit_t_enc_counters_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS) \
	-I$(top_srcdir)/daemon
tests_unit_t_enc_counters_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_enc_counters_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_pidstat
tests_unit_t_pidstat_SOURCES = tests/unit/t_pidstat.c
tests_unit_t_pidstat_CPPFLAGS = $(COUNTERS_TEST_CPPFLAGS)
tests_unit_t_pidstat_LDADD = probes/libnasprobe.a
