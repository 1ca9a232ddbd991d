/*
 * cpustat.h: CPU time per core and in total, from /proc/stat.
 *
 * Times are in USER_HZ ticks (100 a second on every Linux architecture
 * nasperf runs on).  Kernels print between 4 fields (2.4) and 10 (2.6.33
 * on); nfields says how many this line had, the rest are 0 and missing.
 */
#ifndef CPUSTAT_H
#define CPUSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

/* Index of each field in struct cpustat_cpu's ticks, in kernel order. */
enum cpustat_field {
	CPUSTAT_USER, CPUSTAT_NICE, CPUSTAT_SYSTEM, CPUSTAT_IDLE,
	CPUSTAT_IOWAIT, CPUSTAT_IRQ, CPUSTAT_SOFTIRQ, CPUSTAT_STEAL,
	CPUSTAT_GUEST, CPUSTAT_GUEST_NICE
};
#define CPUSTAT_NFIELDS		10
#define CPUSTAT_MIN_FIELDS	4	/* user nice system idle */
#define CPUSTAT_HZ		100	/* USER_HZ */

/* The field names, "user" … "guest_nice", indexed by enum cpustat_field. */
extern const char *const cpustat_field_names[CPUSTAT_NFIELDS];

struct cpustat_cpu {			/* one "cpu" or "cpuN" line */
	int		cpu;		/* N, or -1 for the total line */
	int		nfields;	/* fields this kernel gave, 4..10 */
	uint64_t	ticks[CPUSTAT_NFIELDS];	/* USER_HZ ticks */
};

struct cpustat {
	int		 has_total;	/* the "cpu" line was read */
	struct cpustat_cpu total;
	struct cpustat_cpu *cpus;	/* online cores in file order */
	size_t		 ncpus;
	size_t		 cap;
	size_t		 skipped;	/* malformed cpu lines */
	int		 has_ctxt, has_intr, has_procs, has_btime;
	uint64_t	 ctxt;		/* context switches since boot */
	uint64_t	 intr;		/* interrupts since boot (the total) */
	uint64_t	 procs_running, procs_blocked;
	uint64_t	 btime;		/* boot time, seconds since the epoch */
};

/* Initialise an empty cpustat. */
void	cpustat_init(struct cpustat *);
/* Release its memory; cs may be reused after cpustat_init. */
void	cpustat_clear(struct cpustat *);
/* Read <root>/proc/stat; -1 and errno (ENOENT: not available, EINVAL). */
int	cpustat_read(const struct probe_root *, struct probe_buf *,
	    struct cpustat *, const char **errstr);
/*
 * Parse /proc/stat text.  Malformed cpu lines are skipped and counted;
 * EINVAL when no cpu line at all could be read.
 */
int	cpustat_parse(const char *, size_t, struct cpustat *, const char **);
/* The sum of all fields of a line but guest and guest_nice (already in user). */
uint64_t cpustat_total_ticks(const struct cpustat_cpu *);
/* The idle part: idle + iowait. */
uint64_t cpustat_idle_ticks(const struct cpustat_cpu *);

#endif /* CPUSTAT_H */
