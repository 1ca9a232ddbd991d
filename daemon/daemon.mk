# daemon/daemon.mk: nasperfd
sbin_PROGRAMS += daemon/nasperfd
daemon_nasperfd_SOURCES = daemon/main.c daemon/daemon.c daemon/daemon.h \
	daemon/api.c daemon/api.h daemon/routes.c daemon/routes.h \
	daemon/api_box.c daemon/api_box.h \
	daemon/http.c daemon/http.h daemon/http_head.c daemon/http_head.h \
	daemon/encode.c daemon/encode.h daemon/log.c daemon/log.h \
	daemon/state.c daemon/state.h \
	daemon/history.c daemon/history.h daemon/sampler.c daemon/sampler.h \
	daemon/run.c daemon/run.h \
	daemon/runs.c daemon/runs.h daemon/api_runs.c daemon/api_runs.h \
	daemon/runpath.c daemon/runpath.h daemon/transfers.c daemon/transfers.h \
	daemon/verdict.c daemon/verdict.h \
	daemon/verdict_outcome.c daemon/verdict_outcome.h \
	daemon/verdict_hints.c daemon/report_text.c daemon/report_text.h \
	daemon/cachedrop.c daemon/cachedrop.h daemon/pathcap.c daemon/pathcap.h \
	daemon/api_cache.c daemon/api_cache.h daemon/smbsess.c daemon/smbsess.h \
	daemon/authfail.c daemon/authfail.h daemon/peercap.c daemon/peercap.h \
	daemon/child.c daemon/child.h daemon/zpool.c daemon/zpool.h \
	daemon/tls.c daemon/tls.h \
	$(CFG_DAEMON_SOURCES) $(COUNTERS_DAEMON_SOURCES) $(TOPOLOGY_DAEMON_SOURCES)
if NUMERIC_RESOLVER
daemon_nasperfd_SOURCES += daemon/resolv_numeric.c
endif
daemon_nasperfd_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon \
	-DSYSCONFDIR='"$(sysconfdir)"' \
	-DLOCALSTATEDIR='"$(localstatedir)"'
daemon_nasperfd_CFLAGS = $(DAEMON_CFLAGS)
daemon_nasperfd_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_verdict
tests_unit_t_verdict_SOURCES = tests/unit/t_verdict.c daemon/verdict.c \
	daemon/verdict_outcome.c daemon/verdict_outcome.h \
	daemon/verdict_hints.c daemon/report_text.c tests/unit/yaml_read.h \
	common/advice.c common/advice.h \
	daemon/history.c daemon/encode.c $(CFG_DAEMON_SOURCES)
tests_unit_t_verdict_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_verdict_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_verdict_LDADD = $(DAEMON_LIBS)
EXTRA_DIST += tests/fixtures/windows/mkwindows.py \
	tests/fixtures/windows/raid6-busy.json \
	tests/fixtures/windows/gbe-117.json \
	tests/fixtures/windows/smbd-one-core.json \
	tests/fixtures/windows/cache.json \
	tests/fixtures/windows/small-requests.json \
	tests/fixtures/windows/idle-server.json \
	tests/fixtures/windows/smbd-quota.json \
	tests/fixtures/windows/bond-8023ad.json \
	tests/fixtures/windows/busy-neighbours.json \
	tests/fixtures/windows/two-volumes.json \
	tests/fixtures/windows/quota-elsewhere.json \
	tests/fixtures/windows/zfs-arc.json tests/fixtures/windows/zfs-miss.json \
	tests/fixtures/windows/zfs-sync.json \
	tests/fixtures/windows/unraid-check.json

check_PROGRAMS += tests/unit/t_run
tests_unit_t_run_SOURCES = tests/unit/t_run.c daemon/run.c daemon/run.h \
	daemon/verdict_outcome.c daemon/verdict_outcome.h
tests_unit_t_run_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_run_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_run_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_peercap
tests_unit_t_peercap_SOURCES = tests/unit/t_peercap.c daemon/peercap.c \
	daemon/peercap.h daemon/log.c daemon/log.h
tests_unit_t_peercap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_peercap_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_peercap_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_jsonnum
tests_unit_t_jsonnum_SOURCES = tests/unit/t_jsonnum.c common/jsonnum.c \
	common/jsonnum.h
tests_unit_t_jsonnum_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_jsonnum_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/daemon
tests_unit_t_jsonnum_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_runpath
tests_unit_t_runpath_SOURCES = tests/unit/t_runpath.c daemon/runpath.c \
	$(CFG_DAEMON_SOURCES)
tests_unit_t_runpath_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_runpath_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_runpath_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_http
tests_unit_t_http_SOURCES = tests/unit/t_http.c daemon/http.c daemon/http.h \
	common/jsonnum.c common/jsonnum.h
tests_unit_t_http_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_http_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_http_LDADD = $(DAEMON_LIBS)

check_PROGRAMS += tests/unit/t_http_head
tests_unit_t_http_head_SOURCES = tests/unit/t_http_head.c daemon/http_head.c \
	daemon/http_head.h
tests_unit_t_http_head_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_http_head_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_http_head_LDADD = $(DAEMON_LIBS)
