/*
 * btrfs.c: /sys/fs/btrfs.
 */
#include "config.h"

#include <dirent.h>
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

/* Order member names. */
static int
btrfs_name_cmp(const void *a, const void *b)
{
	return (strcmp(a, b));
}

int
btrfs_read(const struct probe_root *root, struct btrfs *b)
{
	struct btrfs_fs	*fs;
	struct dirent	*de, *dd;
	DIR		*dp, *ddp;
	char		 dir[128], rel[192];

	memset(b, 0, sizeof *b);
	if ((dp = probe_opendir(root, PROBE_SYS, "fs/btrfs")) == NULL)
		return (-1);
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
		b->nfs++;
	}
	closedir(dp);
	return (0);
}

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
