/*
 * cgroup.c: CPU quota and throttling of cgroups, v1 and v2.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

/* Whether the comma-separated controller list [s, e) names "cpu". */
static int
cgroup_has_cpu(const char *s, const char *e)
{
	const char	*c;

	while (s < e) {
		if ((c = memchr(s, ',', (size_t)(e - s))) == NULL)
			c = e;
		if (c - s == 3 && memcmp(s, "cpu", 3) == 0)
			return (1);
		s = c + 1;
	}
	return (0);
}

/* Parse /proc/PID/cgroup text for the CPU controller's cgroup. */
int
cgroup_parse_pid(const char *text, size_t len, int *version, char *path,
    size_t pathsz)
{
	const char	*line, *eol, *end, *c1, *c2;
	size_t		 n;
	int		 found = 0;

	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if ((c1 = memchr(line, ':', (size_t)(eol - line))) == NULL ||
		    (c2 = memchr(c1 + 1, ':', (size_t)(eol - c1 - 1))) == NULL)
			continue;
		n = (size_t)(eol - c2 - 1);
		if (n == 0 || n >= pathsz || c2[1] != '/')
			continue;
		if (c2 == c1 + 1 && c1 - line == 1 && line[0] == '0') {
			if (found)
				continue;	/* v1 cpu already seen */
			*version = 2;
		} else if (cgroup_has_cpu(c1 + 1, c2))
			*version = 1;
		else
			continue;
		memcpy(path, c2 + 1, n);
		path[n] = '\0';
		if (*version == 1)
			return (0);
		found = 1;
	}
	if (found)
		return (0);
	errno = EINVAL;
	return (-1);
}

/* Parse v2 cpu.max text. */
int
cgroup_parse_cpu_max(const char *s, struct cgroup_cpu *cg)
{
	cg->has_quota = 0;
	while (*s == ' ')
		s++;
	if (strncmp(s, "max", 3) == 0) {
		s += 3;
		cg->unlimited = 1;
		cg->quota_us = 0;
	} else if (probe_scan_u64(&s, &cg->quota_us) == 0)
		cg->unlimited = 0;
	else
		goto bad;
	if (probe_scan_u64(&s, &cg->period_us) == -1 || cg->period_us == 0)
		goto bad;
	cg->quota_cores = cg->unlimited ? 0 :
	    (double)cg->quota_us / (double)cg->period_us;
	cg->has_quota = 1;
	return (0);
bad:
	errno = EINVAL;
	return (-1);
}

/* Parse cpu.stat text of either version. */
int
cgroup_parse_cpu_stat(const char *text, size_t len, struct cgroup_cpu *cg)
{
	const char	*line, *eol, *end, *s;
	uint64_t	 v;
	unsigned	 seen = 0;

	cg->has_stat = 0;
	cg->nr_periods = cg->nr_throttled = cg->throttled_ns = 0;
	end = text + len;
	for (line = text; line < end; line = eol + 1) {
		if ((eol = memchr(line, '\n', (size_t)(end - line))) == NULL)
			eol = end;
		if ((s = memchr(line, ' ', (size_t)(eol - line))) == NULL)
			continue;
		if (probe_scan_u64(&s, &v) == -1 || s > eol)
			continue;
		if (strncmp(line, "nr_periods ", 11) == 0) {
			cg->nr_periods = v;
			seen |= 1;
		} else if (strncmp(line, "nr_throttled ", 13) == 0) {
			cg->nr_throttled = v;
			seen |= 2;
		} else if (strncmp(line, "throttled_time ", 15) == 0) {
			cg->throttled_ns = v;
			seen |= 4;
		} else if (strncmp(line, "throttled_usec ", 15) == 0) {
			if (v > UINT64_MAX / 1000)
				continue;
			cg->throttled_ns = v * 1000;
			seen |= 4;
		}
	}
	if (seen != 7) {
		errno = EINVAL;
		return (-1);
	}
	cg->has_stat = 1;
	return (0);
}

/* Find the directory of a cgroup under sys/fs/cgroup into rel. */
static int
cgroup_dir(const struct probe_root *root, int version, const char *path,
    char *rel, size_t relsz)
{
	static const char *const v1[] = { "cpu,cpuacct", "cpu", "cpuacct,cpu" };
	static const char *const v2[] = { "", "unified/" };
	const char	*p = path[0] == '/' ? path + 1 : path;
	size_t		 i;

	if (strstr(path, "..") != NULL) {
		errno = EINVAL;
		return (-1);
	}
	if (version == 1) {
		for (i = 0; i < NP_NITEMS(v1); i++) {
			snprintf(rel, relsz, "fs/cgroup/%s/%s", v1[i], p);
			if (probe_exists(root, PROBE_SYS, rel))
				return (0);
		}
	} else {
		for (i = 0; i < NP_NITEMS(v2); i++) {
			snprintf(rel, relsz, "fs/cgroup/%s%s", v2[i], p);
			if (probe_exists(root, PROBE_SYS, rel))
				return (0);
		}
	}
	errno = ENOENT;
	return (-1);
}

/* Read quota and cpu.stat of one cgroup. */
int
cgroup_cpu_read(const struct probe_root *root, struct probe_buf *b,
    int version, const char *path, struct cgroup_cpu *cg)
{
	char	dir[CGROUP_PATH_MAX + 64], rel[CGROUP_PATH_MAX + 96];
	char	attr[64];
	int64_t	quota;

	memset(cg, 0, sizeof *cg);
	cg->version = version;
	if (probe_strlcpy(cg->path, path, sizeof cg->path) == -1) {
		errno = EINVAL;
		return (-1);
	}
	if (cgroup_dir(root, version, path, dir, sizeof dir) == -1)
		return (-1);
	if (version == 1) {
		snprintf(rel, sizeof rel, "%s/cpu.cfs_quota_us", dir);
		if (probe_attr_i64(root, PROBE_SYS, rel, &quota) == 0) {
			snprintf(rel, sizeof rel, "%s/cpu.cfs_period_us", dir);
			if (probe_attr_u64(root, PROBE_SYS, rel,
			    &cg->period_us) == 0 && cg->period_us != 0) {
				cg->unlimited = quota < 0;
				cg->quota_us = quota < 0 ? 0 : (uint64_t)quota;
				cg->quota_cores = cg->unlimited ? 0 :
				    (double)cg->quota_us /
				    (double)cg->period_us;
				cg->has_quota = 1;
			}
		}
	} else {
		snprintf(rel, sizeof rel, "%s/cpu.max", dir);
		if (probe_read_attr(root, PROBE_SYS, rel, attr,
		    sizeof attr) == 0)
			(void)cgroup_parse_cpu_max(attr, cg);
		else if (strcmp(path, "/") == 0) {
			/* The v2 root has no cpu.max: it is never capped. */
			cg->unlimited = 1;
			cg->has_quota = 1;
		}
	}
	snprintf(rel, sizeof rel, "%s/cpu.stat", dir);
	if (probe_read(root, PROBE_SYS, rel, b) == 0)
		(void)cgroup_parse_cpu_stat(b->p, b->len, cg);
	return (0);
}
