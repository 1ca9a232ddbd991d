/*
 * history.c: the sampler's rings of cumulative counter readings.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "history.h"
#include "np.h"
#include "probe.h"
#include "rate.h"

#define HIST_FORMAT	"nasperf-history"
#define HIST_VERSION	1

static const char *const hist_kind_keys[HIST_NKINDS] = {
	"cpus", "disks", "nics", "groups"
};
static const unsigned hist_nfields[HIST_NKINDS] = {
	HIST_CPU_FIELDS, HIST_DISK_FIELDS, HIST_NIC_FIELDS, HIST_GROUP_FIELDS
};
static const size_t hist_max[HIST_NKINDS] = {
	HIST_MAX_CPUS, HIST_MAX_DISKS, HIST_MAX_NICS, HIST_MAX_GROUPS
};
static const char *const hist_dkind_names[] = {
	"disk", "partition", "md", "dm", "loop", "other"
};

/* Field names, as the JSON header lists them. */
static const char *const hist_sys_names[HIST_SYS_FIELDS] = {
	"psi_cpu_some_us", "psi_io_some_us", "psi_io_full_us",
	"psi_memory_some_us", "mem_cached", "mem_dirty", "mem_available",
	"mem_total", "ctxt", "arc_hits", "arc_misses", "arc_demand_data_hits",
	"arc_demand_data_misses", "zfs_throttle_waits", "zil_commits",
	"unraid_op", "unraid_kib_per_s"
};
static const char *const hist_cpu_names[HIST_CPU_FIELDS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"
};
static const char *const hist_disk_names[HIST_DISK_FIELDS] = {
	"rd_ios", "rd_sectors", "rd_ticks", "wr_ios", "wr_sectors",
	"wr_ticks", "io_ticks", "time_in_queue"
};
static const char *const hist_nic_names[HIST_NIC_FIELDS] = {
	"rx_bytes", "rx_packets", "tx_bytes", "tx_packets"
};
static const char *const hist_group_names[HIST_GROUP_FIELDS] = {
	"ticks", "nprocs", "top_pid", "top_core", "top_ticks",
	"throttled_ns", "periods", "throttled", "quota_mcores", "thr_pid"
};

/* Make room for n samples in a ring. */
static int
hist_ring_init(struct hist_ring *r, size_t n)
{
	memset(r, 0, sizeof *r);
	if (n == 0)
		return (0);
	if ((r->s = calloc(n, sizeof *r->s)) == NULL)
		return (-1);
	r->cap = n;
	return (0);
}

/* Free a ring's samples. */
static void
hist_ring_free(struct hist_ring *r)
{
	size_t	i;

	for (i = 0; i < r->cap; i++)
		free(r->s[i].v);
	free(r->s);
}

/* The i-th sample from the oldest. */
static struct hist_sample *
hist_ring_at(const struct hist_ring *r, size_t i)
{
	return (&r->s[(r->head + i) % r->cap]);
}

/* The slot for a new sample: the oldest one once the ring is full. */
static struct hist_sample *
hist_ring_push(struct hist_ring *r)
{
	struct hist_sample	*s;

	if (r->cap == 0)
		return (NULL);
	if (r->n < r->cap)
		s = &r->s[(r->head + r->n++) % r->cap];
	else {
		s = &r->s[r->head];
		r->head = (r->head + 1) % r->cap;
	}
	return (s);
}

/* A new history. */
struct history *
history_new(double interval, size_t full, double coarse_step, size_t coarse)
{
	struct history	*h;

	if ((h = calloc(1, sizeof *h)) == NULL)
		return (NULL);
	h->interval = interval;
	h->coarse_step = coarse_step;
	h->last_coarse = -INFINITY;
	if (hist_ring_init(&h->full, full) == -1 ||
	    hist_ring_init(&h->coarse, coarse) == -1) {
		history_free(h);
		errno = ENOMEM;
		return (NULL);
	}
	return (h);
}

/* Free a history and everything it holds. */
void
history_free(struct history *h)
{
	size_t	k, i;

	if (h == NULL)
		return;
	hist_ring_free(&h->full);
	hist_ring_free(&h->coarse);
	for (k = 0; k < HIST_NKINDS; k++) {
		for (i = 0; i < h->nent[k]; i++)
			free(h->ent[k][i].members);
		free(h->ent[k]);
	}
	free(h->grp_ticks);
	free(h);
}

/* Index of the entity of kind k called name, or -1. */
int
history_find(const struct history *h, enum hist_kind k, const char *name)
{
	size_t	i;

	for (i = 0; i < h->nent[k]; i++)
		if (strcmp(h->ent[k][i].name, name) == 0)
			return ((int)i);
	return (-1);
}

/*
 * Register an entity; its index, or -1 when the kind is full (counted in
 * dropped) or on ENOMEM.
 */
