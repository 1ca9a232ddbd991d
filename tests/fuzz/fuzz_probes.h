/*
 * fuzz_probes.h: the table of pure parsers the fuzz target drives.
 */
#ifndef FUZZ_PROBES_H
#define FUZZ_PROBES_H

#include <stddef.h>

#include "probe.h"

struct fuzz_parser {
	const char	*name;
	enum probe_fs	 fs;		/* where the seed file lives in a box */
	const char	*file;
	/* Parse a NUL-terminated copy; returns what the parser returned. */
	int		(*parse)(const char *, size_t);
};

extern const struct fuzz_parser	fuzz_parsers[];
extern const size_t		fuzz_nparsers;

/*
 * Run parser i over len bytes of data (copied, NUL-terminated, as the
 * probes' own reads give it).  0 when it returned 0 or -1, else 1.
 */
int	fuzz_run(size_t i, const char *data, size_t len);

#endif /* FUZZ_PROBES_H */
