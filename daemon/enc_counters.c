/*
 * enc_counters.c: a counter snapshot, and rates between two, as JSON.
 *
 * GET /v1/counters is one object; a part the probes could not read is
 * null and named in "unavailable" with its reason:
 *
 *   "time": realtime seconds (float), "monotonic": seconds (float),
 *   "unavailable": { "<part>": "reason", ... },
 *   "cpu": { "hz": 100, "total": CORE, "cores": [CORE...], "ctxt", "intr",
 *       "procs_running", "procs_blocked", "btime" }
 *     CORE = { "cpu": N (-1 total), "nfields", "user", "nice", "system",
 *       "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice" }
 *       in USER_HZ ticks, null past nfields;
 *   "memory": { "total_bytes", "free_bytes", "available_bytes", "buffers_bytes",
 *       "cached_bytes", "dirty_bytes", "writeback_bytes", "swap_total_bytes",
 *       "swap_free_bytes", "uptime_s", "load": [1, 5, 15] },
 *   "disks": [ { "name", "major", "minor", "nfields", "reads", "reads_merged",
 *       "read_bytes", "read_ms", "writes", "writes_merged", "write_bytes",
 *       "write_ms", "in_flight", "io_ms", "weighted_io_ms", "discards",
 *       "discards_merged", "discard_bytes", "discard_ms", "flushes",
 *       "flush_ms" (null where nfields lacks them), "md_members": [names]
 *       for md arrays } ]  (bytes = sectors × 512, times in ms),
 *   "nics": [ { "name", "rx_bytes", "rx_packets", "rx_errors", "rx_dropped",
 *       "tx_bytes", "tx_packets", "tx_errors", "tx_dropped", "source":
 *       "sysfs"|"proc", "speed_mbps", "duplex", "mtu", "operstate",
 *       "master", "address", "bond" } ],
 *   "groups": [ { "name", "processes", "threads", "cpu_ticks", "cpu_seconds",
 *       "rss_bytes", "procs": [ { "pid", "comm", "cpu", "ticks", "threads",
 *       "rss_bytes" } ], "cgroups": [ { "version", "path", "unlimited",
 *       "quota_cores", "period_us", "nr_periods", "nr_throttled",
 *       "throttled_seconds" } ] } ],
 *   "softirqs": { "cpus": [N...], "counts": { "NET_RX": [per cpu], ... } },
 *   "pressure": { "cpu"|"io"|"memory": { "some": LINE, "full": LINE } }
 *       LINE = { "avg10", "avg60", "avg300", "total_us" } or null,
 *   "nfsd": { "rc": {...}, "fh_stale", "io": { "read_bytes", "write_bytes" },
 *       "threads", "th_fullcnt", "th_hist", "ra_size", "net": {...},
 *       "rpc": {...}, "proc2"|"proc3"|"proc4"|"proc4ops": [counts],
 *       "proc3_named": { "getattr": N, ... } },
 *   "crypto": { "hw_drivers": [...], "cpu_drivers": [...], "algorithms":
 *       [ { "name", "driver", "module", "type", "priority", "accel" } ] },
 *   "zfs": { "arcstats": { ROW: N }, "dmu_tx": { ROW: N }, "zil": { ROW:
 *       N } (each null without its kstat; a row only where the release
 *       has it, under the kstat's own name: "hits", "c", "l2_size",
 *       "dmu_tx_dirty_throttle", "zil_itx_metaslab_slog_bytes"...),
 *       "pools": [ { "name", "txgs": { "committed", "last_txg",
 *       "max_dirty_bytes" (null without ndirty), "avg_sync_ms",
 *       "max_sync_ms", "written_bytes" } or null, "io": { ROW: N } or
 *       null } ] },
 *   "unraid": { "state", "md_version", "disks", "disabled", "invalid",
 *       "missing", "parity_disks", "data_disks", "operation": { "action",
 *       "kind": "check"|"recon"|"clear"|"other"|"none", "running",
 *       "correcting", "done_pct", "bytes_per_second", "size_bytes",
 *       "position_bytes" }, "last_check", "last_check_errors", "slots":
 *       [ { "slot", "role": "parity"|"data", "name", "device", "status",
 *       "size_bytes", "reads", "writes", "errors", "id" } ] }
 *
 * enc_rates() gives "interval" (s), "cpu" ({ "total": R, "cores": [R] },
 * R = { "cpu", "busy_pct", "<field>_pct"... }), "disks" (iostat -x per
 * device: "name", "reads_per_s", "writes_per_s", "read_bytes_per_s",
 * "write_bytes_per_s", "read_await_ms", "write_await_ms", "avg_queue",
 * "util_pct"; md arrays take await, aqu-sz and %util from their members:
 * "util_pct" is the busiest member's, "util_pct_mean" the members' mean,
 * awaits are member ticks over member I/Os, "avg_queue" the members' sum),
 * "nics" ("name", "rx_bytes_per_s", "tx_bytes_per_s", "rx_packets_per_s",
 * "tx_packets_per_s") and "groups" ("name", "cpu_pct" of one core, "top":
 * { "pid", "comm", "cpu", "cpu_pct" }, "throttled_pct",
 * "throttled_seconds_per_s") and "zfs" ("arc_hits_per_s",
 * "arc_misses_per_s", "arc_hit_pct", "demand_data_hit_pct",
 * "l2arc_hits_per_s", "l2arc_misses_per_s", "zil_commits_per_s",
 * "zil_slog_bytes_per_s", "zil_pool_bytes_per_s", "throttle_waits_per_s";
 * null without ZFS).  A rate that is not available (a counter went
 * backwards, a device changed, a reboot between the readings) is null.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "encode.h"
#include "np.h"
#include "rate.h"
#include "snapshot.h"

/* Set key of o to an unsigned counter (JSON integers are signed 64 bits). */
static void
enc_u64(json_t *o, const char *key, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX)
		json_object_set_new(o, key, json_real((double)v));
	else
		json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* Set key of o to v, or null when not available. */
