# probes/path.mk: a transfer's own path: its TCP connections (sock_diag)
# and the processes holding their sockets
probes_libnasprobe_a_SOURCES += \
	probes/inetdiag.c probes/inetdiag.h \
	probes/sockowner.c probes/sockowner.h

check_PROGRAMS += tests/unit/t_inetdiag
tests_unit_t_inetdiag_SOURCES = tests/unit/t_inetdiag.c \
	tests/unit/inetdiag_capture.h
tests_unit_t_inetdiag_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_t_inetdiag_LDADD = probes/libnasprobe.a

check_PROGRAMS += tests/unit/t_sockowner
tests_unit_t_sockowner_SOURCES = tests/unit/t_sockowner.c
tests_unit_t_sockowner_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_t_sockowner_LDADD = probes/libnasprobe.a

probes_libnasprobe_a_SOURCES += probes/pidfiles.c probes/pidfiles.h
check_PROGRAMS += tests/unit/t_pidfiles
tests_unit_t_pidfiles_SOURCES = tests/unit/t_pidfiles.c
tests_unit_t_pidfiles_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_t_pidfiles_LDADD = probes/libnasprobe.a
