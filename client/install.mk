# client/install.mk: nasperf install and uninstall over SSH
client_nasperf_SOURCES += client/cmd_install.c client/install.h \
	client/install_ssh.c client/install_detect.c client/install_sh.h
nodist_client_nasperf_SOURCES = client/install_sh.c
# Where make install puts the static daemons (packaging/static.mk), which
# nasperf install copies unless --binaries names another directory.
client_nasperf_CPPFLAGS += -DNASPERF_STATIC_DIR='"$(pkglibdir)/static"'

# The shell it runs on the NAS: files of their own, shellchecked by
# tests/unit/t_install_sh.sh, embedded at build time as install_sh.h says.
INSTALL_SH = client/install/common.sh client/install/detect.sh \
	client/install/install-pre.sh \
	client/install/start-systemd.sh client/install/install-wait.sh \
	client/install/uninstall.sh
EXTRA_DIST += $(INSTALL_SH)
INSTALL_SH_SRC = $(INSTALL_SH:%=$(srcdir)/%)
# The service script of a plain, rc.d or QPKG install is the packages'
# nasperfd-ctl.sh (packaging/vendor.mk), set to the layout install makes.
client/install_sh.c: $(INSTALL_SH_SRC) $(srcdir)/packaging/nasperfd-ctl.sh \
    $(srcdir)/scripts/embed.awk
	@$(MKDIR_P) client
	$(AM_V_GEN)set -e; for f in common:common detect:detect \
	    pre:install-pre systemd:start-systemd \
	    wait:install-wait uninstall:uninstall; do \
		$(AWK) -v name=install_$${f%%:*}_sh \
		    -f $(srcdir)/scripts/embed.awk \
		    $(srcdir)/client/install/$${f#*:}.sh; \
	done >$@.tmp && $(AWK) -v name=install_service_sh \
	    -f $(srcdir)/scripts/embed.awk \
	    $(srcdir)/packaging/nasperfd-ctl.sh >>$@.tmp && mv $@.tmp $@
CLEANFILES += client/install_sh.c

dist_check_SCRIPTS += tests/unit/t_install_sh.sh tests/integration/93-install-ssh.sh
