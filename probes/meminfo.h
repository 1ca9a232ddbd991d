/*
 * meminfo.h: memory from /proc/meminfo, plus /proc/uptime and /proc/loadavg.
 *
 * Sizes are bytes (the kernel prints kB = 1024 bytes).  Each field has a
 * bit in "have": MemAvailable, for one, only exists since Linux 3.14, so
 * DSM 6's 3.10 kernel has no such line and it is not available there.
 */
#ifndef MEMINFO_H
#define MEMINFO_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

/* Index of each field in struct meminfo's v and its bit in have. */
enum meminfo_field {
	MEMINFO_TOTAL, MEMINFO_FREE, MEMINFO_AVAILABLE, MEMINFO_BUFFERS,
	MEMINFO_CACHED, MEMINFO_DIRTY, MEMINFO_WRITEBACK, MEMINFO_SWAP_TOTAL,
	MEMINFO_SWAP_FREE
};
#define MEMINFO_NFIELDS	9

/* The kernel's key of each field ("MemTotal" …), by enum meminfo_field. */
extern const char *const meminfo_keys[MEMINFO_NFIELDS];

struct meminfo {
	unsigned	have;		/* 1 << MEMINFO_x when read */
	uint64_t	v[MEMINFO_NFIELDS];	/* bytes */
	int		has_uptime;
	double		uptime;		/* seconds since boot */
	double		idle;		/* idle seconds, summed over cores */
	int		has_loadavg;
	double		load[3];	/* 1, 5, 15 minutes */
	uint64_t	runnable, nthreads;	/* "2/345" */
};

/* Read meminfo, uptime and loadavg; -1 and errno if /proc/meminfo is missing. */
int	meminfo_read(const struct probe_root *, struct probe_buf *,
	    struct meminfo *, const char **errstr);
/* Parse /proc/meminfo text; EINVAL when it has no MemTotal. */
int	meminfo_parse(const char *, size_t, struct meminfo *, const char **);
/* Parse /proc/uptime text ("350735.47 234388.90"); -1 EINVAL. */
int	meminfo_parse_uptime(const char *, struct meminfo *);
/* Parse /proc/loadavg text ("0.21 0.17 0.11 2/345 4121"); -1 EINVAL. */
int	meminfo_parse_loadavg(const char *, struct meminfo *);

#endif /* MEMINFO_H */