static void
enc_u64_if(json_t *o, const char *key, int avail, uint64_t v)
{
	if (avail)
		enc_u64(o, key, v);
	else
		json_object_set_new(o, key, json_null());
}

/* Set key of o to a double, or null. */
static void
enc_real_if(json_t *o, const char *key, int avail, double v)
{
	json_object_set_new(o, key, avail ? json_real(v) : json_null());
}

/* One /proc/stat cpu line. */
static json_t *
enc_cpu_line(const struct cpustat_cpu *c)
{
	json_t	*o = json_object();
	int	 i;

	json_object_set_new(o, "cpu", json_integer(c->cpu));
	json_object_set_new(o, "nfields", json_integer(c->nfields));
	for (i = 0; i < CPUSTAT_NFIELDS; i++)
		enc_u64_if(o, cpustat_field_names[i], i < c->nfields,
		    c->ticks[i]);
	return (o);
}

/* The "cpu" part. */
static json_t *
enc_cpu(const struct cpustat *cs)
{
	json_t	*o = json_object(), *a = json_array();
	size_t	 i;

	json_object_set_new(o, "hz", json_integer(CPUSTAT_HZ));
	json_object_set_new(o, "total", cs->has_total ?
	    enc_cpu_line(&cs->total) : json_null());
	for (i = 0; i < cs->ncpus; i++)
		json_array_append_new(a, enc_cpu_line(&cs->cpus[i]));
	json_object_set_new(o, "cores", a);
	enc_u64_if(o, "ctxt", cs->has_ctxt, cs->ctxt);
	enc_u64_if(o, "intr", cs->has_intr, cs->intr);
	enc_u64_if(o, "procs_running", cs->has_procs, cs->procs_running);
	enc_u64_if(o, "procs_blocked", cs->has_procs, cs->procs_blocked);
	enc_u64_if(o, "btime", cs->has_btime, cs->btime);
	return (o);
}

/* The "memory" part. */
static json_t *
enc_memory(const struct meminfo *mi)
{
	static const char *const keys[MEMINFO_NFIELDS] = {
		"total_bytes", "free_bytes", "available_bytes",
		"buffers_bytes", "cached_bytes", "dirty_bytes",
		"writeback_bytes", "swap_total_bytes", "swap_free_bytes"
	};
	json_t	*o = json_object();
	int	 i;

	for (i = 0; i < MEMINFO_NFIELDS; i++)
		enc_u64_if(o, keys[i], (mi->have & (1U << i)) != 0, mi->v[i]);
	enc_real_if(o, "uptime_s", mi->has_uptime, mi->uptime);
	if (mi->has_loadavg)
		json_object_set_new(o, "load", json_pack("[fff]", mi->load[0],
		    mi->load[1], mi->load[2]));
	else
		json_object_set_new(o, "load", json_null());
	return (o);
}

/* The "disks" part. */
static json_t *
enc_disks(const struct snapshot *s)
{
	const struct diskstats_dev	*d;
	const struct snapshot_md	*md;
	json_t				*a = json_array(), *o, *m;
	size_t				 i, j;
	int				 dc, fl;

	for (i = 0; i < s->disks.ndevs; i++) {
		d = &s->disks.devs[i];
		dc = d->nfields >= 18;
		fl = d->nfields >= 20;
		o = json_object();
		json_object_set_new(o, "name", enc_text(d->name));
		json_object_set_new(o, "major", json_integer(d->major));
		json_object_set_new(o, "minor", json_integer(d->minor));
		json_object_set_new(o, "nfields", json_integer(d->nfields));
		enc_u64(o, "reads", d->rd_ios);
		enc_u64(o, "reads_merged", d->rd_merges);
		enc_u64(o, "read_bytes", d->rd_sectors * DISKSTATS_SECTOR);
		enc_u64(o, "read_ms", d->rd_ticks);
		enc_u64(o, "writes", d->wr_ios);
		enc_u64(o, "writes_merged", d->wr_merges);
		enc_u64(o, "write_bytes", d->wr_sectors * DISKSTATS_SECTOR);
		enc_u64(o, "write_ms", d->wr_ticks);
		enc_u64(o, "in_flight", d->in_flight);
		enc_u64(o, "io_ms", d->io_ticks);
		enc_u64(o, "weighted_io_ms", d->time_in_queue);
		enc_u64_if(o, "discards", dc, d->dc_ios);
		enc_u64_if(o, "discards_merged", dc, d->dc_merges);
		enc_u64_if(o, "discard_bytes", dc,
		    d->dc_sectors * DISKSTATS_SECTOR);
		enc_u64_if(o, "discard_ms", dc, d->dc_ticks);
		enc_u64_if(o, "flushes", fl, d->fl_ios);
		enc_u64_if(o, "flush_ms", fl, d->fl_ticks);
		if ((md = snapshot_md_find(s, d->name)) != NULL) {
			m = json_array();
			for (j = 0; j < md->nmembers; j++)
				json_array_append_new(m,
				    enc_text(md->members[j]));
			json_object_set_new(o, "md_members", m);
		}
		json_array_append_new(a, o);
	}
	return (a);
}

