/*
 * diskstats.h: block device I/O counters from /proc/diskstats.
 *
 * Kernels print 14 fields per line up to 4.18, 18 from 4.18 (discards)
 * and 20 from 5.5 (flushes); nfields says what a line had.  Sectors are
 * 512 bytes whatever the device's block size; times are milliseconds.
 * md arrays count I/Os and sectors but leave every time field 0.
 */
#ifndef DISKSTATS_H
#define DISKSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define DISKSTATS_NAME_MAX	32	/* the kernel's DISK_NAME_LEN */
#define DISKSTATS_MIN_FIELDS	14
#define DISKSTATS_MAX_FIELDS	20	/* wider, unknown layouts keep these */
#define DISKSTATS_SECTOR	512	/* bytes per diskstats sector */

struct diskstats_dev {			/* one row of /proc/diskstats */
	unsigned	major, minor;
	char		name[DISKSTATS_NAME_MAX];
	int		nfields;	/* as counted: 14, 18, 20 or more */
	uint64_t	rd_ios, rd_merges, rd_sectors, rd_ticks;	/* ms */
	uint64_t	wr_ios, wr_merges, wr_sectors, wr_ticks;	/* ms */
	uint64_t	in_flight;	/* requests now in the queue */
	uint64_t	io_ticks;	/* ms the device was busy */
	uint64_t	time_in_queue;	/* weighted ms: aqu-sz numerator */
	uint64_t	dc_ios, dc_merges, dc_sectors, dc_ticks;	/* >= 18 */
	uint64_t	fl_ios, fl_ticks;	/* >= 20 */
};

struct diskstats {
	struct diskstats_dev *devs;	/* in file order */
	size_t		 ndevs;
	size_t		 cap;
	size_t		 skipped;	/* short or malformed lines */
};

/* Initialise an empty set. */
void	diskstats_init(struct diskstats *);
/* Release its memory; ds may be reused after diskstats_init. */
void	diskstats_clear(struct diskstats *);
/* Read <root>/proc/diskstats; -1 and errno (ENOENT: not available). */
int	diskstats_read(const struct probe_root *, struct probe_buf *,
	    struct diskstats *, const char **errstr);
/*
 * Parse diskstats text.  Lines with fewer than 14 fields, a name too long
 * or a field that is not a 64-bit number are skipped and counted.
 */
int	diskstats_parse(const char *, size_t, struct diskstats *,
	    const char **);
/* The device called name, or NULL. */
const struct diskstats_dev *diskstats_find(const struct diskstats *,
	    const char *name);

#endif /* DISKSTATS_H */
