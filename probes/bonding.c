/*
 * bonding.c: see bonding.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "bonding.h"

/* Parse a bonding status file; not yet implemented. */
int
bonding_parse(NP_UNUSED const char *s, NP_UNUSED size_t len,
    struct bonding *b, const char **errstr)
{
	memset(b, 0, sizeof *b);
	if (errstr != NULL)
		*errstr = "not implemented";
	errno = ENOSYS;
	return (-1);
}
