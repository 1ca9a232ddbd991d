/*
 * netdev.c: network interfaces from /sys/class/net and /proc/net/dev.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdev.h"

/* Names of the sysfs statistics files, in struct netdev_if order. */
static const char *const netdev_stat_names[] = {
	"rx_bytes", "rx_packets", "rx_errors", "rx_dropped",
	"tx_bytes", "tx_packets", "tx_errors", "tx_dropped"
};

/* Initialise an empty set of interfaces. */
void
netdev_init(struct netdev *nd)
{
	memset(nd, 0, sizeof *nd);
}

/* Release the interfaces' memory. */
void
netdev_clear(struct netdev *nd)
{
	if (nd == NULL)
		return;
	free(nd->ifs);
	free(nd->pifs);
	memset(nd, 0, sizeof *nd);
}

/* Append one zeroed interface to nd; NULL and ENOMEM. */
static struct netdev_if *
netdev_add(struct netdev *nd)
{
	struct netdev_if	*p;
	size_t			 ncap;

	if (nd->nifs == nd->cap) {
		ncap = nd->cap == 0 ? 8 : nd->cap * 2;
		if ((p = reallocarray(nd->ifs, ncap, sizeof *p)) == NULL)
			return (NULL);
		nd->ifs = p;
		nd->cap = ncap;
	}
	p = &nd->ifs[nd->nifs++];
	memset(p, 0, sizeof *p);
	return (p);
}

/* The interface called name in nd, or NULL. */
const struct netdev_if *
netdev_find(const struct netdev *nd, const char *name)
{
	size_t	i;

	for (i = 0; i < nd->nifs; i++)
		if (strcmp(nd->ifs[i].name, name) == 0)
			return (&nd->ifs[i]);
	return (NULL);
}

/* Pointer to the i-th counter of an interface, in netdev_stat_names order. */
static uint64_t *
netdev_stat(struct netdev_if *ifp, size_t i)
{
	uint64_t *const	v[] = {
		&ifp->rx_bytes, &ifp->rx_packets, &ifp->rx_errs, &ifp->rx_drop,
		&ifp->tx_bytes, &ifp->tx_packets, &ifp->tx_errs, &ifp->tx_drop
	};

	return (v[i]);
}

/* Parse /proc/net/dev text into nd; malformed lines are skipped. */
int
netdev_parse(const char *text, size_t len, struct netdev *nd,
    const char **errstr)
{
	const char		*line, *end, *eol, *colon, *s, *n0;
	struct netdev_if	*ifp;
	uint64_t		 v[16];
	size_t			 nlen;
	int			 i;

	if (errstr != NULL)
		*errstr = NULL;
	nd->nifs = 0;
	nd->skipped = 0;
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		/* Values never hold ':'; the last one ends the name. */
		colon = NULL;
		for (s = line; s < eol; s++)
			if (*s == ':')
				colon = s;
		if (colon == NULL)
			continue;	/* the two header lines */
		if (memchr(line, '|', (size_t)(eol - line)) != NULL)
			continue;
		for (n0 = line; n0 < colon && (*n0 == ' ' || *n0 == '\t'); n0++)
			;
		nlen = (size_t)(colon - n0);
		if (nlen == 0 || nlen >= NETDEV_NAME_MAX) {
			nd->skipped++;
			continue;
		}
		s = colon + 1;
		for (i = 0; i < 16; i++) {
			if (s >= eol || probe_scan_u64(&s, &v[i]) == -1 ||
			    s > eol)
				break;
		}
		if (i < 16) {
			nd->skipped++;
			if (errstr != NULL)
				*errstr = "malformed /proc/net/dev line";
			continue;
		}
		if ((ifp = netdev_add(nd)) == NULL)
			return (-1);
		memcpy(ifp->name, n0, nlen);
		ifp->name[nlen] = '\0';
		ifp->rx_bytes = v[0];
		ifp->rx_packets = v[1];
		ifp->rx_errs = v[2];
		ifp->rx_drop = v[3];
		ifp->tx_bytes = v[8];
		ifp->tx_packets = v[9];
		ifp->tx_errs = v[10];
		ifp->tx_drop = v[11];
	}
	return (0);
}

/* Read the link attributes of one interface. */
int
netdev_link_read(const struct probe_root *root, const char *name,
    struct netdev_link *l)
{
	char	 rel[128], buf[256], *slash;