/* The "nics" part. */
static json_t *
enc_nics(const struct netdev *nd)
{
	static const char *const duplex[] = { "unknown", "half", "full" };
	const struct netdev_if	*n;
	const struct netdev_link *l;
	json_t			*a = json_array(), *o;
	size_t			 i;

	for (i = 0; i < nd->nifs; i++) {
		n = &nd->ifs[i];
		l = &n->link;
		o = json_object();
		json_object_set_new(o, "name", enc_text(n->name));
		enc_u64(o, "rx_bytes", n->rx_bytes);
		enc_u64(o, "rx_packets", n->rx_packets);
		enc_u64(o, "rx_errors", n->rx_errs);
		enc_u64(o, "rx_dropped", n->rx_drop);
		enc_u64(o, "tx_bytes", n->tx_bytes);
		enc_u64(o, "tx_packets", n->tx_packets);
		enc_u64(o, "tx_errors", n->tx_errs);
		enc_u64(o, "tx_dropped", n->tx_drop);
		json_object_set_new(o, "source",
		    json_string(n->from_sysfs ? "sysfs" : "proc"));
		if (n->has_link && l->speed_mbps >= 0)
			json_object_set_new(o, "speed_mbps",
			    json_integer(l->speed_mbps));
		else
			json_object_set_new(o, "speed_mbps", json_null());
		json_object_set_new(o, "duplex", n->has_link ?
		    json_string(duplex[l->duplex]) : json_null());
		enc_u64_if(o, "mtu", n->has_link && l->mtu != 0, l->mtu);
		json_object_set_new(o, "operstate", n->has_link ?
		    enc_text(l->operstate) : json_null());
		json_object_set_new(o, "master", n->has_link &&
		    l->master[0] != '\0' ? enc_text(l->master) : json_null());
		json_object_set_new(o, "address", n->has_link &&
		    l->address[0] != '\0' ? enc_text(l->address) : json_null());
		json_object_set_new(o, "bond", json_boolean(n->has_link &&
		    l->is_bond));
		json_array_append_new(a, o);
	}
	return (a);
}

/* One cgroup of a group. */
static json_t *
enc_cgroup(const struct cgroup_cpu *cg)
{
	json_t	*o = json_object();

	json_object_set_new(o, "version", json_integer(cg->version));
	json_object_set_new(o, "path", enc_text(cg->path));
	json_object_set_new(o, "unlimited", cg->has_quota ?
	    json_boolean(cg->unlimited) : json_null());
	enc_real_if(o, "quota_cores", cg->has_quota && !cg->unlimited,
	    cg->quota_cores);
	enc_u64_if(o, "period_us", cg->has_quota && cg->period_us != 0,
	    cg->period_us);
	enc_u64_if(o, "nr_periods", cg->has_stat, cg->nr_periods);
	enc_u64_if(o, "nr_throttled", cg->has_stat, cg->nr_throttled);
	enc_real_if(o, "throttled_seconds", cg->has_stat,
	    (double)cg->throttled_ns / 1e9);
	return (o);
}

/* The "groups" part. */
static json_t *
enc_groups(const struct procgroup *pg)
{
	const struct procgroup_group	*g;
	const struct procgroup_proc	*p;
	json_t				*a = json_array(), *o, *procs, *cgs;
	size_t				 i, j;

	for (i = 0; i < pg->ngroups; i++) {
		g = &pg->groups[i];
		o = json_object();
		json_object_set_new(o, "name", enc_text(g->name));
		enc_u64(o, "processes", g->nprocs);
		enc_u64(o, "threads", g->threads);
		enc_u64(o, "cpu_ticks", g->ticks);
		json_object_set_new(o, "cpu_seconds",
		    json_real((double)g->ticks / CPUSTAT_HZ));
		enc_u64(o, "rss_bytes", g->rss_bytes);
		procs = json_array();
		for (j = 0; j < g->nprocs; j++) {
			p = &g->procs[j];
			json_array_append_new(procs, json_pack("{s:i,s:o,s:o,"
			    "s:I,s:I,s:I}", "pid", p->pid, "comm",
			    enc_text(p->comm), "cpu", p->processor >= 0 ?
			    json_integer(p->processor) : json_null(),
			    "ticks", (json_int_t)p->ticks,
			    "threads", (json_int_t)p->threads,
			    "rss_bytes", (json_int_t)p->rss_bytes));
		}
		json_object_set_new(o, "procs", procs);
		cgs = json_array();
		for (j = 0; j < g->ncgroups; j++)
			json_array_append_new(cgs, enc_cgroup(&g->cgroups[j]));
		json_object_set_new(o, "cgroups", cgs);
		json_array_append_new(a, o);
	}
	return (a);
}