static int
hist_register(struct history *h, enum hist_kind k, const char *name)
{
	struct hist_ent	*e;
	uint64_t	*t;
	size_t		 ncap;

	if (h->nent[k] >= hist_max[k]) {
		h->dropped[k]++;
		return (-1);
	}
	if (h->nent[k] == h->entcap[k]) {
		ncap = h->entcap[k] == 0 ? 8 : h->entcap[k] * 2;
		if ((e = reallocarray(h->ent[k], ncap, sizeof *e)) == NULL)
			return (-1);
		h->ent[k] = e;
		if (k == HIST_GROUP) {
			if ((t = reallocarray(h->grp_ticks, ncap,
			    sizeof *t)) == NULL)
				return (-1);
			h->grp_ticks = t;
		}
		h->entcap[k] = ncap;
	}
	e = &h->ent[k][h->nent[k]];
	memset(e, 0, sizeof *e);
	probe_strlcpy(e->name, name, sizeof e->name);
	e->speed_mbps = -1;
	e->late = h->taken > 0;
	if (k == HIST_GROUP)
		h->grp_ticks[h->nent[k]] = 0;
	return ((int)h->nent[k]++);
}

/* Offset in a sample's v of entity i of kind k. */
static size_t
hist_off(const struct hist_sample *s, enum hist_kind k, size_t i)
{
	size_t	off = 0, j;

	for (j = 0; j < (size_t)k; j++)
		off += s->n[j] * hist_nfields[j];
	return (off + i * hist_nfields[k]);
}

/* Value of field f of entity i of kind k in s, or HIST_NONE. */
uint64_t
history_value(const struct hist_sample *s, enum hist_kind k, size_t i,
    unsigned f)
{
	if (s == NULL || i >= s->n[k] || f >= hist_nfields[k])
		return (HIST_NONE);
	return (s->v[hist_off(s, k, i) + f]);
}

/* Size sample s for the registry as it is now, every value HIST_NONE. */
static int
hist_sample_shape(struct history *h, struct hist_sample *s)
{
	size_t		 need = 0, k, i;
	uint64_t	*v;

	for (k = 0; k < HIST_NKINDS; k++) {
		s->n[k] = h->nent[k];
		need += h->nent[k] * hist_nfields[k];
	}
	if (need > s->cap) {
		if ((v = reallocarray(s->v, need, sizeof *v)) == NULL)
			return (-1);
		s->v = v;
		s->cap = need;
	}
	for (i = 0; i < need; i++)
		s->v[i] = HIST_NONE;
	for (i = 0; i < HIST_SYS_FIELDS; i++)
		s->sys[i] = HIST_NONE;
	s->gap = 0;
	return (0);
}

/* Copy sample src into dst, growing dst's array. */
static int
hist_sample_copy(struct hist_sample *dst, const struct hist_sample *src)
{
	size_t		 need = 0, k;
	uint64_t	*v;

	for (k = 0; k < HIST_NKINDS; k++)
		need += src->n[k] * hist_nfields[k];
	if (need > dst->cap) {
		if ((v = reallocarray(dst->v, need, sizeof *v)) == NULL)
			return (-1);
		dst->v = v;
		dst->cap = need;
	}
	if (need > 0)
		memcpy(dst->v, src->v, need * sizeof *v);
	memcpy(dst->n, src->n, sizeof dst->n);
	memcpy(dst->sys, src->sys, sizeof dst->sys);
	dst->t = src->t;
	dst->mono = src->mono;
	dst->gap = src->gap;
	return (0);
}

/*
 * Whether name is a partition of another device in the snapshot: sda1 of
 * sda, nvme0n1p2 of nvme0n1, mmcblk0p1 of mmcblk0.
 */
static int
hist_is_partition(const struct diskstats *ds, const char *name)
{
	const char	*p;
	size_t		 i, len;

	for (i = 0; i < ds->ndevs; i++) {
		len = strlen(ds->devs[i].name);
		if (len == 0 || len >= strlen(name) ||
		    strncmp(ds->devs[i].name, name, len) != 0)
			continue;
		p = name + len;
		if (*p == 'p' && p[1] >= '0' && p[1] <= '9')
			p++;
		if (*p < '0' || *p > '9')
			continue;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '\0')
			return (1);
	}
	return (0);
}

/* Register a disk with its kind and, for an md array, its members. */
static int
hist_register_disk(struct history *h, const struct snapshot *cur,
    const struct diskstats_dev *dv)
{
	const struct snapshot_md	*md;
	struct hist_ent			*e;
	size_t				 len = 0, j;
	int				 i;

	if (strncmp(dv->name, "ram", 3) == 0 ||
	    strncmp(dv->name, "zram", 4) == 0)
		return (-1);
	if ((i = hist_register(h, HIST_DISK, dv->name)) == -1)
		return (-1);
	e = &h->ent[HIST_DISK][i];
	if ((md = snapshot_md_find(cur, dv->name)) != NULL) {
		e->dkind = HIST_DK_MD;
		for (j = 0; j < md->nmembers; j++)
			len += strlen(md->members[j]) + 1;
		if (len > 0 && (e->members = calloc(1, len)) != NULL) {
			for (j = 0; j < md->nmembers; j++) {
				if (j > 0)
					strcat(e->members, ",");
				strcat(e->members, md->members[j]);
			}
		}
	} else if (strncmp(dv->name, "dm-", 3) == 0)
		e->dkind = HIST_DK_DM;
	else if (strncmp(dv->name, "loop", 4) == 0)
		e->dkind = HIST_DK_LOOP;
	else if (hist_is_partition(&cur->disks, dv->name))
		e->dkind = HIST_DK_PART;
	else
		e->dkind = HIST_DK_DISK;
	return (i);
}

/*
 * Process p's CPU ticks in the interval since group pg (NULL: the first
 * sample, 0); -1 when its counter went back (a reused pid).
 */
