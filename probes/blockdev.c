/*
 * blockdev.c: /sys/block.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blockdev.h"

/* Initialise an empty device list. */
void
blockdev_init(struct blockdev_list *l)
{
	memset(l, 0, sizeof *l);
}

/* Free the list's devices and leave it empty. */
void
blockdev_clear(struct blockdev_list *l)
{
	free(l->devs);
	memset(l, 0, sizeof *l);
}

/* The word for a device kind. */
const char *
blockdev_kind_name(enum blockdev_kind k)
{
	switch (k) {
	case BLOCKDEV_DISK:
		return ("disk");
	case BLOCKDEV_MD:
		return ("md");
	case BLOCKDEV_DM:
		return ("dm");
	case BLOCKDEV_LOOP:
		return ("loop");
	default:
		return ("other");
	}
}

/* Tell the transport from the sysfs path a device links to. */
const char *
blockdev_transport(const char *path, const char *name)
{
	/* Order matters: a USB or Thunderbolt disk is also SCSI or PCIe. */
	if (strstr(path, "/thunderbolt") != NULL)
		return ("thunderbolt");
	if (strstr(path, "/usb") != NULL)
		return ("usb");
	if (strstr(path, "/nvme") != NULL || strncmp(name, "nvme", 4) == 0)
		return ("nvme");
	if (strstr(path, "/mmc") != NULL || strncmp(name, "mmcblk", 6) == 0)
		return ("mmc");
	if (strstr(path, "/virtio") != NULL || strncmp(name, "vd", 2) == 0)
		return ("virtio");
	if (strstr(path, "/ata") != NULL)
		return ("sata");
	if (strstr(path, "/end_device-") != NULL || strstr(path, "/sas") !=
	    NULL || strstr(path, "/expander-") != NULL)
		return ("sas");
	if (strstr(path, "/host") != NULL && strstr(path, "/target") != NULL)
		return ("scsi");
	if (strncmp(name, "loop", 4) == 0)
		return ("loop");
	if (strstr(path, "/virtual/") != NULL)
		return ("virtual");
	return ("");
}

/*
 * Read <dir>/<attr> under sys into out, or leave it empty.  SCSI pads
 * vendor, model and rev with spaces ("ATA     "); those are dropped.
 */
static void
blockdev_attr(const struct probe_root *root, const char *dir,
    const char *attr, char *out, size_t outsz)
{
	char	rel[512];
	size_t	n;

	if (snprintf(rel, sizeof rel, "%s/%s", dir, attr) >= (int)sizeof rel ||
	    probe_read_attr(root, PROBE_SYS, rel, out, outsz) == -1) {
		out[0] = '\0';
		return;
	}
	n = strlen(out);
	while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == '\t'))
		out[--n] = '\0';
}

/* Parse "MAJ:MIN" from <dir>/dev; -1 when missing or malformed. */
static int
blockdev_devno(const struct probe_root *root, const char *dir, unsigned *maj,
    unsigned *min)
{
	char	v[32];

	blockdev_attr(root, dir, "dev", v, sizeof v);
	return (probe_scan_devno(v, maj, min));
}

/* The names in <dir>/<sub> (slaves, holders) into names[max]. */
static size_t
blockdev_links(const struct probe_root *root, const char *dir,
    const char *sub, char (*names)[BLOCKDEV_NAME_MAX], size_t max)
{
	struct dirent	*de;
	DIR		*dp;
	char		 rel[512];
	size_t		 n = 0;

	snprintf(rel, sizeof rel, "%s/%s", dir, sub);
	if ((dp = probe_opendir(root, PROBE_SYS, rel)) == NULL)
		return (0);
	while ((de = readdir(dp)) != NULL && n < max) {
		if (de->d_name[0] == '.')
			continue;
		if (probe_strlcpy(names[n], de->d_name, BLOCKDEV_NAME_MAX) == 0)
			n++;
	}
	closedir(dp);
	qsort(names, n, BLOCKDEV_NAME_MAX, (int (*)(const void *,
	    const void *))strcmp);
	return (n);
}

/* The partitions of the device at dir: subdirectories with "partition". */
static void
blockdev_parts(const struct probe_root *root, const char *dir,
    struct blockdev *d)
{
	struct blockdev_part	*p;
	struct dirent		*de;
	DIR			*dp;
	char			 rel[600], sub[512];
	uint64_t		 u;

