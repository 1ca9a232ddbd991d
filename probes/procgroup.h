/*
 * procgroup.h: CPU, threads and memory of named groups of processes.
 *
 * A group is a name and fnmatch(3) patterns matched against each process's
 * comm, the name in parentheses in /proc/PID/stat (15 bytes at most; it may
 * hold spaces and ')').  Kernel threads count too: "nfsd", "ksmbd:*".
 * A process belongs to the first group that matches it.  For each group the
 * cgroups holding its processes' CPU controller are read as well.
 */
#ifndef PROCGROUP_H
#define PROCGROUP_H

#include <stddef.h>
#include <stdint.h>

#include "cgroup.h"
#include "probe.h"

#define PROCGROUP_NAME_MAX	64
#define PROCGROUP_COMM_MAX	64
#define PROCGROUP_MAX_CGROUPS	8	/* distinct cgroups kept per group */

struct procgroup_spec {			/* what to match: borrowed */
	const char		*name;
	const char *const	*patterns;
	size_t			 npatterns;
	int			 pid;	/* > 0: only this process */
};

struct procgroup_proc {
	int		pid;
	char		comm[PROCGROUP_COMM_MAX];
	int		processor;	/* CPU it last ran on, -1 unknown */
	uint64_t	ticks;		/* utime + stime, USER_HZ */
	uint64_t	threads;
	uint64_t	rss_bytes;
	int		kthread;	/* a kernel thread (PF_KTHREAD) */
	int		cgroup;		/* its group's cgroups[] index, -1 */
};

struct procgroup_group {
	char		 name[PROCGROUP_NAME_MAX];
	size_t		 nprocs;
	uint64_t	 threads;
	uint64_t	 ticks;		/* utime + stime summed, USER_HZ */
	uint64_t	 rss_bytes;
	struct procgroup_proc *procs;	/* sorted by pid */
	size_t		 cap;
	size_t		 ncgroups;
	size_t		 cgroups_dropped;	/* beyond PROCGROUP_MAX_CGROUPS */
	struct cgroup_cpu cgroups[PROCGROUP_MAX_CGROUPS];
};

struct procgroup {
	struct procgroup_group *groups;	/* one per spec, same order */
	size_t		 ngroups;
	size_t		 cap;
	size_t		 nscanned;	/* processes looked at */
	size_t		 skipped;	/* stat files unreadable or malformed */
	/*
	 * Processes that matched no group, by pid, from earlier reads: they
	 * are not read again but on every PROCGROUP_RESCAN-th read (a pid
	 * can be reused, and exec renames a process), so a steady sampler
	 * reads only the processes it measures.  Sorted.
	 */
	uint32_t	*others, *next_others;
	size_t		 nothers, nnext, othercap;
	unsigned	 reads;		/* procgroup_read calls so far */
};

/* Every this many reads, every process is read again. */
#define PROCGROUP_RESCAN	8

/* Initialise an empty result. */
void	procgroup_init(struct procgroup *);
/* Release its memory; pg may be reused after procgroup_init. */
void	procgroup_clear(struct procgroup *);
/*
 * Scan <root>/proc/[0-9]* and sum every process into its group.  -1 and
 * errno: ENOENT when <root>/proc is missing, ENOMEM.
 */
int	procgroup_read(const struct probe_root *, struct probe_buf *,
	    const struct procgroup_spec *, size_t nspecs, struct procgroup *,
	    const char **errstr);
/*
 * Parse one /proc/PID/stat line into p (pid, comm, processor, ticks,
 * threads, rss in pages into rss_bytes × pagesize, whether it is a kernel
 * thread from its flags).  -1 EINVAL.
 */
int	procgroup_parse_stat(const char *, size_t, uint64_t pagesize,
	    struct procgroup_proc *);
/*
 * The index of the first spec process pid called comm matches, or -1: a
 * pattern of the spec matches comm, and the spec names no pid or pid.
 */
int	procgroup_match(const struct procgroup_spec *, size_t nspecs, int pid,
	    const char *comm);

#endif /* PROCGROUP_H */
