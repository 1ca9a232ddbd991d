/*
 * verdict.c: the bottleneck verdict of a run, with its evidence.
 *
 * Every figure comes from the difference of two samples of cumulative
 * counters: the window's first and last for the totals, consecutive ones
 * for the series.  A counter missing from either end, or one that went
 * backwards, gives no figure (null), never a guess.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cfg.h"
#include "cpustat.h"
#include "diskstats.h"
#include "encode.h"
#include "history.h"
#include "np.h"
#include "nptime.h"
#include "smbstatus.h"
#include "topology.h"
#include "verdict.h"

#define V_MAX_CANDS	128
#define V_MAX_POINTS	240	/* points per chart series */
#define V_MAX_PIDS	32
#define V_MIN_CACHE_BYTES 1000000	/* a cache verdict needs 1 MB read */
#define V_OTHERS_IDLE	50.0	/* other cores below this: a single-core case */
#define V_PSI_DISK	50.0	/* io stalled this % of the time */
#define V_CONTRADICT	0.5	/* NIC bytes below this share of the client's */
#define V_ACTIVE	0.5	/* a step moving half its capacity is busy */
#define V_STALE_PCT	115.0	/* a rate this far over a capacity: stale */
#define V_MIN_SAMPLES	6	/* fewer in the window: confidence not high */
#define V_FEW_SAMPLES	3	/* fewer: confidence low */
#define V_RWND_PCT	50.0	/* sender held by the client's window */
#define V_UPLOAD_SHARE	0.5	/* of the path's capacity: an upload sent slowly */
#define V_OFF_BUSY	50.0	/* off the path, this busy is worth a word */
#define V_INFLIGHT_LO	0.6	/* requests/s x round trip: one in flight */
#define V_LOSS_PCT	1.0	/* segments retransmitted, % of those sent */
#define V_MSS		1448.0	/* bytes a segment, to count them */
#define V_INFLIGHT_HI	1.5
#define V_CEIL_REACHED	85.0	/* of the lower ceiling: it was reached */
#define V_ZIL_SHARE	0.3	/* intent log commits a write request: sync */

/* A resource looked at, and how close to its limit it was. */
struct v_cand {
	enum verdict_class cls;		/* disk, network, cpu, contention */
	char		 resource[96];
	char		 metric[24];
	double		 value;
	const char	*unit;
	double		 capacity;	/* NAN when not known */
	double		 util;		/* percent, NAN when no capacity */
	double		 threshold;	/* percent at which it saturates */
	char		 detail[200];
	char		 summary[300];
	double		 bytes;		/* disks: moved in the window */
	int		 member;	/* an array's member: the array speaks */
	int		 stale;		/* over its capacity: not a verdict */
};

struct v_ctx {
	enum verdict_class	 cls;		/* the verdict's, once decided */
	const struct history	*h;
	const struct verdict_run *run;
	const struct cfg	*cfg;
	const struct hist_sample *a, *b;	/* the window's ends */
	struct hist_window	 all;		/* every sample in it */
	double			 T;		/* seconds */
	struct v_cand		 c[V_MAX_CANDS];
	size_t			 nc;
	json_t			*obs;
	double			 client_rate;	/* NAN when unknown */
	double			 disk_read_bytes;	/* physical disks */
	double			 nic_bytes;	/* all but loopback, both ways */
	double			 max_util;	/* of any resource, percent */
	size_t			 busiest_nic;	/* the most bytes, lo aside */
	struct verdict_facts	 f;		/* for the hints */
	char			 nic_name[HIST_NAME_MAX];
	/* What the transfer used, when it was observed; else NULL. */
	const struct verdict_path *path;
	ssize_t			 path_nic;	/* its interface, -1 */
};

struct v_cpu {
	double	busy, iowait, softirq, irq, system, user, steal;
};

struct v_disk {
	uint64_t	rbytes, wbytes, rios, wios;
	double		rbps, wbps, iops, busy, await_ms, req_bytes;
	int		has_busy, has_await;
};

struct v_nic {
	double	rx, tx, rxp, txp;	/* per second */
	double	rx_bytes, tx_bytes;
};

struct v_group {
	double		cpu_pct;	/* of one core */
	int		has_throttle;
	double		throttled_pct;	/* of periods */
	double		throttled_s;	/* per second */
	double		quota_cores;	/* 0: none */
	int		top_pid, top_core;
	double		top_pct;
	/* The run's SMB session's smbd, when it was among the top pids. */
	int		has_sess, sess_core;
	double		sess_pct;
	/* The busiest process of its most throttled cgroup, last seen; -1. */
	int		thr_pid;
};

/* Append an observation sentence. */
static NP_PRINTF(4, 5) void
v_observe(struct v_ctx *x, enum verdict_class cls, const char *resource,
    const char *fmt, ...)
{
	va_list	ap;
	char	text[400];

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	json_array_append_new(x->obs, json_pack("{s:s,s:o,s:o}", "class",
	    verdict_class_name(cls), "resource", enc_text_or_null(resource),
	    "text", enc_text(text)));
}

/* Increase of a counter from a to b; -1 when not available. */
static int
v_delta(const struct history *h, const struct hist_sample *a,
    const struct hist_sample *b, enum hist_kind k, size_t i, unsigned f,
    uint64_t *out)
{
	uint64_t	va, vb;

	vb = history_value(b, k, i, f);
	va = history_value(a, k, i, f);
	if (vb == HIST_NONE)
		return (-1);
	if (va == HIST_NONE) {
		/* Registered after a was taken: it had done no I/O before. */
		if (i < h->nent[k] && h->ent[k][i].late && i >= a->n[k])
			va = 0;
		else
			return (-1);
	}
	if (vb < va)
		return (-1);
	*out = vb - va;
	return (0);
}

/* A core's (or the total's) percentages from a to b; -1 when not available. */
static int
v_cpu(const struct history *h, const struct hist_sample *a,
    const struct hist_sample *b, size_t i, struct v_cpu *c)
{
	uint64_t	d[HIST_CPU_FIELDS], total = 0;
	unsigned	f;

	for (f = 0; f < HIST_CPU_FIELDS; f++) {
		if (v_delta(h, a, b, HIST_CPU, i, f, &d[f]) == -1)
			return (-1);
		total += d[f];
	}
	if (total == 0)
		return (-1);
#define V_PCT(x)	(100.0 * (double)(x) / (double)total)
	c->busy = V_PCT(total - d[HIST_CPU_IDLE] - d[HIST_CPU_IOWAIT]);
	c->iowait = V_PCT(d[HIST_CPU_IOWAIT]);
	c->softirq = V_PCT(d[HIST_CPU_SOFTIRQ]);
	c->irq = V_PCT(d[HIST_CPU_IRQ]);
	c->system = V_PCT(d[HIST_CPU_SYSTEM]);
	c->user = V_PCT(d[HIST_CPU_USER] + d[HIST_CPU_NICE]);
	c->steal = V_PCT(d[HIST_CPU_STEAL]);
#undef V_PCT
	return (0);
}

/* A disk's iostat figures from a to b; -1 when not available. */
static int
v_disk(const struct history *h, const struct hist_sample *a,
    const struct hist_sample *b, size_t i, struct v_disk *r)
{
	uint64_t	rs, ws, ri, wi, rt, wt, io;
	double		T = b->t - a->t;

	memset(r, 0, sizeof *r);
	if (T <= 0 ||
	    v_delta(h, a, b, HIST_DISK, i, HIST_DISK_RD_SECTORS, &rs) == -1 ||
	    v_delta(h, a, b, HIST_DISK, i, HIST_DISK_WR_SECTORS, &ws) == -1 ||
	    v_delta(h, a, b, HIST_DISK, i, HIST_DISK_RD_IOS, &ri) == -1 ||
	    v_delta(h, a, b, HIST_DISK, i, HIST_DISK_WR_IOS, &wi) == -1)
		return (-1);
	r->rbytes = rs * DISKSTATS_SECTOR;
	r->wbytes = ws * DISKSTATS_SECTOR;
	r->rios = ri;
	r->wios = wi;
	r->rbps = (double)r->rbytes / T;
	r->wbps = (double)r->wbytes / T;
	r->iops = (double)(ri + wi) / T;
	r->req_bytes = ri + wi > 0 ? (double)(r->rbytes + r->wbytes) /
	    (double)(ri + wi) : NAN;
	if (v_delta(h, a, b, HIST_DISK, i, HIST_DISK_IO_TICKS, &io) == 0) {
		r->has_busy = 1;
		r->busy = fmin(100.0, (double)io / (T * 1000.0) * 100.0);
	}
	if (ri + wi > 0 &&
	    v_delta(h, a, b, HIST_DISK, i, HIST_DISK_RD_TICKS, &rt) == 0 &&
	    v_delta(h, a, b, HIST_DISK, i, HIST_DISK_WR_TICKS, &wt) == 0) {
		r->has_await = 1;
		r->await_ms = (double)(rt + wt) / (double)(ri + wi);
	}
	return (0);
}

/* An interface's rates from a to b; -1 when not available. */
static int
v_nic(const struct history *h, const struct hist_sample *a,
    const struct hist_sample *b, size_t i, struct v_nic *r)
{
	uint64_t	rx, tx, rxp, txp;
	double		T = b->t - a->t;

	if (T <= 0 ||
	    v_delta(h, a, b, HIST_NIC, i, HIST_NIC_RX_BYTES, &rx) == -1 ||
	    v_delta(h, a, b, HIST_NIC, i, HIST_NIC_TX_BYTES, &tx) == -1 ||
	    v_delta(h, a, b, HIST_NIC, i, HIST_NIC_RX_PACKETS, &rxp) == -1 ||
	    v_delta(h, a, b, HIST_NIC, i, HIST_NIC_TX_PACKETS, &txp) == -1)
		return (-1);
	r->rx_bytes = (double)rx;
	r->tx_bytes = (double)tx;
	r->rx = (double)rx / T;
	r->tx = (double)tx / T;
	r->rxp = (double)rxp / T;
	r->txp = (double)txp / T;
	return (0);
}

/* A process group's CPU from a to b; -1 when not available. */
static int
v_group(const struct history *h, const struct hist_sample *a,
    const struct hist_sample *b, size_t i, struct v_group *g)
{
	uint64_t	ticks, per, thr, ns, q;
	double		T = b->t - a->t;

	memset(g, 0, sizeof *g);
	g->top_pid = g->top_core = -1;
	if (T <= 0 ||
	    v_delta(h, a, b, HIST_GROUP, i, HIST_GROUP_TICKS, &ticks) == -1)
		return (-1);
	g->cpu_pct = (double)ticks / CPUSTAT_HZ / T * 100.0;
	if (v_delta(h, a, b, HIST_GROUP, i, HIST_GROUP_PERIODS, &per) == 0 &&
	    v_delta(h, a, b, HIST_GROUP, i, HIST_GROUP_THROTTLED, &thr) == 0 &&
	    v_delta(h, a, b, HIST_GROUP, i, HIST_GROUP_THROTTLED_NS,
	    &ns) == 0 && per > 0) {
		g->has_throttle = 1;
		g->throttled_pct = 100.0 * (double)thr / (double)per;
		g->throttled_s = (double)ns / 1e9 / T;
	}
	q = history_value(b, HIST_GROUP, i, HIST_GROUP_QUOTA_MCORES);
	g->quota_cores = q != HIST_NONE ? (double)q / 1000.0 : 0;
	return (0);
}

/* The group's busiest process over the window, from every sample in it. */
static void
v_group_top(const struct v_ctx *x, size_t i, struct v_group *g)
{
	struct { int pid, core; uint64_t ticks; } t[V_MAX_PIDS];
	const struct hist_sample	*s;
	uint64_t			 pid, core, tk;
	size_t				 n = 0, j, k, best = 0;

	g->thr_pid = -1;
	for (j = 1; j < x->all.n; j++) {
		s = x->all.s[j];
		pid = history_value(s, HIST_GROUP, i, HIST_GROUP_THR_PID);
		if (pid != HIST_NONE)
			g->thr_pid = (int)pid;
		pid = history_value(s, HIST_GROUP, i, HIST_GROUP_TOP_PID);
		tk = history_value(s, HIST_GROUP, i, HIST_GROUP_TOP_TICKS);
		core = history_value(s, HIST_GROUP, i, HIST_GROUP_TOP_CORE);
		if (pid == HIST_NONE || tk == HIST_NONE || tk == 0)
			continue;
		for (k = 0; k < n; k++)
			if (t[k].pid == (int)pid)
				break;
		if (k == n) {
			if (n == V_MAX_PIDS)
				continue;
			t[n].pid = (int)pid;
			t[n].ticks = 0;
			n++;
		}
		t[k].ticks += tk;
		t[k].core = core != HIST_NONE ? (int)core : -1;
	}
	for (k = 1; k < n; k++)
		if (t[k].ticks > t[best].ticks)
			best = k;
	if (n > 0 && x->T > 0) {
		g->top_pid = t[best].pid;
		g->top_core = t[best].core;
		g->top_pct = (double)t[best].ticks / CPUSTAT_HZ / x->T * 100.0;
	}
	for (k = 0; x->run->session != NULL && x->T > 0 && k < n; k++)
		if (t[k].pid == x->run->session->pid) {
			g->has_sess = 1;
			g->sess_core = t[k].core;
			g->sess_pct = (double)t[k].ticks / CPUSTAT_HZ / x->T *
			    100.0;
		}
}

