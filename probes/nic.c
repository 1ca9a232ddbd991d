/*
 * nic.c: the interfaces of <root>/sys/class/net for the topology.
 */
#include "config.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic.h"

/* Order interfaces by name. */
static int
nic_cmp(const void *a, const void *b)
{
	const struct nic	*na = a, *nb = b;

	return (strcmp(na->link.name, nb->link.name));
}

/*
 * The driver bound to an interface's device: the basename of the
 * device/driver link, else the DRIVER= line of device/uevent.
 */
static void
nic_driver(const struct probe_root *root, struct probe_buf *b,
    const char *name, char *out, size_t outsz)
{
	char		 rel[128], target[256];
	const char	*p, *end, *eol;

	out[0] = '\0';
	snprintf(rel, sizeof rel, "class/net/%s/device/driver", name);
	if (probe_readlink(root, PROBE_SYS, rel, target, sizeof target) == 0) {
		p = strrchr(target, '/');
		if (probe_strlcpy(out, p != NULL ? p + 1 : target, outsz) == -1)
			out[0] = '\0';
		return;
	}
	snprintf(rel, sizeof rel, "class/net/%s/device/uevent", name);
	if (probe_read(root, PROBE_SYS, rel, b) == -1)
		return;
	end = b->p + b->len;
	for (p = b->p; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if (eol - p > 7 && strncmp(p, "DRIVER=", 7) == 0 &&
		    (size_t)(eol - p - 7) < outsz) {
			memcpy(out, p + 7, (size_t)(eol - p - 7));
			out[eol - p - 7] = '\0';
			return;
		}
	}
}

/* Read every interface under <root>/sys/class/net/ into l. */
int
nic_list_read(const struct probe_root *root, struct probe_buf *b,
    struct nic_list *l)
{
	DIR		*dir;
	struct dirent	*de;
	struct nic	*n;
	char		 rel[128], target[256];
	size_t		 i;

	memset(l, 0, sizeof *l);
	if ((dir = probe_opendir(root, PROBE_SYS, "class/net")) == NULL)
		return (-1);
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= NETDEV_NAME_MAX)
			continue;
		if (l->nnics == NIC_MAX) {
			l->dropped++;
			continue;
		}
		n = &l->nics[l->nnics];
		memset(n, 0, sizeof *n);
		if (netdev_link_read(root, de->d_name, &n->link) == -1)
			continue;	/* gone, or a dangling entry */
		n->bond = -1;
		snprintf(rel, sizeof rel, "class/net/%s/device", n->link.name);
		n->is_virtual = probe_readlink(root, PROBE_SYS, rel, target,
		    sizeof target) == -1;
		if (!n->is_virtual)
			nic_driver(root, b, n->link.name, n->driver,
			    sizeof n->driver);
		l->nnics++;
	}
	closedir(dir);
	qsort(l->nics, l->nnics, sizeof l->nics[0], nic_cmp);

	/* Bonds: their /proc/net/bonding status, after sorting. */
	for (i = 0; i < l->nnics; i++) {
		n = &l->nics[i];
		if (!n->link.is_bond) {
			/* Old kernels and captures: only the proc file. */
			snprintf(rel, sizeof rel, "net/bonding/%s",
			    n->link.name);
			n->link.is_bond = probe_exists(root, PROBE_PROC, rel);
		}
		if (!n->link.is_bond || l->nbonds == NIC_BONDS_MAX)
			continue;
		if (bonding_read(root, b, n->link.name, &l->bonds[l->nbonds],
		    NULL) == 0)
			n->bond = (int)l->nbonds++;
	}
	return (0);
}

/* The interface called name in l, or NULL. */
const struct nic *
nic_list_find(const struct nic_list *l, const char *name)
{
	size_t	i;

	for (i = 0; i < l->nnics; i++)
		if (strcmp(l->nics[i].link.name, name) == 0)
			return (&l->nics[i]);
	return (NULL);
}

/* The bonding status of n, or NULL. */
const struct bonding *
nic_bond(const struct nic_list *l, const struct nic *n)
{
	if (n->bond < 0 || (size_t)n->bond >= l->nbonds)
		return (NULL);
	return (&l->bonds[n->bond]);
}
