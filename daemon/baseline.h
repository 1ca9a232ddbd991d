/*
 * baseline.h: the box's capability baseline, STATE_DIR/baseline.json.
 *
 * Every finished disk test's figures are merged into it, a disk's or a
 * volume's last measured figures replacing the ones before, and the
 * verdict engine compares a run's throughput against it.  The document:
 *
 *	{"updated": UNIX, "kernel", "firmware", "box",
 *	 "disks": {"sda": {"date", "test", "model", "serial", "firmware",
 *	    "size_bytes", "seq_read_bytes_per_s": {"outer", "middle",
 *	    "inner"}, "concurrent_read_bytes_per_s", "rand_read_iops_qd1",
 *	    "rand_read_iops_qd32", "implausible": ["why", ...]}},
 *	 "volumes": {"/volume1": {"date", "test", "layout", "fstype",
 *	    "direct", "seq_write_bytes_per_s", "seq_read_bytes_per_s",
 *	    "rand_read_iops_qd32", "rand_write_iops_qd32",
 *	    "expected_read_bytes_per_s", "expected_write_bytes_per_s"}}}
 *
 * A figure never measured is absent.
 */
#ifndef BASELINE_H
#define BASELINE_H

#include <jansson.h>

#define BASELINE_FILE	"baseline.json"

/*
 * Read DIR/baseline.json; NULL when there is none or it is not a JSON
 * object (logged: the next merge starts a new one).
 */
json_t	*baseline_load(const char *dir);
/* Write b to DIR/baseline.json atomically; -1 and errno. */
int	 baseline_save(const char *dir, const json_t *b);
/*
 * Merge the figures of doc, a finished disk test's document (as
 * GET /v1/disktests/ID gives it), into the object b.  -1 on ENOMEM.
 */
int	 baseline_merge(json_t *b, const json_t *doc);
/*
 * The figures of a disk ("sda") or a volume (its mount point): sequential
 * read and write in bytes/s, random 4 KiB read IOPS at queue depth 32,
 * and when they were measured (Unix seconds; when may be NULL); a figure
 * never measured is 0 (a raw disk's write, always).  -1 with ENOENT when
 * b has no such disk or volume.
 */
int	 baseline_get(const json_t *b, const char *name,
	    double *read_bytes_per_s, double *write_bytes_per_s, double *iops,
	    double *when);

#endif /* BASELINE_H */
