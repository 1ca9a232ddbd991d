/*
 * snapshot.c: every counter probe in one reading.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"

const char *const snapshot_part_names[SNAPSHOT_NPARTS] = {
	"cpu", "memory", "disks", "nics", "groups", "softirqs", "pressure",
	"nfsd", "crypto", "zfs", "unraid"
};

/* A new, empty snapshot. */
struct snapshot *
snapshot_new(void)
{
	struct snapshot	*s;

	if ((s = calloc(1, sizeof *s)) == NULL)
		return (NULL);
	cpustat_init(&s->cpu);
	diskstats_init(&s->disks);
	netdev_init(&s->nics);
	procgroup_init(&s->groups);
	softirqs_init(&s->softirqs);
	crypto_init(&s->crypto);
	probe_buf_init(&s->buf);
	return (s);
}

/* Release a snapshot and every array it holds. */
void
snapshot_free(struct snapshot *s)
{
	if (s == NULL)
		return;
	cpustat_clear(&s->cpu);
	diskstats_clear(&s->disks);
	free(s->md);
	netdev_clear(&s->nics);
	procgroup_clear(&s->groups);
	softirqs_clear(&s->softirqs);
	crypto_clear(&s->crypto);
	free(s->zfs);
	free(s->unraid);
	probe_buf_free(&s->buf);
	free(s->specs);
	free(s);
}

/* Record the outcome of one part; 0, or -1 when it ran out of memory. */
static int
snapshot_status(struct snapshot *s, enum snapshot_part part, int rc,
    const char *errstr)
{
	struct snapshot_status	*st = &s->status[part];

	st->avail = rc == 0;
	st->error = rc == 0 ? 0 : errno;
	st->errstr = errstr;
	if (rc == -1 && errno == ENOMEM)
		return (-1);
	return (0);
}

