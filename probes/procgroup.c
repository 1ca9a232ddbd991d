/*
 * procgroup.c: process groups from /proc/PID/stat.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procgroup.h"

#define PROCGROUP_PF_KTHREAD	0x00200000	/* stat's flags: a kthread */

/* Initialise an empty result. */
void
procgroup_init(struct procgroup *pg)
{
	memset(pg, 0, sizeof *pg);
}

/* Release every group's process array and the groups. */
void
procgroup_clear(struct procgroup *pg)
{
	size_t	i;

	if (pg == NULL)
		return;
	for (i = 0; i < pg->cap; i++)
		free(pg->groups[i].procs);
	free(pg->groups);
	free(pg->others);
	free(pg->next_others);
	memset(pg, 0, sizeof *pg);
}

/* Order pids. */
static int
procgroup_pid_cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x < y ? -1 : x > y);
}

/* 1 if pid matched no group at the last read. */
static int
procgroup_is_other(const struct procgroup *pg, uint32_t pid)
{
	return (pg->nothers > 0 && bsearch(&pid, pg->others, pg->nothers,
	    sizeof pid, procgroup_pid_cmp) != NULL);
}

/* Remember pid as matching no group for the next read. */
static int
procgroup_note_other(struct procgroup *pg, uint32_t pid)
{
	uint32_t	*a, *b;
	size_t		 ncap;

	if (pg->nnext == pg->othercap) {
		ncap = pg->othercap == 0 ? 256 : pg->othercap * 2;
		if ((a = reallocarray(pg->others, ncap, sizeof *a)) == NULL)
			return (-1);
		pg->others = a;
		if ((b = reallocarray(pg->next_others, ncap, sizeof *b)) ==
		    NULL)
			return (-1);
		pg->next_others = b;
		pg->othercap = ncap;
	}
	pg->next_others[pg->nnext++] = pid;
	return (0);
}

/* The index of the first spec whose pid and patterns match, or -1. */
int
procgroup_match(const struct procgroup_spec *specs, size_t nspecs, int pid,
    const char *comm)
{
	size_t	i, j;

	for (i = 0; i < nspecs; i++)
		for (j = 0; (specs[i].pid <= 0 || specs[i].pid == pid) &&
		    j < specs[i].npatterns; j++)
			if (fnmatch(specs[i].patterns[j], comm, 0) == 0)
				return ((int)i);
	return (-1);
}

/*
 * Parse one stat line.  The comm runs from the first '(' to the LAST ')':
 * a process may call itself "a) (b".  Fields after it are numbered from 3
 * (state) as in proc(5).
 */
int
procgroup_parse_stat(const char *text, size_t len, uint64_t pagesize,
    struct procgroup_proc *p)
{
	const char	*open, *close, *s, *end = text + len;
	uint64_t	 pid, v, utime = 0, stime = 0;
	size_t		 n;
	int		 field;

	memset(p, 0, sizeof *p);
	p->processor = -1;
	p->cgroup = -1;
	s = text;
	if (probe_scan_u64(&s, &pid) == -1 || pid == 0 || pid > INT32_MAX)
		goto bad;
	if ((open = memchr(text, '(', len)) == NULL)
		goto bad;
	for (close = end; close > open && close[-1] != ')'; close--)
		;
	if (close == open)
		goto bad;
	close--;
	n = (size_t)(close - open - 1);
	if (n >= sizeof p->comm)
		n = sizeof p->comm - 1;
	memcpy(p->comm, open + 1, n);
	p->comm[n] = '\0';
	p->pid = (int)pid;
	s = close + 1;
	/* Field 3 is the state letter; numbers follow. */
	while (s < end && *s == ' ')
		s++;
	if (s >= end)
		goto bad;
	s++;
	for (field = 4; field <= 39; field++) {
		while (s < end && *s == ' ')
			s++;
		if (s >= end)
			break;
		if (*s == '-') {
			/* Negative fields (priority, nice): not kept. */
			s++;
			if (probe_scan_u64(&s, &v) == -1)
				goto bad;
			continue;
		}
		if (probe_scan_u64(&s, &v) == -1)
			goto bad;
		switch (field) {
		case 9:
			p->kthread = (v & PROCGROUP_PF_KTHREAD) != 0;
			break;
		case 14:
			utime = v;
			break;
		case 15:
			stime = v;
			break;
		case 20:
			p->threads = v;
			break;
		case 24:
			if (pagesize != 0 && v > UINT64_MAX / pagesize)
				goto bad;
			p->rss_bytes = v * pagesize;
			break;
		case 39:
			if (v < 65536)
				p->processor = (int)v;
			break;
		}
	}
	if (field <= 24)
		goto bad;		/* too short to hold the counters */
	p->ticks = utime + stime;
	return (0);
bad:
	errno = EINVAL;
	return (-1);
}

/* Append p to group g; -1 ENOMEM. */
static int
procgroup_add(struct procgroup_group *g, const struct procgroup_proc *p)
{
	struct procgroup_proc	*np;
	size_t			 ncap;

	if (g->nprocs == g->cap) {
		ncap = g->cap == 0 ? 8 : g->cap * 2;
		if ((np = reallocarray(g->procs, ncap, sizeof *np)) == NULL)
			return (-1);
		g->procs = np;
		g->cap = ncap;
	}
	g->procs[g->nprocs++] = *p;
	g->threads += p->threads;
	g->ticks += p->ticks;
	g->rss_bytes += p->rss_bytes;
	return (0);
}

/*
 * Note the cgroup of process pid for group g, once per distinct path; its
 * index in g->cgroups, or -1 (unreadable, or past PROCGROUP_MAX_CGROUPS).
 */
