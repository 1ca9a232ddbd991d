/*
 * btrfs.h: btrfs filesystems from /sys/fs/btrfs/<uuid>/.
 *
 * The RAID profile of each block-group type is the name of the
 * subdirectory of allocation/<type>/ (raid1, raid10, single, dup...); the
 * "flags" file there is the block-group type bit, not the profile.
 */
#ifndef BTRFS_H
#define BTRFS_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define BTRFS_MAX_FS		16
#define BTRFS_MAX_DEVICES	32

/* One block-group type: data, metadata or system. */
struct btrfs_alloc {
	char		profile[32];	/* "raid1", or "raid1,single" mid-way
					 * through a conversion; "" unknown */
	uint64_t	total_bytes, used_bytes;	/* 0 unknown */
};

/*
 * One member from devinfo/<devid>/ (kernel 5.5 on; error_stats from 5.14).
 * Counts are the device's lifetime error counters, as "btrfs device stats"
 * prints them.
 */
struct btrfs_devinfo {
	unsigned	devid;
	int		missing;	/* 1 missing, 0 present, -1 unknown */
	int		has_errors;	/* error_stats was read */
	uint64_t	write_errs, read_errs, flush_errs;
	uint64_t	corruption_errs, generation_errs;
};

struct btrfs_fs {
	char		uuid[40];
	char		label[256];
	char		devices[BTRFS_MAX_DEVICES][32];	/* "sda", "dm-2" */
	size_t		ndevices;
	struct btrfs_alloc data, metadata, system;
	struct btrfs_devinfo devinfo[BTRFS_MAX_DEVICES];	/* by devid */
	size_t		ndevinfo;
};

struct btrfs {
	struct btrfs_fs	fs[BTRFS_MAX_FS];
	size_t		nfs;
};

/* Read every filesystem of <root>/sys/fs/btrfs; -1 and ENOENT if none. */
int	btrfs_read(const struct probe_root *, struct btrfs *);
/*
 * Parse a devinfo error_stats file ("write_errs 0" lines) into d; unknown
 * keys are skipped.  -1 and EINVAL when no known counter is in it.  Pure.
 */
int	btrfs_parse_error_stats(const char *, size_t, struct btrfs_devinfo *,
	    const char **errstr);
/* The filesystem with device name among its members, or NULL. */
const struct btrfs_fs *btrfs_find_device(const struct btrfs *,
	    const char *name);

#endif /* BTRFS_H */
