/*
 * pressure.c: the files under /proc/pressure.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pressure.h"

const char *const pressure_names[PRESSURE_NKINDS] = { "cpu", "io", "memory" };

/* Parse "key=value" of a double at *sp; -1 if the key differs. */
static int
pressure_scan_avg(const char **sp, const char *key, double *d)
{
	const char	*s = *sp;
	char		*ep;
	size_t		 klen = strlen(key);

	while (*s == ' ')
		s++;
	if (strncmp(s, key, klen) != 0 || s[klen] != '=')
		return (-1);
	s += klen + 1;
	if (*s < '0' || *s > '9')
		return (-1);
	*d = strtod(s, &ep);
	if (ep == s || *d > 100.0)
		return (-1);
	*sp = ep;
	return (0);
}

/* Parse the fields of one line after its label. */
static int
pressure_parse_line(const char *s, const char *eol, struct pressure_line *l)
{
	memset(l, 0, sizeof *l);
	if (pressure_scan_avg(&s, "avg10", &l->avg10) == -1 ||
	    pressure_scan_avg(&s, "avg60", &l->avg60) == -1 ||
	    pressure_scan_avg(&s, "avg300", &l->avg300) == -1)
		return (-1);
	while (*s == ' ')
		s++;
	if (strncmp(s, "total=", 6) != 0)
		return (-1);
	s += 6;
	if (probe_scan_u64(&s, &l->total) == -1 || s > eol)
		return (-1);
	l->avail = 1;
	return (0);
}

/* Parse one pressure file's text. */
int
pressure_parse(const char *text, size_t len, struct pressure_res *r,
    const char **errstr)
{
	const char	*line, *eol, *end;

	if (errstr != NULL)
		*errstr = NULL;
	memset(r, 0, sizeof *r);
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if (strncmp(line, "some ", 5) == 0) {
			if (pressure_parse_line(line + 5, eol, &r->some) == -1 &&
			    errstr != NULL)
				*errstr = "malformed some line";
		} else if (strncmp(line, "full ", 5) == 0) {
			if (pressure_parse_line(line + 5, eol, &r->full) == -1 &&
			    errstr != NULL)
				*errstr = "malformed full line";
		}
	}
	if (!r->some.avail) {
		if (errstr != NULL && *errstr == NULL)
			*errstr = "no some line";
		memset(r, 0, sizeof *r);
		errno = EINVAL;
		return (-1);
	}
	r->avail = 1;
	return (0);
}

/* Read cpu, io and memory pressure. */
int
pressure_read(const struct probe_root *root, struct probe_buf *b,
    struct pressure *p, const char **errstr)
{
	char	rel[32];
	int	i, nread = 0, err = ENOENT;

	if (errstr != NULL)
		*errstr = NULL;
	memset(p, 0, sizeof *p);
	for (i = 0; i < PRESSURE_NKINDS; i++) {
		snprintf(rel, sizeof rel, "pressure/%s", pressure_names[i]);
		if (probe_read(root, PROBE_PROC, rel, b) == -1) {
			/* EOPNOTSUPP: the file exists but psi=0 at boot. */
			if (errno != ENOENT)
				err = errno;
			continue;
		}
		if (pressure_parse(b->p, b->len, &p->res[i], errstr) == 0)
			nread++;
		else
			err = EINVAL;
	}
	if (nread == 0) {
		errno = err;
		return (-1);
	}
	return (0);
}
