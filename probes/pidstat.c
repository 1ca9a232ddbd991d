/*
 * pidstat.c: one process's CPU, scheduler wait, I/O and cgroup.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "pidstat.h"
#include "probe.h"
#include "procgroup.h"

int
pidstat_parse_schedstat(const char *buf, size_t len, struct pidstat *ps)
{
	const char	*p = buf;
	uint64_t	 v[3];
	int		 i;

	(void)len;
	for (i = 0; i < 3; i++) {
		if (probe_scan_u64(&p, &v[i]) == -1) {
			errno = EINVAL;
			return (-1);
		}
	}
	ps->run_ns = v[0];
	ps->wait_ns = v[1];
	ps->timeslices = v[2];
	ps->has_sched = 1;
	return (0);
}

int
pidstat_parse_io(const char *buf, size_t len, struct pidstat *ps)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} keys[] = {
		{ "rchar:", offsetof(struct pidstat, rchar) },
		{ "wchar:", offsetof(struct pidstat, wchar) },
		{ "syscr:", offsetof(struct pidstat, syscr) },
		{ "syscw:", offsetof(struct pidstat, syscw) },
		{ "read_bytes:", offsetof(struct pidstat, read_bytes) },
		{ "write_bytes:", offsetof(struct pidstat, write_bytes) },
	};
	const char	*p = buf, *end = buf + len, *nl, *q;
	uint64_t	 v;
	size_t		 i, klen;
	unsigned	 seen = 0;

	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		for (i = 0; i < NP_NITEMS(keys); i++) {
			klen = strlen(keys[i].key);
			if ((size_t)(nl - p) <= klen ||
			    strncmp(p, keys[i].key, klen) != 0)
				continue;
			q = p + klen;
			if (probe_scan_u64(&q, &v) == 0 && q <= nl) {
				memcpy((char *)ps + keys[i].off, &v, sizeof v);
				seen |= 1U << i;
			}
		}
		p = nl + 1;
	}
	/* rchar to syscw are there on every kernel since 2.6.20. */
	if ((seen & 0xf) != 0xf) {
		errno = EINVAL;
		return (-1);
	}
	ps->has_io = 1;
	return (0);
}

int
pidstat_read(const struct probe_root *root, struct probe_buf *b, int pid,
    struct pidstat *ps)
{
	struct procgroup_proc	 pp;
	char			 rel[64], path[CGROUP_PATH_MAX];
	long			 pagesize = sysconf(_SC_PAGESIZE);
	int			 version;

	memset(ps, 0, sizeof *ps);
	ps->pid = pid;
	ps->processor = -1;
	snprintf(rel, sizeof rel, "%d/stat", pid);
	memset(&pp, 0, sizeof pp);
	if (probe_read(root, PROBE_PROC, rel, b) == -1 ||
	    procgroup_parse_stat(b->p, b->len, pagesize > 0 ?
	    (uint64_t)pagesize : 4096, &pp) == -1)
		return (-1);
	probe_strlcpy(ps->comm, pp.comm, sizeof ps->comm);
	ps->ticks = pp.ticks;
	ps->threads = pp.threads;
	ps->processor = pp.processor;

	snprintf(rel, sizeof rel, "%d/schedstat", pid);
	if (probe_read(root, PROBE_PROC, rel, b) == -1 ||
	    pidstat_parse_schedstat(b->p, b->len, ps) == -1)
		ps->sched_errno = errno;
	snprintf(rel, sizeof rel, "%d/io", pid);
	if (probe_read(root, PROBE_PROC, rel, b) == -1 ||
	    pidstat_parse_io(b->p, b->len, ps) == -1)
		ps->io_errno = errno;
	snprintf(rel, sizeof rel, "%d/cgroup", pid);
	if (probe_read(root, PROBE_PROC, rel, b) == -1 ||
	    cgroup_parse_pid(b->p, b->len, &version, path, sizeof path) ==
	    -1 || cgroup_cpu_read(root, b, version, path, &ps->cgroup) == -1)
		ps->cgroup_errno = errno;
	else
		ps->has_cgroup = 1;
	return (0);
}