/*
 * The process to name for group i: the run's own smbd when it did at
 * least half the work of the busiest, else the busiest.
 */
static void
v_group_proc(const struct v_ctx *x, const struct v_group *g, int *pid,
    int *core, double *pct)
{
	*pid = g->top_pid;
	*core = g->top_core;
	*pct = g->top_pct;
	if (g->has_sess && g->sess_pct >= g->top_pct / 2.0) {
		*pid = x->run->session->pid;
		*core = g->sess_core;
		*pct = g->sess_pct;
	}
}

/* Add a candidate resource. */
static struct v_cand *
v_cand(struct v_ctx *x, enum verdict_class cls, const char *resource,
    const char *metric, double value, const char *unit, double capacity,
    double threshold)
{
	struct v_cand	*c;

	if (x->nc == V_MAX_CANDS)
		return (NULL);
	c = &x->c[x->nc++];
	memset(c, 0, sizeof *c);
	c->cls = cls;
	snprintf(c->resource, sizeof c->resource, "%s", resource);
	snprintf(c->metric, sizeof c->metric, "%s", metric);
	c->value = value;
	c->unit = unit;
	c->capacity = capacity;
	c->util = capacity > 0 ? 100.0 * value / capacity : NAN;
	c->threshold = threshold;
	/*
	 * Far over its capacity, the capacity is what is wrong (measured on
	 * another layout, a sparse image, a nominal speed): not saturation.
	 */
	c->stale = isfinite(c->util) && c->util > V_STALE_PCT;
	if (isfinite(c->util) && !c->stale && c->util > x->max_util)
		x->max_util = c->util;
	return (c);
}

/* Whether disk entity i is a member of an md array with busy figures. */
static const struct hist_ent *
v_disk_parent(const struct history *h, const char *name)
{
	const struct hist_ent	*e;
	const char		*p;
	size_t			 i, len = strlen(name);

	for (i = 0; i < h->nent[HIST_DISK]; i++) {
		e = &h->ent[HIST_DISK][i];
		if (e->members == NULL)
			continue;
		for (p = e->members; p != NULL; p = strchr(p, ',')) {
			if (*p == ',')
				p++;
			if (strncmp(p, name, len) == 0 &&
			    (p[len] == ',' || p[len] == '\0'))
				return (e);
		}
	}
	return (NULL);
}

/* Whether the disk called name did I/O in the window. */
static int
v_active(const struct v_ctx *x, const char *name)
{
	struct v_disk	r;
	int		i;

	if ((i = history_find(x->h, HIST_DISK, name)) == -1 ||
	    v_disk(x->h, x->a, x->b, (size_t)i, &r) == -1)
		return (0);
	return (r.rios + r.wios > 0);
}

