/*
 * history.h: the sampler's memory: counter readings kept over time.
 *
 * Each sample holds the cumulative counters of one snapshot, so a window's
 * totals are the difference of its first and last samples, and a coarser
 * series is just every k-th sample.  Two rings: every sample of the last
 * minutes (history.full_samples), and beyond that one sample per
 * history.coarse_step seconds (history.coarse_samples).
 *
 * The things measured (cores, disks, NICs, process groups) are registered
 * on first sight and keep their index for the daemon's life, so a sample
 * taken before a disk appeared simply holds fewer disks.  A disk is
 * registered once it has done I/O: idle devices cost nothing.  A disk
 * registered after the first sample did no I/O before it, so a window
 * that starts before it counts it from zero.
 *
 * The whole history, registry and samples, reads and writes as JSON: the
 * state file kept across restarts, GET /v1/samples, and the recorded
 * windows of the verdict tests are one format.
 */
#ifndef HISTORY_H
#define HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "snapshot.h"

#define HIST_NONE	UINT64_MAX	/* not available in this sample */
#define HIST_NAME_MAX	32
#define HIST_MAX_CPUS	1024
#define HIST_MAX_DISKS	256
#define HIST_MAX_NICS	64
#define HIST_MAX_GROUPS	64

/* Per-sample values of the box as a whole. */
enum hist_sys {
	HIST_SYS_PSI_CPU_SOME, HIST_SYS_PSI_IO_SOME, HIST_SYS_PSI_IO_FULL,
	HIST_SYS_PSI_MEM_SOME,		/* microseconds stalled, cumulative */
	HIST_SYS_MEM_CACHED, HIST_SYS_MEM_DIRTY, HIST_SYS_MEM_AVAILABLE,
	HIST_SYS_MEM_TOTAL,		/* bytes, as read */
	HIST_SYS_CTXT,			/* context switches */
	HIST_SYS_ARC_HITS, HIST_SYS_ARC_MISSES,	/* ZFS's ARC, every access */
	HIST_SYS_ARC_DD_HITS, HIST_SYS_ARC_DD_MISSES,	/* reads of file data */
	HIST_SYS_ZFS_THROTTLE,		/* dmu_tx dirty throttle + delay waits */
	HIST_SYS_ZIL_COMMITS,		/* intent log commits */
	HIST_SYS_UNRAID_OP,		/* the array's operation running: enum
					 * unraid_op, 0 (none) when none runs */
	HIST_SYS_UNRAID_KIBS		/* its speed, KiB/s */
};
#define HIST_SYS_FIELDS	17

/* Per core (and the total first): USER_HZ ticks, cumulative. */
enum hist_cpu {
	HIST_CPU_USER, HIST_CPU_NICE, HIST_CPU_SYSTEM, HIST_CPU_IDLE,
	HIST_CPU_IOWAIT, HIST_CPU_IRQ, HIST_CPU_SOFTIRQ, HIST_CPU_STEAL
};
#define HIST_CPU_FIELDS	8

/* Per disk, as /proc/diskstats counts them (sectors of 512 bytes). */
enum hist_disk {
	HIST_DISK_RD_IOS, HIST_DISK_RD_SECTORS, HIST_DISK_RD_TICKS,
	HIST_DISK_WR_IOS, HIST_DISK_WR_SECTORS, HIST_DISK_WR_TICKS,
	HIST_DISK_IO_TICKS, HIST_DISK_TIME_IN_QUEUE
};
#define HIST_DISK_FIELDS 8

/* Per interface. */
enum hist_nic {
	HIST_NIC_RX_BYTES, HIST_NIC_RX_PACKETS, HIST_NIC_TX_BYTES,
	HIST_NIC_TX_PACKETS
};
#define HIST_NIC_FIELDS	4

/*
 * Per process group.  TICKS accumulates each interval's CPU (processes
 * that exit do not make it go backwards); TOP_* name the busiest process
 * of the interval before the sample; THROTTLED_NS, PERIODS and THROTTLED
 * are summed over the group's cgroups; QUOTA_MCORES is the tightest CPU
 * quota in thousandths of a core, 0 for none; THR_PID is the busiest
 * process of the cgroup throttled most in the interval (none when none
 * was), which is the one a quota held, whoever was busiest in the group.
 */
enum hist_group {
	HIST_GROUP_TICKS, HIST_GROUP_NPROCS, HIST_GROUP_TOP_PID,
	HIST_GROUP_TOP_CORE, HIST_GROUP_TOP_TICKS, HIST_GROUP_THROTTLED_NS,
	HIST_GROUP_PERIODS, HIST_GROUP_THROTTLED, HIST_GROUP_QUOTA_MCORES,
	HIST_GROUP_THR_PID
};
#define HIST_GROUP_FIELDS 10

enum hist_kind { HIST_CPU, HIST_DISK, HIST_NIC, HIST_GROUP };
#define HIST_NKINDS	4

enum hist_disk_kind {
	HIST_DK_DISK, HIST_DK_PART, HIST_DK_MD, HIST_DK_DM, HIST_DK_LOOP,
	HIST_DK_OTHER
};

