/*
 * diskstats.c: /proc/diskstats in all its widths.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"

/* Initialise an empty set. */
void
diskstats_init(struct diskstats *ds)
{
	memset(ds, 0, sizeof *ds);
}

/* Release the device array. */
void
diskstats_clear(struct diskstats *ds)
{
	if (ds == NULL)
		return;
	free(ds->devs);
	memset(ds, 0, sizeof *ds);
}

/* Parse one line into d; -1 when it is short or malformed. */
static int
diskstats_parse_line(const char *s, const char *eol, struct diskstats_dev *d)
{
	uint64_t	 v[DISKSTATS_MAX_FIELDS - 3], mj, mn;
	const char	*n0;
	size_t		 nlen;
	int		 n;

	memset(d, 0, sizeof *d);
	if (probe_scan_u64(&s, &mj) == -1 || probe_scan_u64(&s, &mn) == -1 ||
	    s >= eol || mj > UINT32_MAX || mn > UINT32_MAX)
		return (-1);
	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	for (n0 = s; s < eol && *s != ' ' && *s != '\t'; s++)
		;
	nlen = (size_t)(s - n0);
	if (nlen == 0 || nlen >= sizeof d->name)
		return (-1);
	memcpy(d->name, n0, nlen);
	d->name[nlen] = '\0';
	for (n = 0;; n++) {
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= eol)
			break;
		if (n < (int)NP_NITEMS(v)) {
			if (probe_scan_u64(&s, &v[n]) == -1)
				return (-1);
		} else {
			/* An unknown wider layout: check, but keep 20. */
			uint64_t	extra;

			if (probe_scan_u64(&s, &extra) == -1)
				return (-1);
		}
		if (s < eol && *s != ' ' && *s != '\t')
			return (-1);
	}
	d->nfields = n + 3;
	if (d->nfields < DISKSTATS_MIN_FIELDS)
		return (-1);
	d->major = (unsigned)mj;
	d->minor = (unsigned)mn;
	d->rd_ios = v[0];
	d->rd_merges = v[1];
	d->rd_sectors = v[2];
	d->rd_ticks = v[3];
	d->wr_ios = v[4];
	d->wr_merges = v[5];
	d->wr_sectors = v[6];
	d->wr_ticks = v[7];
	d->in_flight = v[8];
	d->io_ticks = v[9];
	d->time_in_queue = v[10];
	if (d->nfields >= 18) {
		d->dc_ios = v[11];
		d->dc_merges = v[12];
		d->dc_sectors = v[13];
		d->dc_ticks = v[14];
	}
	if (d->nfields >= 20) {
		d->fl_ios = v[15];
		d->fl_ticks = v[16];
	}
	return (0);
}

/* Parse diskstats text into ds. */
int
diskstats_parse(const char *text, size_t len, struct diskstats *ds,
    const char **errstr)
{
	const char		*line, *eol, *end;
	struct diskstats_dev	 d, *p;
	size_t			 ncap;

	if (errstr != NULL)
		*errstr = NULL;
	ds->ndevs = 0;
	ds->skipped = 0;
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if (eol == line)
			continue;
		if (diskstats_parse_line(line, eol, &d) == -1) {
			ds->skipped++;
			if (errstr != NULL)
				*errstr = "short or malformed line skipped";
			continue;
		}
		if (ds->ndevs == ds->cap) {
			ncap = ds->cap == 0 ? 16 : ds->cap * 2;
			if ((p = reallocarray(ds->devs, ncap, sizeof *p)) ==
			    NULL)
				return (-1);
			ds->devs = p;
			ds->cap = ncap;
		}
		ds->devs[ds->ndevs++] = d;
	}
	return (0);
}

/* Read <root>/proc/diskstats. */
int
diskstats_read(const struct probe_root *root, struct probe_buf *b,
    struct diskstats *ds, const char **errstr)
{
	if (errstr != NULL)
		*errstr = NULL;
	if (probe_read(root, PROBE_PROC, "diskstats", b) == -1)
		return (-1);
	return (diskstats_parse(b->p, b->len, ds, errstr));
}

/* The device called name, or NULL. */
const struct diskstats_dev *
diskstats_find(const struct diskstats *ds, const char *name)
{
	size_t	i;

	for (i = 0; i < ds->ndevs; i++)
		if (strcmp(ds->devs[i].name, name) == 0)
			return (&ds->devs[i]);
	return (NULL);
}
