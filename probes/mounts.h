/*
 * mounts.h: mounted filesystems from /proc/self/mountinfo, or /proc/mounts
 * on a tree that has only that.
 */
#ifndef MOUNTS_H
#define MOUNTS_H

#include <stddef.h>

#include "probe.h"

struct mounts_entry {
	unsigned	major, minor;	/* 0:0 when from /proc/mounts */
	int		has_dev;	/* major:minor known (mountinfo) */
	char		source[256];	/* "/dev/mapper/cachedev_0" */
	char		mountpoint[512];	/* unescaped: \040 is a space */
	char		fstype[32];
	char		options[512];	/* per mount: "rw,relatime" */
	/* the filesystem's (mountinfo only); QNAP has "(null)" in it */
	char		super_options[512];
	char		root[256];	/* mountinfo's root, "/" or "/@syno" */
};

struct mounts {
	struct mounts_entry *v;
	size_t		 n;
	size_t		 cap;
	size_t		 skipped;	/* malformed lines */
	int		 from_mountinfo;
};

/* Initialise an empty table. */
void	mounts_init(struct mounts *);
/* Free the table's memory; it may be reused after mounts_init. */
void	mounts_clear(struct mounts *);
/* Read proc/self/mountinfo, else proc/mounts.  -1 and ENOENT if neither. */
int	mounts_read(const struct probe_root *, struct probe_buf *,
	    struct mounts *, const char **errstr);
/* Parse mountinfo text.  Pure. */
int	mounts_parse_mountinfo(const char *, size_t, struct mounts *,
	    const char **);
/* Parse /proc/mounts text.  Pure. */
int	mounts_parse_mounts(const char *, size_t, struct mounts *,
	    const char **);
/* Undo the kernel's octal escapes (\040 \011 \012 \134) in place. */
void	mounts_unescape(char *);

#endif /* MOUNTS_H */
