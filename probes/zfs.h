/*
 * zfs.h: OpenZFS counters from /proc/spl/kstat/zfs and pools from
 * "zpool status" (TrueNAS SCALE, QuTS hero, Unraid's ZFS pools).
 *
 * Two kstat shapes: named kstats ("name type data" rows: arcstats,
 * dmu_tx, zil, <pool>/objset-0x...) whose rows vary by release (2.2 added
 * iohits, 0.6 had recycle_miss), so each value comes with a bit saying it
 * was there; and tables with a header row (<pool>/txgs, <pool>/io) whose
 * columns vary too (early 0.6 txgs have no ndirty or wtime, and put state
 * before birth).  The pool layout is only in "zpool status", a command's
 * output; its scan lines changed in 0.8 and again in 2.2.
 */
#ifndef ZFS_H
#define ZFS_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

/* A named kstat: the rows asked for, by index into the names given. */
#define ZFS_NAMED_MAX	32
struct zfs_named {
	uint64_t	 v[ZFS_NAMED_MAX];
	uint32_t	 have;		/* bit i: v[i] was in the text */
	char		 str[256];	/* dataset_name of an objset, or "" */
	size_t		 skipped;	/* rows not understood */
};
#define ZFS_HAVE(n, i)	(((n)->have >> (i)) & 1U)

/* arcstats rows, in zfs_arc_names order. */
enum zfs_arc_stat {
	ZFS_ARC_HITS, ZFS_ARC_MISSES, ZFS_ARC_IOHITS,
	ZFS_ARC_DEMAND_DATA_HITS, ZFS_ARC_DEMAND_DATA_MISSES,
	ZFS_ARC_DEMAND_METADATA_HITS, ZFS_ARC_DEMAND_METADATA_MISSES,
	ZFS_ARC_PREFETCH_DATA_HITS, ZFS_ARC_PREFETCH_DATA_MISSES,
	ZFS_ARC_PREFETCH_METADATA_HITS, ZFS_ARC_PREFETCH_METADATA_MISSES,
	ZFS_ARC_MRU_HITS, ZFS_ARC_MFU_HITS,
	ZFS_ARC_SIZE,			/* bytes */
	ZFS_ARC_C,			/* target size, bytes */
	ZFS_ARC_C_MIN, ZFS_ARC_C_MAX,	/* bytes */
	ZFS_ARC_L2_HITS, ZFS_ARC_L2_MISSES,
	ZFS_ARC_L2_SIZE, ZFS_ARC_L2_ASIZE,	/* bytes */
	ZFS_ARC_NSTATS
};
extern const char *const zfs_arc_names[ZFS_ARC_NSTATS];

/* dmu_tx rows: transactions assigned, and why some waited. */
enum zfs_tx_stat {
	ZFS_TX_ASSIGNED, ZFS_TX_DELAY, ZFS_TX_ERROR, ZFS_TX_SUSPENDED,
	ZFS_TX_GROUP, ZFS_TX_MEMORY_RESERVE, ZFS_TX_MEMORY_RECLAIM,
	ZFS_TX_DIRTY_THROTTLE, ZFS_TX_DIRTY_DELAY, ZFS_TX_DIRTY_OVER_MAX,
	ZFS_TX_DIRTY_FREES_DELAY, ZFS_TX_QUOTA,
	ZFS_TX_NSTATS
};
extern const char *const zfs_tx_names[ZFS_TX_NSTATS];

/* zil rows: synchronous commits and where their log records went. */
enum zfs_zil_stat {
	ZFS_ZIL_COMMIT, ZFS_ZIL_COMMIT_WRITER, ZFS_ZIL_ITX,
	ZFS_ZIL_ITX_INDIRECT, ZFS_ZIL_ITX_INDIRECT_BYTES,
	ZFS_ZIL_ITX_COPIED, ZFS_ZIL_ITX_COPIED_BYTES,
	ZFS_ZIL_ITX_NEEDCOPY, ZFS_ZIL_ITX_NEEDCOPY_BYTES,
	ZFS_ZIL_ITX_NORMAL, ZFS_ZIL_ITX_NORMAL_BYTES,	/* to the pool */
	ZFS_ZIL_ITX_SLOG, ZFS_ZIL_ITX_SLOG_BYTES,	/* to a log device */
	ZFS_ZIL_COMMIT_ERROR, ZFS_ZIL_COMMIT_STALL, ZFS_ZIL_COMMIT_SUSPEND,
	ZFS_ZIL_NSTATS
};
extern const char *const zfs_zil_names[ZFS_ZIL_NSTATS];

