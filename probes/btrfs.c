/*
 * btrfs.c: /sys/fs/btrfs.
 */
#include "config.h"

#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btrfs.h"

static const char *const btrfs_profiles[] = {
	"single", "dup", "raid0", "raid1", "raid1c3", "raid1c4", "raid10",
	"raid5", "raid6"
};

/* allocation/<type>/: its profile subdirectories and byte counts. */
static void
btrfs_alloc(const struct probe_root *root, const char *fsdir,
    const char *type, struct btrfs_alloc *a)
{
	struct dirent	*de;
	DIR		*dp;
	const char	*found[sizeof btrfs_profiles / sizeof btrfs_profiles[0]];
	char		 rel[256], names[128] = "";
	size_t		 i, n = 0;

	memset(a, 0, sizeof *a);
	snprintf(rel, sizeof rel, "%s/allocation/%s", fsdir, type);
	if ((dp = probe_opendir(root, PROBE_SYS, rel)) == NULL)
		return;
	/* In the table's order, so a result does not depend on readdir. */
	while ((de = readdir(dp)) != NULL && n < NP_NITEMS(found)) {
		for (i = 0; i < NP_NITEMS(btrfs_profiles); i++)
			if (strcmp(de->d_name, btrfs_profiles[i]) == 0)
				found[n++] = btrfs_profiles[i];
	}
	closedir(dp);
	for (i = 0; i < NP_NITEMS(btrfs_profiles); i++) {
		size_t	j;

		for (j = 0; j < n; j++) {
			if (found[j] != btrfs_profiles[i])
				continue;
			if (names[0] != '\0')
				strncat(names, ",", sizeof names -
				    strlen(names) - 1);
			strncat(names, found[j], sizeof names -
			    strlen(names) - 1);
		}
	}
	(void)probe_strlcpy(a->profile, names, sizeof a->profile);
	snprintf(rel, sizeof rel, "%s/allocation/%s/total_bytes", fsdir, type);
	(void)probe_attr_u64(root, PROBE_SYS, rel, &a->total_bytes);
	snprintf(rel, sizeof rel, "%s/allocation/%s/bytes_used", fsdir, type);
	(void)probe_attr_u64(root, PROBE_SYS, rel, &a->used_bytes);
}

/* Order devinfo entries by devid. */
static int
btrfs_devid_cmp(const void *a, const void *b)
{
	const struct btrfs_devinfo	*x = a, *y = b;

	return (x->devid < y->devid ? -1 : x->devid > y->devid);
}

/* Parse a devinfo error_stats file. */
int
btrfs_parse_error_stats(const char *s, size_t len, struct btrfs_devinfo *d,
    const char **errstr)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} keys[] = {
		{ "write_errs", offsetof(struct btrfs_devinfo, write_errs) },
		{ "read_errs", offsetof(struct btrfs_devinfo, read_errs) },
		{ "flush_errs", offsetof(struct btrfs_devinfo, flush_errs) },
		{ "corruption_errs",
		    offsetof(struct btrfs_devinfo, corruption_errs) },
		{ "generation_errs",
		    offsetof(struct btrfs_devinfo, generation_errs) }
	};
	const char	*end = s + len, *nl, *p;
	char		 line[128], key[32];
	uint64_t	 v;
	size_t		 i, n;
	int		 found = 0;

	for (; s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		n = (size_t)(nl - s);
		if (n >= sizeof line)
			continue;
		memcpy(line, s, n);
		line[n] = '\0';
		p = line;
		if (probe_scan_word(&p, key, sizeof key) != 0 ||
		    probe_scan_u64(&p, &v) != 0)
			continue;
		for (i = 0; i < NP_NITEMS(keys); i++) {
			if (strcmp(key, keys[i].key) != 0)
				continue;
			memcpy((char *)d + keys[i].off, &v, sizeof v);
			found = 1;
		}
	}
	if (!found) {
		*errstr = "no error counters";
		errno = EINVAL;
		return (-1);
	}
	d->has_errors = 1;
	return (0);
}