/* The "softirqs" part. */
static json_t *
enc_softirqs(const struct softirqs *sq)
{
	json_t	*o = json_object(), *cpus = json_array(), *counts, *row;
	size_t	 i, j;

	for (i = 0; i < sq->ncpus; i++)
		json_array_append_new(cpus, json_integer(sq->cpus[i]));
	json_object_set_new(o, "cpus", cpus);
	counts = json_object();
	for (i = 0; i < sq->nrows; i++) {
		row = json_array();
		for (j = 0; j < sq->ncpus; j++)
			json_array_append_new(row, json_integer(
			    (json_int_t)sq->counts[i * sq->ncpus + j]));
		json_object_set_new(counts, sq->rows[i].name, row);
	}
	json_object_set_new(o, "counts", counts);
	return (o);
}

/* One pressure line, or null. */
static json_t *
enc_pressure_line(const struct pressure_line *l)
{
	if (!l->avail)
		return (json_null());
	return (json_pack("{s:f,s:f,s:f,s:I}", "avg10", l->avg10,
	    "avg60", l->avg60, "avg300", l->avg300,
	    "total_us", (json_int_t)l->total));
}

/* The "pressure" part. */
static json_t *
enc_pressure(const struct pressure *p)
{
	json_t	*o = json_object();
	int	 i;

	for (i = 0; i < PRESSURE_NKINDS; i++) {
		if (!p->res[i].avail) {
			json_object_set_new(o, pressure_names[i], json_null());
			continue;
		}
		json_object_set_new(o, pressure_names[i], json_pack("{s:o,s:o}",
		    "some", enc_pressure_line(&p->res[i].some),
		    "full", enc_pressure_line(&p->res[i].full)));
	}
	return (o);
}

/* An op-count array, or null. */
static json_t *
enc_ops(const struct nfsd_ops *ops, int avail)
{
	json_t	*a;
	size_t	 i;

	if (!avail)
		return (json_null());
	a = json_array();
	for (i = 0; i < ops->n; i++)
		json_array_append_new(a, json_integer((json_int_t)ops->v[i]));
	return (a);
}

/* The "nfsd" part. */
static json_t *
enc_nfsd(const struct nfsd *nf)
{
	json_t	*o = json_object(), *named, *h;
	size_t	 i;

	json_object_set_new(o, "rc", (nf->has & NFSD_HAS_RC) ? json_pack(
	    "{s:I,s:I,s:I}", "hits", (json_int_t)nf->rc_hits,
	    "misses", (json_int_t)nf->rc_misses,
	    "nocache", (json_int_t)nf->rc_nocache) : json_null());
	enc_u64_if(o, "fh_stale", nf->has & NFSD_HAS_FH, nf->fh_stale);
	json_object_set_new(o, "io", (nf->has & NFSD_HAS_IO) ? json_pack(
	    "{s:I,s:I}", "read_bytes", (json_int_t)nf->io_read,
	    "write_bytes", (json_int_t)nf->io_write) : json_null());
	enc_u64_if(o, "threads", nf->has & NFSD_HAS_TH, nf->th_threads);
	enc_u64_if(o, "th_fullcnt", nf->has & NFSD_HAS_TH, nf->th_fullcnt);
	h = json_array();
	for (i = 0; i < nf->th_nhist; i++)
		json_array_append_new(h, json_real(nf->th_hist[i]));
	json_object_set_new(o, "th_hist", h);
	enc_u64_if(o, "ra_size", nf->has & NFSD_HAS_RA, nf->ra_size);
	json_object_set_new(o, "net", (nf->has & NFSD_HAS_NET) ? json_pack(
	    "{s:I,s:I,s:I,s:I}", "count", (json_int_t)nf->net_count,
	    "udp", (json_int_t)nf->net_udp, "tcp", (json_int_t)nf->net_tcp,
	    "tcpconn", (json_int_t)nf->net_tcpconn) : json_null());
	json_object_set_new(o, "rpc", (nf->has & NFSD_HAS_RPC) ? json_pack(
	    "{s:I,s:I,s:I,s:I,s:I}", "calls", (json_int_t)nf->rpc_calls,
	    "badcalls", (json_int_t)nf->rpc_badcalls,
	    "badfmt", (json_int_t)nf->rpc_badfmt,
	    "badauth", (json_int_t)nf->rpc_badauth,
	    "badclnt", (json_int_t)nf->rpc_badclnt) : json_null());
	json_object_set_new(o, "proc2", enc_ops(&nf->proc2,
	    nf->has & NFSD_HAS_PROC2));
	json_object_set_new(o, "proc3", enc_ops(&nf->proc3,
	    nf->has & NFSD_HAS_PROC3));
	json_object_set_new(o, "proc4", enc_ops(&nf->proc4,
	    nf->has & NFSD_HAS_PROC4));
	json_object_set_new(o, "proc4ops", enc_ops(&nf->proc4ops,
	    nf->has & NFSD_HAS_PROC4OPS));
	if (nf->has & NFSD_HAS_PROC3) {
		named = json_object();
		for (i = 0; i < NFSD3_NPROCS && i < nf->proc3.n; i++)
			json_object_set_new(named, nfsd_proc3_names[i],
			    json_integer((json_int_t)nf->proc3.v[i]));
		json_object_set_new(o, "proc3_named", named);
	} else
		json_object_set_new(o, "proc3_named", json_null());
	return (o);
}

