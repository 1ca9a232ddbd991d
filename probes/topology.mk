# probes/topology.mk: topology probes, their encoders and client table
probes_libnasprobe_a_SOURCES += \
	probes/blockdev.c probes/blockdev.h probes/btrfs.c probes/btrfs.h \
	probes/mdstat.c probes/mdstat.h probes/mounts.c probes/mounts.h \
	probes/unraid.c probes/unraid.h probes/zfs.c probes/zfs.h \
	probes/topology.c probes/topology.h \
	probes/bonding.c probes/bonding.h probes/nic.c probes/nic.h \
	probes/cpuinfo.c probes/cpuinfo.h probes/identity.c probes/identity.h
TOPOLOGY_DAEMON_SOURCES = daemon/enc_topology.c daemon/enc_host.c \
	daemon/enc_host.h
TOPOLOGY_CLIENT_SOURCES = client/show_topology.c

check_PROGRAMS += tests/unit/t_bonding tests/unit/t_nic tests/unit/t_cpuinfo \
	tests/unit/t_identity tests/unit/t_mdstat tests/unit/t_topology \
	tests/unit/t_enc_host tests/unit/t_btrfs tests/unit/t_blockdev \
	tests/unit/t_mounts tests/unit/t_enc_topology tests/unit/t_unraid \
	tests/unit/t_zfs
tests_unit_t_bonding_SOURCES = tests/unit/t_bonding.c
tests_unit_t_bonding_LDADD = probes/libnasprobe.a
tests_unit_t_nic_SOURCES = tests/unit/t_nic.c
tests_unit_t_nic_LDADD = probes/libnasprobe.a
tests_unit_t_cpuinfo_SOURCES = tests/unit/t_cpuinfo.c
tests_unit_t_cpuinfo_LDADD = probes/libnasprobe.a
tests_unit_t_identity_SOURCES = tests/unit/t_identity.c
tests_unit_t_identity_LDADD = probes/libnasprobe.a
tests_unit_t_btrfs_SOURCES = tests/unit/t_btrfs.c
tests_unit_t_btrfs_LDADD = probes/libnasprobe.a
tests_unit_t_blockdev_SOURCES = tests/unit/t_blockdev.c
tests_unit_t_blockdev_LDADD = probes/libnasprobe.a
tests_unit_t_mounts_SOURCES = tests/unit/t_mounts.c
tests_unit_t_mounts_LDADD = probes/libnasprobe.a
tests_unit_t_mdstat_SOURCES = tests/unit/t_mdstat.c
tests_unit_t_mdstat_LDADD = probes/libnasprobe.a
tests_unit_t_unraid_SOURCES = tests/unit/t_unraid.c
tests_unit_t_unraid_LDADD = probes/libnasprobe.a
tests_unit_t_zfs_SOURCES = tests/unit/t_zfs.c
tests_unit_t_zfs_LDADD = probes/libnasprobe.a
EXTRA_DIST += tests/fixtures/unraid tests/fixtures/zfs
tests_unit_t_topology_SOURCES = tests/unit/t_topology.c daemon/enc_topology.c \
	daemon/enc_host.c daemon/encode.c client/show_topology.c client/show.c
tests_unit_t_topology_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon \
	-I$(top_srcdir)/client
tests_unit_t_topology_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_topology_LDADD = $(DAEMON_LIBS)
tests_unit_t_enc_topology_SOURCES = tests/unit/t_enc_topology.c \
	daemon/enc_topology.c daemon/enc_host.c daemon/encode.c
tests_unit_t_enc_topology_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon
tests_unit_t_enc_topology_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_enc_topology_LDADD = $(DAEMON_LIBS)
tests_unit_t_enc_host_SOURCES = tests/unit/t_enc_host.c daemon/enc_host.c \
	daemon/encode.c
tests_unit_t_enc_host_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/daemon
tests_unit_t_enc_host_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_enc_host_LDADD = $(DAEMON_LIBS)
