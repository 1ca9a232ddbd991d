/*
 * pidstat.h: one process's counters, for the processes on a run's path.
 *
 * /proc/PID/stat (CPU ticks, threads, the CPU it last ran on),
 * /proc/PID/schedstat (nanoseconds on a CPU and waiting for one; absent
 * without CONFIG_SCHEDSTATS), /proc/PID/io (bytes and system calls of
 * reads and writes; only root or the owner may read it), and the CPU
 * controller of the cgroup that holds the process.  What cannot be read
 * is left unset with its errno, so that a report can say why.
 */
#ifndef PIDSTAT_H
#define PIDSTAT_H

#include <stdint.h>

#include "cgroup.h"
#include "probe.h"

struct pidstat {
	int		pid;
	char		comm[64];
	uint64_t	ticks;		/* utime + stime, USER_HZ */
	uint64_t	threads;
	int		processor;	/* -1 unknown */

	int		has_sched;
	int		sched_errno;
	uint64_t	run_ns;		/* on a CPU */
	uint64_t	wait_ns;	/* runnable, waiting for a CPU */
	uint64_t	timeslices;

	int		has_io;
	int		io_errno;	/* EACCES: not root nor the owner */
	uint64_t	rchar, wchar;	/* bytes through read and write calls */
	uint64_t	syscr, syscw;	/* those calls */
	uint64_t	read_bytes, write_bytes;	/* from and to storage */

	int		has_cgroup;
	int		cgroup_errno;
	struct cgroup_cpu cgroup;
};

/*
 * Read process pid.  -1 with errno (ENOENT: it is gone) only when its
 * stat cannot be read; the other files are optional.
 */
int	pidstat_read(const struct probe_root *, struct probe_buf *, int pid,
	    struct pidstat *);
/* Parse /proc/PID/schedstat text ("run_ns wait_ns slices"); -1 EINVAL. */
int	pidstat_parse_schedstat(const char *, size_t, struct pidstat *);
/* Parse /proc/PID/io text ("rchar: N" lines); -1 EINVAL. */
int	pidstat_parse_io(const char *, size_t, struct pidstat *);

#endif /* PIDSTAT_H */