/* <pool>/objset-0x...: one dataset's operations; str is its name. */
enum zfs_objset_stat {
	ZFS_OBJSET_WRITES, ZFS_OBJSET_NWRITTEN, ZFS_OBJSET_READS,
	ZFS_OBJSET_NREAD, ZFS_OBJSET_NUNLINKS, ZFS_OBJSET_NUNLINKED,
	ZFS_OBJSET_NSTATS
};
extern const char *const zfs_objset_names[ZFS_OBJSET_NSTATS];

/* <pool>/io: the pool's I/O, one row under a header (0.6 to 0.8). */
enum zfs_io_stat {
	ZFS_IO_NREAD, ZFS_IO_NWRITTEN, ZFS_IO_READS, ZFS_IO_WRITES,
	ZFS_IO_WTIME, ZFS_IO_WLENTIME, ZFS_IO_WUPDATE,
	ZFS_IO_RTIME, ZFS_IO_RLENTIME, ZFS_IO_RUPDATE,
	ZFS_IO_WCNT, ZFS_IO_RCNT,
	ZFS_IO_NSTATS
};
extern const char *const zfs_io_names[ZFS_IO_NSTATS];

/*
 * Parse a named kstat, keeping the rows named in names (at most
 * ZFS_NAMED_MAX).  The kstat's own header line and "name type data" are
 * optional.  Pure.  -1 and EINVAL when no row has the kstat's shape.
 */
int	zfs_named_parse(const char *, size_t, const char *const *names,
	    size_t nnames, struct zfs_named *, const char **errstr);
/* Parse <pool>/io (a header row, a value row).  Pure.  -1 and EINVAL. */
int	zfs_io_parse(const char *, size_t, struct zfs_named *,
	    const char **errstr);
/*
 * Read the named kstat <root>/proc/spl/kstat/zfs/<rel> ("arcstats",
 * "dmu_tx", "zil", "tank/objset-0x36").  -1 and ENOENT without ZFS.
 */
int	zfs_kstat_read(const struct probe_root *, struct probe_buf *,
	    const char *rel, const char *const *names, size_t nnames,
	    struct zfs_named *, const char **errstr);

/* One transaction group of <pool>/txgs; times in ns, sizes in bytes. */
struct zfs_txg {
	uint64_t	 txg, birth;
	char		 state;		/* O open, Q quiescing, W wait, S sync,
					 * C committed */
	uint64_t	 ndirty, nread, nwritten, reads, writes;
	uint64_t	 otime, qtime, wtime, stime;
};
#define ZFS_TXG_NDIRTY	0x1		/* the ndirty column is there */
#define ZFS_TXG_WTIME	0x2		/* the wtime column is there */
#define ZFS_TXGS_MAX	128
struct zfs_txgs {
	struct zfs_txg	 v[ZFS_TXGS_MAX];	/* oldest first */
	size_t		 n;
	unsigned	 cols;		/* ZFS_TXG_* */
	size_t		 skipped;
};
/* What the committed txgs of a txgs say. */
struct zfs_txg_summary {
	size_t		 ncommitted;
	uint64_t	 last;		/* the newest committed txg */
	uint64_t	 max_ndirty;	/* bytes; 0 without the column */
	uint64_t	 avg_stime, max_stime;	/* ns spent syncing */
	uint64_t	 nwritten;	/* bytes, over them all */
};
/* Parse <pool>/txgs.  Pure.  -1 and EINVAL without its header row. */
int	zfs_txgs_parse(const char *, size_t, struct zfs_txgs *,
	    const char **errstr);
/* Sum up the committed txgs of t. */
void	zfs_txgs_summary(const struct zfs_txgs *, struct zfs_txg_summary *);
/* Read <root>/proc/spl/kstat/zfs/<pool>/txgs.  -1 and errno. */
int	zfs_txgs_read(const struct probe_root *, struct probe_buf *,
	    const char *pool, struct zfs_txgs *, const char **errstr);

/* The pools that have a kstat directory; up to max names of 64 bytes. */
int	zfs_pool_names(const struct probe_root *, char (*names)[64],
	    size_t max, size_t *n);

/* One pool's counters: its txgs summed up, and its io kstat. */
struct zfs_pool_counters {
	char			 name[64];
	int			 have_txgs, have_io;
	unsigned		 txg_cols;	/* ZFS_TXG_* of its txgs */
	struct zfs_txg_summary	 txg;
	struct zfs_named	 io;		/* zfs_io_names */
};
#define ZFS_COUNTER_POOLS 8		/* pools read, by name */
#define ZFS_HAVE_ARC	0x1
#define ZFS_HAVE_TX	0x2
#define ZFS_HAVE_ZIL	0x4
/* Every counter of the box's ZFS in one reading. */
struct zfs_counters {
	unsigned		 have;		/* ZFS_HAVE_* */
	struct zfs_named	 arc, tx, zil;
	struct zfs_pool_counters pools[ZFS_COUNTER_POOLS];
	size_t			 npools;
	struct zfs_txgs		 scratch;	/* the txgs being read */
};
/*
 * Read arcstats, dmu_tx, zil and each pool's txgs and io under
 * <root>/proc/spl/kstat/zfs.  A kstat that is missing or not understood
 * is left out (its bit clear).  -1 and ENOENT when there is no arcstats:
 * no ZFS module loaded.
 */
