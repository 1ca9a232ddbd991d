/*
 * snapshot.h: one full reading of every counter probe.
 *
 * A snapshot is allocated once and taken again and again: the arrays of
 * its parts are reused, so a steady-state take allocates nothing.  Each
 * part records whether it was available and why not; one missing file
 * never fails the whole take.
 */
#ifndef SNAPSHOT_H
#define SNAPSHOT_H

#include <stddef.h>
#include <time.h>

#include "cpustat.h"
#include "crypto.h"
#include "diskstats.h"
#include "meminfo.h"
#include "netdev.h"
#include "nfsd.h"
#include "pressure.h"
#include "probe.h"
#include "procgroup.h"
#include "softirqs.h"
#include "unraid.h"
#include "zfs.h"

/* A process group to measure: name and comm patterns, all borrowed. */
struct snapshot_group {
	const char		*name;
	const char *const	*patterns;
	size_t			 npatterns;
	int			 pid;	/* > 0: only this process */
};

struct snapshot_opts {
	const struct snapshot_group *groups;
	size_t			 ngroups;
	int			 no_crypto;	/* skip /proc/crypto */
};

enum snapshot_part {
	SNAPSHOT_CPU, SNAPSHOT_MEMORY, SNAPSHOT_DISKS, SNAPSHOT_NICS,
	SNAPSHOT_GROUPS, SNAPSHOT_SOFTIRQS, SNAPSHOT_PRESSURE, SNAPSHOT_NFSD,
	SNAPSHOT_CRYPTO, SNAPSHOT_ZFS, SNAPSHOT_UNRAID
};
#define SNAPSHOT_NPARTS	11

/* "cpu", "memory", "disks", ... by enum snapshot_part (the JSON keys). */
extern const char *const snapshot_part_names[SNAPSHOT_NPARTS];

struct snapshot_status {
	int		 avail;		/* the part holds a reading */
	int		 error;		/* errno when not: ENOENT, EINVAL... */
	const char	*errstr;	/* static, or NULL */
};

#define SNAPSHOT_MD_MEMBERS	64

struct snapshot_md {			/* an md array and its member devices */
	char		name[DISKSTATS_NAME_MAX];
	size_t		nmembers;	/* from <root>/sys/block/mdN/slaves/ */
	char		members[SNAPSHOT_MD_MEMBERS][DISKSTATS_NAME_MAX];
};

struct snapshot {
	struct timespec	 mono;		/* CLOCK_MONOTONIC when taken */
	struct timespec	 real;		/* CLOCK_REALTIME when taken */
	struct snapshot_status status[SNAPSHOT_NPARTS];
	struct cpustat	 cpu;
	struct meminfo	 mem;
	struct diskstats disks;
	struct snapshot_md *md;
	size_t		 nmd;
	size_t		 mdcap;
	struct netdev	 nics;
	struct procgroup groups;
	struct softirqs	 softirqs;
	struct pressure	 pressure;
	struct nfsd	 nfsd;
	struct crypto	 crypto;
	struct zfs_counters *zfs;	/* allocated at the first ZFS reading */
	struct unraid	*unraid;	/* at the first md_unraid reading */
	struct probe_buf buf;		/* reused by every read */
	struct procgroup_spec *specs;	/* opts' groups, converted */
	size_t		 speccap;
};

/* A new, empty snapshot; NULL and ENOMEM. */
struct snapshot *snapshot_new(void);
/*
 * Read every part under root into s.  -1 only on ENOMEM; a part that could
 * not be read has status[part].avail 0.
 */
int	snapshot_take(const struct probe_root *, const struct snapshot_opts *,
	    struct snapshot *);
/* Release a snapshot; NULL is allowed. */
void	snapshot_free(struct snapshot *);
/* The md array called name in s, or NULL. */
const struct snapshot_md *snapshot_md_find(const struct snapshot *,
	    const char *name);
/* Seconds from a to b on the monotonic clock. */
double	snapshot_interval(const struct snapshot *a, const struct snapshot *b);

#endif /* SNAPSHOT_H */
