/*
 * mounts.c: /proc/self/mountinfo and /proc/mounts.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mounts.h"

/* Initialise an empty mount table. */
void
mounts_init(struct mounts *m)
{
	memset(m, 0, sizeof *m);
}

/* Free the mount table and leave it empty. */
void
mounts_clear(struct mounts *m)
{
	free(m->v);
	memset(m, 0, sizeof *m);
}

/* Undo the octal escapes the kernel writes for blanks and backslashes. */
void
mounts_unescape(char *s)
{
	char	*d = s;

	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
			    (s[3] - '0'));
			s += 3;
		} else
			*d++ = *s;
	}
	*d = '\0';
}

/* A new zeroed entry at the end; NULL on ENOMEM. */
static struct mounts_entry *
mounts_add(struct mounts *m)
{
	struct mounts_entry	*nv;
	size_t			 ncap;

	if (m->n == m->cap) {
		ncap = m->cap == 0 ? 32 : m->cap * 2;
		if ((nv = realloc(m->v, ncap * sizeof *nv)) == NULL)
			return (NULL);
		m->v = nv;
		m->cap = ncap;
	}
	memset(&m->v[m->n], 0, sizeof m->v[m->n]);
	return (&m->v[m->n++]);
}

/* Copy field i (0-based, blank-separated) of line into out; -1 if none. */
static int
mounts_field(const char *line, int i, char *out, size_t outsz)
{
	const char	*s = line;
	int		 k;

	for (k = 0; k <= i; k++)
		if (probe_scan_word(&s, out, outsz) == -1)
			return (-1);
	return (0);
}

/* Split buf into lines and call fn on each; counts malformed ones. */
static int
mounts_lines(const char *buf, size_t len, struct mounts *m,
    int (*fn)(const char *, struct mounts_entry *))
{
	const char		*s = buf, *end = buf + len, *nl;
	char			 line[2048];
	size_t			 n;
	struct mounts_entry	*e;

	m->n = m->skipped = 0;
	while (s < end) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		n = (size_t)(nl - s);
		s = nl + 1;
		if (n == 0)
			continue;
		if (n >= sizeof line) {
			m->skipped++;
			continue;
		}
		memcpy(line, nl - n, n);
		line[n] = '\0';
		if ((e = mounts_add(m)) == NULL) {
			errno = ENOMEM;
			return (-1);
		}
		if (fn(line, e) == -1) {
			m->n--;
			m->skipped++;
		}
	}
	return (0);
}

/* "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors" */
static int
mounts_info_line(const char *line, struct mounts_entry *e)
{
	const char	*sep;
	char		 dev[32];

	if (mounts_field(line, 2, dev, sizeof dev) == -1 ||
	    probe_scan_devno(dev, &e->major, &e->minor) == -1)
		return (-1);
	e->has_dev = 1;
	if (mounts_field(line, 3, e->root, sizeof e->root) == -1 ||
	    mounts_field(line, 4, e->mountpoint, sizeof e->mountpoint) == -1 ||
	    mounts_field(line, 5, e->options, sizeof e->options) == -1)
		return (-1);
	/* Optional fields end at a lone "-". */
	if ((sep = strstr(line, " - ")) == NULL)
		return (-1);
	if (mounts_field(sep + 3, 0, e->fstype, sizeof e->fstype) == -1)
		return (-1);
	if (mounts_field(sep + 3, 1, e->source, sizeof e->source) == -1)
		e->source[0] = '\0';
	if (mounts_field(sep + 3, 2, e->super_options,
	    sizeof e->super_options) == -1)
		e->super_options[0] = '\0';
	mounts_unescape(e->root);
	mounts_unescape(e->mountpoint);
	mounts_unescape(e->source);
	return (0);
}

/* "/dev/md0 / ext4 rw,relatime 0 0" */
static int
mounts_mounts_line(const char *line, struct mounts_entry *e)
{
	if (mounts_field(line, 0, e->source, sizeof e->source) == -1 ||
	    mounts_field(line, 1, e->mountpoint, sizeof e->mountpoint) == -1 ||
	    mounts_field(line, 2, e->fstype, sizeof e->fstype) == -1 ||
	    mounts_field(line, 3, e->options, sizeof e->options) == -1)
		return (-1);
	mounts_unescape(e->mountpoint);
	mounts_unescape(e->source);
	return (0);
}

/* Parse proc/self/mountinfo text. */
int
mounts_parse_mountinfo(const char *buf, size_t len, struct mounts *m,
    const char **errstr)
{
	m->from_mountinfo = 1;
	if (errstr != NULL)
		*errstr = NULL;
	return (mounts_lines(buf, len, m, mounts_info_line));
}

/* Parse proc/mounts text. */
int
mounts_parse_mounts(const char *buf, size_t len, struct mounts *m,
    const char **errstr)
{
	m->from_mountinfo = 0;
	if (errstr != NULL)
		*errstr = NULL;
	return (mounts_lines(buf, len, m, mounts_mounts_line));
}

/* Read mountinfo, or proc/mounts when the tree has only that. */
int
mounts_read(const struct probe_root *root, struct probe_buf *b,
    struct mounts *m, const char **errstr)
{
	if (probe_read(root, PROBE_PROC, "self/mountinfo", b) == 0)
		return (mounts_parse_mountinfo(b->p, b->len, m, errstr));
	if (probe_read(root, PROBE_PROC, "mounts", b) == 0)
		return (mounts_parse_mounts(b->p, b->len, m, errstr));
	m->n = 0;
	if (errstr != NULL)
		*errstr = "no proc/self/mountinfo or proc/mounts";
	return (-1);
}
