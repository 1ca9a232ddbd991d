/*
 * cpustat.c: /proc/stat.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpustat.h"

const char *const cpustat_field_names[CPUSTAT_NFIELDS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq",
	"steal", "guest", "guest_nice"
};

/* Initialise an empty cpustat. */
void
cpustat_init(struct cpustat *cs)
{
	memset(cs, 0, sizeof *cs);
}

/* Release the per-core array. */
void
cpustat_clear(struct cpustat *cs)
{
	if (cs == NULL)
		return;
	free(cs->cpus);
	memset(cs, 0, sizeof *cs);
}

/* Parse the numbers after a cpu label into c; -1 when fewer than 4. */
static int
cpustat_parse_ticks(const char *s, const char *eol, struct cpustat_cpu *c)
{
	int	i;

	memset(c->ticks, 0, sizeof c->ticks);
	for (i = 0; i < CPUSTAT_NFIELDS; i++) {
		if (probe_scan_u64(&s, &c->ticks[i]) == -1 || s > eol)
			break;
	}
	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	/* Garbage after the numbers (not a further number) is malformed. */
	if (i < CPUSTAT_MIN_FIELDS || (s < eol && (*s < '0' || *s > '9'))) {
		memset(c->ticks, 0, sizeof c->ticks);
		return (-1);
	}
	c->nfields = i;
	return (0);
}

/* Parse one "key value" line's value; 0 when it is a number. */
static int
cpustat_parse_one(const char *s, const char *eol, uint64_t *v)
{
	if (probe_scan_u64(&s, v) == -1 || s > eol)
		return (-1);
	return (0);
}

/* Parse /proc/stat text into cs. */
int
cpustat_parse(const char *text, size_t len, struct cpustat *cs,
    const char **errstr)
{
	const char		*line, *eol, *end, *s;
	struct cpustat_cpu	 c, *p;
	uint64_t		 n;
	size_t			 ncap;

	if (errstr != NULL)
		*errstr = NULL;
	cs->ncpus = 0;
	cs->skipped = 0;
	cs->has_total = cs->has_ctxt = cs->has_intr = 0;
	cs->has_procs = cs->has_btime = 0;
	memset(&cs->total, 0, sizeof cs->total);
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if ((size_t)(eol - line) > 3 && strncmp(line, "cpu", 3) == 0) {
			s = line + 3;
			memset(&c, 0, sizeof c);
			if (*s == ' ' || *s == '\t')
				c.cpu = -1;
			else if (probe_scan_u64(&s, &n) == 0 && n < 1U << 20 &&
			    (*s == ' ' || *s == '\t'))
				c.cpu = (int)n;
			else {
				cs->skipped++;
				continue;
			}
			if (cpustat_parse_ticks(s, eol, &c) == -1) {
				cs->skipped++;
				if (errstr != NULL)
					*errstr = "cpu line with fewer than "
					    "4 numbers";
				continue;
			}
			if (c.cpu == -1) {
				cs->total = c;
				cs->has_total = 1;
				continue;
			}
			if (cs->ncpus == cs->cap) {
				ncap = cs->cap == 0 ? 8 : cs->cap * 2;
				p = reallocarray(cs->cpus, ncap, sizeof *p);
				if (p == NULL)
					return (-1);
				cs->cpus = p;
				cs->cap = ncap;
			}
			cs->cpus[cs->ncpus++] = c;
		} else if (strncmp(line, "ctxt ", 5) == 0)
			cs->has_ctxt = cpustat_parse_one(line + 5, eol,
			    &cs->ctxt) == 0;
		else if (strncmp(line, "intr ", 5) == 0)
			cs->has_intr = cpustat_parse_one(line + 5, eol,
			    &cs->intr) == 0;
		else if (strncmp(line, "btime ", 6) == 0)
			cs->has_btime = cpustat_parse_one(line + 6, eol,
			    &cs->btime) == 0;
		else if (strncmp(line, "procs_running ", 14) == 0)
			cs->has_procs = cpustat_parse_one(line + 14, eol,
			    &cs->procs_running) == 0;
		else if (strncmp(line, "procs_blocked ", 14) == 0) {
			if (cpustat_parse_one(line + 14, eol,
			    &cs->procs_blocked) == -1)
				cs->has_procs = 0;
		}
	}
	if (!cs->has_total && cs->ncpus == 0) {
		if (errstr != NULL)
			*errstr = "no cpu line";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Read <root>/proc/stat. */
int
cpustat_read(const struct probe_root *root, struct probe_buf *b,
    struct cpustat *cs, const char **errstr)
{
	if (errstr != NULL)
		*errstr = NULL;
	if (probe_read(root, PROBE_PROC, "stat", b) == -1)
		return (-1);
	return (cpustat_parse(b->p, b->len, cs, errstr));
}

/* All fields but guest and guest_nice, which user and nice include. */
uint64_t
cpustat_total_ticks(const struct cpustat_cpu *c)
{
	uint64_t	t = 0;
	int		i;

	for (i = 0; i <= CPUSTAT_STEAL; i++)
		t += c->ticks[i];
	return (t);
}

/* Idle and iowait. */
uint64_t
cpustat_idle_ticks(const struct cpustat_cpu *c)
{
	return (c->ticks[CPUSTAT_IDLE] + c->ticks[CPUSTAT_IOWAIT]);
}