static int64_t
hist_proc_ticks(const struct procgroup_group *pg,
    const struct procgroup_proc *p)
{
	const struct procgroup_proc	*q;

	if (pg == NULL)
		return (0);
	q = rate_find_proc(pg, p->pid);
	if (q == NULL || strcmp(q->comm, p->comm) != 0)
		return ((int64_t)p->ticks);	/* started in the interval */
	return (p->ticks >= q->ticks ? (int64_t)(p->ticks - q->ticks) : -1);
}

/*
 * The busiest process of the cgroup of cg throttled in the most quota
 * periods since pg, or -1 when none was throttled.
 */
static int
hist_throttled_pid(const struct procgroup_group *pg,
    const struct procgroup_group *cg)
{
	const struct cgroup_cpu	*c, *o;
	uint64_t		 d, most = 0;
	int64_t			 t, best = -1;
	size_t			 j, k;
	int			 ci = -1, pid = -1;

	if (pg == NULL)
		return (-1);
	for (j = 0; j < cg->ncgroups; j++) {
		c = &cg->cgroups[j];
		for (k = 0, o = NULL; k < pg->ncgroups && o == NULL; k++)
			if (pg->cgroups[k].version == c->version &&
			    strcmp(pg->cgroups[k].path, c->path) == 0)
				o = &pg->cgroups[k];
		if (!c->has_stat || o == NULL || !o->has_stat ||
		    c->nr_throttled < o->nr_throttled)
			continue;
		d = c->nr_throttled - o->nr_throttled;
		if (d > most) {
			most = d;
			ci = (int)j;
		}
	}
	for (j = 0; ci >= 0 && j < cg->nprocs; j++)
		if (cg->procs[j].cgroup == ci &&
		    (t = hist_proc_ticks(pg, &cg->procs[j])) > best) {
			best = t;
			pid = cg->procs[j].pid;
		}
	return (pid);
}

/* Fill the group values of slot i from cur (and prev) into v. */
static void
hist_fill_group(struct history *h, size_t i, const struct procgroup_group *pg,
    const struct procgroup_group *cg, uint64_t *v)
{
	const struct procgroup_proc	*p;
	const struct cgroup_cpu		*c;
	uint64_t			 d, sum = 0, best = 0;
	uint64_t			 per = 0, thr = 0, ns = 0, quota = 0;
	int64_t				 t;
	size_t				 j;
	int				 top = -1, core = -1, has_stat = 0;

	for (j = 0; j < cg->nprocs; j++) {
		p = &cg->procs[j];
		if ((t = hist_proc_ticks(pg, p)) < 0)
			continue;
		d = (uint64_t)t;
		sum += d;
		if (top == -1 || d > best) {
			best = d;
			top = p->pid;
			core = p->processor;
			probe_strlcpy(h->ent[HIST_GROUP][i].top_comm, p->comm,
			    sizeof h->ent[HIST_GROUP][i].top_comm);
		}
	}
	h->grp_ticks[i] += sum;
	v[HIST_GROUP_TICKS] = h->grp_ticks[i];
	v[HIST_GROUP_NPROCS] = cg->nprocs;
	v[HIST_GROUP_TOP_PID] = top >= 0 ? (uint64_t)top : HIST_NONE;
	v[HIST_GROUP_TOP_CORE] = top >= 0 && core >= 0 ? (uint64_t)core :
	    HIST_NONE;
	v[HIST_GROUP_TOP_TICKS] = top >= 0 ? best : HIST_NONE;
	for (j = 0; j < cg->ncgroups; j++) {
		c = &cg->cgroups[j];
		if (c->has_stat) {
			has_stat = 1;
			per += c->nr_periods;
			thr += c->nr_throttled;
			ns += c->throttled_ns;
		}
		if (c->has_quota && !c->unlimited && c->quota_cores > 0) {
			d = (uint64_t)llround(c->quota_cores * 1000.0);
			if (quota == 0 || d < quota)
				quota = d;
		}
	}
	if (has_stat) {
		v[HIST_GROUP_THROTTLED_NS] = ns;
		v[HIST_GROUP_PERIODS] = per;
		v[HIST_GROUP_THROTTLED] = thr;
	}
	v[HIST_GROUP_QUOTA_MCORES] = quota;
	t = hist_throttled_pid(pg, cg);
	v[HIST_GROUP_THR_PID] = t >= 0 ? (uint64_t)t : HIST_NONE;
}

/* Seconds of a timespec. */
static double
hist_secs(const struct timespec *ts)
{
	return ((double)ts->tv_sec + (double)ts->tv_nsec / 1e9);
}

/* Record cur's CPU lines. */
static int
hist_add_cpus(struct history *h, const struct snapshot *cur)
{
	const struct cpustat_cpu	*c;
	char				 name[HIST_NAME_MAX];
	size_t				 i;

	if (!cur->status[SNAPSHOT_CPU].avail)
		return (0);
	if (cur->cpu.has_total && history_find(h, HIST_CPU, "cpu") == -1 &&
	    hist_register(h, HIST_CPU, "cpu") == -1 && errno == ENOMEM)
		return (-1);
	for (i = 0; i < cur->cpu.ncpus; i++) {
		c = &cur->cpu.cpus[i];
		snprintf(name, sizeof name, "cpu%d", c->cpu);
		if (history_find(h, HIST_CPU, name) == -1 &&
		    hist_register(h, HIST_CPU, name) == -1 && errno == ENOMEM)
			return (-1);
	}
	return (0);
}

