# man/man.mk: man pages, the systemd unit and the installed configuration
dist_man_MANS += man/nasperfd.8 man/nasperf.1

systemdsystemunit_DATA = systemd/nasperfd.service
EXTRA_DIST += systemd/nasperfd.service.in etc/nasperfd.yaml
CLEANFILES += systemd/nasperfd.service systemd/nasperfd.service.tmp

systemd/nasperfd.service: $(srcdir)/systemd/nasperfd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) systemd && \
	$(SED) -e 's|@sbindir[@]|$(sbindir)|g' \
	    -e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	    $(srcdir)/systemd/nasperfd.service.in >$@.tmp && mv $@.tmp $@

# The configuration is installed only where none exists: an admin's file
# is never overwritten.
install-data-local:
	$(MKDIR_P) $(DESTDIR)$(sysconfdir)/nasperfd
	test -f $(DESTDIR)$(sysconfdir)/nasperfd/nasperfd.yaml || \
	    $(INSTALL_DATA) $(srcdir)/etc/nasperfd.yaml \
	    $(DESTDIR)$(sysconfdir)/nasperfd/nasperfd.yaml

# Remove it only while it is still the shipped default.
uninstall-local:
	if cmp -s $(srcdir)/etc/nasperfd.yaml \
	    $(DESTDIR)$(sysconfdir)/nasperfd/nasperfd.yaml; then \
	    rm -f $(DESTDIR)$(sysconfdir)/nasperfd/nasperfd.yaml; \
	    rmdir $(DESTDIR)$(sysconfdir)/nasperfd 2>/dev/null || :; fi

check_DATA += systemd/nasperfd.service
dist_check_SCRIPTS += tests/unit/t_docs.sh tests/unit/t_help.sh
