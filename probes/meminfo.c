/*
 * meminfo.c: /proc/meminfo, /proc/uptime, /proc/loadavg.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "meminfo.h"

const char *const meminfo_keys[MEMINFO_NFIELDS] = {
	"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "Dirty",
	"Writeback", "SwapTotal", "SwapFree"
};

/* Parse /proc/meminfo text into mi. */
int
meminfo_parse(const char *text, size_t len, struct meminfo *mi,
    const char **errstr)
{
	const char	*line, *eol, *end, *colon, *s;
	uint64_t	 v;
	size_t		 klen, i;

	if (errstr != NULL)
		*errstr = NULL;
	mi->have = 0;
	memset(mi->v, 0, sizeof mi->v);
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if ((colon = memchr(line, ':', (size_t)(eol - line))) == NULL)
			continue;
		klen = (size_t)(colon - line);
		for (i = 0; i < MEMINFO_NFIELDS; i++)
			if (strlen(meminfo_keys[i]) == klen &&
			    memcmp(line, meminfo_keys[i], klen) == 0)
				break;
		if (i == MEMINFO_NFIELDS)
			continue;
		s = colon + 1;
		if (probe_scan_u64(&s, &v) == -1 || s > eol) {
			if (errstr != NULL)
				*errstr = "not a number";
			continue;
		}
		while (s < eol && *s == ' ')
			s++;
		if (s + 1 < eol && s[0] == 'k' && s[1] == 'B') {
			if (v > UINT64_MAX / 1024) {
				if (errstr != NULL)
					*errstr = "number too large";
				continue;
			}
			v *= 1024;
		}
		mi->v[i] = v;
		mi->have |= 1U << i;
	}
	if ((mi->have & (1U << MEMINFO_TOTAL)) == 0) {
		if (errstr != NULL && *errstr == NULL)
			*errstr = "no MemTotal line";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Parse a non-negative decimal with an optional fraction; -1 if none. */
static int
meminfo_scan_double(const char **sp, double *d)
{
	char	*ep;
	double	 v;

	while (**sp == ' ')
		(*sp)++;
	if (**sp < '0' || **sp > '9')
		return (-1);
	v = strtod(*sp, &ep);
	if (ep == *sp || v < 0 || v > 1e15)
		return (-1);
	*d = v;
	*sp = ep;
	return (0);
}

/* Parse /proc/uptime text. */
int
meminfo_parse_uptime(const char *s, struct meminfo *mi)
{
	mi->has_uptime = 0;
	if (meminfo_scan_double(&s, &mi->uptime) == -1 ||
	    meminfo_scan_double(&s, &mi->idle) == -1) {
		errno = EINVAL;
		return (-1);
	}
	mi->has_uptime = 1;
	return (0);
}

/* Parse /proc/loadavg text. */
int
meminfo_parse_loadavg(const char *s, struct meminfo *mi)
{
	int	i;

	mi->has_loadavg = 0;
	for (i = 0; i < 3; i++)
		if (meminfo_scan_double(&s, &mi->load[i]) == -1)
			goto bad;
	if (probe_scan_u64(&s, &mi->runnable) == -1 || *s++ != '/' ||
	    probe_scan_u64(&s, &mi->nthreads) == -1)
		goto bad;
	mi->has_loadavg = 1;
	return (0);
bad:
	errno = EINVAL;
	return (-1);
}

/* Read meminfo, then uptime and loadavg when present. */
int
meminfo_read(const struct probe_root *root, struct probe_buf *b,
    struct meminfo *mi, const char **errstr)
{
	memset(mi, 0, sizeof *mi);
	if (errstr != NULL)
		*errstr = NULL;
	if (probe_read(root, PROBE_PROC, "uptime", b) == 0)
		(void)meminfo_parse_uptime(b->p, mi);
	if (probe_read(root, PROBE_PROC, "loadavg", b) == 0)
		(void)meminfo_parse_loadavg(b->p, mi);
	if (probe_read(root, PROBE_PROC, "meminfo", b) == -1)
		return (-1);
	return (meminfo_parse(b->p, b->len, mi, errstr));
}