/* devinfo/<devid>/: whether each member is missing and its error counts. */
static void
btrfs_devinfo(const struct probe_root *root, struct probe_buf *buf,
    const char *fsdir, struct btrfs_fs *fs)
{
	struct btrfs_devinfo	*d;
	struct dirent		*de;
	DIR			*dp;
	const char		*errstr, *p;
	char			 rel[512];
	uint64_t		 v;

	snprintf(rel, sizeof rel, "%s/devinfo", fsdir);
	if ((dp = probe_opendir(root, PROBE_SYS, rel)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL && fs->ndevinfo < BTRFS_MAX_DEVICES) {
		p = de->d_name;
		if (probe_scan_u64(&p, &v) != 0 || *p != '\0' || v > 0xffffffffU)
			continue;
		d = &fs->devinfo[fs->ndevinfo];
		memset(d, 0, sizeof *d);
		d->devid = (unsigned)v;
		d->missing = -1;
		snprintf(rel, sizeof rel, "%s/devinfo/%s/missing", fsdir,
		    de->d_name);
		if (probe_attr_u64(root, PROBE_SYS, rel, &v) == 0)
			d->missing = v != 0;
		snprintf(rel, sizeof rel, "%s/devinfo/%s/error_stats", fsdir,
		    de->d_name);
		if (probe_read(root, PROBE_SYS, rel, buf) == 0)
			(void)btrfs_parse_error_stats(buf->p, buf->len, d,
			    &errstr);
		fs->ndevinfo++;
	}
	closedir(dp);
	qsort(fs->devinfo, fs->ndevinfo, sizeof fs->devinfo[0],
	    btrfs_devid_cmp);
}

/* Order member names. */
static int
btrfs_name_cmp(const void *a, const void *b)
{
	return (strcmp(a, b));
}

/* Read every filesystem under sys/fs/btrfs. */
int
btrfs_read(const struct probe_root *root, struct btrfs *b)
{
	struct btrfs_fs		*fs;
	struct probe_buf	 buf;
	struct dirent		*de, *dd;
	DIR			*dp, *ddp;
	char			 dir[128], rel[192];

	memset(b, 0, sizeof *b);
	if ((dp = probe_opendir(root, PROBE_SYS, "fs/btrfs")) == NULL)
		return (-1);
	probe_buf_init(&buf);
	while ((de = readdir(dp)) != NULL && b->nfs < BTRFS_MAX_FS) {
		/* Filesystems are named by UUID; "features" is not one. */
		if (strlen(de->d_name) != 36 || de->d_name[8] != '-')
			continue;
		fs = &b->fs[b->nfs];
		memset(fs, 0, sizeof *fs);
		memcpy(fs->uuid, de->d_name, 37);
		snprintf(dir, sizeof dir, "fs/btrfs/%s", fs->uuid);
		snprintf(rel, sizeof rel, "%s/label", dir);
		(void)probe_read_attr(root, PROBE_SYS, rel, fs->label,
		    sizeof fs->label);
		snprintf(rel, sizeof rel, "%s/devices", dir);
		if ((ddp = probe_opendir(root, PROBE_SYS, rel)) != NULL) {
			while ((dd = readdir(ddp)) != NULL &&
			    fs->ndevices < BTRFS_MAX_DEVICES) {
				if (dd->d_name[0] == '.')
					continue;
				if (probe_strlcpy(fs->devices[fs->ndevices],
				    dd->d_name, sizeof fs->devices[0]) == 0)
					fs->ndevices++;
			}
			closedir(ddp);
			qsort(fs->devices, fs->ndevices, sizeof fs->devices[0],
			    btrfs_name_cmp);
		}
		btrfs_alloc(root, dir, "data", &fs->data);
		btrfs_alloc(root, dir, "metadata", &fs->metadata);
		btrfs_alloc(root, dir, "system", &fs->system);
		btrfs_devinfo(root, &buf, dir, fs);
		b->nfs++;
	}
	closedir(dp);
	probe_buf_free(&buf);
	return (0);
}

/* Find the filesystem a device is a member of. */
const struct btrfs_fs *
btrfs_find_device(const struct btrfs *b, const char *name)
{
	size_t	i, j;

	for (i = 0; i < b->nfs; i++)
		for (j = 0; j < b->fs[i].ndevices; j++)
			if (strcmp(b->fs[i].devices[j], name) == 0)
				return (&b->fs[i]);
	return (NULL);
}
