/*
 * disktest_plan.h: a disk test's plan, made from its request, the box's
 * topology and the configuration, and nothing else.
 *
 * dt_plan_parse() reads the request's numbers, dt_plan_targets() resolves
 * its targets (disk names, /dev paths, the configured volumes that are
 * mount points) into whole disks and volumes with their members,
 * dt_plan_resync() refuses while an md array under them resyncs, and
 * dt_plan_steps() lists the steps.  None of them reads a disk or a
 * file; the runner (disktest.c) checks the device nodes and the free
 * space, then runs the steps.
 */
#ifndef DISKTEST_PLAN_H
#define DISKTEST_PLAN_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "blockdev.h"
#include "cfg.h"
#include "http.h"
#include "zfs.h"

#define DISKTEST_TMPNAME	".nasperfd-disktest.tmp"
#define DISKTEST_SLOW_PCT	8.0	/* below the array's mean: slow */

#define DT_MAX_DISKS	32
#define DT_MAX_VOLS	CFG_MAX_VOLUMES
#define DT_MAX_TARGETS	64
#define DT_NZONES	3
#define DT_MAX_STEPS	(DT_MAX_DISKS * (DT_NZONES + 2) + 1 + DT_MAX_VOLS * 4)
#define DT_RAND_BS	4096
#define DT_RAND_QD	32
#define DT_DEF_SIZE	(1ULL << 30)
#define DT_MIN_SIZE	(1ULL << 20)
#define DT_DEF_BS	(1ULL << 20)
#define DT_DEF_QD	4
#define DT_DEF_SECONDS	5.0
#define DT_MAX_SECONDS	600.0
#define DT_DEF_ZONE	(1ULL << 30)

#define DT_HDD_MAX_BPS	350e6	/* no spinning disk reads faster */
#define DT_HDD_MAX_IOPS	400	/* random 4 KiB reads at QD1: ~200 at best */
#define DT_SPARSE_PCT	90	/* a backing file less allocated: sparse */
#define DT_ARC_PCT	50	/* of a ZFS read's data from the ARC: not disks */

#define DT_SEQ		0x1
#define DT_RND		0x2

struct topology;

enum dt_op { DT_ZONE, DT_RAND, DT_ALL, DT_VWRITE, DT_VREAD, DT_VRANDR,
	DT_VRANDW };

/* A disk under test, and what was measured of it. */
struct dt_disk {
	char		 name[BLOCKDEV_NAME_MAX];
	char		 dev[BLOCKDEV_NAME_MAX + 8];	/* /dev/NAME */
	uint64_t	 size;				/* bytes */
	char		 model[64], serial[64], rev[32];
	char		 transport[16];			/* "sata", "" ... */
	int		 rotational;			/* -1 unknown */
	char		 backing[256];			/* a loop's file */
	int		 alloc_pct;	/* of the backing file; -1 unknown */
	double		 zone_bps[DT_NZONES];		/* 0: not measured */
	double		 all_bps;			/* all disks at once */
	json_t		*zones[DT_NZONES];
	json_t		*rand[2];			/* QD1, QD32 */
	json_t		*all;
};

/* A volume under test, its temp file, and what was measured of it. */
struct dt_volume {
	char		 path[CFG_VOLUME_MAX];
	char		 tmp[CFG_VOLUME_MAX + 32];
	char		 device[BLOCKDEV_NAME_MAX];
	char		 fstype[32];
	char		 layout[48];
	char		 members[DT_MAX_DISKS][BLOCKDEV_NAME_MAX];
	size_t		 disk[DT_MAX_DISKS];	/* index in disks[] */
	size_t		 nmembers;
	uint64_t	 laid_out;		/* bytes of the temp file */
	int		 direct;		/* -1 unknown */
	int		 dirfd;			/* the volume's directory, or -1 */
	int		 fd;			/* the temp file we made, or -1 */
	dev_t		 tmp_dev;		/* and its inode */
	ino_t		 tmp_ino;
	json_t		*res[4];		/* dt_vstep_names */
};

