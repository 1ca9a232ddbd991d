/*
 * topology.c: every topology probe, and the stack from a mount point down
 * to the disks.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

/* Allocate an empty topology. */
struct topology *
topology_new(void)
{
	struct topology	*t;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return (NULL);
	blockdev_init(&t->block);
	mounts_init(&t->mounts);
	exports_init(&t->exports);
	probe_buf_init(&t->buf);
	return (t);
}

/* Free a topology and everything in it. */
void
topology_free(struct topology *t)
{
	if (t == NULL)
		return;
	blockdev_clear(&t->block);
	mounts_clear(&t->mounts);
	exports_clear(&t->exports);
	probe_buf_free(&t->buf);
	free(t);
}

/* Read every part of the topology under root. */
int
topology_read(const struct probe_root *root, struct topology *t)
{
	const char	*errstr;

	t->have = 0;
	t->root = root;
	if (blockdev_read(root, &t->block) == 0)
		t->have |= TOPOLOGY_BLOCK;
	else if (errno == ENOMEM)
		return (-1);
	if (mdstat_read(root, &t->buf, &t->md, &errstr) == 0)
		t->have |= TOPOLOGY_MD;
	if (mounts_read(root, &t->buf, &t->mounts, &errstr) == 0)
		t->have |= TOPOLOGY_MOUNTS;
	else if (errno == ENOMEM)
		return (-1);
	if (btrfs_read(root, &t->btrfs) == 0)
		t->have |= TOPOLOGY_BTRFS;
	if (identity_read(root, &t->buf, &t->identity) == 0)
		t->have |= TOPOLOGY_IDENTITY;
	if (cpuinfo_read(root, &t->buf, &t->cpu, &errstr) == 0)
		t->have |= TOPOLOGY_CPU;
	if (nic_list_read(root, &t->buf, &t->nics) == 0)
		t->have |= TOPOLOGY_NICS;
	if (smbconf_read(root, t->smb_conf[0] != '\0' ?
	    t->smb_conf : NULL, &t->smb, &errstr) == 0)
		t->have |= TOPOLOGY_SMB;
	if (exports_read(root, &t->buf, &t->exports, &errstr) == 0)
		t->have |= TOPOLOGY_EXPORTS;
	else if (errno == ENOMEM)
		return (-1);
	if (exports_ganesha_read(root, NULL, &t->ganesha, &errstr) == 0)
		t->have |= TOPOLOGY_GANESHA;
	if (exports_threads_read(root, &t->nfsd_threads) == 0)
		t->have |= TOPOLOGY_NFSD_THREADS;
	return (0);
}

/* The dm device whose dm/name is name, or NULL. */
static const struct blockdev *
topology_dm_named(const struct topology *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->block.ndevs; i++)
		if (t->block.devs[i].kind == BLOCKDEV_DM &&
		    strcmp(t->block.devs[i].dm_name, name) == 0)
			return (&t->block.devs[i]);
	return (NULL);
}

/* LVM's /dev/VG/LV is dm name VG-LV, with each "-" of VG and LV doubled. */
static void
topology_lvm_name(const char *vg, size_t vglen, const char *lv, char *out,
    size_t outsz)
{
	size_t	n = 0, i;

	for (i = 0; i < vglen && n + 2 < outsz; i++) {
		if (vg[i] == '-')
			out[n++] = '-';
		out[n++] = vg[i];
	}
	if (n + 1 < outsz)
		out[n++] = '-';
	for (; *lv != '\0' && n + 2 < outsz; lv++) {
		if (*lv == '-')
			out[n++] = '-';
		out[n++] = *lv;
	}
	out[n] = '\0';
}

/* Find the block device a mount is on. */
const char *
topology_mount_device(const struct topology *t, const struct mounts_entry *m)
{
	const struct blockdev		*d;
	const struct blockdev_part	*p;
	const char			*s = m->source, *slash;
	char				 name[160];

	if (m->has_dev && m->major != 0 &&
	    (d = blockdev_find_dev(&t->block, m->major, m->minor, &p)) != NULL)
		return (p != NULL ? p->name : d->name);
	/* btrfs reports an anonymous 0:N; the source names the device. */
	if (strncmp(s, "/dev/", 5) != 0)
		return (NULL);
	s += 5;
	if (strncmp(s, "mapper/", 7) == 0)
		return ((d = topology_dm_named(t, s + 7)) != NULL ? d->name :
		    NULL);
	if ((slash = strchr(s, '/')) != NULL) {
		topology_lvm_name(s, (size_t)(slash - s), slash + 1, name,
		    sizeof name);
		return ((d = topology_dm_named(t, name)) != NULL ? d->name :
		    NULL);
	}
	if ((d = blockdev_find_any(&t->block, s, &p)) != NULL)
		return (p != NULL ? p->name : d->name);
	return (NULL);
}

