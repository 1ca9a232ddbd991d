/*
 * cpuinfo.c: see cpuinfo.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "cpuinfo.h"

/* Read /proc/cpuinfo; not yet implemented. */
int
cpuinfo_read(NP_UNUSED const struct probe_root *root,
    NP_UNUSED struct probe_buf *b, struct cpuinfo *ci, const char **errstr)
{
	memset(ci, 0, sizeof *ci);
	if (errstr != NULL)
		*errstr = "not implemented";
	errno = ENOENT;
	return (-1);
}
