# client/importers.mk: readers of benchmark tools' output (dd, fio, CrystalDiskMark)
client_nasperf_SOURCES += client/importers.c client/importers.h \
	client/importers_lex.c client/importers_lex.h client/import_dd.c client/import_fio.c \
	client/import_cdm.c

check_PROGRAMS += tests/unit/t_importers
tests_unit_t_importers_SOURCES = tests/unit/t_importers.c \
	client/importers.c client/importers.h client/importers_lex.c \
	client/importers_lex.h client/import_dd.c client/import_fio.c \
	client/import_cdm.c
tests_unit_t_importers_CFLAGS = $(DAEMON_CFLAGS)
tests_unit_t_importers_CPPFLAGS = $(AM_CPPFLAGS) \
	-I$(top_srcdir)/tests/unit -I$(top_srcdir)/client
tests_unit_t_importers_LDADD = $(DAEMON_LIBS)

# The samples, one a file; tests/fixtures/importers/README says where each
# came from.
EXTRA_DIST += \
	tests/fixtures/importers/README \
	tests/fixtures/importers/cdm6.txt \
	tests/fixtures/importers/cdm7-utf16.txt \
	tests/fixtures/importers/cdm8-comment.txt \
	tests/fixtures/importers/cdm8.txt \
	tests/fixtures/importers/dd-bsd.txt \
	tests/fixtures/importers/dd-busybox-debian.txt \
	tests/fixtures/importers/dd-busybox.txt \
	tests/fixtures/importers/dd-freebsd-progress.txt \
	tests/fixtures/importers/dd-gnu-de.txt \
	tests/fixtures/importers/dd-gnu-fr.txt \
	tests/fixtures/importers/dd-gnu-full.txt \
	tests/fixtures/importers/dd-gnu-progress.txt \
	tests/fixtures/importers/dd-gnu-read.txt \
	tests/fixtures/importers/dd-gnu-uk.txt \
	tests/fixtures/importers/dd-gnu-write.txt \
	tests/fixtures/importers/dd-gnu-zh.txt \
	tests/fixtures/importers/fio-mixed.jsonplus \
	tests/fixtures/importers/fio-read.json \
	tests/fixtures/importers/fio-two.json \
	tests/fixtures/importers/fio-write.json
