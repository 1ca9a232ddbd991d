/*
 * disktest.h: the disk analyzer.
 *
 * disktest_start() (POST /v1/disktests; the routes are api_disktest.c's)
 * plans and starts a test of disks and volumes: per disk, sequential
 * reads at three zones (outer, middle, inner: the HDD curve) and random
 * 4 KiB reads at queue depths 1 and 32; all disks read at once, to show a
 * controller or backplane ceiling; per volume, a temp file written, read,
 * then read and written at random.  The disk benchmark engine
 * (probes/diskbench) runs each step in threads of its own; an evtimer
 * polls it and moves on, so the event loop never waits on a disk.
 * disktest_get() follows the progress and gives the result,
 * disktest_cancel() cancels.  A finished test is
 * STATE_DIR/disktests/ID.json, and its figures are merged into the box's
 * capability baseline (baseline.h) that verdicts compare against.  The
 * plan is disktest_plan.h's; this is the runner.
 *
 * Safety, never relaxed: raw devices are only read (the engine opens them
 * O_RDONLY and refuses to write them); files are written only as
 * VOLUME/.nasperfd-disktest.tmp inside a volume listed in
 * disktest.volumes that is a mount point, after a free-space check, and
 * removed afterwards and at the next start after a crash; a test is
 * refused while an md array under it resyncs or while other I/O on its
 * disks is above disktest.busy_iops or disktest.busy_mbps, unless forced,
 * and then the result says so; one test at a time.
 */
#ifndef DISKTEST_H
#define DISKTEST_H

#include <stddef.h>

#include <jansson.h>

#include "disktest_plan.h"
#include "http.h"


struct daemon;

/*
 * Read the saved tests and the baseline, and remove temp files a crash
 * left in the configured volumes.  -1 with an allocated *cause when the
 * state directory cannot be used.
 */
int	disktest_init(struct daemon *, char **cause);
/* Cancel a running test, remove its temp files, save it, free all. */
void	disktest_shutdown(struct daemon *);
/*
 * Plan a test of what body asks for (a JSON object: targets, kinds,
 * seconds, size, force...) and start it.  -1 with e filled when it is
 * refused at once; 0 when cb(arg) will tell, maybe before this returns,
 * maybe after a second of checking that the disks are idle.
 */
int	disktest_start(struct daemon *, json_t *body, http_done_cb *cb,
	    void *arg, struct http_err *e);
/* {"disktests": [{id, state, created, error}...]}; NULL on ENOMEM. */
json_t	*disktest_list(struct daemon *);
/* The document of test id, live or saved; NULL with e (404) filled. */
json_t	*disktest_get(struct daemon *, unsigned long id, struct http_err *e);
/*
 * Cancel test id while it runs and return its document; NULL with e
 * filled (404, or 409 when it is checking or over).
 */
json_t	*disktest_cancel(struct daemon *, unsigned long id,
	    struct http_err *e);

/*
 * The baseline of a disk ("sda") or a volume (its mount point) for the
 * verdict engine: sequential read and write in bytes/s, random 4 KiB
 * read IOPS at queue depth 32, and when they were measured (when may be
 * NULL).  A figure never measured is 0 (a raw
 * disk's write, always).  -1 with ENOENT when the baseline has no such
 * disk or volume.
 */
int	disktest_baseline(const struct daemon *, const char *disk,
	    double *read_bytes_per_s, double *write_bytes_per_s,
	    double *iops, double *when);

/* The baseline document (baseline.h), or NULL when none was measured. */
const json_t *disktest_baseline_doc(const struct daemon *);

#endif /* DISKTEST_H */