/* Raise *busy to the busiest member of array e, whose name goes to out. */
static void
v_busiest_member(const struct v_ctx *x, const struct hist_ent *e,
    double *busy, char *out, size_t outsz)
{
	struct v_disk	 r;
	char		*m, *p, *save = NULL;
	double		 best = -1;
	int		 i;

	if (e->members == NULL || (m = strdup(e->members)) == NULL)
		return;
	for (p = strtok_r(m, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		if ((i = history_find(x->h, HIST_DISK, p)) == -1 ||
		    v_disk(x->h, x->a, x->b, (size_t)i, &r) == -1 ||
		    !r.has_busy || r.busy <= best)
			continue;
		best = r.busy;
		snprintf(out, outsz, "%s at %.0f %%", p, r.busy);
	}
	free(m);
	if (best > *busy)
		*busy = best;
}

/* "8 disks" for an array's member list. */
static const char *
v_md_level(const struct hist_ent *e)
{
	static char	buf[32];
	const char	*p;
	size_t		 n = 1;

	for (p = e->members; p != NULL && *p != '\0'; p++)
		if (*p == ',')
			n++;
	snprintf(buf, sizeof buf, "an array of %zu disks", n);
	return (buf);
}

/* MB/s as text; see verdict.h. */
void
verdict_mbs(char *out, size_t outsz, double bps)
{
	if (!isfinite(bps))
		snprintf(out, outsz, "-");
	else if (bps >= 100e6)
		snprintf(out, outsz, "%.0f MB/s", bps / 1e6);
	else if (bps >= 1e6)
		snprintf(out, outsz, "%.1f MB/s", bps / 1e6);
	else
		snprintf(out, outsz, "%.2f MB/s", bps / 1e6);
}

/*
 * A disk's use of its measured capability: read over the baseline's read
 * plus write over its write, in percent; NAN without a baseline.
 */
static double
v_baseline(const struct v_ctx *x, const char *disk, const struct v_disk *r,
    double *base_r, double *base_w)
{
	double	u = 0;

	*base_r = *base_w = 0;
	if (x->run->baseline == NULL || x->run->baseline(x->run->baseline_arg,
	    disk, base_r, base_w, NULL) == -1)
		return (NAN);
	if (r->rbps > 0 && *base_r <= 0)
		return (NAN);	/* reads it was never measured for */
	if (r->wbps > 0 && *base_w <= 0)
		*base_w = *base_r;	/* raw disks are never written */
	if (*base_r > 0)
		u += r->rbps / *base_r;
	if (*base_w > 0)
		u += r->wbps / *base_w;
	return (100.0 * u);
}

/*
 * The part of the window from the first to the last step in which entity
 * i of kind k (an interface: its busier direction; a disk: reads and
 * writes) moved half its capacity cap, when that is at least half
 * the window: a client's start-up and tear-down, idle on the wire and on
 * the disks, are not the resource's.  Else the whole window.  Its length
 * goes to *span.
 */
static void
v_span(const struct v_ctx *x, enum hist_kind kind, size_t i, double cap,
    const struct hist_sample **pa, const struct hist_sample **pb,
    double *span)
{
	const struct hist_sample	*s0 = NULL, *s1 = NULL;
	struct v_nic			 n;
	struct v_disk			 d;
	double				 v;
	size_t				 k;

	*pa = x->a;
	*pb = x->b;
	*span = x->T;
	if (!isfinite(cap))
		return;
	for (k = 1; k < x->all.n; k++) {
		if (kind == HIST_NIC) {
			if (v_nic(x->h, x->all.s[k - 1], x->all.s[k], i, &n) ==
			    -1)
				continue;
			v = fmax(n.rx, n.tx);
		} else {
			if (v_disk(x->h, x->all.s[k - 1], x->all.s[k], i, &d) ==
			    -1)
				continue;
			v = d.rbps + d.wbps;
		}
		if (v < cap * V_ACTIVE)
			continue;
		if (s0 == NULL)
			s0 = x->all.s[k - 1];
		s1 = x->all.s[k];
	}
	if (s0 == NULL || s1->t - s0->t < x->T / 2.0)
		return;
	*pa = s0;
	*pb = s1;
	*span = s1->t - s0->t;
}

/* Whether disk name is under one of the run's volumes. */
static int
v_disk_on_path(const struct v_ctx *x, const char *name)
{
	size_t	i;

	for (i = 0; i < x->path->ndisks; i++)
		if (strcmp(x->path->disks[i], name) == 0)
			return (1);
	return (0);
}

/* Disks: busy time against 100 %, or throughput against the baseline. */
static void
v_disks(struct v_ctx *x)
{
	const struct history	*h = x->h;
	const struct hist_ent	*e, *parent;
	const struct hist_sample *sa, *sb;
	struct v_disk		 r, ra;
	struct v_cand		*c;
	char			 rb[32], wb[32], res[96], member[HIST_NAME_MAX];
	char			 during[48];
	double			 busy, base, base_r, base_w, span;
	size_t			 i;

	if (x->path != NULL && x->path->zfs && x->path->ndisks == 0)
		v_observe(x, VERDICT_DISK, NULL, "zpool status has not listed ZFS "
		    "pool %s (zfs.zpool, zfs.status_interval), so none of "
		    "its disks was judged as the transfer's", x->path->pool);
	for (i = 0; i < h->nent[HIST_DISK]; i++) {
		e = &h->ent[HIST_DISK][i];
		if (e->dkind == HIST_DK_PART ||
		    v_disk(h, x->a, x->b, i, &r) == -1 ||
		    r.rios + r.wios == 0)
			continue;
		/* A disk under none of the run's volumes is not its. */
		if (x->path != NULL && x->path->volume_seen &&
		    !v_disk_on_path(x, e->name)) {
			/* Worth a word: busy, or moving more than the run. */
			verdict_mbs(rb, sizeof rb, r.rbps + r.wbps);
			if ((r.has_busy && r.busy >= V_OFF_BUSY) ||
			    (x->run->has_bytes && (double)(r.rbytes +
			    r.wbytes) > (double)x->run->bytes))
				v_observe(x, VERDICT_DISK, e->name, "%s was busy %.0f "
				    "%% of the window at %s, off this transfer's "
				    "path (its files are on %s)", e->name, r.busy,
				    rb, x->path->volume);
			continue;
		}
		if (e->dkind == HIST_DK_DISK || e->dkind == HIST_DK_LOOP)
			x->disk_read_bytes += (double)r.rbytes;
		if (!r.has_busy)
			continue;
		if (x->path != NULL && x->path->synth) {
			if (r.busy >= V_OFF_BUSY)
				v_observe(x, VERDICT_DISK, e->name, "%s was busy %.0f "
				    "%% of the window, off this transfer's path "
				    "(the synthetic data plane reads no disk)",
				    e->name, r.busy);
			continue;
		}
		verdict_mbs(rb, sizeof rb, r.rbps);
		verdict_mbs(wb, sizeof wb, r.wbps);
		parent = v_disk_parent(h, e->name);
		if (e->dkind == HIST_DK_MD)
			snprintf(res, sizeof res, "%s", e->name);
		else if (parent != NULL)
			snprintf(res, sizeof res, "%s (member of %s)", e->name,
			    parent->name);
		else
			snprintf(res, sizeof res, "%s", e->name);
		busy = r.busy;
		member[0] = '\0';
		if (e->dkind == HIST_DK_MD)
			v_busiest_member(x, e, &busy, member, sizeof member);
		base = v_baseline(x, e->name, &r, &base_r, &base_w);
		/* Against its capability, over the part it moved data in. */
		during[0] = '\0';
		if (isfinite(base)) {
			v_span(x, HIST_DISK, i, fmax(base_r, base_w), &sa, &sb,
			    &span);
			if (span < x->T - h->interval / 2.0 &&
			    v_disk(h, sa, sb, i, &ra) == 0) {
				base = v_baseline(x, e->name, &ra, &base_r,
				    &base_w);
				snprintf(during, sizeof during, " over the %.1f "
				    "s it moved data", span);
			}
		}
		if (isfinite(base) && base > V_STALE_PCT) {
			v_observe(x, VERDICT_DISK, e->name, "%s moved %s read and %s "
			    "written, %.0f %% of its baseline (%.0f MB/s read, "
			    "%.0f MB/s write): the baseline is out of date "
			    "(another layout, or a sparse or cached device); "
			    "measure it again with nasperf disktest", e->name,
			    rb, wb, base, base_r / 1e6, base_w / 1e6);
			base = NAN;
		}
		if (isfinite(base) && base > busy) {
			/* The throughput it can do says more than busy time. */
			c = v_cand(x, VERDICT_DISK, res, "of baseline", base, "%",
			    100.0, x->cfg->v_disk_busy_pct);
			busy = base;
		} else
			c = v_cand(x, VERDICT_DISK, res, "busy", busy, "%", 100.0,
			    x->cfg->v_disk_busy_pct);
		if (c == NULL)
			return;
		c->bytes = (double)(r.rbytes + r.wbytes);
		c->member = parent != NULL && v_active(x, parent->name);
		snprintf(c->detail, sizeof c->detail, "%s read, %s written, "
		    "%.0f IOPS, %.0f KiB/request%s%.1f%s", rb, wb, r.iops,
		    isfinite(r.req_bytes) ? r.req_bytes / 1024.0 : 0.0,
		    r.has_await ? ", await " : "", r.has_await ? r.await_ms :
		    0.0, r.has_await ? " ms" : "");
		if (isfinite(base)) {
			size_t	len = strlen(c->detail);

			snprintf(c->detail + len, sizeof c->detail - len, "; "
			    "baseline %.0f MB/s read, %.0f MB/s write: %.0f %% "
			    "of it%s; busy %.0f %%", base_r / 1e6, base_w / 1e6,
			    base, during, r.busy);
		}
		snprintf(c->summary, sizeof c->summary, "disk-bound: %s was "
		    "busy %.0f %% of the window (%s read, %s written, %.0f "
		    "IOPS)", e->name, busy, rb, wb, r.iops);
		if (isfinite(base) && base >= busy) {
			if (during[0] != '\0') {
				verdict_mbs(rb, sizeof rb, ra.rbps);
				verdict_mbs(wb, sizeof wb, ra.wbps);
			}
			snprintf(c->summary, sizeof c->summary, "disk-bound: %s "
			    "moved %s read and %s written%s, %.0f %% of what "
			    "the disk analyzer measured it can do", e->name, rb,
			    wb, during, base);
		}
		if (member[0] != '\0')
			snprintf(c->summary, sizeof c->summary, "disk-bound: "
			    "%s, %s, was busy %.0f %% of the window (%s read, "
			    "%s written, %.0f IOPS); busiest member %s",
			    e->name, v_md_level(e), busy, rb, wb, r.iops,
			    member);
		/* Name the member's array as the resource the client met. */
		if (parent != NULL)
			snprintf(c->summary, sizeof c->summary, "disk-bound: %s, "
			    "a member of %s, was busy %.0f %% of the window "
			    "(%s read, %s written, %.0f IOPS)", e->name,
			    parent->name, r.busy, rb, wb, r.iops);
	}
}

/* ", 5 min ago": how long before now a capacity was measured; "" unknown. */
static void
v_ago(double when, double now, char *out, size_t outsz)
{
	double	s = now - when;

	out[0] = '\0';
	if (!(when > 0) || !(s >= 0))
		return;
	if (s < 120)
		snprintf(out, outsz, ", %.0f s ago", s);
	else if (s < 7200)
		snprintf(out, outsz, ", %.0f min ago", s / 60);
	else if (s < 2 * 86400)
		snprintf(out, outsz, ", %.0f h ago", s / 3600);
	else
		snprintf(out, outsz, ", %.0f days ago", s / 86400);
}

/* The capacity of an interface in bytes/s, or NAN, and where it came from. */
static double
v_nic_capacity(const struct v_ctx *x, const struct hist_ent *e,
    const char **src)
{
	uint64_t	mbps;

	if ((mbps = cfg_nic_speed(x->cfg, e->name)) > 0) {
		*src = "configured";
		return ((double)mbps * 1e6 / 8.0);
	}
	/* A veth, bridge or tunnel says 10000 whatever carries it. */
	if (e->is_virtual && !e->is_bond) {
		*src = "unknown";
		return (NAN);
	}
	if (e->speed_mbps > 0) {
		*src = "link";
		return ((double)e->speed_mbps * 1e6 / 8.0);
	}
	*src = "unknown";
	return (NAN);
}

/* Whether a bond's mode hashes each flow onto one member. */
static int
v_hashing(const char *mode)
{
	return (strcmp(mode, "802.3ad") == 0 ||
	    strcmp(mode, "balance-xor") == 0);
}

/* The member of bond i that carried the most in the window, or -1. */
static ssize_t
v_bond_member(const struct v_ctx *x, size_t i)
{
	const struct hist_ent	*b = &x->h->ent[HIST_NIC][i], *m;
	struct v_nic		 r;
	double			 most = 0;
	ssize_t			 best = -1;
	size_t			 j;

	for (j = 0; j < x->h->nent[HIST_NIC]; j++) {
		m = &x->h->ent[HIST_NIC][j];
		if (strcmp(m->master, b->name) != 0 ||
		    v_nic(x->h, x->a, x->b, j, &r) == -1)
			continue;
		if (r.rx_bytes + r.tx_bytes > most) {
			most = r.rx_bytes + r.tx_bytes;
			best = (ssize_t)j;
		}
	}
	return (best);
}

/* The busiest interface's figures for the hints. */
static void
v_nic_facts(struct v_ctx *x, const struct hist_ent *e, const struct v_nic *r)
{
	int	tx = r->tx >= r->rx;

	snprintf(x->nic_name, sizeof x->nic_name, "%s", e->name);
	x->f.nic = x->nic_name;
	x->f.nic_mtu = e->mtu;
	x->f.nic_pps = tx ? r->txp : r->rxp;
	x->f.nic_pkt = x->f.nic_pps > 0 ? (tx ? r->tx : r->rx) / x->f.nic_pps :
	    0;
}

/*
 * The candidate of interface i with its window figures r; bi is the bond
 * it stands for (a member of a hashing bond), or (size_t)-1.  -1 when the
 * candidates are full.
 */
static int
v_nic_cand(struct v_ctx *x, size_t i, size_t bi, struct v_nic *r)
{
	const struct history		*h = x->h;
	const struct hist_ent		*e = &h->ent[HIST_NIC][i], *be = NULL;
	const struct hist_sample	*sa, *sb;
	struct v_cand			*c;
	const char			*src, *bsrc, *dir;
	char				 mb[32], during[48], ago[32], measured[80];
	double				 cap, bcap = NAN, v, span;
	size_t				 path = i;

	cap = v_nic_capacity(x, e, &src);
	if (bi != (size_t)-1) {
		be = &h->ent[HIST_NIC][bi];
		bcap = v_nic_capacity(x, be, &bsrc);
		path = bi;
	}
	if (strcmp(e->name, "lo") == 0 && !isfinite(cap))
		return (0);	/* a client on the box itself */
	if (x->run->path_capacity > 0 && path == x->busiest_nic &&
	    (!isfinite(cap) || x->run->path_capacity < cap)) {
		cap = x->run->path_capacity;
		v_ago(x->run->path_capacity_time, x->b->t, ago, sizeof ago);
		snprintf(measured, sizeof measured, "measured path to the "
		    "client%s", ago);
		src = measured;
	}
	v_span(x, HIST_NIC, i, cap, &sa, &sb, &span);
	during[0] = '\0';
	if (span < x->T - x->h->interval / 2.0 &&
	    v_nic(h, sa, sb, i, r) == 0)
		snprintf(during, sizeof during, " over the %.1f s it "
		    "carried traffic", span);
	dir = r->tx >= r->rx ? "tx" : "rx";
	v = r->tx >= r->rx ? r->tx : r->rx;
	c = v_cand(x, VERDICT_NETWORK, e->name, dir, v, "B/s", cap,
	    x->cfg->v_nic_util_pct);
	if (c == NULL)
		return (-1);
	verdict_mbs(mb, sizeof mb, v);
	if (isfinite(cap))
		snprintf(c->detail, sizeof c->detail, "rx %.1f MB/s, tx "
		    "%.1f MB/s, %.0f/%.0f packets/s%s; capacity %.0f "
		    "Mb/s (%s)", r->rx / 1e6, r->tx / 1e6, r->rxp, r->txp,
		    during, cap * 8 / 1e6, src);
	else
		snprintf(c->detail, sizeof c->detail, "rx %.1f MB/s, tx "
		    "%.1f MB/s, %.0f/%.0f packets/s; link speed "
		    "unknown%s (set interfaces.%s.speed_mbps, or measure the "
		    "path with nasperf synth)", r->rx / 1e6, r->tx / 1e6,
		    r->rxp, r->txp, e->is_virtual ? ": a virtual link" : "",
		    e->name);
	snprintf(c->summary, sizeof c->summary, "network-bound: %s "
	    "%s at %s, %.0f %% of its %.0f Mb/s", e->name,
	    r->tx >= r->rx ? "sent" : "received", mb, c->util,
	    cap * 8 / 1e6);
	if (path == x->busiest_nic)
		v_nic_facts(x, e, r);
	if (be == NULL)
		return (0);
	x->f.bond = be->name;
	x->f.bond_mode = be->bond_mode;
	x->f.member_mbps = cap * 8 / 1e6;
	x->f.bond_mbps = isfinite(bcap) ? bcap * 8 / 1e6 : NAN;
	snprintf(c->summary, sizeof c->summary, "network-bound: %s (a "
	    "member of %s, %s) %s at %s, %.0f %% of its %.0f Mb/s: the bond "
	    "puts one client's flows on one member", e->name, be->name,
	    be->bond_mode, r->tx >= r->rx ? "sent" : "received", mb, c->util,
	    cap * 8 / 1e6);
	return (0);
}

/* An interface off the transfer's path: an observation when busy. */
static void
v_nic_off_path(struct v_ctx *x, size_t i, const struct v_nic *r)
{
	const struct hist_ent	*e = &x->h->ent[HIST_NIC][i];
	const char		*src;
	double			 cap = v_nic_capacity(x, e, &src);
	double			 v = fmax(r->rx, r->tx);

	if (isfinite(cap) && 100.0 * v / cap >= V_OFF_BUSY)
		v_observe(x, VERDICT_NETWORK, e->name, "%s moved %.1f MB/s, %.0f %% "
		    "of its %.0f Mb/s, off this transfer's path (%s%s)",
		    e->name, v / 1e6, 100.0 * v / cap, cap * 8 / 1e6,
		    x->path->nconn > 0 ? "it went over " : "a run on this box "
		    "uses no network", x->path->nconn > 0 ? x->path->nic : "");
}

/* NICs: bytes each way against the path's capacity. */
static void
v_nics(struct v_ctx *x)
{
	const struct history	*h = x->h;
	const struct hist_ent	*e;
	struct v_nic		 r;
	const char		*src;
	ssize_t			 mi;
	double			 v;
	size_t			 i;

	/*
	 * The interface holding the connections' local address is the path
	 * to the client; else the one that carried the most.
	 */
	x->path_nic = x->path != NULL && x->path->nic[0] != '\0' ?
	    history_find(h, HIST_NIC, x->path->nic) : -1;
	if (x->path_nic >= 0 &&
	    h->ent[HIST_NIC][x->path_nic].master[0] != '\0')
		x->path_nic = history_find(h, HIST_NIC,
		    h->ent[HIST_NIC][x->path_nic].master);
	if (x->path_nic >= 0)
		x->busiest_nic = (size_t)x->path_nic;
	/* A run on the box itself crosses no interface. */
	if (x->path != NULL && x->path->nconn == 0) {
		for (i = 0; i < h->nent[HIST_NIC]; i++)
			if (strcmp(h->ent[HIST_NIC][i].name, "lo") != 0 &&
			    h->ent[HIST_NIC][i].master[0] == '\0' &&
			    v_nic(h, x->a, x->b, i, &r) == 0)
				v_nic_off_path(x, i, &r);
		return;
	}
	for (i = 0, v = 0; x->path_nic < 0 && i < h->nent[HIST_NIC]; i++) {
		e = &h->ent[HIST_NIC][i];
		if (strcmp(e->name, "lo") == 0 || e->master[0] != '\0' ||
		    v_nic(h, x->a, x->b, i, &r) == -1)
			continue;
		if (r.rx_bytes + r.tx_bytes > v) {
			v = r.rx_bytes + r.tx_bytes;
			x->busiest_nic = i;
		}
	}
	for (i = 0; i < h->nent[HIST_NIC]; i++) {
		e = &h->ent[HIST_NIC][i];
		if (v_nic(h, x->a, x->b, i, &r) == -1 ||
		    r.rx_bytes + r.tx_bytes == 0)
			continue;
		if (strcmp(e->name, "lo") != 0 && e->master[0] == '\0')
			x->nic_bytes += r.rx_bytes + r.tx_bytes;
		if (e->master[0] != '\0')
			continue;	/* its bond is looked at */
		if (x->path_nic >= 0 && i != (size_t)x->path_nic) {
			v_nic_off_path(x, i, &r);
			continue;
		}
		/*
		 * A bond that hashes flows: one client's traffic stays on
		 * one member, whose speed is the limit; name the member.
		 */
		if (e->is_bond && v_hashing(e->bond_mode) &&
		    (mi = v_bond_member(x, i)) >= 0 && isfinite(v_nic_capacity(x,
		    &h->ent[HIST_NIC][mi], &src)) &&
		    v_nic(h, x->a, x->b, (size_t)mi, &r) == 0) {
			if (v_nic_cand(x, (size_t)mi, i, &r) == -1)
				return;
		} else {
			v_nic(h, x->a, x->b, i, &r);
			if (v_nic_cand(x, i, (size_t)-1, &r) == -1)
				return;
		}
	}
}


/*
 * The busiest process off the path, preferring one that last ran on core
 * (-1: any), as "npburn pid 812 used 95 % of a core on cpu1"; "" none.
 */
static void
v_other(const struct v_ctx *x, int core, char *out, size_t outsz)
{
	const struct verdict_proc	*o = NULL;
	size_t				 i;

	out[0] = '\0';
	for (i = 0; i < x->path->nother; i++) {
		if (!isfinite(x->path->other[i].cpu_pct) ||
		    x->path->other[i].cpu_pct < 5)
			continue;
		if (o == NULL || (core >= 0 && o->core != core &&
		    x->path->other[i].core == core))
			o = &x->path->other[i];
	}
	if (o == NULL)
		return;
	if (o->core >= 0)
		snprintf(out, outsz, "%s pid %d used %.0f %% of a core, last "
		    "on cpu%d", o->comm, o->pid, o->cpu_pct, o->core);
	else
		snprintf(out, outsz, "%s pid %d used %.0f %% of a core",
		    o->comm, o->pid, o->cpu_pct);
}

/*
 * The kernel's server threads (nfsd) on the path: they run on every core,
 * so they are bound when they use as many cores as they have threads or
 * the box has cores, whichever is fewer.  No cgroup quota holds them.
 */
static void
v_cpus_kernel(struct v_ctx *x, const struct verdict_proc *pr, size_t ncores)
{
	struct v_cand	*c;
	char		 res[96];
	double		 cap;
	size_t		 n;

	if (!isfinite(pr->cpu_pct))
		return;
	n = pr->threads > 0 ? (size_t)pr->threads : 1;
	if (ncores > 0 && ncores < n)
		n = ncores;
	cap = 100.0 * (double)n;
	snprintf(res, sizeof res, "the kernel's %s (%d threads)", pr->comm,
	    pr->threads);
	if ((c = v_cand(x, VERDICT_CPU, res, "process cpu", pr->cpu_pct, "%", cap,
	    x->cfg->v_core_busy_pct)) == NULL)
		return;
	snprintf(c->detail, sizeof c->detail, "%.0f %% of one core over %d "
	    "threads, %.0f cores at most", pr->cpu_pct, pr->threads,
	    cap / 100.0);
	snprintf(c->summary, sizeof c->summary, "cpu-bound: %s used %.0f %% "
	    "of a core serving this transfer, %.0f of the %.0f cores it can "
	    "use (more nfsd threads help only while cores are idle)", res,
	    pr->cpu_pct, pr->cpu_pct / 100.0, cap / 100.0);
}

/*
 * CPU on the transfer's path: each serving process against one core, its
 * cgroup's quota, and the time it waited for a CPU (contention, naming
 * the busiest process off the path).  Busy cores are observations.
 */
static void
v_cpus_path(struct v_ctx *x, const struct v_cpu *cpus, const int *core,
    size_t ncores)
{
	const struct verdict_path	*p = x->path;
	const struct verdict_proc	*pr;
	struct v_cand			*c;
	char				 res[96], other[100], where[24];
	char				 of[24];
	double				 thr;
	size_t				 i;
	int				 held;

	for (i = 0; i < p->nproc; i++) {
		pr = &p->proc[i];
		if (pr->kernel) {
			v_cpus_kernel(x, pr, ncores);
			continue;
		}
		snprintf(res, sizeof res, "%s pid %d", pr->comm, pr->pid);
		where[0] = '\0';
		if (pr->core >= 0)
			snprintf(where, sizeof where, ", last on cpu%d",
			    pr->core);
		held = 0;
		/*
		 * Throttled in this share of its quota periods, as a process
		 * group is judged; the share of the window where cpu.stat
		 * gives no periods.
		 */
		thr = isfinite(pr->throttled_periods_pct) ?
		    pr->throttled_periods_pct : pr->throttled_pct;
		if (isfinite(pr->quota_cores) && pr->quota_cores > 0 &&
		    isfinite(thr) && (c = v_cand(x, VERDICT_CPU, res, "throttled",
		    thr, "%", 100.0, x->cfg->v_throttled_pct)) != NULL) {
			held = thr >= x->cfg->v_throttled_pct;
			snprintf(of, sizeof of, "%s",
			    isfinite(pr->throttled_periods_pct) ?
			    "of its quota periods" : "of the window");
			snprintf(c->detail, sizeof c->detail, "%.0f %% of one "
			    "core under a cgroup quota of %.2f cores; throttled "
			    "in %.0f %% %s", isfinite(pr->cpu_pct) ?
			    pr->cpu_pct : 0.0, pr->quota_cores, thr, of);
			snprintf(c->summary, sizeof c->summary, "cpu-bound: %s "
			    "is held by its cgroup's CPU quota (%.2f cores): "
			    "it used %.0f %% of a core and was throttled in "
			    "%.0f %% %s", res, pr->quota_cores,
			    isfinite(pr->cpu_pct) ? pr->cpu_pct : 0.0, thr, of);
		}
		if (isfinite(pr->cpu_pct) && (c = v_cand(x, VERDICT_CPU, res,
		    "process cpu", pr->cpu_pct, "%", 100.0,
		    x->cfg->v_core_busy_pct)) != NULL) {
			snprintf(c->detail, sizeof c->detail, "%.0f %% of one "
			    "core, %d thread%s%s", pr->cpu_pct, pr->threads,
			    pr->threads == 1 ? "" : "s", where);
			if (pr->threads == 1)
				snprintf(c->summary, sizeof c->summary,
				    "cpu-bound on one core: %s used %.0f %% of "
				    "a core serving this transfer%s (one "
				    "thread: more cores do not help)", res,
				    pr->cpu_pct, where);
			else
				snprintf(c->summary, sizeof c->summary,
				    "cpu-bound: %s used %.0f %% of a core "
				    "serving this transfer%s", res, pr->cpu_pct,
				    where);
		}
		/* A throttled process waits for its quota, not for others. */
		if (held || !isfinite(pr->wait_pct) || (c = v_cand(x,
		    VERDICT_CONTENTION, res, "cpu wait", pr->wait_pct, "%", 100.0,
		    x->cfg->v_cpu_wait_pct)) == NULL)
			continue;
		v_other(x, pr->core, other, sizeof other);
		snprintf(c->detail, sizeof c->detail, "ran %.0f %% of a core "
		    "and waited for a CPU %.0f %% of the window%s%s%s",
		    isfinite(pr->cpu_pct) ? pr->cpu_pct : 0.0, pr->wait_pct,
		    where, other[0] != '\0' ? "; " : "", other);
		snprintf(c->summary, sizeof c->summary, "contention: %s waited "
		    "for a CPU %.0f %% of the window while it served this "
		    "transfer; %s", res, pr->wait_pct, other[0] != '\0' ?
		    other : "no other process stood out (many small ones, or "
		    "interrupts)");
	}
	for (i = 0; x->run->session != NULL && i < p->nproc; i++) {
		pr = &p->proc[i];
		if (pr->pid == x->run->session->pid &&
		    isfinite(pr->cpu_pct)) {
			x->f.sess_cpu_known = 1;
			x->f.sess_pct = pr->cpu_pct;
			x->f.sess_core = pr->core;
		}
	}
	/* Busy cores are observations, with who kept them busy. */
	for (i = 0; i < ncores; i++) {
		if (cpus[i].busy < x->cfg->v_core_busy_pct)
			continue;
		v_other(x, core[i], other, sizeof other);
		v_observe(x, VERDICT_CPU, NULL, "cpu%d was %.0f %% busy (user %.0f %%, "
		    "system %.0f %%, softirq %.0f %%)%s%s", core[i],
		    cpus[i].busy, cpus[i].user, cpus[i].system,
		    cpus[i].softirq, other[0] != '\0' ? "; " : "", other);
	}
}

/* CPU: each core, the total, each process group and its quota. */
static void
v_cpus(struct v_ctx *x)
{
	const struct history	*h = x->h;
	const struct hist_ent	*e, *ge;
	struct v_cpu		 cpus[HIST_MAX_CPUS], tot;
	struct v_group		 g;
	struct v_cand		*c;
	char			 res[96], name[HIST_NAME_MAX];
	double			 others;
	size_t			 i, j, ncores = 0, busiest = 0, n = 0;
	int			 core[HIST_MAX_CPUS], ti = -1, best_g = -1;
	int			 pid, pcore;
	double			 best_top = 0, ppct;

	for (i = 0; i < h->nent[HIST_CPU]; i++) {
		e = &h->ent[HIST_CPU][i];
		if (strcmp(e->name, "cpu") == 0) {
			ti = (int)i;
			continue;
		}
		if (v_cpu(h, x->a, x->b, i, &cpus[n]) == -1)
			continue;
		core[n] = atoi(e->name + 3);
		if (cpus[n].busy > cpus[busiest].busy)
			busiest = n;
		n++;
	}
	ncores = n;
	/* The group whose top process ran busiest, and where. */
	for (j = 0; j < h->nent[HIST_GROUP]; j++) {
		ge = &h->ent[HIST_GROUP][j];
		if (v_group(h, x->a, x->b, j, &g) == -1 || g.cpu_pct <= 0)
			continue;
		v_group_top(x, j, &g);
		if (g.has_sess) {
			x->f.sess_cpu_known = 1;
			x->f.sess_pct = g.sess_pct;
			x->f.sess_core = g.sess_core;
		}
		v_group_proc(x, &g, &pid, &pcore, &ppct);
		/* With the path known, its processes' own cgroups speak. */
		if (x->path == NULL && g.has_throttle && g.throttled_pct > 0) {
			/*
			 * The quota held the throttled cgroup's processes,
			 * not the group's busiest when it is elsewhere.
			 */
			if (g.thr_pid >= 0 && g.thr_pid != pid)
				snprintf(res, sizeof res, "pid %d (group %s)",
				    g.thr_pid, ge->name);
			else if (pid >= 0)
				snprintf(res, sizeof res, "%s pid %d (group %s)",
				    ge->top_comm[0] ? ge->top_comm : ge->name,
				    pid, ge->name);
			else
				snprintf(res, sizeof res, "group %s",
				    ge->name);
			c = v_cand(x, VERDICT_CPU, res, "throttled", g.throttled_pct,
			    "%", 100.0, x->cfg->v_throttled_pct);
			if (c != NULL) {
				snprintf(c->detail, sizeof c->detail, "%.0f %% "
				    "of one core under a cgroup quota of %.2f "
				    "cores; throttled in %.0f %% of periods, "
				    "%.2f s/s", g.cpu_pct, g.quota_cores,
				    g.throttled_pct, g.throttled_s);
				snprintf(c->summary, sizeof c->summary,
				    "cpu-bound: %s is held by its cgroup's CPU "
				    "quota (%.2f cores): group %s used %.0f %% "
				    "of a core and was throttled in %.0f %% of "
				    "periods", res, g.quota_cores, ge->name,
				    g.cpu_pct, g.throttled_pct);
			}
		}
		if (g.top_pid >= 0 && g.top_pct > best_top) {
			best_top = g.top_pct;
			best_g = (int)j;
		}
		if (g.cpu_pct >= 5)
			v_observe(x, VERDICT_CPU, ge->name, "process group %s used "
			    "%.0f %% of one core%s", ge->name, g.cpu_pct,
			    g.quota_cores > 0 ? " under a CPU quota" : "");
	}
	if (ncores == 0)
		return;
	/* The busiest core. */
	others = 0;
	for (i = 0; i < ncores; i++)
		if (i != busiest)
			others += cpus[i].busy;
	others = ncores > 1 ? others / (double)(ncores - 1) : 0;
	snprintf(name, sizeof name, "cpu%d", core[busiest]);
	snprintf(res, sizeof res, "%s", name);
	if (best_g >= 0) {
		ge = &h->ent[HIST_GROUP][best_g];
		v_group(h, x->a, x->b, (size_t)best_g, &g);
		v_group_top(x, (size_t)best_g, &g);
		v_group_proc(x, &g, &pid, &pcore, &ppct);
		if (pcore == core[busiest] && ppct >= 50)
			snprintf(res, sizeof res, "%s pid %d on %s",
			    ge->top_comm[0] ? ge->top_comm : ge->name, pid,
			    name);
	}
	if (x->path != NULL) {
		v_cpus_path(x, cpus, core, ncores);
		c = NULL;
	} else
		c = v_cand(x, VERDICT_CPU, res, "core busy", cpus[busiest].busy, "%",
		    100.0, x->cfg->v_core_busy_pct);
	if (c != NULL) {
		snprintf(c->detail, sizeof c->detail, "%s: user %.0f %%, system "
		    "%.0f %%, softirq %.0f %%, irq %.0f %%, iowait %.0f %%; the "
		    "other %zu cores %.0f %% on average", name,
		    cpus[busiest].user, cpus[busiest].system,
		    cpus[busiest].softirq, cpus[busiest].irq,
		    cpus[busiest].iowait, ncores - 1, others);
		if (ncores > 1 && others < V_OTHERS_IDLE)
			snprintf(c->summary, sizeof c->summary, "cpu-bound on "
			    "one core: %s kept %s %.0f %% busy while the other "
			    "%zu cores averaged %.0f %% (a single-threaded "
			    "server process: more cores do not help)", res,
			    name, cpus[busiest].busy, ncores - 1, others);
		else
			snprintf(c->summary, sizeof c->summary, "cpu-bound: "
			    "%s %.0f %% busy", res, cpus[busiest].busy);
	}
	if (cpus[busiest].softirq >= 20)
		v_observe(x, VERDICT_CPU, name, "%s spent %.0f %% in softirq (network "
		    "and block completions, which a process's own CPU figure "
		    "misses)", name, cpus[busiest].softirq);
	if (ti >= 0 && v_cpu(h, x->a, x->b, (size_t)ti, &tot) == 0) {
		if (ncores > 1 && x->path == NULL) {
			snprintf(res, sizeof res, "all %zu cores", ncores);
			c = v_cand(x, VERDICT_CPU, res, "busy", tot.busy, "%", 100.0,
			    x->cfg->v_cpu_busy_pct);
			if (c != NULL) {
				snprintf(c->detail, sizeof c->detail, "user "
				    "%.0f %%, system %.0f %%, softirq %.0f %%, "
				    "iowait %.0f %%", tot.user, tot.system,
				    tot.softirq, tot.iowait);
				snprintf(c->summary, sizeof c->summary,
				    "cpu-bound: all %zu cores %.0f %% busy",
				    ncores, tot.busy);
			}
		}
		if (tot.iowait >= 20)
			v_observe(x, VERDICT_DISK, NULL, "iowait %.0f %% of CPU time: "
			    "processes waited for the disks", tot.iowait);
	}
}

/* Candidates far over their capacity say the capacity is out of date. */
static void
v_stale(struct v_ctx *x)
{
	const struct v_cand	*c;
	size_t			 i;

	for (i = 0; i < x->nc; i++) {
		c = &x->c[i];
		if (c->stale)
			v_observe(x, c->cls, c->resource, "%s reached %.0f %% of "
			    "its capacity (%s): the capacity is out of date, "
			    "not a saturation; measure it again (nasperf synth "
			    "for a path, nasperf disktest for disks)",
			    c->resource, c->util, c->detail);
	}
}

/* Pressure: seconds stalled per second, in percent, or NAN. */
static double
v_psi(const struct v_ctx *x, enum hist_sys f)
{
	uint64_t	a = x->a->sys[f], b = x->b->sys[f];

	if (a == HIST_NONE || b == HIST_NONE || b < a || x->T <= 0)
		return (NAN);
	return (fmin(100.0, (double)(b - a) / 1e6 / x->T * 100.0));
}

/* How far past its threshold a candidate is (1 = at it). */
static double
v_score(const struct v_cand *c)
{
	if (!isfinite(c->util) || c->threshold <= 0)
		return (0);
	return (c->util / c->threshold);
}

/* The request size the client used, or NAN. */
static double
v_request_size(const struct v_ctx *x)
{
	const struct verdict_run	*r = x->run;

	if (r->has_block && r->block_size > 0)
		return ((double)r->block_size);
	if (r->has_bytes && r->has_ops && r->ops > 0)
		return ((double)r->bytes / (double)r->ops);
	return (NAN);
}

/*
 * The share of the segments the server sent that it sent again, in
 * percent (counted as bytes sent over a 1448-byte segment); NAN without
 * a path that sent a megabyte.
 */
static double
v_loss(const struct v_ctx *x)
{
	if (x->path == NULL || x->path->nconn == 0 ||
	    !isfinite(x->path->retransmits) || x->path->sent < 1e6)
		return (NAN);
	return (100.0 * x->path->retransmits / (x->path->sent / V_MSS));
}

/*
 * Requests in flight on average: the client's requests per second times
 * its connections' round trip; NAN without both.
 */
static double
v_inflight(const struct v_ctx *x)
{
	const struct verdict_run	*r = x->run;
	double				 secs;

	if (x->path == NULL || !isfinite(x->path->rtt_ms) ||
	    x->path->rtt_ms <= 0 || !r->has_ops || r->ops == 0)
		return (NAN);
	secs = r->has_seconds && r->seconds > 0 ? r->seconds : x->T;
	if (!(secs > 0))
		return (NAN);
	return ((double)r->ops / secs * x->path->rtt_ms / 1000.0);
}

/*
 * ZFS's intent log commits a second over the window, all datasets of the
 * box together; NAN when the history has none.
 */
static double
v_zil(const struct v_ctx *x)
{
	uint64_t	a = x->a->sys[HIST_SYS_ZIL_COMMITS];
	uint64_t	b = x->b->sys[HIST_SYS_ZIL_COMMITS];

	if (a == HIST_NONE || b == HIST_NONE || b < a || !(x->T > 0))
		return (NAN);
	return ((double)(b - a) / x->T);
}

/*
 * Whether a write to a ZFS dataset was synchronous: the intent log
 * committed at least V_ZIL_SHARE times a write request of the run (a
 * commit takes a batch, so fewer than one each), or, where the run does
 * not count its requests, committed at all while the dataset has
 * sync=always.  *per is the commits a request, NAN when not counted.
 */
static int
v_zil_sync(const struct v_ctx *x, double zil, double *per)
{
	const struct zfs_dataset	*d;

	*per = NAN;
	if (x->path == NULL || !x->path->zfs || x->run->op == NULL ||
	    strcmp(x->run->op, "write") != 0 || !(zil > 0))
		return (0);
	if (x->run->has_ops && x->run->ops > 0) {
		*per = zil * x->T / (double)x->run->ops;
		return (*per >= V_ZIL_SHARE);
	}
	d = x->run->topo != NULL ? zfs_dataset_find(
	    x->run->topo->zfs_datasets, x->path->dataset) : NULL;
	return (d != NULL && strcmp(d->sync, "always") == 0 && zil >= 1.0);
}

/*
 * Whether zpool status lists a log device (SLOG) in pool: 1 or 0, -1 when
 * it does not list the pool.
 */
static int
v_zfs_slog(const struct v_ctx *x, const char *pool)
{
	const struct zfs_pool	*p = zfs_pool_of(x->run->topo != NULL ?
	    x->run->topo->zpool : NULL, pool);
	size_t			 j;

	if (p == NULL)
		return (-1);
	for (j = 0; j < p->nvdevs; j++)
		if (p->vdevs[j].class == ZFS_CLASS_LOG)
			return (1);
	return (0);
}

/* s seconds as "49 ms", "2.5 ms" or "0.41 ms"; "-" when not finite. */
static const char *
v_ms(char *out, size_t outsz, double s)
{
	if (!isfinite(s))
		snprintf(out, outsz, "-");
	else
		snprintf(out, outsz, s >= 0.01 ? "%.0f ms" : "%.2g ms",
		    s * 1e3);
	return (out);
}

/*
 * The writes that took the intent log's commits of pool, from zpool
 * iostat's second when that second lies inside the window: its log vdevs
 * (SLOG) unless slog is 0, else the whole pool's.  0, or -1 when there is
 * no such second or no such vdev.
 */
static int
v_zil_writes(const struct v_ctx *x, const char *pool, int slog,
    struct zfs_vio_writes *w)
{
	const struct topology	*t = x->run->topo;

	if (t == NULL || t->zfs_io == NULL || t->zfs_io_at - 1.0 <
	    x->run->start - 0.5 || t->zfs_io_at > x->run->end + 0.5)
		return (-1);
	return (zfs_viostat_writes(t->zfs_io, pool, slog != 0, w));
}

/* Whether the run went over a network protocol. */
static int
v_networked(const struct verdict_run *r)
{
	static const char	*local[] = { "local", "other" };
	size_t			 i;

	if (r->protocol == NULL)
		return (0);
	for (i = 0; i < NP_NITEMS(local); i++)
		if (strcmp(r->protocol, local[i]) == 0)
			return (0);
	return (1);
}

/*
 * ZFS's reads of file data over the window: hits in the ARC and misses;
 * -1 when the history has no ARC or nothing was read.
 */
static int
v_arc(const struct v_ctx *x, double *hits, double *misses)
{
	uint64_t	ha = x->a->sys[HIST_SYS_ARC_DD_HITS];
	uint64_t	hb = x->b->sys[HIST_SYS_ARC_DD_HITS];
	uint64_t	ma = x->a->sys[HIST_SYS_ARC_DD_MISSES];
	uint64_t	mb = x->b->sys[HIST_SYS_ARC_DD_MISSES];

	if (ha == HIST_NONE || hb == HIST_NONE || ma == HIST_NONE ||
	    mb == HIST_NONE || hb < ha || mb < ma || hb - ha + mb - ma == 0)
		return (-1);
	*hits = (double)(hb - ha);
	*misses = (double)(mb - ma);
	return (0);
}

/*
 * A scrub or resilver of a ZFS pool that zpool status says runs (the
 * transfer's pool, or any when its pool is not known): it reads every
 * disk of the pool.
 */
static void
v_zfs_scans(struct v_ctx *x)
{
	const struct zfs_status	*st = x->run->topo != NULL ?
	    x->run->topo->zpool : NULL;
	const struct zfs_pool	*p;
	char			 how[96];
	size_t			 i, off;

	for (i = 0; st != NULL && i < st->npools; i++) {
		p = &st->pools[i];
		if (p->scan.state != ZFS_SCAN_RUNNING || (x->path != NULL &&
		    x->path->zfs && strcmp(x->path->pool, p->name) != 0))
			continue;
		how[0] = '\0';
		off = 0;
		if (p->scan.pct >= 0)
			off += (size_t)snprintf(how, sizeof how, ", %.1f %% done",
			    p->scan.pct);
		if (p->scan.rate > 0 && off < sizeof how)
			snprintf(how + off, sizeof how - off, ", at %.0f MB/s",
			    (double)p->scan.rate / 1e6);
		v_observe(x, VERDICT_CONTENTION, p->name, "a %s of ZFS pool %s was "
		    "running%s: it reads every disk of the pool",
		    p->scan.func[0] != '\0' ? p->scan.func : "scan", p->name,
		    how);
	}
}

/*
 * The array's own work in the window, said beside the verdict: Unraid's
 * parity check, sync or rebuild (it reads every disk of the array), and
 * writes held by ZFS's dirty-data throttle.
 */
static void
v_array_work(struct v_ctx *x)
{
	static const char *const ops[] = { "", "a parity check",
	    "a parity sync or disk rebuild", "a clear of new disks",
	    "an operation" };
	uint64_t	oa = x->a->sys[HIST_SYS_UNRAID_OP];
	uint64_t	ob = x->b->sys[HIST_SYS_UNRAID_OP];
	uint64_t	op, kib = x->b->sys[HIST_SYS_UNRAID_KIBS];
	uint64_t	ta = x->a->sys[HIST_SYS_ZFS_THROTTLE];
	uint64_t	tb = x->b->sys[HIST_SYS_ZFS_THROTTLE];

	op = ob != HIST_NONE && ob != 0 ? ob : oa != HIST_NONE ? oa : 0;
	if (op != 0) {
		if (kib != HIST_NONE && kib > 0)
			v_observe(x, VERDICT_CONTENTION, "the array", "%s of the "
			    "Unraid array ran during the copy, at %.0f MB/s: "
			    "it reads every disk of the array",
			    ops[op < NP_NITEMS(ops) ? op : NP_NITEMS(ops) - 1],
			    (double)kib * 1024 / 1e6);
		else
			v_observe(x, VERDICT_CONTENTION, "the array", "%s of the "
			    "Unraid array ran during the copy: it reads every "
			    "disk of the array",
			    ops[op < NP_NITEMS(ops) ? op : NP_NITEMS(ops) - 1]);
	}
	v_zfs_scans(x);
	if (ta != HIST_NONE && tb != HIST_NONE && tb > ta && x->T > 0)
		v_observe(x, VERDICT_DISK, "ZFS write throttle", "ZFS held writes "
		    "back %.0f times a second: its dirty data was near "
		    "zfs_dirty_data_max, so the pool took writes no faster "
		    "than it could sync them", (double)(tb - ta) / x->T);
}

/* Whether the run read far more than the disks did: the page cache. */
static int
v_cached(const struct v_ctx *x)
{
	double	h, m;

	/* The synthetic data plane serves from memory, not the cache. */
	if (x->path != NULL && x->path->synth)
		return (0);
	/*
	 * On ZFS a process's read_bytes counts every read, from the ARC or
	 * not: the ARC's own hits and misses of file data say it, all
	 * datasets of the box together.
	 */
	if (x->path != NULL && x->path->zfs && v_arc(x, &h, &m) == 0)
		return (x->run->op != NULL && strcmp(x->run->op, "read") == 0 &&
		    x->run->has_bytes && x->run->bytes >= V_MIN_CACHE_BYTES &&
		    m < (h + m) * x->cfg->v_cache_disk_pct / 100.0);
	if (x->path != NULL && x->path->zfs)
		return (x->run->op != NULL && strcmp(x->run->op, "read") == 0 &&
		    x->run->has_bytes && x->run->bytes >= V_MIN_CACHE_BYTES &&
		    x->disk_read_bytes < (double)x->run->bytes *
		    x->cfg->v_cache_disk_pct / 100.0);
	/*
	 * The serving processes' own storage reads say it exactly, whatever
	 * other disks did meanwhile.
	 */
	if (x->path != NULL && isfinite(x->path->storage_read))
		return (x->run->op != NULL && strcmp(x->run->op, "read") == 0 &&
		    x->run->has_bytes && x->run->bytes >= V_MIN_CACHE_BYTES &&
		    x->path->storage_read < (double)x->run->bytes *
		    x->cfg->v_cache_disk_pct / 100.0);
	return (x->run->op != NULL && strcmp(x->run->op, "read") == 0 &&
	    x->run->has_bytes && x->run->bytes >= V_MIN_CACHE_BYTES &&
	    x->disk_read_bytes < (double)x->run->bytes *
	    x->cfg->v_cache_disk_pct / 100.0);
}

/*
 * Whether the run is an upload that arrived at less than V_UPLOAD_SHARE
 * of the path capacity a synthetic test measured from this client, with
 * its path observed, nothing on it near saturation and no loss.
 */
static int
v_slow_upload(const struct v_ctx *x)
{
	const struct verdict_run	*r = x->run;

	return (x->path != NULL && x->path->observed && r->op != NULL &&
	    strcmp(r->op, "write") == 0 && r->path_capacity > 0 &&
	    isfinite(x->client_rate) && x->client_rate > 0 &&
	    x->client_rate < V_UPLOAD_SHARE * r->path_capacity &&
	    x->max_util < x->cfg->v_idle_pct * 2.0 &&
	    !(v_loss(x) >= V_LOSS_PCT));
}

/* Pick the primary verdict; fill the "verdict" object. */
static json_t *
v_decide(struct v_ctx *x)
{
	const struct v_cand	*best = NULL, *second = NULL, *c;
	const struct v_cand	*cpu_bound = NULL, *sat = NULL;
	enum verdict_class	 cls;
	const char		*conf;
	char			 summary[640], res[96], ago[64];
	double			 req, psi_io, inflight, disk, loss, util = NAN;
	double			 arc_h, arc_m, zil, per;
	size_t			 i;

	for (i = 0; i < x->nc; i++) {
		c = &x->c[i];
		if (v_score(c) < 1.0 || c->member || c->stale)
			continue;
		if (c->cls != VERDICT_CONTENTION && (sat == NULL ||
		    v_score(c) > v_score(sat)))
			sat = c;
		if (best == NULL || v_score(c) > v_score(best)) {
			second = best;
			best = c;
		} else if (second == NULL || v_score(c) > v_score(second))
			second = c;
	}
	/*
	 * A serving process that waited for a CPU while a link or a disk of
	 * its path was at its limit anyway: the limit is the bound, the wait
	 * a finding beside it.
	 */
	if (best != NULL && sat != NULL && best != sat &&
	    best->cls == VERDICT_CONTENTION) {
		second = best;
		best = sat;
	}
	/*
	 * A read the disks did not serve, held back by the CPU copying it:
	 * the cache is the finding, the CPU what bounded it.
	 */
	if (best != NULL && best->cls == VERDICT_CPU && v_cached(x)) {
		v_observe(x, VERDICT_CPU, best->resource, "copying from the page "
		    "cache was bounded by the CPU: %s", best->summary);
		cpu_bound = best;
		best = NULL;
	}
	/* The single-core case outranks "all cores" and names the process. */
	if (best != NULL) {
		cls = best->cls;
		snprintf(res, sizeof res, "%s", best->resource);
		snprintf(summary, sizeof summary, "%s", best->summary);
		util = best->util;
		conf = second == NULL || second->cls == best->cls ?
		    "high" : "medium";
		if (second != NULL && second->cls != best->cls) {
			v_observe(x, second->cls, second->resource, "%s was "
			    "also near its limit: %s", second->resource,
			    second->summary);
		}
		goto done;
	}
	req = v_request_size(x);
	psi_io = v_psi(x, HIST_SYS_PSI_IO_SOME);
	/*
	 * A sender held by the client's receive window: the client reads
	 * slowly, wherever the data came from (the cache said beside it).
	 */
	if (x->path != NULL && x->run->op != NULL &&
	    strcmp(x->run->op, "read") == 0 &&
	    isfinite(x->path->rwnd_limited_pct) &&
	    x->path->rwnd_limited_pct >= V_RWND_PCT) {
		cls = VERDICT_CLIENT;
		snprintf(res, sizeof res, "the client's receive window");
		snprintf(summary, sizeof summary, "the client was the limit: "
		    "the server's sending waited for the client's receive "
		    "window %.0f %% of the window, with nothing on the "
		    "server's path saturated (busiest %.0f %%): the client "
		    "did not read faster (its disk, its CPU, the copying "
		    "program)", x->path->rwnd_limited_pct, x->max_util);
		util = x->max_util;
		conf = "high";
		if (v_cached(x))
			v_observe(x, VERDICT_CACHE, "page cache", "the data came from "
			    "the page cache, not the disks: the client read it "
			    "no faster");
		goto done;
	}
	if (v_cached(x) && x->path != NULL && x->path->zfs &&
	    v_arc(x, &arc_h, &arc_m) == 0) {
		cls = VERDICT_CACHE;
		snprintf(res, sizeof res, "ZFS ARC");
		snprintf(summary, sizeof summary, "served from ZFS's ARC: "
		    "%.1f %% of ZFS's reads of file data over the window hit "
		    "memory (%.0f hits, %.0f misses; pool %s); %s%s",
		    100.0 * arc_h / (arc_h + arc_m), arc_h, arc_m,
		    x->path->pool, cpu_bound != NULL ? "the copy kept busy " :
		    "nothing on the server was saturated",
		    cpu_bound != NULL ? cpu_bound->resource : "");
		conf = "high";
		goto done;
	}
	if (v_cached(x)) {
		cls = VERDICT_CACHE;
		snprintf(res, sizeof res, "page cache");
		disk = x->path != NULL && isfinite(x->path->storage_read) &&
		    !x->path->zfs ? x->path->storage_read : x->disk_read_bytes;
		snprintf(summary, sizeof summary, "served from cache: the "
		    "client read %.1f MB while %s read %.1f MB from the disks "
		    "(%.1f %%); %s%s", (double)x->run->bytes / 1e6,
		    x->path != NULL && isfinite(x->path->storage_read) &&
		    !x->path->zfs ? "the serving processes" : "the server",
		    disk / 1e6,
		    100.0 * disk / (double)x->run->bytes,
		    cpu_bound != NULL ? "the copy kept busy " :
		    "nothing on the server was saturated",
		    cpu_bound != NULL ? cpu_bound->resource : "");
		conf = "high";
		goto done;
	}
	/*
	 * A read of a ZFS dataset that mostly missed the ARC, with nothing
	 * on the path saturated and the pool's disks unknown: the pool.
	 */
	if (x->path != NULL && x->path->zfs && x->path->ndisks == 0 &&
	    x->run->op != NULL && strcmp(x->run->op, "read") == 0 &&
	    v_arc(x, &arc_h, &arc_m) == 0 && arc_m >= (arc_h + arc_m) / 2) {
		cls = VERDICT_DISK;
		snprintf(res, sizeof res, "pool %s", x->path->pool);
		snprintf(summary, sizeof summary, "disk-bound (inferred): "
		    "%.0f %% of ZFS's reads of file data missed the ARC and "
		    "went to the pools (%.0f misses, %.0f hits) while nothing "
		    "on the path was saturated (busiest %.0f %%)",
		    100.0 * arc_m / (arc_h + arc_m), arc_m, arc_h, x->max_util);
		conf = "medium";
		goto done;
	}
	/*
	 * Writes to a ZFS dataset that were synchronous, with nothing on the
	 * path saturated: each waited for the intent log to have it on
	 * stable storage, so the log's commit time paces them.
	 */
	if (v_zil_sync(x, zil = v_zil(x), &per)) {
		struct zfs_vio_writes	 w;
		int			 slog = v_zfs_slog(x, x->path->pool);
		int			 have;
		char			 per_s[64] = "", lat[96] = "";

		if (isfinite(per))
			snprintf(per_s, sizeof per_s, ", %.2f for each write "
			    "request", per);
		/*
		 * zpool status not read: zpool iostat lists log devices too,
		 * else the writes are the whole pool's.
		 */
		have = v_zil_writes(x, x->path->pool, slog, &w) == 0;
		if (slog == -1 && have)
			slog = 1;
		else if (slog == -1)
			have = v_zil_writes(x, x->path->pool, 0, &w) == 0;
		if (have && isfinite(w.total)) {
			char	who[200], t1[32], t2[32], t3[32];

			if (slog != 1)
				snprintf(who, sizeof who, "pool %s",
				    x->path->pool);
			else if (w.nvdevs == 1)
				snprintf(who, sizeof who, "log device %s of "
				    "pool %s", w.name, x->path->pool);
			else
				snprintf(who, sizeof who, "the %zu log vdevs "
				    "of pool %s", w.nvdevs, x->path->pool);
			snprintf(lat, sizeof lat, ", where a write waited %s",
			    v_ms(t1, sizeof t1, w.total));
			v_observe(x, VERDICT_LATENCY, VERDICT_ZIL_RESOURCE,
			    "zpool iostat, over a second of the run: %s wrote "
			    "%.0f times a second, a write waiting %s in all: "
			    "%s on the %s, %s in ZFS's queue of synchronous "
			    "writes", who, w.ops, t1, v_ms(t2, sizeof t2,
			    w.disk), slog == 1 ? "device" : "disks", v_ms(t3,
			    sizeof t3, w.syncq));
		}
		cls = VERDICT_LATENCY;
		snprintf(res, sizeof res, "%s", VERDICT_ZIL_RESOURCE);
		snprintf(summary, sizeof summary, "latency-bound on "
		    "synchronous writes: ZFS's intent log committed %.0f "
		    "times a second%s, while nothing on the path was "
		    "saturated (busiest %.0f %%): each write waited until the "
		    "log had it on stable storage, %s%s", zil, per_s,
		    x->max_util, slog == 1 ? "on the log device (SLOG) of "
		    "the pool" : slog == 0 ? "on the pool's own disks, as it "
		    "has no log device (SLOG)" : "on the pool's disks or its "
		    "log device", lat);
		util = x->max_util;
		conf = "medium";
		goto done;
	}
	if (isfinite(psi_io) && psi_io >= V_PSI_DISK) {
		/* A throttle above the device: stalls without busy time. */
		const struct v_cand *d = NULL;

		for (i = 0; i < x->nc; i++)
			if (x->c[i].cls == VERDICT_DISK && (d == NULL ||
			    x->c[i].bytes > d->bytes))
				d = &x->c[i];
		cls = VERDICT_DISK;
		snprintf(res, sizeof res, "%s", d != NULL ? d->resource :
		    "disk I/O");
		/* Near its measured capability, the baseline says more. */
		if (d != NULL && strcmp(d->metric, "of baseline") == 0 &&
		    d->util >= x->cfg->v_disk_busy_pct / 2.0) {
			snprintf(summary, sizeof summary, "%s; tasks were "
			    "stalled on I/O %.0f %% of the window", d->summary,
			    psi_io);
			util = d->util;
			conf = "medium";
			goto done;
		}
		snprintf(summary, sizeof summary, "disk-bound (inferred): "
		    "tasks were stalled on I/O %.0f %% of the window while no "
		    "disk looked busy: a throttle or a slow layer above the "
		    "device", psi_io);
		util = psi_io;
		conf = "low";
		goto done;
	}
	/*
	 * Segments lost on the way, with nothing on the server saturated:
	 * the network between the server and the client, whatever the link
	 * speed says.
	 */
	if ((loss = v_loss(x)) >= V_LOSS_PCT) {
		cls = VERDICT_NETWORK;
		snprintf(res, sizeof res, "the network path to the client "
		    "(loss)");
		snprintf(summary, sizeof summary, "network-bound by loss: "
		    "%.0f segments retransmitted, %.1f %% of what the server "
		    "sent, while nothing on the server's path was saturated "
		    "(busiest %.0f %%): packets are lost between the server "
		    "and the client (a cable, a port, a switch's buffers, "
		    "Wi-Fi)", x->path->retransmits, loss, x->max_util);
		util = x->max_util;
		conf = "medium";
		goto done;
	}
	/*
	 * One request in flight, whatever its size: each waits a round trip,
	 * so requests per second times the round trip is about one.
	 */
	inflight = v_inflight(x);
	if (inflight >= V_INFLIGHT_LO && inflight <= V_INFLIGHT_HI &&
	    x->max_util < x->cfg->v_idle_pct * 2.0) {
		cls = VERDICT_LATENCY;
		snprintf(res, sizeof res, "round trips (one request in "
		    "flight)");
		snprintf(summary, sizeof summary, "latency-bound: one request "
		    "in flight, each waiting a %.2f ms round trip (%.0f "
		    "requests/s%s%.0f KiB each), and nothing on the server's "
		    "path above %.0f %%: throughput is request size over the "
		    "round trip; more requests in flight, or larger ones, go "
		    "faster", x->path->rtt_ms, 1000.0 * inflight /
		    x->path->rtt_ms, isfinite(req) ? " of " : "",
		    isfinite(req) ? req / 1024.0 : 0.0, x->max_util);
		util = x->max_util;
		conf = "medium";
		goto done;
	}
	/*
	 * An upload that arrived at a fraction of what the path to this
	 * client carried in a synthetic test, into a server whose path had
	 * room and lost nothing: the client sent slowly.
	 */
	if (v_slow_upload(x)) {
		cls = VERDICT_CLIENT;
		snprintf(res, sizeof res, "the client (it sent slowly)");
		v_ago(x->run->path_capacity_time, x->b->t, ago, sizeof ago);
		snprintf(summary, sizeof summary, "the client was the limit: it "
		    "sent %.1f MB/s, %.0f %% of the %.1f MB/s the path from it "
		    "carried in a synthetic test%s, while nothing on the "
		    "server's path was above %.0f %% and no segment was lost: "
		    "the client did not send faster (its disk, its CPU, the "
		    "copying program)", x->client_rate / 1e6, 100.0 *
		    x->client_rate / x->run->path_capacity,
		    x->run->path_capacity / 1e6, ago, x->max_util);
		util = x->max_util;
		conf = x->max_util < x->cfg->v_idle_pct ? "high" : "medium";
		goto done;
	}
	if (isfinite(req) && req <= x->cfg->v_small_request &&
	    x->max_util < x->cfg->v_idle_pct * 2.0) {
		cls = VERDICT_LATENCY;
		snprintf(res, sizeof res, "round trips (%.0f-byte requests)",
		    req);
		snprintf(summary, sizeof summary, "latency-bound: %.0f-byte "
		    "requests and nothing on the server above %.0f %%: each "
		    "request waits a round trip, so throughput is request size "
		    "over latency", req, x->max_util);
		util = x->max_util;
		conf = "medium";
		goto done;
	}
	if (x->max_util < x->cfg->v_idle_pct) {
		cls = VERDICT_CLIENT;
		snprintf(res, sizeof res, "the client or the network before "
		    "the server");
		snprintf(summary, sizeof summary, "the server was not the "
		    "limit: its busiest resource reached %.0f %%; look at the "
		    "client (its disk, CPU, the benchmark itself) and the "
		    "network path", x->max_util);
		util = x->max_util;
		conf = x->max_util < x->cfg->v_idle_pct / 2.0 ? "high" :
		    "medium";
		goto done;
	}
	/* Busy but nothing saturated: name the busiest, cautiously. */
	for (i = 0; i < x->nc; i++)
		if (isfinite(x->c[i].util) && !x->c[i].stale && (best == NULL ||
		    x->c[i].util > best->util))
			best = &x->c[i];
	cls = best != NULL ? best->cls : VERDICT_UNKNOWN;
	snprintf(res, sizeof res, "%s", best != NULL ? best->resource : "-");
	snprintf(summary, sizeof summary, "nothing saturated; the busiest "
	    "resource was %s at %.0f %% (%s)", res, best != NULL ? best->util :
	    0.0, best != NULL ? best->detail : "");
	util = best != NULL ? best->util : NAN;
	conf = "low";
done:
	/* A few samples cannot make a verdict certain. */
	if (x->all.n < V_FEW_SAMPLES)
		conf = "low";
	else if (x->all.n < V_MIN_SAMPLES && strcmp(conf, "high") == 0)
		conf = "medium";
	x->cls = cls;
	return (json_pack("{s:s,s:o,s:o,s:o,s:o,s:s}", "class",
	    verdict_class_name(cls), "resource", enc_text(res), "summary", enc_text(summary),
	    "utilisation_pct", isfinite(util) ? json_real(util) : json_null(),
	    "headroom_pct", isfinite(util) ? json_real(fmax(0, 100.0 - util)) :
	    json_null(), "confidence", conf));
}

/* A number or null. */
static json_t *
v_num(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

/* The evidence table. */
static json_t *
v_evidence(const struct v_ctx *x)
{
	const struct v_cand	*c;
	json_t			*a = json_array();
	size_t			 i;

	for (i = 0; a != NULL && i < x->nc; i++) {
		c = &x->c[i];
		json_array_append_new(a, json_pack("{s:s,s:o,s:s,s:o,s:s,s:o,"
		    "s:o,s:o}", "class", verdict_class_name(c->cls), "resource",
		    enc_text(c->resource), "metric", c->metric, "value",
		    v_num(c->value), "unit", c->unit, "capacity",
		    v_num(c->capacity), "utilisation_pct", v_num(c->util),
		    "detail", enc_text(c->detail)));
	}
	return (a);
}

/* Append v (or null) to array a. */
static void
v_push(json_t *a, double v)
{
	json_array_append_new(a, v_num(v));
}

/* The per-step series of the window. */
static json_t *
v_series(const struct v_ctx *x)
{
	const struct history	*h = x->h;
	const struct hist_ent	*e;
	struct hist_window	 w;
	struct v_disk		 d;
	struct v_nic		 n;
	struct v_cpu		 c;
	struct v_group		 g, gt;
	json_t			*ser, *t, *cl, *nics, *disks, *cpus, *groups;
	json_t			*o, *a1, *a2, *a3;
	const char		*src;
	size_t			 i, k;
	double			 step, cap;

	step = x->T / V_MAX_POINTS;
	if (history_window(h, x->a->t, x->b->t, step, &w) == -1)
		return (NULL);
	ser = json_object();
	t = json_array();
	cl = json_array();
	for (k = 1; k < w.n; k++) {
		json_array_append_new(t, json_real(w.s[k]->t - x->a->t));
		v_push(cl, x->client_rate);
	}
	json_object_set_new(ser, "t", t);
	json_object_set_new(ser, "client_bytes_per_s",
	    isfinite(x->client_rate) ? cl : (json_decref(cl), json_null()));
	nics = json_array();
	for (i = 0; i < h->nent[HIST_NIC]; i++) {
		e = &h->ent[HIST_NIC][i];
		if (v_nic(h, x->a, x->b, i, &n) == -1 ||
		    n.rx_bytes + n.tx_bytes == 0)
			continue;
		cap = v_nic_capacity(x, e, &src);
		a1 = json_array();
		a2 = json_array();
		for (k = 1; k < w.n; k++) {
			if (v_nic(h, w.s[k - 1], w.s[k], i, &n) == -1)
				n.rx = n.tx = NAN;
			v_push(a1, n.rx);
			v_push(a2, n.tx);
		}
		json_array_append_new(nics, json_pack("{s:s,s:o,s:o,s:o}",
		    "name", e->name, "capacity_bytes_per_s", v_num(cap),
		    "rx_bytes_per_s", a1, "tx_bytes_per_s", a2));
	}
	json_object_set_new(ser, "nics", nics);
	disks = json_array();
	for (i = 0; i < h->nent[HIST_DISK]; i++) {
		e = &h->ent[HIST_DISK][i];
		if (e->dkind == HIST_DK_PART ||
		    v_disk(h, x->a, x->b, i, &d) == -1 ||
		    d.rios + d.wios == 0)
			continue;
		a1 = json_array();
		a2 = json_array();
		a3 = json_array();
		for (k = 1; k < w.n; k++) {
			if (v_disk(h, w.s[k - 1], w.s[k], i, &d) == -1) {
				d.rbps = d.wbps = NAN;
				d.has_busy = 0;
			}
			v_push(a1, d.rbps);
			v_push(a2, d.wbps);
			v_push(a3, d.has_busy ? d.busy : NAN);
		}
		o = json_pack("{s:s,s:s,s:[],s:o,s:o,s:o}", "name", e->name,
		    "kind", e->dkind == HIST_DK_MD ? "md" : e->dkind ==
		    HIST_DK_DM ? "dm" : e->dkind == HIST_DK_LOOP ? "loop" :
		    e->dkind == HIST_DK_DISK ? "disk" : "other", "members",
		    "read_bytes_per_s", a1, "write_bytes_per_s", a2,
		    "busy_pct", a3);
		if (o != NULL && e->members != NULL) {
			char	*m = strdup(e->members), *p, *save = NULL;
			for (p = m != NULL ? strtok_r(m, ",", &save) : NULL;
			    p != NULL; p = strtok_r(NULL, ",", &save))
				json_array_append_new(json_object_get(o,
				    "members"), json_string(p));
			free(m);
		}
		json_array_append_new(disks, o);
	}
	json_object_set_new(ser, "disks", disks);
	cpus = json_array();
	for (i = 0; i < h->nent[HIST_CPU]; i++) {
		e = &h->ent[HIST_CPU][i];
		if (strcmp(e->name, "cpu") == 0 ||
		    v_cpu(h, x->a, x->b, i, &c) == -1)
			continue;
		a1 = json_array();
		a2 = json_array();
		a3 = json_array();
		for (k = 1; k < w.n; k++) {
			if (v_cpu(h, w.s[k - 1], w.s[k], i, &c) == -1)
				c.busy = c.softirq = c.iowait = NAN;
			v_push(a1, c.busy);
			v_push(a2, c.softirq);
			v_push(a3, c.iowait);
		}
		json_array_append_new(cpus, json_pack("{s:s,s:o,s:o,s:o}",
		    "name", e->name, "busy_pct", a1, "softirq_pct", a2,
		    "iowait_pct", a3));
	}
	json_object_set_new(ser, "cpus", cpus);
	groups = json_array();
	for (i = 0; i < h->nent[HIST_GROUP]; i++) {
		e = &h->ent[HIST_GROUP][i];
		if (v_group(h, x->a, x->b, i, &gt) == -1 || gt.cpu_pct <= 0)
			continue;
		v_group_top(x, i, &gt);
		a1 = json_array();
		for (k = 1; k < w.n; k++) {
			if (v_group(h, w.s[k - 1], w.s[k], i, &g) == -1)
				g.cpu_pct = NAN;
			v_push(a1, g.cpu_pct);
		}
		o = json_pack("{s:s,s:o,s:n}", "name", e->name, "cpu_pct", a1,
		    "top");
		if (o != NULL && gt.top_pid >= 0) {
			char	top[96];
			snprintf(top, sizeof top, "%s pid %d", e->top_comm[0] ?
			    e->top_comm : e->name, gt.top_pid);
			json_object_set_new(o, "top", enc_text(top));
		}
		json_array_append_new(groups, o);
	}
	json_object_set_new(ser, "groups", groups);
	history_window_clear(&w);
	return (ser);
}

/* Times the daemon was not sampling inside the window. */
static json_t *
v_gaps(const struct v_ctx *x)
{
	const struct hist_sample	*p, *s;
	json_t				*a = json_array();
	double				 limit;
	size_t				 k;

	limit = fmax(3.0 * x->h->interval, 1.5 * x->h->coarse_step);
	for (k = 1; a != NULL && k < x->all.n; k++) {
		p = x->all.s[k - 1];
		s = x->all.s[k];
		if (s->gap || s->t - p->t > limit)
			json_array_append_new(a, json_pack("{s:f,s:f,s:f}",
			    "from", p->t, "to", s->t, "seconds", s->t - p->t));
	}
	return (a);
}

/* The run's client figures as JSON. */
static json_t *
v_run_json(const struct verdict_run *r)
{
	json_t	*o;

	o = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:f,s:f,s:s,s:b}",
	    "id", enc_text_or_null(r->id), "label", enc_text_or_null(r->label),
	    "protocol", enc_text_or_null(r->protocol), "op",
	    enc_text_or_null(r->op), "client", enc_text_or_null(r->client),
	    "client_addr", enc_text_or_null(r->client_addr),
	    "start", r->start, "end", r->end, "state", r->ended ? "ended" :
	    "open", "retroactive", r->retroactive);
	if (o == NULL)
		return (NULL);
	json_object_set_new(o, "bytes", r->has_bytes ?
	    json_integer((json_int_t)r->bytes) : json_null());
	json_object_set_new(o, "ops", r->has_ops ?
	    json_integer((json_int_t)r->ops) : json_null());
	json_object_set_new(o, "files", r->has_files ?
	    json_integer((json_int_t)r->files) : json_null());
	json_object_set_new(o, "block_size", r->has_block ?
	    json_integer((json_int_t)r->block_size) : json_null());
	json_object_set_new(o, "client_seconds", r->has_seconds ?
	    json_real(r->seconds) : json_null());
	json_object_set_new(o, "clock_offset", r->has_offset ?
	    json_real(r->clock_offset) : json_null());
	json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
	return (o);
}

