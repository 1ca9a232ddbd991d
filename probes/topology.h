/*
 * topology.h: what a box is built from, with the stack resolved: disks →
 * partitions → md arrays → device-mapper (LVM, cache devices) → btrfs or
 * another filesystem → mount points, plus the NICs, the CPU and the
 * vendor's identity.
 */
#ifndef TOPOLOGY_H
#define TOPOLOGY_H

#include <stddef.h>

#include "blockdev.h"
#include "btrfs.h"
#include "cpuinfo.h"
#include "exports.h"
#include "identity.h"
#include "mdstat.h"
#include "mounts.h"
#include "nic.h"
#include "probe.h"
#include "smbconf.h"
#include "zfs.h"

/* Which parts were read; an absent part is reported as not available. */
#define TOPOLOGY_BLOCK		0x01
#define TOPOLOGY_MD		0x02
#define TOPOLOGY_MOUNTS		0x04
#define TOPOLOGY_BTRFS		0x08
#define TOPOLOGY_IDENTITY	0x10
#define TOPOLOGY_CPU		0x20
#define TOPOLOGY_NICS		0x40
#define TOPOLOGY_SMB		0x80	/* smb.conf */
#define TOPOLOGY_EXPORTS	0x100	/* /etc/exports */
#define TOPOLOGY_GANESHA	0x200	/* ganesha.conf */
#define TOPOLOGY_NFSD_THREADS	0x400	/* /proc/fs/nfsd/threads */

struct topology {
	unsigned		have;		/* TOPOLOGY_* */
	struct blockdev_list	block;
	struct mdstat		md;
	struct mounts		mounts;
	struct btrfs		btrfs;
	struct identity		identity;
	struct cpuinfo		cpu;
	struct nic_list		nics;
	struct smbconf		smb;		/* the protocols part */
	struct exports		exports;
	struct exports_ganesha	ganesha;
	uint64_t		nfsd_threads;
	/*
	 * The pools "zpool status" listed (borrowed, may be NULL): a ZFS
	 * dataset's stack is its pool's member devices.
	 */
	const struct zfs_status	*zpool;
	const struct zfs_datasets *zfs_datasets;	/* zfs get's, or NULL */
	/*
	 * The vdevs' I/O over the second zpool iostat last measured, and
	 * when that second ended (Unix s); borrowed, may be NULL.
	 */
	const struct zfs_viostat *zfs_io;
	double			zfs_io_at;
	const struct probe_root	*root;		/* what it was read under */
	struct probe_buf	buf;
	char			smb_conf[512];	/* "": SMBCONF_PATH */
};

#define TOPOLOGY_STACK_MAX	8	/* layers */
#define TOPOLOGY_LAYER_MAX	32	/* devices in one layer */

/* One layer of a stack: devices of one kind, e.g. the members of md2. */
struct topology_layer {
	char	kind[48];	/* "cache", "lvm", "raid6", "btrfs raid1",
				 * "partition", "disk", "loop", "crypt" */
	char	devices[TOPOLOGY_LAYER_MAX][BLOCKDEV_NAME_MAX];
	char	names[TOPOLOGY_LAYER_MAX][128];	/* dm names, else devices */
	size_t	n;
};

/* A new, empty topology (about 300 KiB: keep it off the stack). */
struct topology	*topology_new(void);
/* Read every part under root; 0, or -1 only on ENOMEM. */
int		 topology_read(const struct probe_root *, struct topology *);
/* Free a topology; NULL is allowed. */
void		 topology_free(struct topology *);
/*
 * The device a mount is on ("dm-2", "sda1"), from its major:minor or, for
 * btrfs and /proc/mounts, its source path; NULL when not a block device.
 */
const char	*topology_mount_device(const struct topology *,
		    const struct mounts_entry *);
/*
 * The layers under device dev, dev's own first: for /volume1 on DSM 7,
 * cache (dm-2) → lvm (dm-1) → raid6 (md2) → partition (sata1p3 …) →
 * disk (sata1 …).  A btrfs filesystem's member devices make one layer.
 * Returns the number of layers written to out.
 */
size_t		 topology_stack(const struct topology *, const char *dev,
		    const char *fstype, struct topology_layer *out, size_t max);

#endif /* TOPOLOGY_H */