/* The rows of a named kstat that were there, by their names; or null. */
static json_t *
enc_kstat(const struct zfs_named *n, const char *const *names, size_t nn)
{
	json_t	*o;
	size_t	 i;

	if ((o = json_object()) == NULL)
		return (NULL);
	for (i = 0; i < nn; i++)
		if (ZFS_HAVE(n, i))
			enc_u64(o, names[i], n->v[i]);
	return (o);
}

/* The "zfs" part. */
static json_t *
enc_zfs(const struct zfs_counters *z)
{
	const struct zfs_pool_counters	*p;
	json_t				*o, *pools, *po, *t;
	size_t				 i;

	o = json_object();
	json_object_set_new(o, "arcstats", (z->have & ZFS_HAVE_ARC) ?
	    enc_kstat(&z->arc, zfs_arc_names, ZFS_ARC_NSTATS) : json_null());
	json_object_set_new(o, "dmu_tx", (z->have & ZFS_HAVE_TX) ?
	    enc_kstat(&z->tx, zfs_tx_names, ZFS_TX_NSTATS) : json_null());
	json_object_set_new(o, "zil", (z->have & ZFS_HAVE_ZIL) ?
	    enc_kstat(&z->zil, zfs_zil_names, ZFS_ZIL_NSTATS) : json_null());
	pools = json_array();
	for (i = 0; i < z->npools; i++) {
		p = &z->pools[i];
		po = json_pack("{s:s}", "name", p->name);
		if (p->have_txgs) {
			t = json_object();
			enc_u64(t, "committed", p->txg.ncommitted);
			enc_u64(t, "last_txg", p->txg.last);
			enc_u64_if(t, "max_dirty_bytes", p->txg_cols &
			    ZFS_TXG_NDIRTY, p->txg.max_ndirty);
			json_object_set_new(t, "avg_sync_ms", json_real(
			    (double)p->txg.avg_stime / 1e6));
			json_object_set_new(t, "max_sync_ms", json_real(
			    (double)p->txg.max_stime / 1e6));
			enc_u64(t, "written_bytes", p->txg.nwritten);
		} else
			t = json_null();
		json_object_set_new(po, "txgs", t);
		json_object_set_new(po, "io", p->have_io ? enc_kstat(&p->io,
		    zfs_io_names, ZFS_IO_NSTATS) : json_null());
		json_array_append_new(pools, po);
	}
	json_object_set_new(o, "pools", pools);
	return (o);
}

/* An integer of -1 meaning absent, or null. */
static json_t *
enc_int_known(int v)
{
	return (v >= 0 ? json_integer(v) : json_null());
}

/* The "unraid" part. */
static json_t *
enc_unraid(const struct unraid *u)
{
	static const char *const kinds[] = { "none", "check", "recon",
	    "clear", "other" };
	const struct unraid_slot	*sl;
	json_t				*o, *op, *slots, *so;
	size_t				 i;

	o = json_pack("{s:s,s:s,s:o,s:o,s:o,s:o,s:i,s:i}", "state", u->state,
	    "md_version", u->md_version, "disks", enc_int_known(u->num_disks),
	    "disabled", enc_int_known(u->num_disabled), "invalid",
	    enc_int_known(u->num_invalid), "missing",
	    enc_int_known(u->num_missing), "parity_disks", u->nparity,
	    "data_disks", u->ndata);
	if (o == NULL)
		return (NULL);
	op = json_pack("{s:s,s:s,s:b,s:b}", "action", u->action, "kind",
	    (size_t)u->op < NP_NITEMS(kinds) ? kinds[u->op] : "other",
	    "running", u->running != 0, "correcting", u->correcting != 0);
	if (op != NULL) {
		enc_real_if(op, "done_pct", u->running && u->resync_pct >= 0,
		    u->resync_pct);
		enc_u64_if(op, "bytes_per_second", u->running &&
		    u->speed_kib > 0, u->speed_kib * 1024);
		enc_u64(op, "size_bytes", u->resync_size * 1024);
		enc_u64(op, "position_bytes", u->resync_pos * 1024);
	}
	json_object_set_new(o, "operation", op != NULL ? op : json_null());
	enc_u64_if(o, "last_check", u->last_check > 0, u->last_check);
	enc_u64(o, "last_check_errors", u->sync_errs);
	slots = json_array();
	for (i = 0; i < UNRAID_SLOTS; i++) {
		sl = &u->slots[i];
		if (sl->role == UNRAID_EMPTY)
			continue;
		so = json_pack("{s:i,s:s,s:s,s:s,s:s,s:s}", "slot", (int)i,
		    "role", sl->role == UNRAID_PARITY ? "parity" : "data",
		    "name", sl->disk_name, "device", sl->dev, "status",
		    sl->status, "id", sl->disk_id);
		if (so == NULL)
			continue;
		enc_u64(so, "size_bytes", sl->disk_size * 1024);
		enc_u64(so, "reads", sl->reads);
		enc_u64(so, "writes", sl->writes);
		enc_u64(so, "errors", sl->errors);
		json_array_append_new(slots, so);
	}
	json_object_set_new(o, "slots", slots);
	return (o);
}

