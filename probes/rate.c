/*
 * rate.c: counter deltas, iostat -x figures, CPU and process group rates.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "rate.h"

/* The increase of a counter, or -1 when it went backwards. */
int
rate_delta(uint64_t prev, uint64_t cur, uint64_t *delta)
{
	*delta = 0;
	if (cur < prev) {
		errno = EDOM;
		return (-1);
	}
	*delta = cur - prev;
	return (0);
}

/* A per-second rate with a sanity cap. */
int
rate_per_s(uint64_t prev, uint64_t cur, double interval, double cap,
    double *out)
{
	uint64_t	d;
	double		r;

	if (!(interval > 0) || rate_delta(prev, cur, &d) == -1)
		goto bad;
	r = (double)d / interval;
	if (r > cap)
		goto bad;
	*out = r;
	return (0);
bad:
	errno = EDOM;
	return (-1);
}

/* Per-field percentages of one core. */
int
rate_cpu(const struct cpustat_cpu *prev, const struct cpustat_cpu *cur,
    struct rate_cpu *r)
{
	uint64_t	d[CPUSTAT_NFIELDS], total = 0;
	int		i;

	memset(r, 0, sizeof *r);
	if (prev->cpu != cur->cpu || prev->nfields != cur->nfields)
		goto bad;
	for (i = 0; i < CPUSTAT_NFIELDS; i++) {
		if (rate_delta(prev->ticks[i], cur->ticks[i], &d[i]) == -1)
			goto bad;
		if (i <= CPUSTAT_STEAL)
			total += d[i];
	}
	if (total == 0)
		goto bad;
	for (i = 0; i < CPUSTAT_NFIELDS; i++)
		r->pct[i] = 100.0 * (double)d[i] / (double)total;
	r->busy_pct = 100.0 - r->pct[CPUSTAT_IDLE] - r->pct[CPUSTAT_IOWAIT];
	if (r->busy_pct < 0)
		r->busy_pct = 0;
	return (0);
bad:
	errno = EDOM;
	return (-1);
}

/* iostat -x figures of one device. */
int
rate_disk(const struct diskstats_dev *prev, const struct diskstats_dev *cur,
    double interval, struct rate_disk *r)
{
	uint64_t	rd, wr, rs, ws, rt, wt, io, q;
	double		ms = interval * 1000.0;

	memset(r, 0, sizeof *r);
	if (!(interval > 0) || prev->major != cur->major ||
	    prev->minor != cur->minor || strcmp(prev->name, cur->name) != 0)
		goto bad;
	if (rate_delta(prev->rd_ios, cur->rd_ios, &rd) == -1 ||
	    rate_delta(prev->wr_ios, cur->wr_ios, &wr) == -1 ||
	    rate_delta(prev->rd_sectors, cur->rd_sectors, &rs) == -1 ||
	    rate_delta(prev->wr_sectors, cur->wr_sectors, &ws) == -1 ||
	    rate_delta(prev->rd_ticks, cur->rd_ticks, &rt) == -1 ||
	    rate_delta(prev->wr_ticks, cur->wr_ticks, &wt) == -1 ||
	    rate_delta(prev->io_ticks, cur->io_ticks, &io) == -1 ||
	    rate_delta(prev->time_in_queue, cur->time_in_queue, &q) == -1)
		goto bad;
	r->reads_per_s = (double)rd / interval;
	r->writes_per_s = (double)wr / interval;
	r->read_bytes_per_s = (double)rs * DISKSTATS_SECTOR / interval;
	r->write_bytes_per_s = (double)ws * DISKSTATS_SECTOR / interval;
	if (r->reads_per_s > RATE_MAX_OPS_PER_S ||
	    r->writes_per_s > RATE_MAX_OPS_PER_S ||
	    r->read_bytes_per_s > RATE_MAX_BYTES_PER_S ||
	    r->write_bytes_per_s > RATE_MAX_BYTES_PER_S)
		goto bad;
	if ((r->has_read_await = rd != 0))
		r->read_await_ms = (double)rt / (double)rd;
	if ((r->has_write_await = wr != 0))
		r->write_await_ms = (double)wt / (double)wr;
	r->avg_queue = (double)q / ms;
	/* Busy time past the interval is clock skew between the readings. */
	r->util_pct = (double)io / ms * 100.0;
	if (r->util_pct > 100.0)
		r->util_pct = 100.0;
	return (0);
bad:
	memset(r, 0, sizeof *r);
	errno = EDOM;
	return (-1);
}

/* An md array's time figures from its members. */
int
rate_md(const struct diskstats_dev *const *prev,
    const struct diskstats_dev *const *cur, size_t n, double interval,
    struct rate_md *r)
{
	struct rate_disk	m;
	uint64_t		rd = 0, wr = 0, rt = 0, wt = 0, d = 0;
	double			usum = 0;
	size_t			i;