/* Register what cur shows that the registry lacks. */
static int
hist_register_all(struct history *h, const struct snapshot *cur)
{
	const struct diskstats_dev	*dv;
	const struct netdev_if		*ni;
	struct hist_ent			*e;
	size_t				 i;
	int				 j;

	if (hist_add_cpus(h, cur) == -1)
		return (-1);
	for (i = 0; cur->status[SNAPSHOT_DISKS].avail &&
	    i < cur->disks.ndevs; i++) {
		dv = &cur->disks.devs[i];
		if (dv->rd_ios + dv->wr_ios == 0 ||
		    history_find(h, HIST_DISK, dv->name) != -1)
			continue;
		errno = 0;
		if (hist_register_disk(h, cur, dv) == -1 && errno == ENOMEM)
			return (-1);
	}
	for (i = 0; cur->status[SNAPSHOT_NICS].avail &&
	    i < cur->nics.nifs; i++) {
		ni = &cur->nics.ifs[i];
		if ((j = history_find(h, HIST_NIC, ni->name)) == -1) {
			errno = 0;
			j = hist_register(h, HIST_NIC, ni->name);
			if (j == -1 && errno == ENOMEM)
				return (-1);
		}
		if (j >= 0 && ni->has_link) {
			e = &h->ent[HIST_NIC][j];
			e->speed_mbps = ni->link.speed_mbps;
			probe_strlcpy(e->master, ni->link.master,
			    sizeof e->master);
			e->is_bond = ni->link.is_bond;
			e->is_virtual = ni->link.is_virtual;
			probe_strlcpy(e->bond_mode, ni->link.bond_mode,
			    sizeof e->bond_mode);
			e->mtu = ni->link.mtu;
		}
	}
	for (i = 0; i < cur->groups.ngroups; i++) {
		if (history_find(h, HIST_GROUP, cur->groups.groups[i].name) ==
		    -1 && hist_register(h, HIST_GROUP,
		    cur->groups.groups[i].name) == -1 && errno == ENOMEM)
			return (-1);
	}
	return (0);
}

/* A kstat row into sys field f, where the release has it. */
static void
hist_kstat(struct hist_sample *s, enum hist_sys f, const struct zfs_named *n,
    int row)
{
	if (ZFS_HAVE(n, row))
		s->sys[f] = n->v[row];
}

/* ZFS's counters the verdict reads: the ARC, the throttle, the log. */
static void
hist_zfs(struct hist_sample *s, const struct zfs_counters *z)
{
	if (z->have & ZFS_HAVE_ARC) {
		hist_kstat(s, HIST_SYS_ARC_HITS, &z->arc, ZFS_ARC_HITS);
		hist_kstat(s, HIST_SYS_ARC_MISSES, &z->arc, ZFS_ARC_MISSES);
		hist_kstat(s, HIST_SYS_ARC_DD_HITS, &z->arc,
		    ZFS_ARC_DEMAND_DATA_HITS);
		hist_kstat(s, HIST_SYS_ARC_DD_MISSES, &z->arc,
		    ZFS_ARC_DEMAND_DATA_MISSES);
	}
	if ((z->have & ZFS_HAVE_TX) && ZFS_HAVE(&z->tx, ZFS_TX_DIRTY_THROTTLE)
	    && ZFS_HAVE(&z->tx, ZFS_TX_DIRTY_DELAY))
		s->sys[HIST_SYS_ZFS_THROTTLE] = z->tx.v[ZFS_TX_DIRTY_THROTTLE] +
		    z->tx.v[ZFS_TX_DIRTY_DELAY];
	if (z->have & ZFS_HAVE_ZIL)
		hist_kstat(s, HIST_SYS_ZIL_COMMITS, &z->zil, ZFS_ZIL_COMMIT);
}