/* The "crypto" part. */
static json_t *
enc_crypto(const struct crypto *c)
{
	const struct crypto_alg	*a;
	json_t			*o = json_object(), *hw, *cpu, *algs;
	size_t			 i;

	hw = json_array();
	cpu = json_array();
	algs = json_array();
	for (i = 0; i < c->nalgs; i++) {
		a = &c->algs[i];
		if (a->accel == CRYPTO_ACCEL_HW)
			json_array_append_new(hw, enc_text(a->driver));
		else if (a->accel == CRYPTO_ACCEL_CPU && !a->internal)
			json_array_append_new(cpu, enc_text(a->driver));
		json_array_append_new(algs, json_pack("{s:o,s:o,s:o,s:o,s:I,"
		    "s:s,s:b}", "name", enc_text(a->name), "driver",
		    enc_text(a->driver), "module", enc_text(a->module), "type",
		    enc_text(a->type), "priority", (json_int_t)a->priority,
		    "accel", crypto_accel_name(a->accel),
		    "internal", a->internal));
	}
	json_object_set_new(o, "hw_drivers", hw);
	json_object_set_new(o, "cpu_drivers", cpu);
	json_object_set_new(o, "algorithms", algs);
	return (o);
}

/* One counter snapshot as served by GET /v1/counters. */
json_t *
enc_counters(const struct snapshot *s)
{
	json_t		*o, *un, *part;
	const struct snapshot_status *st;
	int		 i;

	if ((o = json_object()) == NULL)
		return (NULL);
	json_object_set_new(o, "time", json_real((double)s->real.tv_sec +
	    (double)s->real.tv_nsec / 1e9));
	json_object_set_new(o, "monotonic", json_real((double)s->mono.tv_sec +
	    (double)s->mono.tv_nsec / 1e9));
	un = json_object();
	for (i = 0; i < SNAPSHOT_NPARTS; i++) {
		st = &s->status[i];
		if (!st->avail) {
			json_object_set_new(un, snapshot_part_names[i],
			    json_string(st->errstr != NULL ? st->errstr :
			    strerror(st->error)));
			json_object_set_new(o, snapshot_part_names[i],
			    json_null());
			continue;
		}
		switch (i) {
		case SNAPSHOT_CPU:
			part = enc_cpu(&s->cpu);
			break;
		case SNAPSHOT_MEMORY:
			part = enc_memory(&s->mem);
			break;
		case SNAPSHOT_DISKS:
			part = enc_disks(s);
			break;
		case SNAPSHOT_NICS:
			part = enc_nics(&s->nics);
			break;
		case SNAPSHOT_GROUPS:
			part = enc_groups(&s->groups);
			break;
		case SNAPSHOT_SOFTIRQS:
			part = enc_softirqs(&s->softirqs);
			break;
		case SNAPSHOT_PRESSURE:
			part = enc_pressure(&s->pressure);
			break;
		case SNAPSHOT_NFSD:
			part = enc_nfsd(&s->nfsd);
			break;
		case SNAPSHOT_ZFS:
			part = s->zfs != NULL ? enc_zfs(s->zfs) : NULL;
			break;
		case SNAPSHOT_UNRAID:
			part = s->unraid != NULL ? enc_unraid(s->unraid) :
			    NULL;
			break;
		default:
			part = enc_crypto(&s->crypto);
			break;
		}
		json_object_set_new(o, snapshot_part_names[i],
		    part != NULL ? part : json_null());
	}
	json_object_set_new(o, "unavailable", un);
	return (o);
}

/* CPU rates of one core, or null. */
static json_t *
enc_rate_cpu(const struct cpustat_cpu *a, const struct cpustat_cpu *b)
{
	struct rate_cpu	 r;
	json_t		*o;
	char		 key[32];
	int		 i;

	if (a == NULL || rate_cpu(a, b, &r) == -1)
		return (json_pack("{s:i,s:n}", "cpu", b->cpu, "busy_pct"));
	o = json_object();
	json_object_set_new(o, "cpu", json_integer(b->cpu));
	json_object_set_new(o, "busy_pct", json_real(r.busy_pct));
	for (i = 0; i < CPUSTAT_NFIELDS && i < b->nfields; i++) {
		snprintf(key, sizeof key, "%s_pct", cpustat_field_names[i]);
		json_object_set_new(o, key, json_real(r.pct[i]));
	}
	return (o);
}