	memset(r, 0, sizeof *r);
	for (i = 0; i < n; i++) {
		if (prev[i] == NULL || cur[i] == NULL ||
		    rate_disk(prev[i], cur[i], interval, &m) == -1)
			continue;
		r->nmembers++;
		usum += m.util_pct;
		if (m.util_pct > r->util_max_pct)
			r->util_max_pct = m.util_pct;
		r->avg_queue += m.avg_queue;
		(void)rate_delta(prev[i]->rd_ios, cur[i]->rd_ios, &d);
		rd += d;
		(void)rate_delta(prev[i]->wr_ios, cur[i]->wr_ios, &d);
		wr += d;
		(void)rate_delta(prev[i]->rd_ticks, cur[i]->rd_ticks, &d);
		rt += d;
		(void)rate_delta(prev[i]->wr_ticks, cur[i]->wr_ticks, &d);
		wt += d;
	}
	if (r->nmembers == 0) {
		errno = EDOM;
		return (-1);
	}
	r->util_mean_pct = usum / (double)r->nmembers;
	if ((r->has_read_await = rd != 0))
		r->read_await_ms = (double)rt / (double)rd;
	if ((r->has_write_await = wr != 0))
		r->write_await_ms = (double)wt / (double)wr;
	return (0);
}

/* Byte and packet rates of one interface. */
int
rate_nic(const struct netdev_if *prev, const struct netdev_if *cur,
    double interval, struct rate_nic *r)
{
	memset(r, 0, sizeof *r);
	if (strcmp(prev->name, cur->name) != 0 ||
	    rate_per_s(prev->rx_bytes, cur->rx_bytes, interval,
	    RATE_MAX_BYTES_PER_S, &r->rx_bytes_per_s) == -1 ||
	    rate_per_s(prev->tx_bytes, cur->tx_bytes, interval,
	    RATE_MAX_BYTES_PER_S, &r->tx_bytes_per_s) == -1 ||
	    rate_per_s(prev->rx_packets, cur->rx_packets, interval,
	    RATE_MAX_OPS_PER_S, &r->rx_packets_per_s) == -1 ||
	    rate_per_s(prev->tx_packets, cur->tx_packets, interval,
	    RATE_MAX_OPS_PER_S, &r->tx_packets_per_s) == -1) {
		memset(r, 0, sizeof *r);
		errno = EDOM;
		return (-1);
	}
	return (0);
}

/* The process pid in a group, or NULL (procs are sorted by pid). */
const struct procgroup_proc *
rate_find_proc(const struct procgroup_group *g, int pid)
{
	size_t	lo = 0, hi = g->nprocs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->procs[mid].pid == pid)
			return (&g->procs[mid]);
		if (g->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (NULL);
}

/* CPU and throttling of a process group. */
int
rate_group(const struct procgroup_group *prev,
    const struct procgroup_group *cur, double interval, struct rate_group *r)
{
	const struct procgroup_proc	*p, *q;
	const struct cgroup_cpu		*a, *b;
	uint64_t			 d, sum = 0, best = 0, per = 0, thr = 0;
	uint64_t			 ns = 0;
	size_t				 i, j;

	memset(r, 0, sizeof *r);
	if (!(interval > 0)) {
		errno = EDOM;
		return (-1);
	}
	for (i = 0; i < cur->nprocs; i++) {
		p = &cur->procs[i];
		q = rate_find_proc(prev, p->pid);
		/* New since prev (or pid reused by another program). */
		if (q == NULL || strcmp(q->comm, p->comm) != 0)
			d = p->ticks;
		else if (rate_delta(q->ticks, p->ticks, &d) == -1)
			continue;
		sum += d;
		if (!r->has_top || d > best) {
			best = d;
			r->has_top = 1;
			r->top_pid = p->pid;
			r->top_cpu = p->processor;
			probe_strlcpy(r->top_comm, p->comm, sizeof r->top_comm);
		}
	}
	r->cpu_pct = (double)sum / CPUSTAT_HZ / interval * 100.0;
	r->top_cpu_pct = (double)best / CPUSTAT_HZ / interval * 100.0;
	for (i = 0; i < cur->ncgroups; i++) {
		b = &cur->cgroups[i];
		for (j = 0; j < prev->ncgroups; j++) {
			a = &prev->cgroups[j];
			if (!a->has_stat || !b->has_stat ||
			    a->version != b->version ||
			    strcmp(a->path, b->path) != 0)
				continue;
			if (b->nr_periods >= a->nr_periods &&
			    b->nr_throttled >= a->nr_throttled &&
			    b->throttled_ns >= a->throttled_ns) {
				per += b->nr_periods - a->nr_periods;
				thr += b->nr_throttled - a->nr_throttled;
				ns += b->throttled_ns - a->throttled_ns;
				r->has_throttled = 1;
			}
			break;
		}
	}
	if (r->has_throttled) {
		r->throttled_pct = per == 0 ? 0 :
		    100.0 * (double)thr / (double)per;
		r->throttled_s_per_s = (double)ns / 1e9 / interval;
	}
	return (0);
}