/* Fill sample s from snapshot cur. */
static void
hist_fill(struct history *h, struct hist_sample *s, const struct snapshot *prev,
    const struct snapshot *cur)
{
	const struct cpustat_cpu	*c;
	const struct diskstats_dev	*dv;
	const struct netdev_if		*ni;
	const struct pressure		*ps = &cur->pressure;
	const struct procgroup_group	*pg;
	char				 name[HIST_NAME_MAX];
	uint64_t			*v;
	size_t				 i, f;
	int				 j;

	s->t = hist_secs(&cur->real);
	s->mono = hist_secs(&cur->mono);
	if (ps->res[PRESSURE_CPU].some.avail)
		s->sys[HIST_SYS_PSI_CPU_SOME] = ps->res[PRESSURE_CPU].some.total;
	if (ps->res[PRESSURE_IO].some.avail)
		s->sys[HIST_SYS_PSI_IO_SOME] = ps->res[PRESSURE_IO].some.total;
	if (ps->res[PRESSURE_IO].full.avail)
		s->sys[HIST_SYS_PSI_IO_FULL] = ps->res[PRESSURE_IO].full.total;
	if (ps->res[PRESSURE_MEMORY].some.avail)
		s->sys[HIST_SYS_PSI_MEM_SOME] =
		    ps->res[PRESSURE_MEMORY].some.total;
	if (cur->mem.have & (1U << MEMINFO_CACHED))
		s->sys[HIST_SYS_MEM_CACHED] = cur->mem.v[MEMINFO_CACHED];
	if (cur->mem.have & (1U << MEMINFO_DIRTY))
		s->sys[HIST_SYS_MEM_DIRTY] = cur->mem.v[MEMINFO_DIRTY];
	if (cur->mem.have & (1U << MEMINFO_AVAILABLE))
		s->sys[HIST_SYS_MEM_AVAILABLE] = cur->mem.v[MEMINFO_AVAILABLE];
	if (cur->mem.have & (1U << MEMINFO_TOTAL))
		s->sys[HIST_SYS_MEM_TOTAL] = cur->mem.v[MEMINFO_TOTAL];
	if (cur->status[SNAPSHOT_CPU].avail && cur->cpu.has_ctxt)
		s->sys[HIST_SYS_CTXT] = cur->cpu.ctxt;
	if (cur->status[SNAPSHOT_ZFS].avail && cur->zfs != NULL)
		hist_zfs(s, cur->zfs);
	if (cur->status[SNAPSHOT_UNRAID].avail && cur->unraid != NULL) {
		s->sys[HIST_SYS_UNRAID_OP] = cur->unraid->running ?
		    (uint64_t)cur->unraid->op : 0;
		s->sys[HIST_SYS_UNRAID_KIBS] = cur->unraid->running ?
		    cur->unraid->speed_kib : 0;
	}

	if (cur->status[SNAPSHOT_CPU].avail) {
		for (i = 0; i <= cur->cpu.ncpus; i++) {
			c = i == 0 ? &cur->cpu.total : &cur->cpu.cpus[i - 1];
			if (i == 0 && !cur->cpu.has_total)
				continue;
			if (i == 0)
				snprintf(name, sizeof name, "cpu");
			else
				snprintf(name, sizeof name, "cpu%d", c->cpu);
			if ((j = history_find(h, HIST_CPU, name)) == -1)
				continue;
			v = &s->v[hist_off(s, HIST_CPU, (size_t)j)];
			for (f = 0; f < HIST_CPU_FIELDS; f++)
				v[f] = (int)f < c->nfields ? c->ticks[f] : 0;
		}
	}
	for (i = 0; cur->status[SNAPSHOT_DISKS].avail &&
	    i < cur->disks.ndevs; i++) {
		dv = &cur->disks.devs[i];
		if ((j = history_find(h, HIST_DISK, dv->name)) == -1)
			continue;
		v = &s->v[hist_off(s, HIST_DISK, (size_t)j)];
		v[HIST_DISK_RD_IOS] = dv->rd_ios;
		v[HIST_DISK_RD_SECTORS] = dv->rd_sectors;
		v[HIST_DISK_RD_TICKS] = dv->rd_ticks;
		v[HIST_DISK_WR_IOS] = dv->wr_ios;
		v[HIST_DISK_WR_SECTORS] = dv->wr_sectors;
		v[HIST_DISK_WR_TICKS] = dv->wr_ticks;
		v[HIST_DISK_IO_TICKS] = dv->io_ticks;
		v[HIST_DISK_TIME_IN_QUEUE] = dv->time_in_queue;
	}
	for (i = 0; cur->status[SNAPSHOT_NICS].avail &&
	    i < cur->nics.nifs; i++) {
		ni = &cur->nics.ifs[i];
		if ((j = history_find(h, HIST_NIC, ni->name)) == -1)
			continue;
		v = &s->v[hist_off(s, HIST_NIC, (size_t)j)];
		v[HIST_NIC_RX_BYTES] = ni->rx_bytes;
		v[HIST_NIC_RX_PACKETS] = ni->rx_packets;
		v[HIST_NIC_TX_BYTES] = ni->tx_bytes;
		v[HIST_NIC_TX_PACKETS] = ni->tx_packets;
	}
	for (i = 0; i < cur->groups.ngroups; i++) {
		if ((j = history_find(h, HIST_GROUP,
		    cur->groups.groups[i].name)) == -1)
			continue;
		pg = prev != NULL && i < prev->groups.ngroups &&
		    strcmp(prev->groups.groups[i].name,
		    cur->groups.groups[i].name) == 0 ?
		    &prev->groups.groups[i] : NULL;
		hist_fill_group(h, (size_t)j, pg, &cur->groups.groups[i],
		    &s->v[hist_off(s, HIST_GROUP, (size_t)j)]);
	}
}

/* Copy the newest full sample into the coarse ring when a step has passed. */
static int
hist_coarsen(struct history *h, const struct hist_sample *s)
{
	struct hist_sample	*c;

	if (h->coarse.cap == 0 || s->t - h->last_coarse < h->coarse_step)
		return (0);
	if ((c = hist_ring_push(&h->coarse)) == NULL ||
	    hist_sample_copy(c, s) == -1)
		return (-1);
	h->last_coarse = s->t;
	return (0);
}

/* Record snapshot cur. */
int
history_add(struct history *h, const struct snapshot *prev,
    const struct snapshot *cur, int gap)
{
	struct hist_sample	*s;

	if (hist_register_all(h, cur) == -1)
		return (-1);
	if ((s = hist_ring_push(&h->full)) == NULL) {
		errno = EINVAL;
		return (-1);
	}
	if (hist_sample_shape(h, s) == -1)
		return (-1);
	hist_fill(h, s, prev, cur);
	s->gap = gap;
	h->taken++;
	return (hist_coarsen(h, s));
}