/* One step: an operation on a disk or a volume. */
struct dt_step {
	enum dt_op	 op;
	size_t		 idx;
	int		 zone;
	unsigned	 qd;
};

/* What a test does: its numbers, disks, volumes and steps. */
struct dt_plan {
	unsigned		 kind;		/* DT_SEQ | DT_RND */
	uint64_t		 size, bs, zone_bytes;
	unsigned		 qd;
	double			 seconds;	/* per step */
	int			 force;
	json_t			*forced;	/* what was overridden */

	struct dt_disk		 disks[DT_MAX_DISKS];
	size_t			 ndisks;
	struct dt_volume	 vols[DT_MAX_VOLS];
	size_t			 nvols;
	struct dt_step		 steps[DT_MAX_STEPS];
	size_t			 nsteps;
};

extern const char *const dt_zone_names[DT_NZONES];
extern const char *const dt_vstep_names[4];

/*
 * Read the request's numbers (kind, size, block_size, queue_depth,
 * seconds, zone_bytes, force) into p, with their defaults, and check the
 * shape of its targets.  -1 with msg when a key is unknown or a value
 * wrong.
 */
int	dt_plan_parse(const json_t *body, const struct cfg *, struct dt_plan *p,
	    char *msg, size_t msgsz);
/*
 * Resolve the targets (an array of strings, or NULL for every configured
 * volume) into p's disks and volumes.  root names the tree /sys was read
 * under, for messages.  -1 with e filled (400: unknown or bad target, a
 * partition, a volume not configured or not a mount point).
 */
int	dt_plan_targets(const struct cfg *, const struct topology *,
	    const char *root, const json_t *targets, struct dt_plan *p,
	    struct http_err *e);
/*
 * Refuse (409, array_resyncing) while an md array under p's disks
 * resyncs, unless p->force, when p->forced says so.
 */
int	dt_plan_resync(const struct topology *, struct dt_plan *p,
	    struct http_err *e);
/* List p's steps: per disk, then all disks at once, then per volume. */
void	dt_plan_steps(struct dt_plan *p);
/* A step's name for progress and errors. */
void	dt_plan_label(const struct dt_plan *p, const struct dt_step *s,
	    char *out, size_t outsz);
/* The region of a disk's zone (0 outer, 1 middle, 2 inner), aligned. */
void	dt_plan_zone(const struct dt_plan *p, const struct dt_disk *k,
	    int zone, uint64_t *off, uint64_t *len);

/*
 * Why the figures measured of disk k cannot be the disk's own, as an
 * array of sentences (empty when nothing is amiss; NULL on ENOMEM): a
 * loop device over a sparse file (its holes read as zeros without I/O), a
 * spinning disk on a physical bus reading faster sequentially or at
 * random than any does (a cache answered: a controller's, or a virtual
 * disk's host).
 */
json_t	*disktest_implausible(const struct dt_disk *k);

/*
 * The expected sequential throughput of an array from its members'
 * (member_bps, n of them) and its layout: "raid0", "raid1", "raid10",
 * "raid4", "raid5", "raid6", "linear", "jbod", "single", "dup", "raid1c3",
 * "raid1c4", each optionally after "btrfs ".  -1 and EINVAL for an unknown
 * layout or too few members.
 */
int	disktest_expected(const char *layout, const double *member_bps,
	    size_t n, double *read_bps, double *write_bps);
/*
 * Flag the members more than pct percent below the mean of all n:
 * slow[i] is set to 1 or 0.  Returns how many were flagged.
 */
size_t	disktest_slow(const double *bps, size_t n, double pct, int *slow);

/*
 * What ZFS's ARC served of a volume's read step, from arcstats before (a)
 * and after (b): {"demand_data_hits", "demand_data_misses", "hit_pct",
 * "from_arc"}, from_arc when DT_ARC_PCT % or more of the reads of file
 * data hit, so the figure is memory's, not the disks'.  NULL when either
 * reading lacks the rows or nothing was read.  Pure.
 */
json_t	*disktest_arc(const struct zfs_named *a, const struct zfs_named *b);

#endif /* DISKTEST_PLAN_H */