/* Something measured: a core, a disk, an interface or a process group. */
struct hist_ent {
	char		 name[HIST_NAME_MAX];	/* "cpu" (total), "cpu3", "sda" */
	int		 dkind;		/* disks: enum hist_disk_kind */
	char		*members;	/* md and dm: "sda,sdb", else NULL */
	int64_t		 speed_mbps;	/* NICs: as sysfs said last, -1 */
	char		 master[HIST_NAME_MAX];	/* NICs: the bond, "" */
	int		 is_bond;
	int		 is_virtual;	/* NICs: no device (veth, lo, bridge) */
	char		 bond_mode[24];	/* NICs: "802.3ad", "balance-xor", "" */
	uint64_t	 mtu;		/* NICs: 0 unknown */
	int		 late;		/* registered after the first sample */
	char		 top_comm[HIST_NAME_MAX];	/* groups: last top comm */
};

struct hist_sample {
	double		 t;		/* CLOCK_REALTIME, seconds */
	double		 mono;		/* CLOCK_MONOTONIC, seconds */
	int		 gap;		/* not sampling between the last one and this */
	size_t		 n[HIST_NKINDS];	/* entities known when taken */
	uint64_t	 sys[HIST_SYS_FIELDS];
	uint64_t	*v;		/* cpus, disks, nics, groups in order */
	size_t		 cap;		/* uint64_t's in v */
};

/* A ring of samples, oldest first from head. */
struct hist_ring {
	struct hist_sample *s;
	size_t		 cap, head, n;
};

struct history {
	double		 interval;	/* seconds between full samples */
	double		 coarse_step;	/* seconds between coarse samples */
	struct hist_ring full, coarse;
	struct hist_ent	*ent[HIST_NKINDS];
	size_t		 nent[HIST_NKINDS], entcap[HIST_NKINDS];
	double		 last_coarse;	/* t of the newest coarse sample */
	uint64_t	*grp_ticks;	/* per group: accumulated ticks */
	size_t		 dropped[HIST_NKINDS];	/* beyond HIST_MAX_*, not kept */
	uint64_t	 taken;		/* samples added since start */
};

/* A window: borrowed pointers to samples, oldest first. */
struct hist_window {
	const struct history	 *h;
	const struct hist_sample **s;
	size_t			  n;
};

/*
 * A new, empty history with room for full samples every interval seconds
 * and coarse samples every coarse_step; NULL and errno.
 */
struct history	*history_new(double interval, size_t full, double coarse_step,
		    size_t coarse);
/* Release a history; NULL is fine. */
void		 history_free(struct history *);
/*
 * Record snapshot cur (prev is the one before it, or NULL for the first;
 * both taken with the same group options).  gap says the daemon was not
 * sampling since the last sample.  -1 on ENOMEM.
 */
int		 history_add(struct history *, const struct snapshot *prev,
		    const struct snapshot *cur, int gap);
/* The newest sample, or NULL. */
const struct hist_sample *history_last(const struct history *);
/* The oldest sample kept, or NULL. */
const struct hist_sample *history_first(const struct history *);
/*
 * The samples with from <= t <= to, at least step seconds apart (0: all),
 * coarse ones before the full ring's first.  w->s is allocated: free it
 * with history_window_clear().  -1 on ENOMEM.
 */
int		 history_window(const struct history *, double from, double to,
		    double step, struct hist_window *w);
/* Free a window's array. */
void		 history_window_clear(struct hist_window *);
/* Value of field f of entity i of kind k in s, or HIST_NONE. */
uint64_t	 history_value(const struct hist_sample *, enum hist_kind k,
		    size_t i, unsigned f);
/* Index of the entity of kind k called name, or -1. */
int		 history_find(const struct history *, enum hist_kind k,
		    const char *name);
/* Bytes the history holds (samples, registry). */
size_t		 history_memory(const struct history *);
/* Samples held in each ring. */
size_t		 history_count(const struct history *, size_t *full,
		    size_t *coarse);

/*
 * The history (or, with a window, just its samples) as JSON: the registry
 * and the samples with their cumulative counters.  NULL on ENOMEM.
 */
json_t		*history_to_json(const struct history *,
		    const struct hist_window *);
/* The registry alone (a header line of the state file); NULL on ENOMEM. */
json_t		*history_header_json(const struct history *);
/* One sample as JSON; NULL on ENOMEM. */
json_t		*history_sample_json(const struct hist_sample *);
/* Read a header into an empty history; -1 with a static *errstr. */
int		 history_load_header(struct history *, const json_t *,
		    const char **errstr);
/* Append one sample read from JSON; -1 with a static *errstr. */
int		 history_load_sample(struct history *, const json_t *,
		    const char **errstr);
/*
 * Read a history written by history_to_json() into h (which must be
 * empty; its rings keep their sizes, the oldest samples are dropped to
 * fit).  -1 with a static *errstr when the document is not one.
 */
int		 history_from_json(struct history *, const json_t *,
		    const char **errstr);

#endif /* HISTORY_H */
