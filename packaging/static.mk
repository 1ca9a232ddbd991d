# packaging/static.mk: static builds of nasperfd and nasperf for x86_64,
# armhf and aarch64
#
# "make static" runs packaging/static.sh for each of STATIC_ARCHES into
# static/ARCH, where "make spk qpkg" takes them from.  The ARM builds need
# Debian's cross compilers and the armhf and arm64 libraries (scripts/deps.sh:
# np_install_cross; .ci/run installs them); "make static STATIC_ARCHES=x86_64"
# needs neither.  Each links the OpenSSL that packaging/openssl.sh builds
# from Debian's source (np_install_cross fetches it), kept in
# /var/cache/nasperf/openssl/ARCH.  tests/packaging/static.sh builds them
# too, runs each under qemu-user, and skips an architecture whose tools are
# missing.
STATIC_ARCHES = x86_64 armhf aarch64

# The unit tests, built for each architecture and run under qemu: a 32-bit
# ARM build is where a json_pack format that disagrees with its argument's
# width shows.
STATIC_TESTS = tests/unit/t_blockdev tests/unit/t_bonding tests/unit/t_btrfs \
	tests/unit/t_cpuinfo tests/unit/t_cpustat tests/unit/t_crypto \
	tests/unit/t_diskstats tests/unit/t_exports tests/unit/t_identity \
	tests/unit/t_mdstat tests/unit/t_mounts tests/unit/t_netdev \
	tests/unit/t_nic tests/unit/t_procgroup tests/unit/t_rate \
	tests/unit/t_smbconf tests/unit/t_snapshot tests/unit/t_diskbench \
	tests/unit/t_verdict tests/unit/t_run tests/unit/t_runpath \
	tests/unit/t_report_render \
	tests/unit/t_enc_counters tests/unit/t_enc_host tests/unit/t_enc_topology \
	tests/unit/t_jsonnum tests/unit/t_synth tests/unit/t_http \
	tests/unit/t_disktest tests/unit/t_importers tests/unit/t_tlspin \
	tests/unit/t_zfs tests/unit/t_unraid tests/unit/t_cfg

EXTRA_DIST += packaging/static.sh packaging/openssl.sh
dist_check_SCRIPTS += tests/packaging/static.sh

# STATIC_WITH_TESTS=1 builds STATIC_TESTS as well, into static/ARCH/tests.
static:
	@set -e; for a in $(STATIC_ARCHES); do \
		NP_STATIC_TESTS='$(if $(STATIC_WITH_TESTS),$(STATIC_TESTS))' \
		    sh $(srcdir)/packaging/static.sh $$a static/$$a; \
	done
.PHONY: static

# enosys runs a program with the system calls newer than a kernel refused,
# for tests/packaging/kernel310.sh (listed in Makefile.am): a check program
# that is not a test.
ENOSYS = tests/packaging/enosys$(EXEEXT)
check_DATA += $(ENOSYS)
CLEANFILES += $(ENOSYS)
EXTRA_DIST += tests/packaging/enosys.c
$(ENOSYS): $(srcdir)/tests/packaging/enosys.c
	@$(MKDIR_P) tests/packaging
	$(AM_V_CCLD)$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	    $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@ \
	    $(srcdir)/tests/packaging/enosys.c
