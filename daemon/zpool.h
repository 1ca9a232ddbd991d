/*
 * zpool.h: the ZFS pools' layout, from "zpool status -PL" run as a child.
 *
 * Where the ZFS module is loaded, nasperfd lists its pools every
 * zfs.status_interval seconds: each pool's vdevs (mirror, raidz, draid,
 * log, cache, special and spare devices) down to its member disks, and
 * its scrub or resilver.  A share's dataset names its pool; the pool's
 * leaves are the disks its transfers are judged on.  Then "zpool iostat
 * -vlpy 1 1" gives each vdev's I/O and latencies over one second.
 */
#ifndef ZPOOL_H
#define ZPOOL_H

#include <jansson.h>

struct daemon;
struct zfs_datasets;
struct zfs_status;
struct zfs_viostat;

#define ZPOOL_MAX_OUTPUT	(4U << 20)	/* bytes read from zpool */
#define ZPOOL_TIMEOUT		20.0		/* seconds before it is killed */
#define ZPOOL_RUN_DELAY		1.0		/* seconds into a run */

/* Start listing; -1 with *cause (allocated) on ENOMEM. */
int	zpool_init(struct daemon *, char **cause);
/* Stop, and free what was listed. */
void	zpool_shutdown(struct daemon *);
/*
 * A run has opened: list the pools and measure their vdevs ZPOOL_RUN_DELAY
 * into it, rather than at the next zfs.status_interval, so that its window
 * holds one of zpool iostat's seconds, which the intent-log verdict reads.
 * Nothing while a listing is under way or already asked for, or where ZFS
 * is not watched.
 */
void	zpool_poll_soon(struct daemon *);
/* The last good listing, or NULL. */
const struct zfs_status *zpool_status(const struct daemon *);
/* The datasets' properties zfs get listed last, or NULL. */
const struct zfs_datasets *zpool_datasets(const struct daemon *);
/*
 * The vdevs' I/O over the last second zpool iostat -vlpy measured, every
 * zfs.status_interval after the listing, and when it ended (Unix s); or
 * NULL.
 */
const struct zfs_viostat *zpool_viostat(const struct daemon *, double *when);
/*
 * For /v1/counters: {"polled", "seconds", "error", "vdevs": enc_zfs_viostat
 * or null}; null when ZFS is not watched.
 */
json_t	*zpool_viostat_json(const struct daemon *);
/*
 * The pools for /v1/topology: { "available", "polled", "error", "pools",
 * "datasets" }.
 */
json_t	*zpool_json(const struct daemon *);

#endif /* ZPOOL_H */
