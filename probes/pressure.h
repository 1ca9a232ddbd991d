/*
 * pressure.h: pressure stall information, /proc/pressure/{cpu,io,memory}.
 *
 * PSI exists since Linux 4.20 (and only with CONFIG_PSI and psi=1); the
 * system-wide "full" line of cpu appeared in 5.13.  Totals are microseconds.
 */
#ifndef PRESSURE_H
#define PRESSURE_H

#include <stdint.h>

#include "probe.h"

struct pressure_line {			/* "some avg10=0.00 ... total=N" */
	int		avail;
	double		avg10, avg60, avg300;	/* percent */
	uint64_t	total;		/* microseconds stalled */
};

struct pressure_res {			/* one resource file */
	int		avail;		/* the file was read */
	struct pressure_line some, full;
};

enum pressure_kind { PRESSURE_CPU, PRESSURE_IO, PRESSURE_MEMORY };
#define PRESSURE_NKINDS	3

/* "cpu", "io", "memory", by enum pressure_kind. */
extern const char *const pressure_names[PRESSURE_NKINDS];

struct pressure {
	struct pressure_res res[PRESSURE_NKINDS];
};

/* Read all three files; -1 and ENOENT when none exists. */
int	pressure_read(const struct probe_root *, struct probe_buf *,
	    struct pressure *, const char **errstr);
/* Parse one file's text; EINVAL when it has no valid "some" line. */
int	pressure_parse(const char *, size_t, struct pressure_res *,
	    const char **);

#endif /* PRESSURE_H */
