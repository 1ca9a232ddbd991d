/*
 * cgroup.h: the CPU controller of a process's cgroup: quota and throttling.
 *
 * cgroup v1 (DSM, QTS, ReadyNAS, this machine): /proc/PID/cgroup has
 * "N:cpu,cpuacct:/path", the files are <root>/sys/fs/cgroup/cpu,cpuacct/path
 * (or cpu/path) cpu.cfs_quota_us (-1: unlimited), cpu.cfs_period_us and
 * cpu.stat (throttled_time in ns).  cgroup v2 (Debian 12): "0::/path",
 * <root>/sys/fs/cgroup/path (or .../unified/path on a hybrid layout),
 * cpu.max ("max 100000" or "20000 100000") and cpu.stat (throttled_usec).
 */
#ifndef CGROUP_H
#define CGROUP_H

#include <stdint.h>

#include "probe.h"

#define CGROUP_PATH_MAX	256

struct cgroup_cpu {
	int		version;	/* 1 or 2 */
	char		path[CGROUP_PATH_MAX];	/* as in /proc/PID/cgroup */
	int		has_quota;	/* quota and period were read */
	int		unlimited;	/* no quota */
	uint64_t	quota_us, period_us;
	double		quota_cores;	/* quota / period, 0 when unlimited */
	int		has_stat;	/* cpu.stat was read */
	uint64_t	nr_periods, nr_throttled;
	uint64_t	throttled_ns;	/* v2's usec × 1000 */
};

/*
 * Parse /proc/PID/cgroup text: the path of the cgroup holding the CPU
 * controller (v1 "cpu" wins over v2 "0::" on hybrid systems).  -1 EINVAL
 * when there is none.
 */
int	cgroup_parse_pid(const char *, size_t, int *version, char *path,
	    size_t pathsz);
/* Read quota and cpu.stat of one cgroup; -1 ENOENT when its dir is missing. */
int	cgroup_cpu_read(const struct probe_root *, struct probe_buf *,
	    int version, const char *path, struct cgroup_cpu *);
/* Parse v2 cpu.max text into cg; -1 EINVAL. */
int	cgroup_parse_cpu_max(const char *, struct cgroup_cpu *);
/* Parse cpu.stat text (either version) into cg; -1 EINVAL. */
int	cgroup_parse_cpu_stat(const char *, size_t, struct cgroup_cpu *);

#endif /* CGROUP_H */
