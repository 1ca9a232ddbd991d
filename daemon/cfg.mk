# daemon/cfg.mk: configuration
CFG_DAEMON_SOURCES = daemon/cfg.c daemon/cfg.h

check_PROGRAMS += tests/unit/t_cfg
tests_unit_t_cfg_SOURCES = tests/unit/t_cfg.c daemon/cfg.c daemon/cfg.h
tests_unit_t_cfg_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon \
	-I$(top_srcdir)/tests/unit
tests_unit_t_cfg_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_cfg_LDADD = $(DAEMON_LIBS)

CFG_TEST_YAML = \
	tests/unit/cfg/alias.yaml \
	tests/unit/cfg/all-keys.yaml \
	tests/unit/cfg/anchor.yaml \
	tests/unit/cfg/bad-cidr.yaml \
	tests/unit/cfg/bad-listen.yaml \
	tests/unit/cfg/duplicate.yaml \
	tests/unit/cfg/empty-allow.yaml \
	tests/unit/cfg/empty.yaml \
	tests/unit/cfg/long-comm.yaml \
	tests/unit/cfg/merge.yaml \
	tests/unit/cfg/nic-typo.yaml \
	tests/unit/cfg/non-utf8.yaml \
	tests/unit/cfg/not-yaml.yaml \
	tests/unit/cfg/number.yaml \
	tests/unit/cfg/out-of-range.yaml \
	tests/unit/cfg/tab.yaml \
	tests/unit/cfg/top-sequence.yaml \
	tests/unit/cfg/two-docs.yaml \
	tests/unit/cfg/typo.yaml \
	tests/unit/cfg/unknown-key.yaml \
	tests/unit/cfg/wrong-type-seq.yaml \
	tests/unit/cfg/wrong-type.yaml
EXTRA_DIST += etc/nasperfd.yaml $(CFG_TEST_YAML)
dist_man_MANS += man/nasperfd.yaml.5
