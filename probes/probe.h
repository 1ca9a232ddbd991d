/*
 * probe.h: the root every probe reads under, and reading pseudo-files.
 *
 * Probes never build an absolute path: the root ("/" on a NAS, a fixture
 * tree in tests, a user's captured box offline) is opened once as directory
 * descriptors and every file is opened relative to one of them with
 * openat(2).  Nothing here logs or exits; errors are -1 with errno set
 * (ENOENT: not available on this kernel or box).
 */
#ifndef PROBE_H
#define PROBE_H

#include <sys/types.h>

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "np.h"

/* Which tree a relative path is under. */
enum probe_fs {
	PROBE_ROOT,		/* the root itself, e.g. "etc.defaults/VERSION" */
	PROBE_PROC,		/* <root>/proc */
	PROBE_SYS,		/* <root>/sys */
	PROBE_ETC		/* <root>/etc */
};

/* An opened root.  Descriptors are -1 where the tree is missing. */
struct probe_root {
	int	rootfd;
	int	procfd;
	int	sysfd;
	int	etcfd;
	int	live;		/* 1 when the root is "/" */
	char	path[4096];	/* as given, for messages */
};

/* A growable read buffer, reused across reads so a tick allocates nothing. */
struct probe_buf {
	char	*p;		/* NUL-terminated contents */
	size_t	 len;		/* bytes read, without the NUL */
	size_t	 cap;		/* bytes allocated */
};

/* Largest pseudo-file read: anything bigger is EFBIG (not a /proc file). */
#define PROBE_BUF_MAX	(16U * 1024 * 1024)

/* Open the root dir ("/" for the live system); -1 and errno on failure. */
int	probe_root_open(struct probe_root *, const char *dir);
/* Close the descriptors of a root opened with probe_root_open(). */
void	probe_root_close(struct probe_root *);
/* The descriptor for fs, or -1 with errno ENOENT when that tree is missing. */
int	probe_root_fd(const struct probe_root *, enum probe_fs);

/* Initialise an empty buffer. */
void	probe_buf_init(struct probe_buf *);
/* Release a buffer's memory; the buffer may be reused after probe_buf_init. */
void	probe_buf_free(struct probe_buf *);

/*
 * Read a whole pseudo-file into b (st_size is useless under /proc and /sys).
 * -1 and errno: ENOENT not available, EFBIG past PROBE_BUF_MAX.
 */
int	probe_read(const struct probe_root *, enum probe_fs, const char *rel,
	    struct probe_buf *b);
/*
 * Read a sysfs attribute with one read(2), trailing newlines removed.
 * EAGAIN or EINVAL from a broken driver come back as -1 (not available).
 */
int	probe_read_attr(const struct probe_root *, enum probe_fs,
	    const char *rel, char *out, size_t outsz);
/* Read an attribute holding one unsigned decimal number. */
int	probe_attr_u64(const struct probe_root *, enum probe_fs,
	    const char *rel, uint64_t *v);
/* Read an attribute holding one signed decimal number (speed may be -1). */
int	probe_attr_i64(const struct probe_root *, enum probe_fs,
	    const char *rel, int64_t *v);
/* readlink(2) relative to a root tree; the result is NUL-terminated. */
int	probe_readlink(const struct probe_root *, enum probe_fs,
	    const char *rel, char *out, size_t outsz);
/* Open a directory of a root tree for readdir(3); NULL and errno. */
DIR	*probe_opendir(const struct probe_root *, enum probe_fs,
	    const char *rel);
/* 1 if rel exists under fs (stat follows symlinks), else 0. */
int	probe_exists(const struct probe_root *, enum probe_fs, const char *rel);

/*
 * Parse an unsigned decimal at *sp, skipping leading blanks; advance *sp.
 * -1 when there is no number or it overflows 64 bits.
 */
int	probe_scan_u64(const char **sp, uint64_t *v);
/*
 * Parse "MAJ:MIN" (a device number as sysfs and mountinfo print it) and
 * nothing after it; -1 when malformed or a part exceeds unsigned.
 */
int	probe_scan_devno(const char *s, unsigned *maj, unsigned *min);
/* Parse all of s as an unsigned decimal; -1 when anything else is there. */
int	probe_str_u64(const char *s, uint64_t *v);
/*
 * Copy the line at *sp (up to end, without its newline, cut to outsz - 1)
 * into out and advance *sp past it; -1 when *sp is at end.
 */
int	probe_line(const char **sp, const char *end, char *out,
	    size_t outsz);
/*
 * The next logical line of [*sp, end) into line (size bytes): physical
 * lines joined where one ends in a backslash (smb.conf, /etc/exports),
 * \r\n read as \n; what does not fit is cut, and *cut says so.  Moves
 * *sp past it; -1 at the end.
 */
int	probe_logical_line(const char **sp, const char *end, char *line,
	    size_t size, int *cut);
/* Copy the next blank-separated word at *sp into out; -1 when none or too long. */
int	probe_scan_word(const char **sp, char *out, size_t outsz);
/* Copy src into dst of size dstsz, always terminating; -1 if truncated. */
int	probe_strlcpy(char *dst, const char *src, size_t dstsz);
/*
 * Copy UTF-8 src into dst of size dstsz with its control characters
 * escaped for a terminal: C0 and DEL as \xNN, C1 (U+0080 to U+009F) as
 * \uNNNN; always terminated, cut at a whole character.  Returns dst.
 */
char	*probe_escape_ctl(char *dst, const char *src, size_t dstsz);
/*
 * Write s to out with &, <, >, " and ' escaped for HTML text
 * and attribute values; nothing for NULL.
 */
void	 probe_html_esc(FILE *out, const char *s);

#endif /* PROBE_H */