/* The newest sample. */
const struct hist_sample *
history_last(const struct history *h)
{
	if (h->full.n > 0)
		return (hist_ring_at(&h->full, h->full.n - 1));
	if (h->coarse.n > 0)
		return (hist_ring_at(&h->coarse, h->coarse.n - 1));
	return (NULL);
}

/* The oldest sample. */
const struct hist_sample *
history_first(const struct history *h)
{
	if (h->coarse.n > 0)
		return (hist_ring_at(&h->coarse, 0));
	if (h->full.n > 0)
		return (hist_ring_at(&h->full, 0));
	return (NULL);
}

/* Append s to w when it is in range and a step after the last one kept. */
static int
hist_window_take(struct hist_window *w, size_t *cap,
    const struct hist_sample *s, double step)
{
	const struct hist_sample	**ns;
	size_t				  ncap;

	if (w->n > 0 && step > 0 && s->t - w->s[w->n - 1]->t < step * 0.999) {
		w->s[w->n - 1] = s;	/* keep the newest: totals stay exact */
		return (0);
	}
	if (w->n == *cap) {
		ncap = *cap == 0 ? 64 : *cap * 2;
		if ((ns = reallocarray(w->s, ncap, sizeof *ns)) == NULL)
			return (-1);
		w->s = ns;
		*cap = ncap;
	}
	w->s[w->n++] = s;
	return (0);
}

/* The samples between from and to, step apart. */
int
history_window(const struct history *h, double from, double to, double step,
    struct hist_window *w)
{
	const struct hist_sample	*s;
	double				 full0;
	size_t				 i, cap = 0;

	memset(w, 0, sizeof *w);
	w->h = h;
	full0 = h->full.n > 0 ? hist_ring_at(&h->full, 0)->t : INFINITY;
	for (i = 0; i < h->coarse.n; i++) {
		s = hist_ring_at(&h->coarse, i);
		if (s->t >= from && s->t <= to && s->t < full0 &&
		    hist_window_take(w, &cap, s, step) == -1)
			goto fail;
	}
	for (i = 0; i < h->full.n; i++) {
		s = hist_ring_at(&h->full, i);
		if (s->t >= from && s->t <= to &&
		    hist_window_take(w, &cap, s, step) == -1)
			goto fail;
	}
	return (0);
fail:
	history_window_clear(w);
	errno = ENOMEM;
	return (-1);
}

/* Free a window's array. */
void
history_window_clear(struct hist_window *w)
{
	free(w->s);
	w->s = NULL;
	w->n = 0;
}

/* Bytes held. */
size_t
history_memory(const struct history *h)
{
	size_t	sz = sizeof *h, i, k;

	sz += (h->full.cap + h->coarse.cap) * sizeof (struct hist_sample);
	for (i = 0; i < h->full.cap; i++)
		sz += h->full.s[i].cap * sizeof (uint64_t);
	for (i = 0; i < h->coarse.cap; i++)
		sz += h->coarse.s[i].cap * sizeof (uint64_t);
	for (k = 0; k < HIST_NKINDS; k++)
		sz += h->entcap[k] * sizeof (struct hist_ent);
	return (sz);
}

/* Samples in each ring; the total. */
size_t
history_count(const struct history *h, size_t *full, size_t *coarse)
{
	if (full != NULL)
		*full = h->full.n;
	if (coarse != NULL)
		*coarse = h->coarse.n;
	return (h->full.n + h->coarse.n);
}

/* A counter as JSON: null when not available. */
static json_t *
hist_json_u64(uint64_t v)
{
	if (v == HIST_NONE || v > (uint64_t)INT64_MAX)
		return (json_null());
	return (json_integer((json_int_t)v));
}

/* A list of names as a JSON array. */
static json_t *
hist_json_names(const char *const *names, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; a != NULL && i < n; i++)
		json_array_append_new(a, json_string(names[i]));
	return (a);
}

