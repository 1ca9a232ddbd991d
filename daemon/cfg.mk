# daemon/cfg.mk: configuration
CFG_DAEMON_SOURCES = daemon/cfg.c daemon/cfg.h

check_PROGRAMS += tests/unit/t_cfg
tests_unit_t_cfg_SOURCES = tests/unit/t_cfg.c daemon/cfg.c daemon/cfg.h
tests_unit_t_cfg_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon \
	-I$(top_srcdir)/tests/unit
tests_unit_t_cfg_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_cfg_LDADD = $(DAEMON_LIBS)

EXTRA_DIST += etc/nasperfd.yaml
dist_man_MANS += man/nasperfd.yaml.5
