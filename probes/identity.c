/*
 * identity.c: see identity.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "identity.h"

/* Read the identity; not yet implemented. */
int
identity_read(NP_UNUSED const struct probe_root *root,
    NP_UNUSED struct probe_buf *b, struct identity *id)
{
	memset(id, 0, sizeof *id);
	errno = ENOENT;
	return (-1);
}