	memset(l, 0, sizeof *l);
	l->speed_mbps = -1;
	if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL ||
	    probe_strlcpy(l->name, name, sizeof l->name) == -1) {
		errno = EINVAL;
		return (-1);
	}
	snprintf(rel, sizeof rel, "class/net/%s", name);
	if (!probe_exists(root, PROBE_SYS, rel)) {
		errno = ENOENT;
		return (-1);
	}
	/* speed is -1 or fails with EINVAL while the link is down. */
	snprintf(rel, sizeof rel, "class/net/%s/speed", name);
	if (probe_attr_i64(root, PROBE_SYS, rel, &l->speed_mbps) == -1 ||
	    l->speed_mbps < 0 || l->speed_mbps == UINT32_MAX)
		l->speed_mbps = -1;
	snprintf(rel, sizeof rel, "class/net/%s/duplex", name);
	if (probe_read_attr(root, PROBE_SYS, rel, buf, sizeof buf) == 0) {
		if (strcmp(buf, "full") == 0)
			l->duplex = NETDEV_DUPLEX_FULL;
		else if (strcmp(buf, "half") == 0)
			l->duplex = NETDEV_DUPLEX_HALF;
	}
	snprintf(rel, sizeof rel, "class/net/%s/mtu", name);
	if (probe_attr_u64(root, PROBE_SYS, rel, &l->mtu) == -1)
		l->mtu = 0;
	snprintf(rel, sizeof rel, "class/net/%s/operstate", name);
	if (probe_read_attr(root, PROBE_SYS, rel, buf, sizeof buf) == -1 ||
	    probe_strlcpy(l->operstate, buf, sizeof l->operstate) == -1)
		l->operstate[0] = '\0';
	snprintf(rel, sizeof rel, "class/net/%s/address", name);
	if (probe_read_attr(root, PROBE_SYS, rel, buf, sizeof buf) == -1 ||
	    probe_strlcpy(l->address, buf, sizeof l->address) == -1)
		l->address[0] = '\0';
	snprintf(rel, sizeof rel, "class/net/%s/master", name);
	if (probe_readlink(root, PROBE_SYS, rel, buf, sizeof buf) == 0) {
		slash = strrchr(buf, '/');
		if (probe_strlcpy(l->master, slash != NULL ? slash + 1 : buf,
		    sizeof l->master) == -1)
			l->master[0] = '\0';
	}
	snprintf(rel, sizeof rel, "class/net/%s/device", name);
	l->is_virtual = !probe_exists(root, PROBE_SYS, rel);
	snprintf(rel, sizeof rel, "class/net/%s/bonding", name);
	l->is_bond = probe_exists(root, PROBE_SYS, rel);
	/* "802.3ad 4": the name, then the driver's number for it. */
	snprintf(rel, sizeof rel, "class/net/%s/bonding/mode", name);
	if (l->is_bond &&
	    probe_read_attr(root, PROBE_SYS, rel, buf, sizeof buf) == 0) {
		buf[strcspn(buf, " \t")] = '\0';
		if (probe_strlcpy(l->bond_mode, buf, sizeof l->bond_mode) == -1)
			l->bond_mode[0] = '\0';
	}
	return (0);
}

/* Order interfaces by name. */
static int
netdev_cmp(const void *a, const void *b)
{
	const struct netdev_if	*x = a, *y = b;

	return (strcmp(x->name, y->name));
}

/* Read the sysfs statistics of ifp; -1 when any counter is missing. */
static int
netdev_read_stats(const struct probe_root *root, struct netdev_if *ifp)
{
	char	rel[128];
	size_t	i;

	for (i = 0; i < NP_NITEMS(netdev_stat_names); i++) {
		snprintf(rel, sizeof rel, "class/net/%s/statistics/%s",
		    ifp->name, netdev_stat_names[i]);
		if (probe_attr_u64(root, PROBE_SYS, rel,
		    netdev_stat(ifp, i)) == -1)
			return (-1);
	}
	return (0);
}

/* Read every interface with its counters and link. */
int
netdev_read(const struct probe_root *root, struct probe_buf *b,
    struct netdev *nd, const char **errstr)
{
	struct netdev		 proc;
	struct netdev_if	*ifp;
	const struct netdev_if	*pifp;
	struct dirent		*de;
	DIR			*dir;
	size_t			 i;
	int			 have_proc = 0, rc = -1, oerrno;

	if (errstr != NULL)
		*errstr = NULL;
	/* /proc/net/dev is parsed into nd's second array, kept across reads. */
	netdev_init(&proc);
	proc.ifs = nd->pifs;
	proc.cap = nd->pcap;
	if (probe_read(root, PROBE_PROC, "net/dev", b) == 0 &&
	    netdev_parse(b->p, b->len, &proc, NULL) == 0)
		have_proc = 1;
	nd->nifs = 0;
	nd->skipped = proc.skipped;
	if ((dir = probe_opendir(root, PROBE_SYS, "class/net")) != NULL) {
		while ((de = readdir(dir)) != NULL) {
			if (de->d_name[0] == '.' ||
			    strlen(de->d_name) >= NETDEV_NAME_MAX)
				continue;
			if ((ifp = netdev_add(nd)) == NULL) {
				closedir(dir);
				goto out;
			}
			probe_strlcpy(ifp->name, de->d_name, sizeof ifp->name);
			if (netdev_read_stats(root, ifp) == 0)
				ifp->from_sysfs = 1;
			else {
				if (!have_proc || (pifp = netdev_find(&proc,
				    ifp->name)) == NULL) {
					/* No counters anywhere: not listed. */
					nd->nifs--;
					continue;
				}
				ifp->rx_bytes = pifp->rx_bytes;
				ifp->rx_packets = pifp->rx_packets;
				ifp->rx_errs = pifp->rx_errs;
				ifp->rx_drop = pifp->rx_drop;
				ifp->tx_bytes = pifp->tx_bytes;
				ifp->tx_packets = pifp->tx_packets;
				ifp->tx_errs = pifp->tx_errs;
				ifp->tx_drop = pifp->tx_drop;
			}
		}
		closedir(dir);
	} else if (have_proc) {
		for (i = 0; i < proc.nifs; i++) {
			if ((ifp = netdev_add(nd)) == NULL)
				goto out;
			*ifp = proc.ifs[i];
		}
	} else {
		errno = ENOENT;
		if (errstr != NULL)
			*errstr = "no /sys/class/net and no /proc/net/dev";
		goto out;
	}
	if (nd->nifs > 1)
		qsort(nd->ifs, nd->nifs, sizeof *nd->ifs, netdev_cmp);
	for (i = 0; i < nd->nifs; i++) {
		ifp = &nd->ifs[i];
		ifp->has_link = netdev_link_read(root, ifp->name,
		    &ifp->link) == 0;
	}
	rc = 0;
out:
	oerrno = errno;
	nd->pifs = proc.ifs;
	nd->pcap = proc.cap;
	errno = oerrno;
	return (rc);
}
