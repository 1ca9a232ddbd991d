/*
 * nic.c: see nic.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "nic.h"

/* Read the interface list; not yet implemented. */
int
nic_list_read(NP_UNUSED const struct probe_root *root,
    NP_UNUSED struct probe_buf *b, struct nic_list *l)
{
	memset(l, 0, sizeof *l);
	errno = ENOENT;
	return (-1);
}
