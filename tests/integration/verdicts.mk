# tests/integration/verdicts.mk: each verdict class on this machine for real
dist_check_SCRIPTS += tests/integration/80-verdict-disk.sh \
	tests/integration/81-verdict-net.sh \
	tests/integration/86-verdict-path-disk.sh \
	tests/integration/87-verdict-path-nfs.sh \
	tests/integration/89-diagnose.sh tests/integration/64-diagnose-html.sh \
	tests/integration/97-transfers.sh tests/integration/99-transfers-nfs.sh \
	tests/integration/98-prometheus.sh

# What a fleet's Prometheus and Grafana take, checked by 98-prometheus.
EXTRA_DIST += contrib/prometheus/nasperf.rules.yml \
	contrib/prometheus/nasperf.rules.test.yml contrib/grafana/nasperf.json

# The delay proxy the latency test puts in front of nasperfd.  Built for
# make check without being a test itself (every check program is one),
# hence the explicit rule.
DELAYPROXY = tests/integration/delayproxy$(EXEEXT)
check_DATA += $(DELAYPROXY)
CLEANFILES += $(DELAYPROXY)
EXTRA_DIST += tests/integration/delayproxy.c tests/integration/verdict-lib.sh
$(DELAYPROXY): $(srcdir)/tests/integration/delayproxy.c
	@$(MKDIR_P) tests/integration
	$(AM_V_CCLD)$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	    $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@ \
	    $(srcdir)/tests/integration/delayproxy.c $(LIBS)
delayproxy: $(DELAYPROXY)
.PHONY: delayproxy
