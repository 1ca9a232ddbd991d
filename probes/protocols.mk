# probes/protocols.mk: Samba and NFS settings as configured (smb.conf,
# /etc/exports, ganesha.conf), part of /v1/topology
probes_libnasprobe_a_SOURCES += probes/smbconf.c probes/smbconf.h \
	probes/exports.c probes/exports.h probes/smbstatus.c probes/smbstatus.h

check_PROGRAMS += tests/unit/t_smbconf tests/unit/t_exports
tests_unit_t_smbconf_SOURCES = tests/unit/t_smbconf.c
tests_unit_t_smbconf_LDADD = probes/libnasprobe.a
tests_unit_t_exports_SOURCES = tests/unit/t_exports.c
tests_unit_t_exports_LDADD = probes/libnasprobe.a

# smbstatus's sessions: the text table here, the JSON in daemon/smbsess.c
check_PROGRAMS += tests/unit/t_smbstatus
tests_unit_t_smbstatus_SOURCES = tests/unit/t_smbstatus.c daemon/smbsess.c daemon/child.c \
	daemon/encode.c daemon/log.c $(CFG_DAEMON_SOURCES)
tests_unit_t_smbstatus_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit \
	-I$(top_srcdir)/daemon
tests_unit_t_smbstatus_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_smbstatus_LDADD = $(DAEMON_LIBS)
EXTRA_DIST += tests/fixtures/smbstatus/unraid-4.17.12-L.txt \
	tests/fixtures/smbstatus/debian-4.17.12-b.json \
	tests/fixtures/smbstatus/debian-4.17.12-b.txt