int	zfs_counters_read(const struct probe_root *, struct probe_buf *,
	    struct zfs_counters *, const char **errstr);

/*
 * What ZFS did between two readings, per second; -1 where a row is
 * missing from either or went backwards (the module reloaded).
 */
struct zfs_rates {
	double	 arc_hits, arc_misses;		/* per second */
	double	 arc_hit_pct;			/* of every ARC access */
	double	 demand_data_hit_pct;		/* of the reads of file data */
	double	 l2_hits, l2_misses;		/* per second */
	double	 zil_commits;			/* per second */
	double	 zil_slog_bytes, zil_pool_bytes;	/* per second */
	double	 throttle_waits;		/* dirty_throttle + dirty_delay,
						 * per second */
};
/* Rates from a to b, secs apart (> 0).  Pure. */
void	zfs_rates(const struct zfs_counters *a, const struct zfs_counters *b,
	    double secs, struct zfs_rates *r);

/*
 * zfs get: the properties of each dataset that bear on a copy.  Either
 * form is read: "zfs get -Hp -o name,property,value" (tab-separated, no
 * header) or zfs get's table (a NAME PROPERTY VALUE SOURCE header, then
 * columns); other properties are skipped.
 */
struct zfs_dataset {
	char		 name[256];	/* "tank/share" */
	char		 mountpoint[256];	/* "" unknown */
	char		 sync[16];	/* "standard", "always", "disabled" */
	char		 compression[24];	/* "lz4", "off", ... */
	char		 primarycache[16];	/* "all", "metadata", "none" */
	uint64_t	 recordsize;	/* bytes, 0 unknown */
};
struct zfs_datasets {
	struct zfs_dataset *v;
	size_t		 n, cap;
	size_t		 skipped;	/* lines not understood */
};
/*
 * Parse zfs get's output into ds (emptied first).  Pure.  -1 and EINVAL
 * when no line names a dataset's property, ENOMEM.
 */
int	zfs_datasets_parse(const char *, size_t, struct zfs_datasets *,
	    const char **errstr);
/* The dataset called name, or NULL. */
const struct zfs_dataset *zfs_dataset_find(const struct zfs_datasets *,
	    const char *name);
/* Free what ds holds; it may be parsed into again. */
void	zfs_datasets_clear(struct zfs_datasets *);

/* zpool status: a pool's vdev tree and its scrub or resilver. */
enum zfs_vdev_type {
	ZFS_VDEV_ROOT,		/* the pool itself */
	ZFS_VDEV_MIRROR, ZFS_VDEV_RAIDZ, ZFS_VDEV_DRAID,
	ZFS_VDEV_REPLACING, ZFS_VDEV_SPARE,	/* during a replace */
	ZFS_VDEV_DISK		/* a leaf: disk, partition or file */
};
enum zfs_vdev_class {
	ZFS_CLASS_DATA, ZFS_CLASS_LOG, ZFS_CLASS_CACHE, ZFS_CLASS_SPECIAL,
	ZFS_CLASS_DEDUP, ZFS_CLASS_SPARE
};
#define ZFS_NCLASSES	6
/* "data", "log", "cache", "special", "dedup", "spare": as nasperfd says. */
extern const char *const zfs_class_names[ZFS_NCLASSES];
struct zfs_vdev {
	char		 name[96];	/* "raidz2-0", "sda", "/dev/sdt1" */
	char		 state[12];	/* "ONLINE", "DEGRADED", "AVAIL"... */
	enum zfs_vdev_type type;
	enum zfs_vdev_class class;
	int		 parity;	/* raidz and draid: 1 to 3, else 0 */
	int		 depth;		/* 0 for the pool */
	int		 parent;	/* index in vdevs, -1 for the pool */
	uint64_t	 rerr, werr, cerr;	/* READ WRITE CKSUM */
	char		 note[48];	/* "(resilvering)", "was /dev/sdb1" */
};
enum zfs_scan_state {
	ZFS_SCAN_NONE, ZFS_SCAN_RUNNING, ZFS_SCAN_DONE, ZFS_SCAN_CANCELED,
	ZFS_SCAN_PAUSED
};
struct zfs_scan {
	char		 func[12];	/* "scrub", "resilver", "" */
	enum zfs_scan_state state;
	double		 pct;		/* -1 unknown */
	uint64_t	 rate;		/* bytes/s issued (else scanned), 0 */
	uint64_t	 scanned, issued, total;	/* bytes, 0 unknown */
	uint64_t	 processed;	/* bytes repaired or resilvered */
	int64_t		 eta;		/* s to go, -1 unknown */
};
#define ZFS_VDEVS_MAX	128
struct zfs_pool {
	char		 name[64];
	char		 state[12];
	struct zfs_scan	 scan;
	struct zfs_vdev	 vdevs[ZFS_VDEVS_MAX];	/* vdevs[0] is the pool */
	size_t		 nvdevs;
	char		 errors[96];	/* "No known data errors" */
};
#define ZFS_POOLS_MAX	8
struct zfs_status {
	struct zfs_pool	 pools[ZFS_POOLS_MAX];
	size_t		 npools;
	size_t		 skipped;	/* lines not understood */
};
/*
 * Parse "zpool status" (with or without -P) output.  Pure.  -1 and
 * EINVAL when there is no "pool:" line.
 */