/* The samples that bracket [start, end]; -1 with *cause when none do. */
static int
v_bracket(struct v_ctx *x, char **cause)
{
	const struct hist_sample	*first, *last, *s;
	const struct verdict_run	*r = x->run;
	double				 slack;
	size_t				 k;

	first = history_first(x->h);
	last = history_last(x->h);
	if (first == NULL || r->start < first->t - x->h->coarse_step) {
		errno = ERANGE;
		if (asprintf(cause, "the history no longer covers this window "
		    "(it starts %.0f s after the run began); keep more with "
		    "sampler.coarse_seconds", first != NULL ? first->t -
		    r->start : 0.0) == -1)
			*cause = NULL;
		return (-1);
	}
	/*
	 * The samples at or just outside the window: a live run's ends are
	 * samples of their own, a recorded run's fall between two.
	 */
	slack = 0.001;
	if (r->end > last->t + x->h->interval * 2) {
		errno = ERANGE;
		if (asprintf(cause, "the window ends %.1f s after the newest "
		    "sample", r->end - last->t) == -1)
			*cause = NULL;
		return (-1);
	}
	if (history_window(x->h, -INFINITY, INFINITY, 0, &x->all) == -1)
		return (-1);
	x->a = x->b = NULL;
	for (k = 0; k < x->all.n; k++) {
		s = x->all.s[k];
		if (s->t <= r->start + slack)
			x->a = s;
		if (x->b == NULL && s->t >= r->end - slack)
			x->b = s;
	}
	if (x->a == NULL)
		x->a = x->all.s[0];
	if (x->b == NULL)
		x->b = x->all.s[x->all.n - 1];
	if (x->b->t <= x->a->t) {
		errno = ERANGE;
		if (asprintf(cause, "the window holds fewer than two samples")
		    == -1)
			*cause = NULL;
		return (-1);
	}
	x->T = x->b->t - x->a->t;
	history_window_clear(&x->all);
	return (history_window(x->h, x->a->t, x->b->t, 0, &x->all));
}

