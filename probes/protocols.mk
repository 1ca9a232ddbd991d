# probes/protocols.mk: Samba and NFS settings as configured (smb.conf,
# /etc/exports, ganesha.conf), part of /v1/topology
probes_libnasprobe_a_SOURCES += probes/smbconf.c probes/smbconf.h \
	probes/exports.c probes/exports.h

check_PROGRAMS += tests/unit/t_smbconf tests/unit/t_exports
tests_unit_t_smbconf_SOURCES = tests/unit/t_smbconf.c
tests_unit_t_smbconf_LDADD = probes/libnasprobe.a
tests_unit_t_exports_SOURCES = tests/unit/t_exports.c
tests_unit_t_exports_LDADD = probes/libnasprobe.a
