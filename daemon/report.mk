# daemon/report.mk: the report renderers (YAML, HTML with inline SVG)
daemon_nasperfd_SOURCES += daemon/report_html.c daemon/report_html.h

REPORT_RENDER_SOURCES = daemon/report_html.c daemon/report_html.h \
	common/advice.c common/advice.h


check_PROGRAMS += tests/unit/t_report_render
tests_unit_t_report_render_SOURCES = tests/unit/t_report_render.c \
	tests/unit/yaml_read.h $(REPORT_RENDER_SOURCES)
tests_unit_t_report_render_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/daemon
tests_unit_t_report_render_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_report_render_LDADD = $(DAEMON_LIBS)

dist_check_SCRIPTS += tests/integration/60-html.sh

REPORT_FIXTURES = \
	tests/fixtures/reports/cpu-4core.json \
	tests/fixtures/reports/cpu64-client.json \
	tests/fixtures/reports/disk-raid6.json \
	tests/fixtures/reports/empty.json \
	tests/fixtures/reports/network-1gbe.json \
	tests/fixtures/reports/nulls-gaps.json \
	tests/fixtures/reports/transfer-stopped.json
EXTRA_DIST += $(REPORT_FIXTURES)