/* The core numbered cpu in cs, or NULL. */
static const struct cpustat_cpu *
enc_find_cpu(const struct cpustat *cs, int cpu)
{
	size_t	i;

	for (i = 0; i < cs->ncpus; i++)
		if (cs->cpus[i].cpu == cpu)
			return (&cs->cpus[i]);
	return (NULL);
}

/* The "cpu" rates. */
static json_t *
enc_rates_cpu(const struct snapshot *p, const struct snapshot *c)
{
	json_t	*o = json_object(), *a = json_array();
	size_t	 i;

	json_object_set_new(o, "total", c->cpu.has_total ?
	    enc_rate_cpu(p->cpu.has_total ? &p->cpu.total : NULL,
	    &c->cpu.total) : json_null());
	for (i = 0; i < c->cpu.ncpus; i++)
		json_array_append_new(a, enc_rate_cpu(enc_find_cpu(&p->cpu,
		    c->cpu.cpus[i].cpu), &c->cpu.cpus[i]));
	json_object_set_new(o, "cores", a);
	return (o);
}

/* The md members of md in snapshot s as rows, NULL where missing. */
static void
enc_md_rows(const struct snapshot *s, const struct snapshot_md *md,
    const struct diskstats_dev **rows)
{
	size_t	i;

	for (i = 0; i < md->nmembers; i++)
		rows[i] = diskstats_find(&s->disks, md->members[i]);
}

/* The "disks" rates. */
static json_t *
enc_rates_disks(const struct snapshot *p, const struct snapshot *c,
    double iv)
{
	const struct diskstats_dev	*a, *b;
	const struct diskstats_dev	*pm[SNAPSHOT_MD_MEMBERS];
	const struct diskstats_dev	*cm[SNAPSHOT_MD_MEMBERS];
	const struct snapshot_md	*md;
	struct rate_disk		 r;
	struct rate_md			 m;
	json_t				*arr = json_array(), *o;
	size_t				 i;
	int				 ok;

	for (i = 0; i < c->disks.ndevs; i++) {
		b = &c->disks.devs[i];
		a = diskstats_find(&p->disks, b->name);
		ok = a != NULL && rate_disk(a, b, iv, &r) == 0;
		o = json_object();
		json_object_set_new(o, "name", enc_text(b->name));
		enc_real_if(o, "reads_per_s", ok, r.reads_per_s);
		enc_real_if(o, "writes_per_s", ok, r.writes_per_s);
		enc_real_if(o, "read_bytes_per_s", ok, r.read_bytes_per_s);
		enc_real_if(o, "write_bytes_per_s", ok, r.write_bytes_per_s);
		md = snapshot_md_find(c, b->name);
		if (ok && md != NULL && md->nmembers > 0) {
			enc_md_rows(p, md, pm);
			enc_md_rows(c, md, cm);
			if (rate_md(pm, cm, md->nmembers, iv, &m) == 0) {
				enc_real_if(o, "read_await_ms",
				    m.has_read_await, m.read_await_ms);
				enc_real_if(o, "write_await_ms",
				    m.has_write_await, m.write_await_ms);
				json_object_set_new(o, "avg_queue",
				    json_real(m.avg_queue));
				json_object_set_new(o, "util_pct",
				    json_real(m.util_max_pct));
				json_object_set_new(o, "util_pct_mean",
				    json_real(m.util_mean_pct));
				json_object_set_new(o, "from_members",
				    json_integer((json_int_t)m.nmembers));
				json_array_append_new(arr, o);
				continue;
			}
			ok = 0;
		}
		enc_real_if(o, "read_await_ms", ok && r.has_read_await,
		    r.read_await_ms);
		enc_real_if(o, "write_await_ms", ok && r.has_write_await,
		    r.write_await_ms);
		enc_real_if(o, "avg_queue", ok, r.avg_queue);
		enc_real_if(o, "util_pct", ok, r.util_pct);
		json_array_append_new(arr, o);
	}
	return (arr);
}

/* The "nics" rates. */
static json_t *
enc_rates_nics(const struct snapshot *p, const struct snapshot *c, double iv)
{
	const struct netdev_if	*a, *b;
	struct rate_nic		 r;
	json_t			*arr = json_array(), *o;
	size_t			 i;
	int			 ok;

	for (i = 0; i < c->nics.nifs; i++) {
		b = &c->nics.ifs[i];
		a = netdev_find(&p->nics, b->name);
		ok = a != NULL && rate_nic(a, b, iv, &r) == 0;
		o = json_object();
		json_object_set_new(o, "name", enc_text(b->name));
		enc_real_if(o, "rx_bytes_per_s", ok, r.rx_bytes_per_s);
		enc_real_if(o, "tx_bytes_per_s", ok, r.tx_bytes_per_s);
		enc_real_if(o, "rx_packets_per_s", ok, r.rx_packets_per_s);
		enc_real_if(o, "tx_packets_per_s", ok, r.tx_packets_per_s);
		json_array_append_new(arr, o);
	}
	return (arr);
}

