# common/common.mk: what nasperfd and nasperf share, as one library: the
# synthetic data's patterns, certificate fingerprints, JSON numbers, the
# advice by verdict class, the reports' style sheet, and JSON written as
# YAML (a run's report; the configuration nasperf install writes).
noinst_LIBRARIES += common/libnascommon.a
common_libnascommon_a_SOURCES = common/synth_pattern.c common/synth_pattern.h \
	common/tls_fp.c common/tls_fp.h common/jsonnum.c common/jsonnum.h \
	common/advice.c common/advice.h common/report_yaml.c common/report_yaml.h \
	common/jsonget.h
nodist_common_libnascommon_a_SOURCES = common/report_css.c
common_libnascommon_a_CFLAGS = $(DAEMON_CFLAGS)

# The HTML report's style sheet, a file of its own, embedded at build time.
common/report_css.c: $(srcdir)/common/report.css $(srcdir)/scripts/embed.awk
	@$(MKDIR_P) common
	$(AM_V_GEN)$(AWK) -v name=report_css -f $(srcdir)/scripts/embed.awk \
	    $(srcdir)/common/report.css >$@.tmp && mv $@.tmp $@
CLEANFILES += common/report_css.c
EXTRA_DIST += common/report.css scripts/embed.awk