/* The registry and the field names. */
json_t *
history_header_json(const struct history *h)
{
	const struct hist_ent	*e;
	json_t			*hdr, *a, *o, *fields;
	size_t			 k, i;

	hdr = json_pack("{s:s,s:i,s:f,s:f}", "format", HIST_FORMAT,
	    "version", HIST_VERSION, "interval", h->interval, "coarse_step",
	    h->coarse_step);
	fields = json_pack("{s:o,s:o,s:o,s:o,s:o}",
	    "sys", hist_json_names(hist_sys_names, HIST_SYS_FIELDS),
	    "cpus", hist_json_names(hist_cpu_names, HIST_CPU_FIELDS),
	    "disks", hist_json_names(hist_disk_names, HIST_DISK_FIELDS),
	    "nics", hist_json_names(hist_nic_names, HIST_NIC_FIELDS),
	    "groups", hist_json_names(hist_group_names, HIST_GROUP_FIELDS));
	if (hdr == NULL || fields == NULL) {
		json_decref(hdr);
		json_decref(fields);
		return (NULL);
	}
	json_object_set_new(hdr, "fields", fields);
	for (k = 0; k < HIST_NKINDS; k++) {
		a = json_array();
		for (i = 0; a != NULL && i < h->nent[k]; i++) {
			e = &h->ent[k][i];
			o = json_pack("{s:s,s:b}", "name", e->name, "late",
			    e->late);
			if (o == NULL)
				continue;
			if (k == HIST_DISK) {
				json_object_set_new(o, "kind", json_string(
				    hist_dkind_names[e->dkind]));
				json_object_set_new(o, "members", e->members ?
				    json_string(e->members) : json_null());
			} else if (k == HIST_NIC) {
				json_object_set_new(o, "speed_mbps",
				    json_integer(e->speed_mbps));
				json_object_set_new(o, "master",
				    json_string(e->master));
				json_object_set_new(o, "bond",
				    json_boolean(e->is_bond));
				if (e->is_virtual)
					json_object_set_new(o, "virtual",
					    json_true());
				if (e->bond_mode[0] != '\0')
					json_object_set_new(o, "bond_mode",
					    json_string(e->bond_mode));
				if (e->mtu > 0)
					json_object_set_new(o, "mtu",
					    json_integer((json_int_t)e->mtu));
			} else if (k == HIST_GROUP)
				json_object_set_new(o, "top_comm",
				    json_string(e->top_comm));
			json_array_append_new(a, o);
		}
		json_object_set_new(hdr, hist_kind_keys[k], a);
	}
	return (hdr);
}

/* One sample as JSON. */
json_t *
history_sample_json(const struct hist_sample *s)
{
	json_t		*o, *a, *row;
	size_t		 k, i, f;
	uint64_t	 v;
	int		 any;

	o = json_pack("{s:f,s:f,s:b}", "t", s->t, "mono", s->mono, "gap",
	    s->gap);
	if (o == NULL)
		return (NULL);
	/*
	 * The fields no box has but a ZFS or Unraid one are left off the end
	 * when they are not there: a reader takes what is missing as null.
	 */
	for (f = HIST_SYS_FIELDS; f > HIST_SYS_CTXT + 1 &&
	    s->sys[f - 1] == HIST_NONE; f--)
		;
	a = json_array();
	for (i = 0; i < f; i++)
		json_array_append_new(a, hist_json_u64(s->sys[i]));
	json_object_set_new(o, "sys", a);
	for (k = 0; k < HIST_NKINDS; k++) {
		a = json_array();
		for (i = 0; a != NULL && i < s->n[k]; i++) {
			row = json_array();
			any = 0;
			for (f = 0; row != NULL && f < hist_nfields[k]; f++) {
				v = history_value(s, (enum hist_kind)k, i,
				    (unsigned)f);
				any |= v != HIST_NONE;
				json_array_append_new(row, hist_json_u64(v));
			}
			if (!any) {
				json_decref(row);
				row = json_null();
			}
			json_array_append_new(a, row);
		}
		json_object_set_new(o, hist_kind_keys[k], a);
	}
	return (o);
}

/* The history, or a window of it, as JSON. */
json_t *
history_to_json(const struct history *h, const struct hist_window *w)
{
	const struct hist_sample	*s;
	json_t				*doc, *a;
	size_t				 i, n;

	if ((doc = history_header_json(h)) == NULL || (a = json_array()) == NULL) {
		json_decref(doc);
		return (NULL);
	}
	n = w != NULL ? w->n : h->coarse.n + h->full.n;
	for (i = 0; i < n; i++) {
		if (w != NULL)
			s = w->s[i];
		else if (i < h->coarse.n)
			s = hist_ring_at(&h->coarse, i);
		else
			s = hist_ring_at(&h->full, i - h->coarse.n);
		/* Coarse samples the full ring also holds are not repeated. */
		if (w == NULL && i < h->coarse.n && h->full.n > 0 &&
		    s->t >= hist_ring_at(&h->full, 0)->t)
			continue;
		if (json_array_append_new(a, history_sample_json(s)) == -1) {
			json_decref(a);
			json_decref(doc);
			return (NULL);
		}
	}
	json_object_set_new(doc, "samples", a);
	return (doc);
}

/* A JSON counter into *v: null is HIST_NONE; -1 when not an integer >= 0. */
static int
hist_from_u64(const json_t *j, uint64_t *v)
{
	if (j == NULL || json_is_null(j)) {
		*v = HIST_NONE;
		return (0);
	}
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return (-1);
	*v = (uint64_t)json_integer_value(j);
	return (0);
}