/* The "groups" rates. */
static json_t *
enc_rates_groups(const struct snapshot *p, const struct snapshot *c,
    double iv)
{
	const struct procgroup_group	*a, *b;
	struct rate_group		 r;
	json_t				*arr = json_array(), *o;
	size_t				 i, j;
	int				 ok;

	for (i = 0; i < c->groups.ngroups; i++) {
		b = &c->groups.groups[i];
		a = NULL;
		for (j = 0; j < p->groups.ngroups; j++)
			if (strcmp(p->groups.groups[j].name, b->name) == 0)
				a = &p->groups.groups[j];
		ok = a != NULL && p->status[SNAPSHOT_GROUPS].avail &&
		    rate_group(a, b, iv, &r) == 0;
		o = json_object();
		json_object_set_new(o, "name", enc_text(b->name));
		enc_real_if(o, "cpu_pct", ok, r.cpu_pct);
		if (ok && r.has_top)
			json_object_set_new(o, "top", json_pack("{s:i,s:o,"
			    "s:o,s:f}", "pid", r.top_pid, "comm",
			    enc_text(r.top_comm), "cpu", r.top_cpu >= 0 ?
			    json_integer(r.top_cpu) : json_null(), "cpu_pct",
			    r.top_cpu_pct));
		else
			json_object_set_new(o, "top", json_null());
		enc_real_if(o, "throttled_pct", ok && r.has_throttled,
		    r.throttled_pct);
		enc_real_if(o, "throttled_seconds_per_s", ok &&
		    r.has_throttled, r.throttled_s_per_s);
		json_array_append_new(arr, o);
	}
	return (arr);
}

/* A rate of zfs_rates, or null when it is unknown. */
static json_t *
enc_known(double v)
{
	return (v >= 0 ? json_real(v) : json_null());
}

/* The "zfs" rates. */
static json_t *
enc_rates_zfs(const struct snapshot *p, const struct snapshot *c, double iv)
{
	struct zfs_rates	r;

	zfs_rates(p->zfs, c->zfs, iv, &r);
	return (json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "arc_hits_per_s", enc_known(r.arc_hits), "arc_misses_per_s",
	    enc_known(r.arc_misses), "arc_hit_pct", enc_known(r.arc_hit_pct),
	    "demand_data_hit_pct", enc_known(r.demand_data_hit_pct),
	    "l2arc_hits_per_s", enc_known(r.l2_hits), "l2arc_misses_per_s",
	    enc_known(r.l2_misses), "zil_commits_per_s",
	    enc_known(r.zil_commits), "zil_slog_bytes_per_s",
	    enc_known(r.zil_slog_bytes), "zil_pool_bytes_per_s",
	    enc_known(r.zil_pool_bytes), "throttle_waits_per_s",
	    enc_known(r.throttle_waits)));
}

/* Rates between two snapshots of the same root, prev taken before cur. */
json_t *
enc_rates(const struct snapshot *prev, const struct snapshot *cur)
{
	json_t	*o;
	double	 iv;
	int	 rebooted;

	if ((o = json_object()) == NULL)
		return (NULL);
	iv = snapshot_interval(prev, cur);
	json_object_set_new(o, "interval", json_real(iv));
	/* A new boot time: every counter started over. */
	rebooted = prev->cpu.has_btime && cur->cpu.has_btime &&
	    prev->cpu.btime != cur->cpu.btime;
	if (!(iv > 0) || rebooted) {
		json_object_set_new(o, "cpu", json_null());
		json_object_set_new(o, "disks", json_null());
		json_object_set_new(o, "nics", json_null());
		json_object_set_new(o, "groups", json_null());
		json_object_set_new(o, "zfs", json_null());
		return (o);
	}
	json_object_set_new(o, "cpu", prev->status[SNAPSHOT_CPU].avail &&
	    cur->status[SNAPSHOT_CPU].avail ? enc_rates_cpu(prev, cur) :
	    json_null());
	json_object_set_new(o, "disks", prev->status[SNAPSHOT_DISKS].avail &&
	    cur->status[SNAPSHOT_DISKS].avail ? enc_rates_disks(prev, cur, iv) :
	    json_null());
	json_object_set_new(o, "nics", prev->status[SNAPSHOT_NICS].avail &&
	    cur->status[SNAPSHOT_NICS].avail ?
	    enc_rates_nics(prev, cur, iv) :
	    json_null());
	json_object_set_new(o, "groups", cur->status[SNAPSHOT_GROUPS].avail ?
	    enc_rates_groups(prev, cur, iv) : json_null());
	json_object_set_new(o, "zfs", prev->status[SNAPSHOT_ZFS].avail &&
	    cur->status[SNAPSHOT_ZFS].avail && prev->zfs != NULL &&
	    cur->zfs != NULL ? enc_rates_zfs(prev, cur, iv) : json_null());
	return (o);
}
