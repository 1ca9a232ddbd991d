/*
 * softirqs.c: /proc/softirqs.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "softirqs.h"

/* Initialise an empty table. */
void
softirqs_init(struct softirqs *sq)
{
	memset(sq, 0, sizeof *sq);
}

/* Release the table's arrays. */
void
softirqs_clear(struct softirqs *sq)
{
	if (sq == NULL)
		return;
	free(sq->cpus);
	free(sq->rows);
	free(sq->counts);
	memset(sq, 0, sizeof *sq);
}

/* Parse the "CPU0 CPU1 ..." header; -1 EINVAL when malformed. */
static int
softirqs_parse_header(const char *s, const char *eol, struct softirqs *sq)
{
	uint64_t	 n;
	int		*p;
	size_t		 ncap;

	sq->ncpus = 0;
	for (;;) {
		while (s < eol && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= eol)
			break;
		if (eol - s < 4 || strncmp(s, "CPU", 3) != 0)
			goto bad;
		s += 3;
		if (probe_scan_u64(&s, &n) == -1 || s > eol ||
		    n >= SOFTIRQS_MAX_CPUS || sq->ncpus >= SOFTIRQS_MAX_CPUS)
			goto bad;
		if (sq->ncpus == sq->cpucap) {
			ncap = sq->cpucap == 0 ? 8 : sq->cpucap * 2;
			if ((p = reallocarray(sq->cpus, ncap, sizeof *p)) == NULL)
				return (-1);
			sq->cpus = p;
			sq->cpucap = ncap;
		}
		sq->cpus[sq->ncpus++] = (int)n;
	}
	if (sq->ncpus == 0)
		goto bad;
	return (0);
bad:
	errno = EINVAL;
	return (-1);
}

/* Make room for one more row of ncpus counts. */
static int
softirqs_grow(struct softirqs *sq)
{
	struct softirqs_row	*r;
	uint64_t		*c;
	size_t			 ncap;

	if (sq->nrows < sq->rowcap)
		return (0);
	ncap = sq->rowcap == 0 ? 16 : sq->rowcap * 2;
	if ((r = reallocarray(sq->rows, ncap, sizeof *r)) == NULL)
		return (-1);
	sq->rows = r;
	if ((c = reallocarray(sq->counts, ncap * sq->ncpus, sizeof *c)) ==
	    NULL)
		return (-1);
	sq->counts = c;
	sq->rowcap = ncap;
	return (0);
}

/* Parse softirqs text into sq. */
int
softirqs_parse(const char *text, size_t len, struct softirqs *sq,
    const char **errstr)
{
	const char	*line, *eol, *end, *s, *n0;
	uint64_t	*row;
	size_t		 nlen, i, oldcpus;

	if (errstr != NULL)
		*errstr = NULL;
	oldcpus = sq->ncpus;
	sq->nrows = 0;
	sq->skipped = 0;
	end = text + len;
	if ((eol = memchr(text, '\n', len)) == NULL)
		eol = end;
	if (softirqs_parse_header(text, eol, sq) == -1) {
		if (errstr != NULL)
			*errstr = "bad CPU header";
		sq->ncpus = 0;
		return (-1);
	}
	/* The counts array is sized by columns: a new width starts it over. */
	if (sq->ncpus != oldcpus) {
		free(sq->rows);
		free(sq->counts);
		sq->rows = NULL;
		sq->counts = NULL;
		sq->rowcap = 0;
	}
	for (line = eol + 1; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		for (n0 = line; n0 < eol && *n0 == ' '; n0++)
			;
		if (n0 == eol)
			continue;
		if ((s = memchr(n0, ':', (size_t)(eol - n0))) == NULL ||
		    (nlen = (size_t)(s - n0)) == 0 || nlen >= SOFTIRQS_NAME_MAX)
			goto skip;
		if (softirqs_grow(sq) == -1)
			return (-1);
		row = &sq->counts[sq->nrows * sq->ncpus];
		s++;
		for (i = 0; i < sq->ncpus; i++)
			if (probe_scan_u64(&s, &row[i]) == -1 || s > eol)
				goto skip;
		while (s < eol && *s == ' ')
			s++;
		if (s != eol)
			goto skip;
		memcpy(sq->rows[sq->nrows].name, n0, nlen);
		sq->rows[sq->nrows].name[nlen] = '\0';
		sq->nrows++;
		continue;
skip:
		sq->skipped++;
		if (errstr != NULL)
			*errstr = "malformed row skipped";
	}
	return (0);
}

/* Read <root>/proc/softirqs. */
int
softirqs_read(const struct probe_root *root, struct probe_buf *b,
    struct softirqs *sq, const char **errstr)
{
	if (errstr != NULL)
		*errstr = NULL;
	if (probe_read(root, PROBE_PROC, "softirqs", b) == -1)
		return (-1);
	return (softirqs_parse(b->p, b->len, sq, errstr));
}

/* The count of a softirq on one column. */
int
softirqs_get(const struct softirqs *sq, const char *name, size_t col,
    uint64_t *v)
{
	size_t	i;

	if (col >= sq->ncpus)
		return (-1);
	for (i = 0; i < sq->nrows; i++)
		if (strcmp(sq->rows[i].name, name) == 0) {
			*v = sq->counts[i * sq->ncpus + col];
			return (0);
		}
	return (-1);
}