/* One ceiling: {"bytes_per_s", "basis", "measured", "of"} or with "how". */
static json_t *
v_ceiling(double bps, const char *of, const char *basis, double when,
    const char *how)
{
	if (!(bps > 0))
		return (json_pack("{s:n,s:s}", "bytes_per_s", "how", how));
	return (json_pack("{s:f,s:s,s:s,s:o}", "bytes_per_s", bps, "of", of,
	    "basis", basis, "measured", when > 0 ? json_real(when) :
	    json_null()));
}

/* Whether hints holds one of kind. */
static int
v_hinted(const json_t *hints, const char *kind)
{
	const json_t	*h;
	size_t		 i;

	json_array_foreach(hints, i, h) {
		if (json_is_string(json_object_get(h, "kind")) &&
		    strcmp(json_string_value(json_object_get(h, "kind")),
		    kind) == 0)
			return (1);
	}
	return (0);
}

/*
 * What took the rest of the lower ceiling, when the transfer reached less
 * than V_CEIL_REACHED of it: a cost of the protocol's path where the
 * verdict names one (the serving process's CPU, SMB signing or encryption
 * on it, other work on its core, small requests each waiting a round
 * trip), else the resource the verdict names; {"by", "text"}, or null when
 * the ceiling was reached, no ceiling is known, or nothing is named.
 */