	if ((dp = probe_opendir(root, PROBE_SYS, dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL && d->nparts < BLOCKDEV_MAX_PARTS) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= BLOCKDEV_NAME_MAX)
			continue;
		snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
		snprintf(rel, sizeof rel, "%s/partition", sub);
		if (probe_attr_u64(root, PROBE_SYS, rel, &u) == -1)
			continue;
		p = &d->parts[d->nparts];
		memset(p, 0, sizeof *p);
		strcpy(p->name, de->d_name);
		p->number = (unsigned)u;
		if (blockdev_devno(root, sub, &p->major, &p->minor) == -1)
			continue;
		snprintf(rel, sizeof rel, "%s/start", sub);
		(void)probe_attr_u64(root, PROBE_SYS, rel, &p->start);
		snprintf(rel, sizeof rel, "%s/size", sub);
		if (probe_attr_u64(root, PROBE_SYS, rel, &u) == 0)
			p->size_bytes = u * 512;
		p->nholders = blockdev_links(root, sub, "holders", p->holders,
		    4);
		d->nparts++;
	}
	closedir(dp);
}

/* Order partitions by number. */
static int
blockdev_part_cmp(const void *a, const void *b)
{
	const struct blockdev_part	*x = a, *y = b;

	return (x->number < y->number ? -1 : x->number > y->number);
}

/* Read one device of sys/block; -1 when it is not a block device. */
static int
blockdev_one(const struct probe_root *root, const char *name,
    struct blockdev *d)
{
	char		dir[BLOCKDEV_NAME_MAX + 8], v[128];
	uint64_t	u;

	memset(d, 0, sizeof *d);
	if (strlen(name) >= sizeof d->name) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	/* The precision tells the compiler what the check above made sure. */
	snprintf(dir, sizeof dir, "block/%.*s", BLOCKDEV_NAME_MAX - 1, name);
	strcpy(d->name, name);
	if (blockdev_devno(root, dir, &d->major, &d->minor) == -1)
		return (-1);
	(void)probe_readlink(root, PROBE_SYS, dir, d->devpath,
	    sizeof d->devpath);
	snprintf(v, sizeof v, "%s/md", dir);
	if (probe_exists(root, PROBE_SYS, v) || strncmp(name, "md", 2) == 0)
		d->kind = BLOCKDEV_MD;
	else if (strncmp(name, "dm-", 3) == 0)
		d->kind = BLOCKDEV_DM;
	else if (strncmp(name, "loop", 4) == 0)
		d->kind = BLOCKDEV_LOOP;
	else if (strncmp(name, "ram", 3) == 0 || strncmp(name, "zram", 4) == 0 ||
	    strncmp(name, "sr", 2) == 0 || strncmp(name, "fd", 2) == 0 ||
	    strncmp(name, "mtdblock", 8) == 0 || strncmp(name, "nbd", 3) == 0)
		d->kind = BLOCKDEV_OTHER;
	else
		d->kind = BLOCKDEV_DISK;
	snprintf(d->transport, sizeof d->transport, "%s",
	    d->kind == BLOCKDEV_DISK || d->kind == BLOCKDEV_LOOP ?
	    blockdev_transport(d->devpath, name) : "");
	snprintf(v, sizeof v, "%s/size", dir);
	if (probe_attr_u64(root, PROBE_SYS, v, &u) == 0)
		d->size_bytes = u * 512;
	snprintf(v, sizeof v, "%s/ro", dir);
	d->ro = probe_attr_u64(root, PROBE_SYS, v, &u) == 0 ? (int)(u != 0) :
	    -1;
	snprintf(v, sizeof v, "%s/removable", dir);
	d->removable = probe_attr_u64(root, PROBE_SYS, v, &u) == 0 ?
	    (int)(u != 0) : -1;
	snprintf(v, sizeof v, "%s/queue/rotational", dir);
	d->rotational = probe_attr_u64(root, PROBE_SYS, v, &u) == 0 ?
	    (int)(u != 0) : -1;
	snprintf(v, sizeof v, "%s/queue/logical_block_size", dir);
	if (probe_attr_u64(root, PROBE_SYS, v, &u) == 0)
		d->logical_block = (unsigned)u;
	snprintf(v, sizeof v, "%s/queue/physical_block_size", dir);
	if (probe_attr_u64(root, PROBE_SYS, v, &u) == 0)
		d->physical_block = (unsigned)u;
	blockdev_attr(root, dir, "device/model", d->model, sizeof d->model);
	blockdev_attr(root, dir, "device/vendor", d->vendor, sizeof d->vendor);
	blockdev_attr(root, dir, "device/serial", d->serial, sizeof d->serial);
	if (d->serial[0] == '\0')
		blockdev_attr(root, dir, "device/wwid", d->serial,
		    sizeof d->serial);
	blockdev_attr(root, dir, "device/rev", d->rev, sizeof d->rev);
	if (d->rev[0] == '\0')
		blockdev_attr(root, dir, "device/firmware_rev", d->rev,
		    sizeof d->rev);
	blockdev_attr(root, dir, "dm/name", d->dm_name, sizeof d->dm_name);
	blockdev_attr(root, dir, "dm/uuid", d->dm_uuid, sizeof d->dm_uuid);
	blockdev_attr(root, dir, "loop/backing_file", d->backing_file,
	    sizeof d->backing_file);
	if (d->kind == BLOCKDEV_DM) {
		/* Cache devices of QNAP and Synology have an empty uuid. */
		if (strncmp(d->dm_uuid, "LVM-", 4) == 0)
			strcpy(d->dm_class, "lvm");
		else if (strncasecmp(d->dm_name, "cachedev", 8) == 0)
			strcpy(d->dm_class, "cache");
		else if (strncmp(d->dm_uuid, "CRYPT-", 6) == 0)
			strcpy(d->dm_class, "crypt");
	}
	blockdev_parts(root, dir, d);
	qsort(d->parts, d->nparts, sizeof d->parts[0], blockdev_part_cmp);
	d->nslaves = blockdev_links(root, dir, "slaves", d->slaves,
	    BLOCKDEV_MAX_LINKS);
	d->nholders = blockdev_links(root, dir, "holders", d->holders,
	    BLOCKDEV_MAX_LINKS);
	return (0);
}

