# daemon/synth.mk: the synthetic data plane (source and sink)
daemon_nasperfd_SOURCES += daemon/synth.c daemon/synth.h \
	daemon/synth_parse.c daemon/synth_parse.h

check_PROGRAMS += tests/unit/t_synth
tests_unit_t_synth_SOURCES = tests/unit/t_synth.c daemon/synth_parse.c \
	common/synth_pattern.c
tests_unit_t_synth_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_synth_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_synth_LDADD = $(DAEMON_LIBS)

dist_check_SCRIPTS += tests/integration/90-synth.sh
EXTRA_DIST += bench/synth-vs-iperf3
