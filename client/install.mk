# client/install.mk: nasperf install and uninstall over SSH
client_nasperf_SOURCES += client/cmd_install.c
# Where make install puts the static daemons (packaging/static.mk), which
# nasperf install copies unless --binaries names another directory.
client_nasperf_CPPFLAGS += -DNASPERF_STATIC_DIR='"$(pkglibdir)/static"'

dist_check_SCRIPTS += tests/integration/93-install-ssh.sh