/* Order devices by name. */
static int
blockdev_cmp(const void *a, const void *b)
{
	const struct blockdev	*x = a, *y = b;

	return (strcmp(x->name, y->name));
}

/* Read every entry of sys/block, skipping those without a dev number. */
int
blockdev_read(const struct probe_root *root, struct blockdev_list *l)
{
	struct blockdev	*nd;
	struct dirent	*de;
	DIR		*dp;
	size_t		 ncap;

	l->ndevs = 0;
	if ((dp = probe_opendir(root, PROBE_SYS, "block")) == NULL)
		return (-1);
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= BLOCKDEV_NAME_MAX)
			continue;
		if (l->ndevs == l->cap) {
			ncap = l->cap == 0 ? 16 : l->cap * 2;
			if ((nd = realloc(l->devs, ncap * sizeof *nd)) == NULL) {
				closedir(dp);
				errno = ENOMEM;
				return (-1);
			}
			l->devs = nd;
			l->cap = ncap;
		}
		if (blockdev_one(root, de->d_name, &l->devs[l->ndevs]) == 0)
			l->ndevs++;
	}
	closedir(dp);
	qsort(l->devs, l->ndevs, sizeof *l->devs, blockdev_cmp);
	return (0);
}

/* Find a whole device by name. */
const struct blockdev *
blockdev_find(const struct blockdev_list *l, const char *name)
{
	size_t	i;

	for (i = 0; i < l->ndevs; i++)
		if (strcmp(l->devs[i].name, name) == 0)
			return (&l->devs[i]);
	return (NULL);
}

/* Find the device or partition with a major:minor. */
const struct blockdev *
blockdev_find_dev(const struct blockdev_list *l, unsigned major,
    unsigned minor, const struct blockdev_part **part)
{
	size_t	i, j;

	*part = NULL;
	for (i = 0; i < l->ndevs; i++) {
		if (l->devs[i].major == major && l->devs[i].minor == minor)
			return (&l->devs[i]);
		for (j = 0; j < l->devs[i].nparts; j++) {
			if (l->devs[i].parts[j].major == major &&
			    l->devs[i].parts[j].minor == minor) {
				*part = &l->devs[i].parts[j];
				return (&l->devs[i]);
			}
		}
	}
	return (NULL);
}

/* Find a device or partition by name. */
const struct blockdev *
blockdev_find_any(const struct blockdev_list *l, const char *name,
    const struct blockdev_part **part)
{
	size_t	i, j;

	*part = NULL;
	for (i = 0; i < l->ndevs; i++) {
		if (strcmp(l->devs[i].name, name) == 0)
			return (&l->devs[i]);
		for (j = 0; j < l->devs[i].nparts; j++) {
			if (strcmp(l->devs[i].parts[j].name, name) == 0) {
				*part = &l->devs[i].parts[j];
				return (&l->devs[i]);
			}
		}
	}
	return (NULL);
}
