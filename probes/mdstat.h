/*
 * mdstat.h: md RAID arrays from /proc/mdstat and /sys/block/mdN/md/.
 *
 * /proc/mdstat differs by kernel and vendor: 0.90 arrays print no "super"
 * word, Synology adds "(E)" flags and "E" in the status, QNAP system arrays
 * have 24 or 32 slots of which 4 are used ("[24/4] [UUUU____...]") and are
 * healthy, spares are "(S)", failed members "(F)", write-mostly "(W)".
 * Where sysfs has the array, its attributes win over the text.
 */
#ifndef MDSTAT_H
#define MDSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define MDSTAT_NAME_MAX		32
#define MDSTAT_MAX_ARRAYS	32
#define MDSTAT_MAX_MEMBERS	64

/* Member flags, as the letters in parentheses after a member. */
#define MDSTAT_F_FAULTY		0x01	/* (F) */
#define MDSTAT_F_SPARE		0x02	/* (S) */
#define MDSTAT_F_WRITEMOSTLY	0x04	/* (W) */
#define MDSTAT_F_REPLACEMENT	0x08	/* (R) */
#define MDSTAT_F_ERROR		0x10	/* (E): Synology's own flag */
#define MDSTAT_F_JOURNAL	0x20	/* (J) */

struct mdstat_member {
	char		name[MDSTAT_NAME_MAX];	/* e.g. "sata1p3" */
	int		index;		/* the number in brackets */
	unsigned	flags;		/* MDSTAT_F_* */
	char		state[32];	/* sysfs md/dev-X/state, "" if none */
	int		slot;		/* sysfs md/dev-X/slot, -1 for "none" */
};

struct mdstat_array {
	char		name[MDSTAT_NAME_MAX];	/* "md2" */
	int		active;		/* "active", not "inactive" */
	char		readonly[24];	/* "", "read-only", "auto-read-only" */
	char		level[16];	/* "raid5", "linear", "" if not shown */
	uint64_t	blocks;		/* 1 KiB blocks */
	char		super[16];	/* "1.2", "external:imsm", "" for 0.90 */
	uint64_t	chunk_kib;	/* 0 when not shown */
	int		raid_disks;	/* n of [n/m], -1 when not shown */
	int		active_disks;	/* m of [n/m] */
	char		status[MDSTAT_MAX_MEMBERS + 1];	/* "UU_" */
	int		degraded;	/* missing members, -1 unknown */
	char		sync_action[16];	/* "idle", "resync", "recovery",
						 * "check", "reshape", "repair" */
	double		sync_pct;	/* -1 when none in progress */
	uint64_t	sync_done, sync_total;	/* blocks */
	double		sync_finish_min;	/* -1 unknown */
	uint64_t	sync_speed_kib;	/* K/sec, 0 unknown */
	char		sync_wait[16];	/* "DELAYED", "PENDING", "" */
	int		bitmap;		/* a bitmap line was present */
	char		array_state[24];	/* sysfs md/array_state */
	int		from_sysfs;	/* sysfs md/ was read */
	struct mdstat_member members[MDSTAT_MAX_MEMBERS];
	size_t		nmembers;
};

struct mdstat {
	char		personalities[256];
	struct mdstat_array arrays[MDSTAT_MAX_ARRAYS];
	size_t		narrays;
	size_t		skipped;	/* lines not understood */
};

/*
 * Read <root>/proc/mdstat and merge <root>/sys/block/mdN/md/ into md.
 * -1 and ENOENT when the kernel has no md.
 */
int	mdstat_read(const struct probe_root *, struct probe_buf *,
	    struct mdstat *md, const char **errstr);
/* Parse /proc/mdstat text.  Pure: tests and the fuzzer call it directly. */
int	mdstat_parse(const char *, size_t, struct mdstat *, const char **);
/* The array called name, or NULL. */
const struct mdstat_array *mdstat_find(const struct mdstat *,
	    const char *name);

#endif /* MDSTAT_H */