static json_t *
v_rest(enum verdict_class cls, const json_t *ver, const json_t *hints,
    double share, const char *lower)
{
	const char	*res = json_string_value(json_object_get(ver,
			    "resource"));
	const char	*by;
	char		 text[512];

	if (!isfinite(share) || share >= V_CEIL_REACHED)
		return (json_null());
	if (res == NULL)
		res = "-";
	if (cls == VERDICT_CPU && (v_hinted(hints, by = "smb_signing") ||
	    v_hinted(hints, by = "smb_encryption"))) {
		snprintf(text, sizeof text, "SMB %s, on the CPU of the serving "
		    "process (%s)", by + 4, res);
	} else if (cls == VERDICT_CPU) {
		by = "serving_cpu";
		snprintf(text, sizeof text, "the CPU of the serving process "
		    "(%s)", res);
	} else if (cls == VERDICT_CONTENTION) {
		by = "contention";
		snprintf(text, sizeof text, "other work on the serving "
		    "process's core (%s)", res);
	} else if (cls == VERDICT_LATENCY) {
		by = "small_requests";
		snprintf(text, sizeof text, "small requests, each waiting a "
		    "round trip");
	} else if (cls == VERDICT_CLIENT) {
		by = "client";
		snprintf(text, sizeof text, "the client: %s", res);
	} else if (cls == VERDICT_DISK || cls == VERDICT_NETWORK) {
		/* Saturated below the ceiling measured: shared, or slower. */
		by = cls == VERDICT_DISK ? "disks" : "network";
		snprintf(text, sizeof text, "the %s (%s), busy below the %s "
		    "ceiling measured", by, res, lower);
	} else
		return (json_null());
	return (json_pack("{s:s,s:s}", "by", by, "text", text));
}