int	zfs_status_parse(const char *, size_t, struct zfs_status *,
	    const char **errstr);
/*
 * The pool that holds dataset ("tank/share", or the pool's own name "tank")
 * in st (may be NULL), or NULL.
 */
const struct zfs_pool *zfs_pool_of(const struct zfs_status *st,
	    const char *dataset);
/*
 * zpool iostat -vl (-p exact, or with units): each pool, vdev and disk's
 * operations, bandwidth and latencies, the ZFS queues' waits among them,
 * over the report's interval (or averaged since import without one).
 */
enum zfs_vio_col {
	ZFS_VIO_ALLOC, ZFS_VIO_FREE,		/* bytes */
	ZFS_VIO_OPS_R, ZFS_VIO_OPS_W,		/* per second */
	ZFS_VIO_BW_R, ZFS_VIO_BW_W,		/* bytes per second */
	ZFS_VIO_TOTAL_R, ZFS_VIO_TOTAL_W,	/* seconds, total_wait */
	ZFS_VIO_DISK_R, ZFS_VIO_DISK_W,		/* disk_wait */
	ZFS_VIO_SYNCQ_R, ZFS_VIO_SYNCQ_W,	/* syncq_wait */
	ZFS_VIO_ASYNCQ_R, ZFS_VIO_ASYNCQ_W,	/* asyncq_wait */
	ZFS_VIO_SCRUB, ZFS_VIO_TRIM, ZFS_VIO_REBUILD,	/* their wait */
	ZFS_VIO_NCOLS
};
/* "alloc", "free", "read_ops", ... "total_wait_read", ... "trim_wait". */
extern const char *const zfs_vio_names[ZFS_VIO_NCOLS];
struct zfs_vio_row {
	char		 name[96];	/* the pool, "mirror-0", "sda" */
	char		 pool[64];
	int		 depth;		/* 0 for the pool */
	enum zfs_vdev_class class;	/* under "logs", "cache"... */
	double		 v[ZFS_VIO_NCOLS];	/* NAN: "-" or no column */
};
#define ZFS_VIO_ROWS_MAX	256
struct zfs_viostat {
	struct zfs_vio_row rows[ZFS_VIO_ROWS_MAX];
	size_t		 nrows;
	uint32_t	 cols;		/* bit c: the header has column c */
	size_t		 skipped;	/* lines not understood */
};
/*
 * Parse zpool iostat's output with its headers (not -H): its last report.
 * Pure.  -1 and EINVAL without a header and a row.
 */
int	zfs_viostat_parse(const char *, size_t, struct zfs_viostat *,
	    const char **errstr);

/*
 * The writes of pool's top-level log vdevs (log 1: its SLOG) or of the
 * pool as a whole (log 0) in io: operations a second and, weighted by
 * them, the total, disk and sync-queue waits of a write (seconds, NAN
 * where zpool printed none).  name is the log vdev when there is one.
 * Pure; -1 when io has no such row.
 */
struct zfs_vio_writes {
	char		 name[96];
	size_t		 nvdevs;
	double		 ops, total, disk, syncq;
};
int	zfs_viostat_writes(const struct zfs_viostat *, const char *pool,
	    int log, struct zfs_vio_writes *);

/* Parse "266T", "3.30G/s", "1.68K", "0" (1024 steps); -1 if not one. */
int	zfs_size(const char *, uint64_t *);

#endif /* ZFS_H */
