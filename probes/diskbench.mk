# probes/diskbench.mk: the disk benchmark engine
probes_libnasprobe_a_SOURCES += probes/diskbench.c probes/diskbench.h

check_PROGRAMS += tests/unit/t_diskbench
tests_unit_t_diskbench_SOURCES = tests/unit/t_diskbench.c
tests_unit_t_diskbench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_t_diskbench_LDADD = probes/libnasprobe.a
tests_unit_t_diskbench_LDFLAGS = $(AM_LDFLAGS) -pthread

# The command-line driver the integration test and bench/disk-vs-fio run.
# Built for make check without being a test itself (every check program
# is one), hence the explicit rule.
DISKBENCH_RUN = tests/integration/diskbench-run$(EXEEXT)
check_DATA += $(DISKBENCH_RUN)
CLEANFILES += $(DISKBENCH_RUN)
EXTRA_DIST += tests/integration/diskbench-run.c
$(DISKBENCH_RUN): $(srcdir)/tests/integration/diskbench-run.c \
    probes/libnasprobe.a
	@$(MKDIR_P) tests/integration
	$(AM_V_CCLD)$(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	    $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@ \
	    $(srcdir)/tests/integration/diskbench-run.c probes/libnasprobe.a \
	    -pthread $(LIBS)
diskbench-run: $(DISKBENCH_RUN)
.PHONY: diskbench-run