/*
 * The three ceilings of the run: what the disks under its volume can do
 * in its direction (the disk analyzer's baseline of the volume, else of
 * the highest device of its stack measured), what the network path to
 * this client can do (the capacity a synthetic test measured, else the
 * interface's speed), and what the transfer got: the share of the lower
 * ceiling it reached, which one that is, and what took the rest.
 */
static json_t *
v_ceilings(const struct v_ctx *x, const json_t *ver, const json_t *hints)
{
	const struct verdict_run	*r = x->run;
	const struct verdict_path	*p = x->path;
	const char			*dof = NULL, *nbasis = "", *lower = NULL;
	const char			*src;
	char				 nof[HIST_NAME_MAX] = "";
	double				 d = NAN, dwhen = 0, n = NAN, nwhen = 0;
	double				 rd, wr, when, low = NAN, share;
	size_t				 i;
	int				 write;

	write = r->op != NULL && strcmp(r->op, "write") == 0;
	for (i = 0; p != NULL && p->volume_seen && r->baseline != NULL &&
	    !(d > 0) && i <= p->ndisks; i++) {
		const char *name = i == 0 ? p->volume : p->disks[i - 1];

		if (r->baseline(r->baseline_arg, name, &rd, &wr, &when) == 0 &&
		    (write ? wr : rd) > 0) {
			d = write ? wr : rd;
			dwhen = when;
			dof = name;
		}
	}
	if (r->path_capacity > 0) {
		n = r->path_capacity;
		nwhen = r->path_capacity_time;
		nbasis = "a synthetic test of the path to this client";
	} else if (x->path_nic >= 0) {
		n = v_nic_capacity(x, &x->h->ent[HIST_NIC][x->path_nic], &src);
		nbasis = strcmp(src, "configured") == 0 ? "its configured "
		    "speed" : "its link speed";
	}
	if (x->path_nic >= 0)
		snprintf(nof, sizeof nof, "%s",
		    x->h->ent[HIST_NIC][x->path_nic].name);
	if (d > 0 && (!(n > 0) || d <= n)) {
		low = d;
		lower = "disks";
	} else if (n > 0) {
		low = n;
		lower = "network";
	}
	share = isfinite(x->client_rate) && low > 0 ? 100.0 * x->client_rate /
	    low : NAN;
	return (json_pack("{s:o,s:o,s:o,s:s?,s:o,s:o,s:O?}", "disks",
	    v_ceiling(d, dof, "the disk analyzer", dwhen, p != NULL && p->synth ?
	    "the synthetic data plane reads no disk" : "a disk test of the "
	    "volume (nasperf disktest VOLUME) measures it"), "network",
	    v_ceiling(n, nof, nbasis, nwhen, "a synthetic test from the "
	    "client (nasperf synth) measures it"), "transfer_bytes_per_s",
	    v_num(x->client_rate), "lower", lower, "share_of_lower_pct",
	    v_num(share), "rest", v_rest(x->cls, ver, hints, share, lower), "verdict",
	    json_object_get(ver, "class")));
}