/* Whether name is an md array ("md0", "md127"; not "md_d0" partitions). */
static int
snapshot_is_md(const char *name)
{
	const char	*p;

	if (strncmp(name, "md", 2) != 0 || name[2] == '\0')
		return (0);
	for (p = name + 2; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return (0);
	return (1);
}

/* List the member devices of every md array in s->disks. */
static int
snapshot_read_md(const struct probe_root *root, struct snapshot *s)
{
	struct snapshot_md	*md;
	struct dirent		*de;
	DIR			*dir;
	char			 rel[DISKSTATS_NAME_MAX + 32];
	size_t			 i, ncap;

	s->nmd = 0;
	for (i = 0; i < s->disks.ndevs; i++) {
		if (!snapshot_is_md(s->disks.devs[i].name))
			continue;
		if (s->nmd == s->mdcap) {
			ncap = s->mdcap == 0 ? 4 : s->mdcap * 2;
			if ((md = reallocarray(s->md, ncap, sizeof *md)) ==
			    NULL)
				return (-1);
			s->md = md;
			s->mdcap = ncap;
		}
		md = &s->md[s->nmd++];
		probe_strlcpy(md->name, s->disks.devs[i].name, sizeof md->name);
		md->nmembers = 0;
		snprintf(rel, sizeof rel, "block/%s/slaves", md->name);
		if ((dir = probe_opendir(root, PROBE_SYS, rel)) == NULL)
			continue;
		while ((de = readdir(dir)) != NULL &&
		    md->nmembers < SNAPSHOT_MD_MEMBERS) {
			if (de->d_name[0] == '.')
				continue;
			if (probe_strlcpy(md->members[md->nmembers],
			    de->d_name, DISKSTATS_NAME_MAX) == 0)
				md->nmembers++;
		}
		closedir(dir);
	}
	return (0);
}

/* The md array called name, or NULL. */
const struct snapshot_md *
snapshot_md_find(const struct snapshot *s, const char *name)
{
	size_t	i;

	for (i = 0; i < s->nmd; i++)
		if (strcmp(s->md[i].name, name) == 0)
			return (&s->md[i]);
	return (NULL);
}

/* Convert the options' groups into procgroup specs kept in s. */
static int
snapshot_specs(struct snapshot *s, const struct snapshot_opts *opts)
{
	struct procgroup_spec	*p;
	size_t			 i;

	if (opts->ngroups > s->speccap) {
		if ((p = reallocarray(s->specs, opts->ngroups, sizeof *p)) ==
		    NULL)
			return (-1);
		s->specs = p;
		s->speccap = opts->ngroups;
	}
	for (i = 0; i < opts->ngroups; i++) {
		s->specs[i].name = opts->groups[i].name;
		s->specs[i].patterns = opts->groups[i].patterns;
		s->specs[i].npatterns = opts->groups[i].npatterns;
		s->specs[i].pid = opts->groups[i].pid;
	}
	return (0);
}

/*
 * ZFS's counters, where its kstats are: a box without them costs one
 * failed open a reading and no memory.
 */
static int
snapshot_read_zfs(const struct probe_root *root, struct snapshot *s,
    const char **errstr)
{
	*errstr = "no ZFS (no /proc/spl/kstat/zfs/arcstats)";
	if (!probe_exists(root, PROBE_PROC, "spl/kstat/zfs/arcstats")) {
		errno = ENOENT;
		return (-1);
	}
	if (s->zfs == NULL && (s->zfs = calloc(1, sizeof *s->zfs)) == NULL)
		return (-1);
	return (zfs_counters_read(root, &s->buf, s->zfs, errstr));
}

/* Unraid's array, where /proc/mdstat is md_unraid's. */
static int
snapshot_read_unraid(const struct probe_root *root, struct snapshot *s,
    const char **errstr)
{
	struct unraid	u;

	if (unraid_read(root, &s->buf, &u, errstr) == -1) {
		if (errno == ENOENT)
			*errstr = "not Unraid (no md_unraid /proc/mdstat)";
		return (-1);
	}
	if (s->unraid == NULL && (s->unraid = malloc(sizeof *s->unraid)) ==
	    NULL)
		return (-1);
	*s->unraid = u;
	return (0);
}

/* Read every part. */
int
snapshot_take(const struct probe_root *root, const struct snapshot_opts *opts,
    struct snapshot *s)
{
	static const struct snapshot_opts	 none;
	const char				*errstr;
	int					 rc;

	if (opts == NULL)
		opts = &none;
	clock_gettime(CLOCK_MONOTONIC, &s->mono);
	clock_gettime(CLOCK_REALTIME, &s->real);

	rc = cpustat_read(root, &s->buf, &s->cpu, &errstr);
	if (snapshot_status(s, SNAPSHOT_CPU, rc, errstr) == -1)
		return (-1);
	rc = meminfo_read(root, &s->buf, &s->mem, &errstr);
	if (snapshot_status(s, SNAPSHOT_MEMORY, rc, errstr) == -1)
		return (-1);
	rc = diskstats_read(root, &s->buf, &s->disks, &errstr);
	if (rc == 0)
		rc = snapshot_read_md(root, s);
	else
		s->nmd = 0;
	if (snapshot_status(s, SNAPSHOT_DISKS, rc, errstr) == -1)
		return (-1);
	rc = netdev_read(root, &s->buf, &s->nics, &errstr);
	if (snapshot_status(s, SNAPSHOT_NICS, rc, errstr) == -1)
		return (-1);
	if ((rc = snapshot_specs(s, opts)) == 0)
		rc = procgroup_read(root, &s->buf, s->specs, opts->ngroups,
		    &s->groups, &errstr);
	if (snapshot_status(s, SNAPSHOT_GROUPS, rc, errstr) == -1)
		return (-1);
	rc = softirqs_read(root, &s->buf, &s->softirqs, &errstr);
	if (snapshot_status(s, SNAPSHOT_SOFTIRQS, rc, errstr) == -1)
		return (-1);
	rc = pressure_read(root, &s->buf, &s->pressure, &errstr);
	if (snapshot_status(s, SNAPSHOT_PRESSURE, rc, errstr) == -1)
		return (-1);
	rc = nfsd_read(root, &s->buf, &s->nfsd, &errstr);
	if (snapshot_status(s, SNAPSHOT_NFSD, rc, errstr) == -1)
		return (-1);
	if (opts->no_crypto) {
		errno = ENOENT;
		rc = -1;
		errstr = "not read";
	} else
		rc = crypto_read(root, &s->buf, &s->crypto, &errstr);
	if (snapshot_status(s, SNAPSHOT_CRYPTO, rc, errstr) == -1)
		return (-1);
	rc = snapshot_read_zfs(root, s, &errstr);
	if (snapshot_status(s, SNAPSHOT_ZFS, rc, errstr) == -1)
		return (-1);
	rc = snapshot_read_unraid(root, s, &errstr);
	if (snapshot_status(s, SNAPSHOT_UNRAID, rc, errstr) == -1)
		return (-1);
	return (0);
}

/* Seconds from a to b on the monotonic clock. */
double
snapshot_interval(const struct snapshot *a, const struct snapshot *b)
{
	return ((double)(b->mono.tv_sec - a->mono.tv_sec) +
	    (double)(b->mono.tv_nsec - a->mono.tv_nsec) / 1e9);
}