static int
procgroup_note_cgroup(const struct probe_root *root, struct probe_buf *b,
    int pid, struct procgroup_group *g)
{
	char	rel[64], path[CGROUP_PATH_MAX];
	size_t	i;
	int	version;

	snprintf(rel, sizeof rel, "%d/cgroup", pid);
	if (probe_read(root, PROBE_PROC, rel, b) == -1 ||
	    cgroup_parse_pid(b->p, b->len, &version, path, sizeof path) == -1)
		return (-1);
	for (i = 0; i < g->ncgroups; i++)
		if (g->cgroups[i].version == version &&
		    strcmp(g->cgroups[i].path, path) == 0)
			return ((int)i);
	if (g->ncgroups == PROCGROUP_MAX_CGROUPS) {
		g->cgroups_dropped++;
		return (-1);
	}
	g->cgroups[g->ncgroups].version = version;
	probe_strlcpy(g->cgroups[g->ncgroups].path, path,
	    sizeof g->cgroups[g->ncgroups].path);
	return ((int)g->ncgroups++);
}

/* Order processes by pid. */
static int
procgroup_cmp(const void *a, const void *b)
{
	const struct procgroup_proc	*x = a, *y = b;

	return (x->pid < y->pid ? -1 : x->pid > y->pid);
}

/* Scan <root>/proc and sum processes into their groups. */
int
procgroup_read(const struct probe_root *root, struct probe_buf *b,
    const struct procgroup_spec *specs, size_t nspecs, struct procgroup *pg,
    const char **errstr)
{
	struct procgroup_group	*g;
	struct procgroup_proc	 p;
	struct dirent		*de;
	DIR			*dir;
	char			 rel[64], path[CGROUP_PATH_MAX];
	const char		*s;
	uint64_t		 pid, pagesize;
	size_t			 i, j, ncap;
	int			 gi, version;
	long			 ps;

	if (errstr != NULL)
		*errstr = NULL;
	if (nspecs > pg->cap) {
		ncap = nspecs;
		if ((g = reallocarray(pg->groups, ncap, sizeof *g)) == NULL)
			return (-1);
		memset(g + pg->cap, 0, (ncap - pg->cap) * sizeof *g);
		pg->groups = g;
		pg->cap = ncap;
	}
	pg->ngroups = nspecs;
	pg->nscanned = pg->skipped = 0;
	for (i = 0; i < nspecs; i++) {
		g = &pg->groups[i];
		probe_strlcpy(g->name, specs[i].name, sizeof g->name);
		g->nprocs = 0;
		g->threads = g->ticks = g->rss_bytes = 0;
		g->ncgroups = g->cgroups_dropped = 0;
	}
	ps = sysconf(_SC_PAGESIZE);
	pagesize = ps > 0 ? (uint64_t)ps : 4096;
	if ((dir = probe_opendir(root, PROBE_PROC, ".")) == NULL)
		return (-1);
	/* A read that is a rescan looks at every process again. */
	if (pg->reads++ % PROCGROUP_RESCAN == 0)
		pg->nothers = 0;
	pg->nnext = 0;
	while ((de = readdir(dir)) != NULL) {
		s = de->d_name;
		if (*s < '0' || *s > '9' || probe_scan_u64(&s, &pid) == -1 ||
		    *s != '\0' || pid > INT32_MAX)
			continue;
		pg->nscanned++;
		if (procgroup_is_other(pg, (uint32_t)pid)) {
			if (procgroup_note_other(pg, (uint32_t)pid) == -1)
				goto nomem;
			continue;
		}
		snprintf(rel, sizeof rel, "%d/stat", (int)pid);
		/* A process that exits between readdir and open is gone. */
		if (probe_read(root, PROBE_PROC, rel, b) == -1 ||
		    procgroup_parse_stat(b->p, b->len, pagesize, &p) == -1) {
			pg->skipped++;
			continue;
		}
		if ((gi = procgroup_match(specs, nspecs, p.pid, p.comm)) ==
		    -1) {
			if (procgroup_note_other(pg, (uint32_t)pid) == -1)
				goto nomem;
			continue;
		}
		g = &pg->groups[gi];
		p.cgroup = procgroup_note_cgroup(root, b, p.pid, g);
		if (procgroup_add(g, &p) == -1)
			goto nomem;
	}
	closedir(dir);
	/* This read's others are the next read's (none when all matched). */
	if (pg->nnext > 0) {
		qsort(pg->next_others, pg->nnext, sizeof *pg->next_others,
		    procgroup_pid_cmp);
		memcpy(pg->others, pg->next_others, pg->nnext *
		    sizeof *pg->others);
	}
	pg->nothers = pg->nnext;
	for (i = 0; i < pg->ngroups; i++) {
		g = &pg->groups[i];
		if (g->nprocs > 1)
			qsort(g->procs, g->nprocs, sizeof *g->procs,
			    procgroup_cmp);
		for (j = 0; j < g->ncgroups; j++) {
			version = g->cgroups[j].version;
			probe_strlcpy(path, g->cgroups[j].path, sizeof path);
			/* A missing cgroup dir keeps its name, no figures. */
			if (cgroup_cpu_read(root, b, version, path,
			    &g->cgroups[j]) == -1) {
				g->cgroups[j].version = version;
				probe_strlcpy(g->cgroups[j].path, path,
				    sizeof g->cgroups[j].path);
			}
		}
	}
	return (0);
nomem:
	closedir(dir);
	pg->nothers = 0;
	errno = ENOMEM;
	return (-1);
}