/* The kind of layer a device makes. */
static void
topology_kind(const struct topology *t, const char *dev, char *out,
    size_t outsz)
{
	const struct blockdev		*d;
	const struct blockdev_part	*p;
	const struct mdstat_array	*a;

	if ((d = blockdev_find_any(&t->block, dev, &p)) == NULL) {
		snprintf(out, outsz, "unknown");
		return;
	}
	if (p != NULL)
		snprintf(out, outsz, "partition");
	else if (d->kind == BLOCKDEV_MD)
		snprintf(out, outsz, "%s", (a = mdstat_find(&t->md, dev)) !=
		    NULL && a->level[0] != '\0' ? a->level : "md");
	else if (d->kind == BLOCKDEV_DM)
		snprintf(out, outsz, "%s", d->dm_class[0] != '\0' ?
		    d->dm_class : "dm");
	else
		snprintf(out, outsz, "%s", blockdev_kind_name(d->kind));
}

/* Add dev to layer l unless it is there already. */
static void
topology_layer_add(const struct topology *t, struct topology_layer *l,
    const char *dev)
{
	const struct blockdev		*d;
	const struct blockdev_part	*p;
	size_t				 i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->devices[i], dev) == 0)
			return;
	if (l->n == TOPOLOGY_LAYER_MAX)
		return;
	(void)probe_strlcpy(l->devices[l->n], dev, sizeof l->devices[0]);
	d = blockdev_find_any(&t->block, dev, &p);
	(void)probe_strlcpy(l->names[l->n], d != NULL && p == NULL &&
	    d->dm_name[0] != '\0' ? d->dm_name : dev, sizeof l->names[0]);
	l->n++;
}

/*
 * The member devices of dataset's pool into layer, of kind "zfs raidz2"
 * (its first data vdev's layout); the number added, 0 when the pool is
 * not listed.  Spares sit idle: left out.
 */
static size_t
topology_zfs_layer(const struct topology *t, const char *dataset,
    struct topology_layer *l)
{
	const struct zfs_pool	*p;
	const struct zfs_vdev	*v;
	const char		*base;
	/* "zfs " and the kind fill l->kind. */
	char			 kind[44] = "?", *dash;
	size_t			 i;

	if ((p = zfs_pool_of(t->zpool, dataset)) == NULL)
		return (0);
	for (i = 1; i < p->nvdevs; i++) {
		v = &p->vdevs[i];
		if (v->depth == 1 && v->class == ZFS_CLASS_DATA &&
		    strcmp(kind, "?") == 0)
			snprintf(kind, sizeof kind, "%s", v->type ==
			    ZFS_VDEV_DISK ? "stripe" : v->name);
		if (v->type != ZFS_VDEV_DISK || v->class == ZFS_CLASS_SPARE)
			continue;
		/* "/dev/sda1" with -P; a bare "sda1" without. */
		base = strrchr(v->name, '/') != NULL ? strrchr(v->name, '/') +
		    1 : v->name;
		topology_layer_add(t, l, base);
	}
	/* "raidz2-0": the layout, without its index. */
	if ((dash = strrchr(kind, '-')) != NULL && dash != kind)
		*dash = '\0';
	snprintf(l->kind, sizeof l->kind, "zfs %s", kind);
	return (l->n);
}

/* Walk from a device down through its slaves to the disks. */
size_t
topology_stack(const struct topology *t, const char *dev, const char *fstype,
    struct topology_layer *out, size_t max)
{
	const struct btrfs_fs		*fs;
	const struct blockdev		*d;
	const struct blockdev_part	*p;
	struct topology_layer		*cur, *next;
	size_t				 n = 0, i, j;

	if (max == 0 || dev == NULL)
		return (0);
	memset(&out[0], 0, sizeof out[0]);
	if (fstype != NULL && strcmp(fstype, "zfs") == 0) {
		/* A dataset ("tank/share"): its pool's member devices. */
		if (topology_zfs_layer(t, dev, &out[0]) == 0)
			return (0);
	} else if (fstype != NULL && strcmp(fstype, "btrfs") == 0 &&
	    (fs = btrfs_find_device(&t->btrfs, dev)) != NULL &&
	    fs->ndevices > 1) {
		/* A multi-device btrfs: its members are the first layer. */
		snprintf(out[0].kind, sizeof out[0].kind, "btrfs %s",
		    fs->data.profile[0] != '\0' ? fs->data.profile : "?");
		for (i = 0; i < fs->ndevices; i++)
			topology_layer_add(t, &out[0], fs->devices[i]);
	} else {
		topology_kind(t, dev, out[0].kind, sizeof out[0].kind);
		topology_layer_add(t, &out[0], dev);
	}
	for (n = 1; n < max; n++) {
		cur = &out[n - 1];
		next = &out[n];
		memset(next, 0, sizeof *next);
		for (i = 0; i < cur->n; i++) {
			if ((d = blockdev_find_any(&t->block, cur->devices[i],
			    &p)) == NULL)
				continue;
			if (p != NULL) {
				topology_layer_add(t, next, d->name);
				continue;
			}
			for (j = 0; j < d->nslaves; j++)
				topology_layer_add(t, next, d->slaves[j]);
		}
		if (next->n == 0)
			break;
		topology_kind(t, next->devices[0], next->kind,
		    sizeof next->kind);
	}
	return (n);
}