/* Build the report. */
json_t *
verdict_report(const struct history *h, const struct verdict_run *run,
    const struct cfg *cfg, const json_t *server, struct verdict_outcome *out,
    char **cause)
{
	struct v_ctx	*x;
	json_t		*rep = NULL, *win, *ver, *ev, *ser, *hints, *ceil;
	double		 secs;

	*cause = NULL;
	if ((x = calloc(1, sizeof *x)) == NULL)
		return (NULL);
	x->h = h;
	x->run = run;
	x->cfg = cfg;
	x->client_rate = NAN;
	x->path_nic = -1;
	if (run->path != NULL && run->path->observed &&
	    (run->path->nconn > 0 || run->path->nproc > 0))
		x->path = run->path;
	if (v_bracket(x, cause) == -1)
		goto out;
	if ((x->obs = json_array()) == NULL)
		goto out;
	secs = run->has_seconds && run->seconds > 0 ? run->seconds :
	    run->end - run->start;
	if (run->has_bytes && secs > 0)
		x->client_rate = (double)run->bytes / secs;
	v_disks(x);
	v_nics(x);
	v_cpus(x);
	v_stale(x);
	if (v_psi(x, HIST_SYS_PSI_IO_SOME) >= 10)
		v_observe(x, VERDICT_DISK, NULL, "I/O pressure: some task stalled on "
		    "I/O %.0f %% of the window", v_psi(x,
		    HIST_SYS_PSI_IO_SOME));
	if (v_psi(x, HIST_SYS_PSI_CPU_SOME) >= 20)
		v_observe(x, VERDICT_CPU, NULL, "CPU pressure: runnable tasks waited "
		    "for a CPU %.0f %% of the window", v_psi(x,
		    HIST_SYS_PSI_CPU_SOME));
	v_array_work(x);
	/* A path over loopback moves nothing through an interface. */
	if (v_networked(run) && run->has_bytes && run->bytes >= 1000000 &&
	    (x->path == NULL || (x->path->nconn > 0 &&
	    strcmp(x->path->nic, "lo") != 0)) &&
	    x->nic_bytes < (double)run->bytes * V_CONTRADICT)
		v_observe(x, VERDICT_CLIENT, NULL, "the client reports %.1f MB but "
		    "the server's interfaces moved only %.1f MB: the traffic "
		    "took another interface or host, or the client measured "
		    "its own cache", (double)run->bytes / 1e6,
		    x->nic_bytes / 1e6);
	ver = v_decide(x);
	x->f.run = run;
	x->f.h = h;
	x->f.client_rate = x->client_rate;
	x->f.cls = x->cls;
	x->f.resource = json_string_value(json_object_get(ver, "resource"));
	if (x->f.resource == NULL)
		x->f.resource = "";
	hints = verdict_hints(&x->f);
	ev = v_evidence(x);
	ser = v_series(x);
	win = json_pack("{s:f,s:f,s:f,s:f,s:I,s:o}", "start", x->a->t, "end",
	    x->b->t, "seconds", x->T, "step", x->h->interval, "samples",
	    (json_int_t)x->all.n, "gaps", v_gaps(x));
	ceil = v_ceilings(x, ver, hints);
	rep = json_pack("{s:i,s:f,s:O?,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
	    "s:o*}", "version", 1, "generated", nptime_real(), "server",
	    server, "run", v_run_json(run), "window", win, "client_rate",
	    v_num(x->client_rate), "verdict", ver, "observations", x->obs,
	    "hints", hints, "session", run->session != NULL ?
	    enc_smb_session(run->session) : json_null(),
	    "evidence", ev, "series", ser, "ceilings", ceil);
	x->obs = NULL;		/* stolen by the pack, even on failure */
	if (rep == NULL)
		errno = ENOMEM;
	else if (out != NULL) {
		memset(out, 0, sizeof *out);
		out->cls = x->cls;
		out->client_rate = x->client_rate;
		verdict_outcome_words(ver, hints, out);
	}
out:
	json_decref(x->obs);
	history_window_clear(&x->all);
	free(x);
	return (rep);
}