/* Read the registry of a header into an empty history. */
int
history_load_header(struct history *h, const json_t *doc, const char **errstr)
{
	const json_t	*a, *o, *x;
	struct hist_ent	*e;
	const char	*name, *kind;
	size_t		 k, i, d;
	int		 j;

	x = json_object_get(doc, "format");
	if (!json_is_string(x) || strcmp(json_string_value(x), HIST_FORMAT)) {
		*errstr = "not a nasperf history (no \"format\": \""
		    HIST_FORMAT "\")";
		return (-1);
	}
	x = json_object_get(doc, "version");
	if (!json_is_integer(x) || json_integer_value(x) != HIST_VERSION) {
		*errstr = "unknown history version";
		return (-1);
	}
	for (k = 0; k < HIST_NKINDS; k++) {
		a = json_object_get(doc, hist_kind_keys[k]);
		if (!json_is_array(a)) {
			*errstr = "a registry list is missing";
			return (-1);
		}
		json_array_foreach(a, i, o) {
			name = json_string_value(json_object_get(o, "name"));
			if (name == NULL || *name == '\0' ||
			    strlen(name) >= HIST_NAME_MAX) {
				*errstr = "an entity without a valid name";
				return (-1);
			}
			if ((j = hist_register(h, (enum hist_kind)k,
			    name)) == -1) {
				*errstr = "too many entities";
				return (-1);
			}
			e = &h->ent[k][j];
			e->late = json_is_true(json_object_get(o, "late"));
			kind = json_string_value(json_object_get(o, "kind"));
			for (d = 0; kind != NULL &&
			    d < NP_NITEMS(hist_dkind_names); d++)
				if (strcmp(kind, hist_dkind_names[d]) == 0)
					e->dkind = (int)d;
			x = json_object_get(o, "members");
			if (json_is_string(x) &&
			    (e->members = strdup(json_string_value(x))) ==
			    NULL) {
				*errstr = "out of memory";
				return (-1);
			}
			x = json_object_get(o, "speed_mbps");
			if (json_is_integer(x))
				e->speed_mbps = json_integer_value(x);
			x = json_object_get(o, "master");
			if (json_is_string(x))
				probe_strlcpy(e->master, json_string_value(x),
				    sizeof e->master);
			e->is_bond = json_is_true(json_object_get(o, "bond"));
			e->is_virtual = json_is_true(json_object_get(o,
			    "virtual"));
			x = json_object_get(o, "bond_mode");
			if (json_is_string(x))
				probe_strlcpy(e->bond_mode, json_string_value(x),
				    sizeof e->bond_mode);
			x = json_object_get(o, "mtu");
			if (json_is_integer(x) && json_integer_value(x) > 0)
				e->mtu = (uint64_t)json_integer_value(x);
			x = json_object_get(o, "top_comm");
			if (json_is_string(x))
				probe_strlcpy(e->top_comm, json_string_value(x),
				    sizeof e->top_comm);
		}
	}
	return (0);
}

/* Read one sample into the full ring (and the coarse one). */
int
history_load_sample(struct history *h, const json_t *o, const char **errstr)
{
	struct hist_sample	*s, tmp;
	const json_t		*a, *row, *x;
	size_t			 k, i, f;
	uint64_t		 v;

	memset(&tmp, 0, sizeof tmp);
	if (!json_is_object(o) || !json_is_number(json_object_get(o, "t"))) {
		*errstr = "a sample without a time";
		return (-1);
	}
	if (hist_sample_shape(h, &tmp) == -1) {
		*errstr = "out of memory";
		return (-1);
	}
	tmp.t = json_number_value(json_object_get(o, "t"));
	x = json_object_get(o, "mono");
	tmp.mono = json_is_number(x) ? json_number_value(x) : 0;
	tmp.gap = json_is_true(json_object_get(o, "gap"));
	a = json_object_get(o, "sys");
	for (i = 0; i < HIST_SYS_FIELDS; i++) {
		if (hist_from_u64(json_array_get(a, i), &tmp.sys[i]) == -1)
			goto bad;
	}
	for (k = 0; k < HIST_NKINDS; k++) {
		a = json_object_get(o, hist_kind_keys[k]);
		if (a != NULL && !json_is_array(a))
			goto bad;
		tmp.n[k] = json_array_size(a) < h->nent[k] ?
		    json_array_size(a) : h->nent[k];
	}
	for (k = 0; k < HIST_NKINDS; k++) {
		a = json_object_get(o, hist_kind_keys[k]);
		for (i = 0; i < tmp.n[k]; i++) {
			row = json_array_get(a, i);
			for (f = 0; f < hist_nfields[k]; f++) {
				if (hist_from_u64(json_is_array(row) ?
				    json_array_get(row, f) : NULL, &v) == -1)
					goto bad;
				tmp.v[hist_off(&tmp, (enum hist_kind)k, i) +
				    f] = v;
			}
		}
	}
	if ((s = hist_ring_push(&h->full)) == NULL ||
	    hist_sample_copy(s, &tmp) == -1 || hist_coarsen(h, s) == -1) {
		free(tmp.v);
		*errstr = "out of memory";
		return (-1);
	}
	free(tmp.v);
	/* The groups' accumulated ticks carry on from the newest sample. */
	for (i = 0; i < s->n[HIST_GROUP]; i++) {
		v = history_value(s, HIST_GROUP, i, HIST_GROUP_TICKS);
		if (v != HIST_NONE)
			h->grp_ticks[i] = v;
	}
	h->taken++;
	return (0);
bad:
	free(tmp.v);
	*errstr = "a sample holds something other than counters";
	return (-1);
}

/* Read a history written by history_to_json(). */
int
history_from_json(struct history *h, const json_t *doc, const char **errstr)
{
	const json_t	*a, *o;
	size_t		 i;

	*errstr = NULL;
	if (history_load_header(h, doc, errstr) == -1)
		return (-1);
	a = json_object_get(doc, "samples");
	if (a != NULL && !json_is_array(a)) {
		*errstr = "\"samples\" is not a list";
		return (-1);
	}
	json_array_foreach(a, i, o) {
		if (history_load_sample(h, o, errstr) == -1)
			return (-1);
	}
	return (0);
}
