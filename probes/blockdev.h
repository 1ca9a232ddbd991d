/*
 * blockdev.h: block devices from /sys/block: disks, partitions, md and
 * device-mapper devices, loops, and the slaves/holders links that stack
 * them.
 */
#ifndef BLOCKDEV_H
#define BLOCKDEV_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define BLOCKDEV_NAME_MAX	32
#define BLOCKDEV_MAX_PARTS	16
#define BLOCKDEV_MAX_LINKS	32	/* slaves or holders of one device */

enum blockdev_kind {
	BLOCKDEV_DISK,		/* a physical (or virtual-machine) disk */
	BLOCKDEV_MD,		/* md RAID */
	BLOCKDEV_DM,		/* device-mapper: LVM, cache, crypt */
	BLOCKDEV_LOOP,
	BLOCKDEV_OTHER		/* ram, zram, optical */
};

struct blockdev_part {
	char		name[BLOCKDEV_NAME_MAX];	/* "sda1", "sata1p3" */
	unsigned	major, minor;
	unsigned	number;		/* the "partition" attribute */
	uint64_t	start;		/* sectors */
	uint64_t	size_bytes;
	char		holders[4][BLOCKDEV_NAME_MAX];	/* e.g. "md2" */
	size_t		nholders;
};

struct blockdev {
	char		name[BLOCKDEV_NAME_MAX];
	unsigned	major, minor;
	enum blockdev_kind kind;
	uint64_t	size_bytes;
	int		ro, removable;
	/* queue/rotational: 1 for loop and many virtual disks too, so a
	 * hint, not a fact */
	int		rotational;	/* -1 unknown */
	unsigned	logical_block, physical_block;	/* bytes, 0 unknown */
	char		model[64], vendor[32], serial[64], rev[32];
	char		transport[16];	/* "sata" "sas" "usb" "nvme" ... */
	char		devpath[256];	/* where sys/block/NAME points */
	char		dm_name[128], dm_uuid[160];
	char		dm_class[16];	/* "lvm" "cache" "crypt" "" */
	char		backing_file[256];	/* loop/backing_file */
	struct blockdev_part parts[BLOCKDEV_MAX_PARTS];
	size_t		nparts;
	char		slaves[BLOCKDEV_MAX_LINKS][BLOCKDEV_NAME_MAX];
	size_t		nslaves;
	char		holders[BLOCKDEV_MAX_LINKS][BLOCKDEV_NAME_MAX];
	size_t		nholders;
};

struct blockdev_list {
	struct blockdev	*devs;		/* sorted by name */
	size_t		 ndevs;
	size_t		 cap;
};

/* Initialise an empty list. */
void	blockdev_init(struct blockdev_list *);
/* Free the list's memory; it may be reused after blockdev_init. */
void	blockdev_clear(struct blockdev_list *);
/*
 * Read every device of <root>/sys/block.  -1 and ENOENT when there is no
 * sys/block; ENOMEM.  Unreadable attributes are left empty or -1.
 */
int	blockdev_read(const struct probe_root *, struct blockdev_list *);
/* The device called name, or NULL. */
const struct blockdev *blockdev_find(const struct blockdev_list *,
	    const char *name);
/*
 * The device or partition with major:minor; *part is set to the partition
 * (NULL for a whole device).  NULL when none.
 */
const struct blockdev *blockdev_find_dev(const struct blockdev_list *,
	    unsigned major, unsigned minor, const struct blockdev_part **part);
/*
 * The device or partition called name (a partition's parent is returned,
 * with *part set), or NULL.
 */
const struct blockdev *blockdev_find_any(const struct blockdev_list *,
	    const char *name, const struct blockdev_part **part);
/* The transport a sysfs device path shows ("sata", "usb", "nvme"...). */
const char *blockdev_transport(const char *devpath, const char *name);
/* "disk", "md", "dm", "loop", "other". */
const char *blockdev_kind_name(enum blockdev_kind);

#endif /* BLOCKDEV_H */
