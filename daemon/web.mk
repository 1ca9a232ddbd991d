# daemon/web.mk: the page nasperfd serves at /, its files embedded at
# build time.  The chart library comes from npm (web/package-lock.json):
# `npm ci --prefix web` once, then make works offline.  A release
# tarball carries daemon/web_assets.c made, so it builds without npm.
PAGE_FILES = web/src/index.html web/src/app.js web/src/app.css
PAGE_UPLOT = $(srcdir)/web/node_modules/uplot/dist
daemon_nasperfd_SOURCES += daemon/web.c daemon/web.h daemon/web_assets.c
BUILT_SOURCES += daemon/web_assets.c
MAINTAINERCLEANFILES += daemon/web_assets.c
EXTRA_DIST += $(PAGE_FILES) web/package.json web/package-lock.json \
	scripts/embed-web.sh

daemon/web_assets.c: $(PAGE_FILES) web/package-lock.json \
    scripts/embed-web.sh
	@if [ ! -r $(PAGE_UPLOT)/uPlot.iife.min.js ]; then \
	    echo "web/node_modules/uplot is missing: run npm ci --prefix" \
	        "$(srcdir)/web (nodejs and npm from Debian)" >&2; exit 1; fi
	@$(MKDIR_P) daemon
	$(AM_V_GEN)$(SHELL) $(srcdir)/scripts/embed-web.sh $@ \
	    "/|text/html; charset=utf-8|$(srcdir)/web/src/index.html" \
	    "/ui/app.js|text/javascript; charset=utf-8|$(srcdir)/web/src/app.js" \
	    "/ui/app.css|text/css; charset=utf-8|$(srcdir)/web/src/app.css" \
	    "/ui/uplot.js|text/javascript; charset=utf-8|$(PAGE_UPLOT)/uPlot.iife.min.js" \
	    "/ui/uplot.css|text/css; charset=utf-8|$(PAGE_UPLOT)/uPlot.min.css" \
	    "/ui/uplot-LICENSE.txt|text/plain; charset=utf-8|$(PAGE_UPLOT)/../LICENSE"

dist_check_SCRIPTS += tests/integration/61-web.sh \
	tests/integration/62-web-proxy.sh tests/integration/63-web-disktest.sh \
	tests/integration/65-web-tls.sh
EXTRA_DIST += tests/integration/web-lib.mjs tests/integration/web-page.mjs \
	tests/integration/web-disktest.mjs tests/integration/web-tls.mjs

check_PROGRAMS += tests/unit/t_web
tests_unit_t_web_SOURCES = tests/unit/t_web.c daemon/web.c daemon/web.h \
	daemon/http.c daemon/http.h common/jsonnum.c common/jsonnum.h \
	daemon/web_assets.c
tests_unit_t_web_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_web_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_web_LDADD = $(DAEMON_LIBS)

clean-local: clean-web-artifacts
.PHONY: clean-web-artifacts
clean-web-artifacts:
	rm -rf tests/artifacts
