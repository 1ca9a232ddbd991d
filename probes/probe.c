/*
 * probe.c: opening a root and reading pseudo-files under it.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

/* Open name under dirfd as a directory, or -1. */
static int
probe_open_dir(int dirfd, const char *name)
{
	return (openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

/* Open dir and its proc, sys and etc subtrees. */
int
probe_root_open(struct probe_root *root, const char *dir)
{
	int	oerrno;

	memset(root, 0, sizeof *root);
	root->rootfd = root->procfd = root->sysfd = root->etcfd = -1;
	if (dir == NULL || *dir == '\0')
		dir = "/";
	if (probe_strlcpy(root->path, dir, sizeof root->path) == -1) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	root->rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root->rootfd == -1)
		return (-1);
	root->live = (strcmp(dir, "/") == 0);
	/* A missing subtree is not an error: its probes report ENOENT. */
	oerrno = errno;
	root->procfd = probe_open_dir(root->rootfd, "proc");
	root->sysfd = probe_open_dir(root->rootfd, "sys");
	root->etcfd = probe_open_dir(root->rootfd, "etc");
	errno = oerrno;
	return (0);
}

/* Close what probe_root_open() opened; safe to call twice. */
void
probe_root_close(struct probe_root *root)
{
	int	*fds[] = { &root->procfd, &root->sysfd, &root->etcfd,
		    &root->rootfd };
	size_t	 i;

	for (i = 0; i < NP_NITEMS(fds); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

/* The directory descriptor for fs. */
int
probe_root_fd(const struct probe_root *root, enum probe_fs fs)
{
	int	fd;

	switch (fs) {
	case PROBE_PROC:
		fd = root->procfd;
		break;
	case PROBE_SYS:
		fd = root->sysfd;
		break;
	case PROBE_ETC:
		fd = root->etcfd;
		break;
	default:
		fd = root->rootfd;
		break;
	}
	if (fd < 0)
		errno = ENOENT;
	return (fd);
}

void
probe_buf_init(struct probe_buf *b)
{
	memset(b, 0, sizeof *b);
}

void
probe_buf_free(struct probe_buf *b)
{
	if (b == NULL)
		return;
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* Parse all of s as an unsigned decimal. */
int
probe_str_u64(const char *s, uint64_t *v)
{
	uint64_t	u;

	if (*s == '\0' || probe_scan_u64(&s, &u) == -1 || *s != '\0')
		return (-1);
	*v = u;
	return (0);
}

/* Copy the line at *sp into out and step past its newline. */
int
probe_line(const char **sp, const char *end, char *out, size_t outsz)
{
	const char	*s = *sp, *nl;
	size_t		 len;

	if (s >= end)
		return (-1);
	if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
		nl = end;
	len = (size_t)(nl - s);
	if (len >= outsz)
		len = outsz - 1;
	memcpy(out, s, len);
	out[len] = '\0';
	*sp = nl < end ? nl + 1 : end;
	return (0);
}

/* Double the buffer, from 4 KiB, up to PROBE_BUF_MAX. */
static int
probe_buf_grow(struct probe_buf *b)
{
	size_t	 ncap;
	char	*np;

	ncap = b->cap == 0 ? 4096 : b->cap * 2;
	if (ncap > PROBE_BUF_MAX) {
		errno = EFBIG;
		return (-1);
	}
	if ((np = realloc(b->p, ncap)) == NULL)
		return (-1);
	b->p = np;
	b->cap = ncap;
	return (0);
}

int
probe_read(const struct probe_root *root, enum probe_fs fs, const char *rel,
    struct probe_buf *b)
{
	ssize_t	n;
	int	dirfd, fd, oerrno, rc = -1;

	if ((dirfd = probe_root_fd(root, fs)) == -1)
		return (-1);
	if ((fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);		/* ENOENT: not available */
	for (b->len = 0;;) {
		if (b->cap - b->len < 2 && probe_buf_grow(b) == -1)
			goto out;	/* ENOMEM, or EFBIG past the cap */
		n = read(fd, b->p + b->len, b->cap - b->len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto out;
		if (n == 0)
			break;
		b->len += (size_t)n;
	}
	b->p[b->len] = '\0';
	rc = 0;
out:
	oerrno = errno;
	close(fd);
	errno = oerrno;
	return (rc);
}

int
probe_read_attr(const struct probe_root *root, enum probe_fs fs,
    const char *rel, char *out, size_t outsz)
{
	ssize_t	n;
	int	dirfd, fd, oerrno;

	if (outsz == 0) {
		errno = EINVAL;
		return (-1);
	}
	out[0] = '\0';
	if ((dirfd = probe_root_fd(root, fs)) == -1)
		return (-1);
	if ((fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	/*
	 * One read: a sysfs attribute is produced whole by its show() method.
	 * Drivers that cannot answer give EAGAIN, EINVAL or ENODEV (procfs
	 * sysreadfile.go); those mean "not available", never a retry loop.
	 */
	do {
		n = read(fd, out, outsz - 1);
	} while (n == -1 && errno == EINTR);
	oerrno = errno;
	close(fd);
	errno = oerrno;
	if (n == -1)
		return (-1);
	out[n] = '\0';
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' ' ||
	    out[n - 1] == '\t'))
		out[--n] = '\0';
	return (0);
}

int
probe_attr_u64(const struct probe_root *root, enum probe_fs fs,
    const char *rel, uint64_t *v)
{
	char		 buf[64];
	const char	*s = buf;

	if (probe_read_attr(root, fs, rel, buf, sizeof buf) == -1)
		return (-1);
	if (probe_scan_u64(&s, v) == -1 || *s != '\0') {
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

int
probe_attr_i64(const struct probe_root *root, enum probe_fs fs,
    const char *rel, int64_t *v)
{
	char		 buf[64];
	const char	*s = buf;
	uint64_t	 u;
	int		 neg = 0;

	if (probe_read_attr(root, fs, rel, buf, sizeof buf) == -1)
		return (-1);
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (probe_scan_u64(&s, &u) == -1 || *s != '\0' ||
	    u > (uint64_t)INT64_MAX) {
		errno = EINVAL;
		return (-1);
	}
	*v = neg ? -(int64_t)u : (int64_t)u;
	return (0);
}

int
probe_readlink(const struct probe_root *root, enum probe_fs fs,
    const char *rel, char *out, size_t outsz)
{
	ssize_t	n;
	int	dirfd;

	if (outsz == 0) {
		errno = EINVAL;
		return (-1);
	}
	if ((dirfd = probe_root_fd(root, fs)) == -1)
		return (-1);
	if ((n = readlinkat(dirfd, rel, out, outsz - 1)) == -1)
		return (-1);
	if ((size_t)n == outsz - 1) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	out[n] = '\0';
	return (0);
}

DIR *
probe_opendir(const struct probe_root *root, enum probe_fs fs,
    const char *rel)
{
	DIR	*dp;
	int	 dirfd, fd, oerrno;

	if ((dirfd = probe_root_fd(root, fs)) == -1)
		return (NULL);
	fd = openat(dirfd, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		return (NULL);
	if ((dp = fdopendir(fd)) == NULL) {
		oerrno = errno;
		close(fd);
		errno = oerrno;
	}
	return (dp);
}

int
probe_exists(const struct probe_root *root, enum probe_fs fs, const char *rel)
{
	struct stat	st;
	int		dirfd, oerrno = errno, rc;

	if ((dirfd = probe_root_fd(root, fs)) == -1) {
		errno = oerrno;
		return (0);
	}
	rc = fstatat(dirfd, rel, &st, 0) == 0;
	errno = oerrno;
	return (rc);
}

int
probe_scan_u64(const char **sp, uint64_t *v)
{
	const char	*s = *sp;
	uint64_t	 n = 0;
	unsigned	 d;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return (-1);
	for (; *s >= '0' && *s <= '9'; s++) {
		d = (unsigned)(*s - '0');
		if (n > (UINT64_MAX - d) / 10)
			return (-1);
		n = n * 10 + d;
	}
	*v = n;
	*sp = s;
	return (0);
}

int
probe_scan_devno(const char *s, unsigned *maj, unsigned *min)
{
	uint64_t	a, b;

	if (probe_scan_u64(&s, &a) == -1 || *s++ != ':' ||
	    *s < '0' || *s > '9' || probe_scan_u64(&s, &b) == -1 ||
	    *s != '\0' || a > UINT_MAX || b > UINT_MAX)
		return (-1);
	*maj = (unsigned)a;
	*min = (unsigned)b;
	return (0);
}

int
probe_scan_word(const char **sp, char *out, size_t outsz)
{
	const char	*s = *sp, *start;
	size_t		 len;

	while (*s == ' ' || *s == '\t')
		s++;
	start = s;
	while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n')
		s++;
	len = (size_t)(s - start);
	if (len == 0 || len >= outsz)
		return (-1);
	memcpy(out, start, len);
	out[len] = '\0';
	*sp = s;
	return (0);
}

int
probe_strlcpy(char *dst, const char *src, size_t dstsz)
{
	size_t	len = strlen(src);

	if (dstsz == 0)
		return (-1);
	if (len >= dstsz) {
		memcpy(dst, src, dstsz - 1);
		dst[dstsz - 1] = '\0';
		return (-1);
	}
	memcpy(dst, src, len + 1);
	return (0);
}

char *
probe_escape_ctl(char *dst, const char *src, size_t dstsz)
{
	const unsigned char	*s = (const unsigned char *)src;
	size_t			 n = 0;

	if (dstsz == 0)
		return (dst);
	for (; *s != '\0' && n + 7 < dstsz; s++) {
		if (*s < 0x20 || *s == 0x7f)
			n += (size_t)snprintf(dst + n, dstsz - n, "\\x%02x", *s);
		else if (*s == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
			/* A C1 control in UTF-8: CSI is U+009B. */
			n += (size_t)snprintf(dst + n, dstsz - n, "\\u%04x",
			    s[1]);
			s++;
		} else
			dst[n++] = (char)*s;
	}
	/* Never end in the middle of a multibyte character. */
	while (*s != '\0' && n > 0 && ((unsigned char)dst[n - 1] & 0xc0) ==
	    0x80)
		n--;
	if (*s != '\0' && n > 0 && ((unsigned char)dst[n - 1] & 0xc0) == 0xc0)
		n--;
	dst[n] = '\0';
	return (dst);
}

void
probe_html_esc(FILE *out, const char *s)
{
	const char	*p;

	for (p = s; p != NULL && *p != '\0'; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			putc(*p, out);
			break;
		}
	}
}

int
probe_logical_line(const char **sp, const char *end, char *line, size_t size,
    int *cut)
{
	const char	*s = *sp, *nl;
	size_t		 n, llen = 0;

	*cut = 0;
	if (s >= end || size == 0)
		return (-1);
	line[0] = '\0';
	while (s < end) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		n = (size_t)(nl - s);
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (llen + n >= size) {
			*cut = 1;
			n = size - 1 - llen;
		}
		memcpy(line + llen, s, n);
		llen += n;
		line[llen] = '\0';
		s = nl < end ? nl + 1 : end;
		if (llen > 0 && line[llen - 1] == '\\' && s < end) {
			line[--llen] = '\0';
			continue;
		}
		break;
	}
	*sp = s;
	return (0);
}
