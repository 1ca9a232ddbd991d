/*
 * rate.h: rates between two readings of the same counters.
 *
 * A counter that went backwards (a 32-bit wrap, a device hot-plugged or
 * re-created, a reboot) or a device whose identity changed (other
 * major:minor, a name that was not there before) gives "not available"
 * for that interval, never a negative or huge rate.  Rates above a sanity
 * cap (RATE_MAX_*) are not available either.  Disk figures are computed
 * exactly as sysstat's iostat -x does.
 */
#ifndef RATE_H
#define RATE_H

#include <stddef.h>
#include <stdint.h>

#include "cpustat.h"
#include "diskstats.h"
#include "netdev.h"
#include "procgroup.h"

#define RATE_MAX_BYTES_PER_S	1e12	/* 8 Tbit/s: no NAS disk or NIC */
#define RATE_MAX_OPS_PER_S	1e9

/*
 * The increase of a counter from prev to cur into *delta; -1 and EDOM when
 * it went backwards.
 */
int	rate_delta(uint64_t prev, uint64_t cur, uint64_t *delta);
/* (cur - prev) / interval into *out; -1 when backwards, over cap, or interval <= 0. */
int	rate_per_s(uint64_t prev, uint64_t cur, double interval, double cap,
	    double *out);

struct rate_cpu {			/* one core, or the total */
	double	pct[CPUSTAT_NFIELDS];	/* of the interval, per field */
	double	busy_pct;		/* 100 - idle - iowait */
};
/* Per-field percentages between two lines of one core; -1 when not available. */
int	rate_cpu(const struct cpustat_cpu *prev, const struct cpustat_cpu *cur,
	    struct rate_cpu *);

struct rate_disk {			/* iostat -x for one device */
	double	reads_per_s, writes_per_s;		/* r/s w/s */
	double	read_bytes_per_s, write_bytes_per_s;	/* rkB/s × 1024 */
	int	has_read_await, has_write_await;	/* no I/O: no await */
	double	read_await_ms, write_await_ms;		/* r_await w_await */
	double	avg_queue;				/* aqu-sz */
	double	util_pct;				/* %util */
};
/*
 * iostat -x figures of one device over interval seconds; -1 when the
 * device changed identity or a counter went backwards.
 */
int	rate_disk(const struct diskstats_dev *prev,
	    const struct diskstats_dev *cur, double interval, struct rate_disk *);

struct rate_md {			/* an md array's time from its members */
	size_t	nmembers;		/* members with a rate */
	double	util_max_pct;		/* busiest member */
	double	util_mean_pct;		/* mean over members */
	int	has_read_await, has_write_await;
	double	read_await_ms;		/* member rd_ticks / rd_ios, summed */
	double	write_await_ms;
	double	avg_queue;		/* members' aqu-sz summed */
};
/*
 * Fold the members of an md array (n pairs of prev/cur rows, NULL where a
 * member is missing) into r; -1 when no member has a rate.
 */
int	rate_md(const struct diskstats_dev *const *prev,
	    const struct diskstats_dev *const *cur, size_t n, double interval,
	    struct rate_md *r);

struct rate_nic {
	double	rx_bytes_per_s, tx_bytes_per_s;
	double	rx_packets_per_s, tx_packets_per_s;
};
/* Byte and packet rates of one interface; -1 when not available. */
int	rate_nic(const struct netdev_if *prev, const struct netdev_if *cur,
	    double interval, struct rate_nic *);

struct rate_group {
	double	cpu_pct;		/* of one core */
	int	has_top;
	int	top_pid;		/* the busiest process in the interval */
	char	top_comm[PROCGROUP_COMM_MAX];
	int	top_cpu;		/* the core it last ran on */
	double	top_cpu_pct;
	int	has_throttled;
	double	throttled_pct;		/* periods throttled, of all periods */
	double	throttled_s_per_s;	/* seconds throttled per second */
};
/* The process pid in group g, or NULL (a binary search: procs are sorted). */
const struct procgroup_proc *rate_find_proc(const struct procgroup_group *g,
	    int pid);
/*
 * CPU of a process group, from each process's own ticks (so one exiting
 * does not make the sum go backwards).  -1 when interval <= 0.
 */
int	rate_group(const struct procgroup_group *prev,
	    const struct procgroup_group *cur, double interval,
	    struct rate_group *);

#endif /* RATE_H */
