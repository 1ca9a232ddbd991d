/*
 * metrics.c: a counter snapshot in the Prometheus text exposition format.
 *
 * Names follow node_exporter's with the nasperf_ prefix
 * (nasperf_cpu_seconds_total{cpu="0",mode="user"}); each family is written
 * once, HELP and TYPE first, then all its samples.  Label values are
 * escaped (\\, \", \n); bytes that are not UTF-8 become the text \xNN so
 * the output stays valid.  Parts the probes could not read have no samples;
 * nasperf_probe_up{part=...} says which.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "encode.h"
#include "np.h"
#include "runs.h"
#include "snapshot.h"
#include "transfers.h"
#include "verdict_outcome.h"

struct metrics {
	struct evbuffer	*evb;
	int		 err;
};

/* Append printf text to the output, remembering a failure. */
static NP_PRINTF(2, 3) void
metrics_printf(struct metrics *m, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	if (evbuffer_add_vprintf(m->evb, fmt, ap) == -1)
		m->err = 1;
	va_end(ap);
}

/* The length of the valid UTF-8 sequence at s, or 0. */
static size_t
metrics_utf8_len(const unsigned char *s)
{
	size_t	n, i;

	if (s[0] < 0x80)
		return (1);
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return (0);
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return (0);
	return (n);
}

/* Append key="value" (escaped) to buf of size sz, after a comma if needed. */
static void
metrics_label(char *buf, size_t sz, const char *key, const char *val)
{
	const unsigned char	*u = (const unsigned char *)val;
	size_t			 len = strlen(buf), n;

	if (len + 1 >= sz)
		return;
	len += (size_t)snprintf(buf + len, sz - len, "%s%s=\"",
	    len > 0 ? "," : "", key);
	while (*u != '\0' && len + 8 < sz) {
		if (*u == '\\' || *u == '"') {
			buf[len++] = '\\';
			buf[len++] = (char)*u++;
		} else if (*u == '\n') {
			buf[len++] = '\\';
			buf[len++] = 'n';
			u++;
		} else if (*u < 0x20 || (n = metrics_utf8_len(u)) == 0) {
			len += (size_t)snprintf(buf + len, sz - len,
			    "\\\\x%02x", *u);
			u++;
		} else {
			memcpy(buf + len, u, n);
			len += n;
			u += n;
		}
	}
	if (len + 2 < sz) {
		buf[len++] = '"';
		buf[len] = '\0';
	} else
		buf[sz - 1] = '\0';
}

/* Start a family: its HELP and TYPE lines. */
static void
metrics_family(struct metrics *m, const char *name, const char *type,
    const char *help)
{
	metrics_printf(m, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
	    type);
}

/* One sample with preformatted labels ("" for none). */
static void
metrics_sample(struct metrics *m, const char *name, const char *labels,
    double v)
{
	char	num[32];

	/* The shortest of %.15g and %.17g that reads back as v. */
	snprintf(num, sizeof num, "%.15g", v);
	if (strtod(num, NULL) != v)
		snprintf(num, sizeof num, "%.17g", v);
	if (labels[0] != '\0')
		metrics_printf(m, "%s{%s} %s\n", name, labels, num);
	else
		metrics_printf(m, "%s %s\n", name, num);
}

/* One sample with one label. */
static void
metrics_sample1(struct metrics *m, const char *name, const char *key,
    const char *val, double v)
{
	char	labels[512] = "";

	metrics_label(labels, sizeof labels, key, val);
	metrics_sample(m, name, labels, v);
}

/* nasperf_cpu_seconds_total and the /proc/stat totals. */
static void
metrics_cpu(struct metrics *m, const struct cpustat *cs)
{
	const struct cpustat_cpu	*c;
	char				 labels[128], cpu[16];
	size_t				 i;
	int				 f;

	metrics_family(m, "nasperf_cpu_seconds_total", "counter",
	    "Seconds the CPUs spent in each mode.");
	for (i = 0; i < cs->ncpus; i++) {
		c = &cs->cpus[i];
		snprintf(cpu, sizeof cpu, "%d", c->cpu);
		for (f = 0; f < c->nfields; f++) {
			labels[0] = '\0';
			metrics_label(labels, sizeof labels, "cpu", cpu);
			metrics_label(labels, sizeof labels, "mode",
			    cpustat_field_names[f]);
			metrics_sample(m, "nasperf_cpu_seconds_total", labels,
			    (double)c->ticks[f] / CPUSTAT_HZ);
		}
	}
	if (cs->has_ctxt) {
		metrics_family(m, "nasperf_context_switches_total", "counter",
		    "Total number of context switches.");
		metrics_sample(m, "nasperf_context_switches_total", "",
		    (double)cs->ctxt);
	}
	if (cs->has_intr) {
		metrics_family(m, "nasperf_intr_total", "counter",
		    "Total number of interrupts serviced.");
		metrics_sample(m, "nasperf_intr_total", "", (double)cs->intr);
	}
	if (cs->has_btime) {
		metrics_family(m, "nasperf_boot_time_seconds", "gauge",
		    "Boot time, seconds since the epoch.");
		metrics_sample(m, "nasperf_boot_time_seconds", "",
		    (double)cs->btime);
	}
	if (cs->has_procs) {
		metrics_family(m, "nasperf_procs_running", "gauge",
		    "Tasks in runnable state.");
		metrics_sample(m, "nasperf_procs_running", "",
		    (double)cs->procs_running);
		metrics_family(m, "nasperf_procs_blocked", "gauge",
		    "Tasks blocked waiting for I/O.");
		metrics_sample(m, "nasperf_procs_blocked", "",
		    (double)cs->procs_blocked);
	}
}

/*
 * nasperf_memory_<field>_bytes, load averages.  node_exporter keeps the
 * kernel's camel case (node_memory_MemFree_bytes), which promtool's lint
 * refuses; these are the same fields in snake case, by enum meminfo_field.
 */
static const char *const metrics_memory_names[MEMINFO_NFIELDS] = {
	"total", "free", "available", "buffers", "cached", "dirty",
	"writeback", "swap_total", "swap_free"
};

static void
metrics_memory(struct metrics *m, const struct meminfo *mi)
{
	char	name[64], help[96];
	int	i;

	for (i = 0; i < MEMINFO_NFIELDS; i++) {
		if ((mi->have & (1U << i)) == 0)
			continue;
		snprintf(name, sizeof name, "nasperf_memory_%s_bytes",
		    metrics_memory_names[i]);
		snprintf(help, sizeof help, "Memory information field %s.",
		    meminfo_keys[i]);
		metrics_family(m, name, "gauge", help);
		metrics_sample(m, name, "", (double)mi->v[i]);
	}
	if (mi->has_loadavg) {
		metrics_family(m, "nasperf_load1", "gauge", "1m load average.");
		metrics_sample(m, "nasperf_load1", "", mi->load[0]);
		metrics_family(m, "nasperf_load5", "gauge", "5m load average.");
		metrics_sample(m, "nasperf_load5", "", mi->load[1]);
		metrics_family(m, "nasperf_load15", "gauge",
		    "15m load average.");
		metrics_sample(m, "nasperf_load15", "", mi->load[2]);
	}
}

/* Where one disk metric's value is and which rows have it. */
struct metrics_disk_field {
	const char	*name;
	const char	*type;
	const char	*help;
	size_t		 off;
	double		 scale;
	int		 minfields;
};

#define MD_OFF(f)	offsetof(struct diskstats_dev, f)
static const struct metrics_disk_field metrics_disk_fields[] = {
	{ "nasperf_disk_reads_completed_total", "counter",
	  "Reads completed.", MD_OFF(rd_ios), 1, 14 },
	{ "nasperf_disk_reads_merged_total", "counter",
	  "Reads merged.", MD_OFF(rd_merges), 1, 14 },
	{ "nasperf_disk_read_bytes_total", "counter",
	  "Bytes read.", MD_OFF(rd_sectors), DISKSTATS_SECTOR, 14 },
	{ "nasperf_disk_read_time_seconds_total", "counter",
	  "Seconds spent by all reads.", MD_OFF(rd_ticks), 0.001, 14 },
	{ "nasperf_disk_writes_completed_total", "counter",
	  "Writes completed.", MD_OFF(wr_ios), 1, 14 },
	{ "nasperf_disk_writes_merged_total", "counter",
	  "Writes merged.", MD_OFF(wr_merges), 1, 14 },
	{ "nasperf_disk_written_bytes_total", "counter",
	  "Bytes written.", MD_OFF(wr_sectors), DISKSTATS_SECTOR, 14 },
	{ "nasperf_disk_write_time_seconds_total", "counter",
	  "Seconds spent by all writes.", MD_OFF(wr_ticks), 0.001, 14 },
	{ "nasperf_disk_io_now", "gauge",
	  "I/Os in progress.", MD_OFF(in_flight), 1, 14 },
	{ "nasperf_disk_io_time_seconds_total", "counter",
	  "Seconds the device was busy.", MD_OFF(io_ticks), 0.001, 14 },
	{ "nasperf_disk_io_time_weighted_seconds_total", "counter",
	  "Weighted seconds spent doing I/Os.", MD_OFF(time_in_queue),
	  0.001, 14 },
	{ "nasperf_disk_discards_completed_total", "counter",
	  "Discards completed.", MD_OFF(dc_ios), 1, 18 },
	{ "nasperf_disk_discarded_bytes_total", "counter",
	  "Bytes discarded.", MD_OFF(dc_sectors), DISKSTATS_SECTOR, 18 },
	{ "nasperf_disk_discard_time_seconds_total", "counter",
	  "Seconds spent by all discards.", MD_OFF(dc_ticks), 0.001, 18 },
	{ "nasperf_disk_flush_requests_total", "counter",
	  "Flush requests completed.", MD_OFF(fl_ios), 1, 20 },
	{ "nasperf_disk_flush_requests_time_seconds_total", "counter",
	  "Seconds spent by all flushes.", MD_OFF(fl_ticks), 0.001, 20 },
};

/* nasperf_disk_*. */
static void
metrics_disks(struct metrics *m, const struct diskstats *ds)
{
	const struct metrics_disk_field	*f;
	const struct diskstats_dev	*d;
	uint64_t			 v;
	size_t				 i, j, n;

	for (i = 0; i < NP_NITEMS(metrics_disk_fields); i++) {
		f = &metrics_disk_fields[i];
		for (j = n = 0; j < ds->ndevs; j++)
			n += ds->devs[j].nfields >= f->minfields;
		if (n == 0)
			continue;
		metrics_family(m, f->name, f->type, f->help);
		for (j = 0; j < ds->ndevs; j++) {
			d = &ds->devs[j];
			if (d->nfields < f->minfields)
				continue;
			memcpy(&v, (const char *)d + f->off, sizeof v);
			metrics_sample1(m, f->name, "device", d->name,
			    (double)v * f->scale);
		}
	}
}

/* nasperf_network_*. */
static void
metrics_nics(struct metrics *m, const struct netdev *nd)
{
	static const struct {
		const char	*name;
		const char	*help;
		size_t		 off;
	} f[] = {
		{ "nasperf_network_receive_bytes_total", "Bytes received.",
		  offsetof(struct netdev_if, rx_bytes) },
		{ "nasperf_network_receive_packets_total", "Packets received.",
		  offsetof(struct netdev_if, rx_packets) },
		{ "nasperf_network_receive_errs_total", "Receive errors.",
		  offsetof(struct netdev_if, rx_errs) },
		{ "nasperf_network_receive_drop_total", "Received packets "
		  "dropped.", offsetof(struct netdev_if, rx_drop) },
		{ "nasperf_network_transmit_bytes_total", "Bytes sent.",
		  offsetof(struct netdev_if, tx_bytes) },
		{ "nasperf_network_transmit_packets_total", "Packets sent.",
		  offsetof(struct netdev_if, tx_packets) },
		{ "nasperf_network_transmit_errs_total", "Transmit errors.",
		  offsetof(struct netdev_if, tx_errs) },
		{ "nasperf_network_transmit_drop_total", "Packets dropped "
		  "on transmit.", offsetof(struct netdev_if, tx_drop) },
	};
	const struct netdev_if	*n;
	uint64_t		 v;
	size_t			 i, j;

	for (i = 0; i < NP_NITEMS(f); i++) {
		metrics_family(m, f[i].name, "counter", f[i].help);
		for (j = 0; j < nd->nifs; j++) {
			n = &nd->ifs[j];
			memcpy(&v, (const char *)n + f[i].off, sizeof v);
			metrics_sample1(m, f[i].name, "device", n->name,
			    (double)v);
		}
	}
	metrics_family(m, "nasperf_network_speed_bytes", "gauge",
	    "Link speed in bytes per second.");
	for (j = 0; j < nd->nifs; j++) {
		n = &nd->ifs[j];
		if (n->has_link && n->link.speed_mbps >= 0)
			metrics_sample1(m, "nasperf_network_speed_bytes",
			    "device", n->name,
			    (double)n->link.speed_mbps * 125000.0);
	}
	metrics_family(m, "nasperf_network_mtu_bytes", "gauge",
	    "Interface MTU.");
	for (j = 0; j < nd->nifs; j++) {
		n = &nd->ifs[j];
		if (n->has_link && n->link.mtu != 0)
			metrics_sample1(m, "nasperf_network_mtu_bytes",
			    "device", n->name, (double)n->link.mtu);
	}
	metrics_family(m, "nasperf_network_up", "gauge",
	    "1 when the operstate is up.");
	for (j = 0; j < nd->nifs; j++) {
		n = &nd->ifs[j];
		if (n->has_link && n->link.operstate[0] != '\0')
			metrics_sample1(m, "nasperf_network_up", "device",
			    n->name, strcmp(n->link.operstate, "up") == 0);
	}
}

/* nasperf_procgroup_*. */
static void
metrics_groups(struct metrics *m, const struct procgroup *pg)
{
	const struct procgroup_group	*g;
	const struct cgroup_cpu		*cg;
	char				 labels[768];
	size_t				 i, j;
	int				 k;
	static const char *const cgf[] = {
		"nasperf_procgroup_cgroup_throttled_seconds_total",
		"nasperf_procgroup_cgroup_throttled_periods_total",
		"nasperf_procgroup_cgroup_periods_total",
		"nasperf_procgroup_cgroup_cpu_quota_cores"
	};
	static const char *const cgh[] = {
		"Seconds the group's cgroup was throttled by its CPU quota.",
		"Enforcement periods in which the cgroup was throttled.",
		"Enforcement periods of the cgroup's CPU quota.",
		"CPU quota of the cgroup in cores (absent when unlimited)."
	};

	metrics_family(m, "nasperf_procgroup_cpu_seconds_total", "counter",
	    "User and system CPU seconds of the group's live processes.");
	for (i = 0; i < pg->ngroups; i++)
		metrics_sample1(m, "nasperf_procgroup_cpu_seconds_total",
		    "group", pg->groups[i].name,
		    (double)pg->groups[i].ticks / CPUSTAT_HZ);
	metrics_family(m, "nasperf_procgroup_processes", "gauge",
	    "Processes in the group.");
	for (i = 0; i < pg->ngroups; i++)
		metrics_sample1(m, "nasperf_procgroup_processes", "group",
		    pg->groups[i].name, (double)pg->groups[i].nprocs);
	metrics_family(m, "nasperf_procgroup_threads", "gauge",
	    "Threads in the group.");
	for (i = 0; i < pg->ngroups; i++)
		metrics_sample1(m, "nasperf_procgroup_threads", "group",
		    pg->groups[i].name, (double)pg->groups[i].threads);
	metrics_family(m, "nasperf_procgroup_resident_memory_bytes", "gauge",
	    "Resident memory of the group's processes.");
	for (i = 0; i < pg->ngroups; i++)
		metrics_sample1(m, "nasperf_procgroup_resident_memory_bytes",
		    "group", pg->groups[i].name,
		    (double)pg->groups[i].rss_bytes);
	for (k = 0; k < (int)NP_NITEMS(cgf); k++) {
		metrics_family(m, cgf[k], k == 3 ? "gauge" : "counter", cgh[k]);
		for (i = 0; i < pg->ngroups; i++) {
			g = &pg->groups[i];
			for (j = 0; j < g->ncgroups; j++) {
				cg = &g->cgroups[j];
				if (k < 3 && !cg->has_stat)
					continue;
				if (k == 3 && (!cg->has_quota || cg->unlimited))
					continue;
				labels[0] = '\0';
				metrics_label(labels, sizeof labels, "group",
				    g->name);
				metrics_label(labels, sizeof labels, "cgroup",
				    cg->path);
				metrics_sample(m, cgf[k], labels,
				    k == 0 ? (double)cg->throttled_ns / 1e9 :
				    k == 1 ? (double)cg->nr_throttled :
				    k == 2 ? (double)cg->nr_periods :
				    cg->quota_cores);
			}
		}
	}
}

/* nasperf_softirqs_total. */
static void
metrics_softirqs(struct metrics *m, const struct softirqs *sq)
{
	char	labels[128], cpu[16];
	size_t	i, j;

	metrics_family(m, "nasperf_softirqs_total", "counter",
	    "Softirqs handled, per CPU and type.");
	for (i = 0; i < sq->nrows; i++)
		for (j = 0; j < sq->ncpus; j++) {
			snprintf(cpu, sizeof cpu, "%d", sq->cpus[j]);
			labels[0] = '\0';
			metrics_label(labels, sizeof labels, "cpu", cpu);
			metrics_label(labels, sizeof labels, "type",
			    sq->rows[i].name);
			metrics_sample(m, "nasperf_softirqs_total", labels,
			    (double)sq->counts[i * sq->ncpus + j]);
		}
}

/* nasperf_pressure_*. */
static void
metrics_pressure(struct metrics *m, const struct pressure *p)
{
	char	name[96], help[128];
	int	i;

	for (i = 0; i < PRESSURE_NKINDS; i++) {
		if (!p->res[i].avail)
			continue;
		if (p->res[i].some.avail) {
			snprintf(name, sizeof name,
			    "nasperf_pressure_%s_waiting_seconds_total",
			    pressure_names[i]);
			snprintf(help, sizeof help, "Seconds some tasks waited "
			    "for %s.", pressure_names[i]);
			metrics_family(m, name, "counter", help);
			metrics_sample(m, name, "",
			    (double)p->res[i].some.total / 1e6);
		}
		if (p->res[i].full.avail) {
			snprintf(name, sizeof name,
			    "nasperf_pressure_%s_stalled_seconds_total",
			    pressure_names[i]);
			snprintf(help, sizeof help, "Seconds all non-idle "
			    "tasks stalled on %s.", pressure_names[i]);
			metrics_family(m, name, "counter", help);
			metrics_sample(m, name, "",
			    (double)p->res[i].full.total / 1e6);
		}
	}
}

/* nasperf_nfsd_*. */
static void
metrics_nfsd(struct metrics *m, const struct nfsd *nf)
{
	char	labels[128];
	size_t	i;

	if (nf->has & NFSD_HAS_IO) {
		metrics_family(m, "nasperf_nfsd_disk_bytes_read_total",
		    "counter", "Bytes read by the NFS server.");
		metrics_sample(m, "nasperf_nfsd_disk_bytes_read_total", "",
		    (double)nf->io_read);
		metrics_family(m, "nasperf_nfsd_disk_bytes_written_total",
		    "counter", "Bytes written by the NFS server.");
		metrics_sample(m, "nasperf_nfsd_disk_bytes_written_total", "",
		    (double)nf->io_write);
	}
	if (nf->has & NFSD_HAS_RC) {
		metrics_family(m, "nasperf_nfsd_reply_cache_hits_total",
		    "counter", "Reply cache hits.");
		metrics_sample(m, "nasperf_nfsd_reply_cache_hits_total", "",
		    (double)nf->rc_hits);
		metrics_family(m, "nasperf_nfsd_reply_cache_misses_total",
		    "counter", "Reply cache misses.");
		metrics_sample(m, "nasperf_nfsd_reply_cache_misses_total", "",
		    (double)nf->rc_misses);
	}
	if (nf->has & NFSD_HAS_TH) {
		metrics_family(m, "nasperf_nfsd_server_threads", "gauge",
		    "NFS server threads.");
		metrics_sample(m, "nasperf_nfsd_server_threads", "",
		    (double)nf->th_threads);
	}
	if (nf->has & NFSD_HAS_RPC) {
		metrics_family(m, "nasperf_nfsd_server_rpcs_total", "counter",
		    "RPCs received.");
		metrics_sample(m, "nasperf_nfsd_server_rpcs_total", "",
		    (double)nf->rpc_calls);
		metrics_family(m, "nasperf_nfsd_rpc_errors_total", "counter",
		    "Bad RPCs received.");
		metrics_sample1(m, "nasperf_nfsd_rpc_errors_total", "error",
		    "fmt", (double)nf->rpc_badfmt);
		metrics_sample1(m, "nasperf_nfsd_rpc_errors_total", "error",
		    "auth", (double)nf->rpc_badauth);
		metrics_sample1(m, "nasperf_nfsd_rpc_errors_total", "error",
		    "cInt", (double)nf->rpc_badclnt);
	}
	if (nf->has & NFSD_HAS_PROC3) {
		metrics_family(m, "nasperf_nfsd_requests_total", "counter",
		    "NFSv3 requests by procedure.");
		for (i = 0; i < NFSD3_NPROCS && i < nf->proc3.n; i++) {
			labels[0] = '\0';
			metrics_label(labels, sizeof labels, "proto", "3");
			metrics_label(labels, sizeof labels, "method",
			    nfsd_proc3_names[i]);
			metrics_sample(m, "nasperf_nfsd_requests_total", labels,
			    (double)nf->proc3.v[i]);
		}
	}
}

/* The families of one row of a kstat each: which kstat, which row. */
static const struct {
	int		 kstat;		/* ZFS_HAVE_* */
	int		 row;
	const char	*name, *type, *help;
} metrics_zfs_rows[] = {
	{ ZFS_HAVE_ARC, ZFS_ARC_HITS, "nasperf_zfs_arc_hits_total", "counter",
	    "ARC hits: reads served from memory." },
	{ ZFS_HAVE_ARC, ZFS_ARC_MISSES, "nasperf_zfs_arc_misses_total",
	    "counter", "ARC misses: reads that went to the pool." },
	{ ZFS_HAVE_ARC, ZFS_ARC_SIZE, "nasperf_zfs_arc_size_bytes", "gauge",
	    "Bytes the ARC holds." },
	{ ZFS_HAVE_ARC, ZFS_ARC_C, "nasperf_zfs_arc_target_size_bytes",
	    "gauge", "The size the ARC aims at (c)." },
	{ ZFS_HAVE_ARC, ZFS_ARC_C_MAX, "nasperf_zfs_arc_max_size_bytes",
	    "gauge", "The ARC's largest size (c_max)." },
	{ ZFS_HAVE_ARC, ZFS_ARC_L2_HITS, "nasperf_zfs_l2arc_hits_total",
	    "counter", "L2ARC hits: reads served from the cache devices." },
	{ ZFS_HAVE_ARC, ZFS_ARC_L2_MISSES, "nasperf_zfs_l2arc_misses_total",
	    "counter", "L2ARC misses." },
	{ ZFS_HAVE_ARC, ZFS_ARC_L2_SIZE, "nasperf_zfs_l2arc_size_bytes",
	    "gauge", "Bytes the L2ARC holds." },
	{ ZFS_HAVE_ZIL, ZFS_ZIL_COMMIT, "nasperf_zfs_zil_commits_total",
	    "counter", "Synchronous commits to the ZFS intent log." },
	{ ZFS_HAVE_TX, ZFS_TX_ASSIGNED, "nasperf_zfs_dmu_tx_assigned_total",
	    "counter", "Transactions assigned to a transaction group." }
};

/*
 * A family of rows of a named kstat, one sample each with key=value; rows
 * the release lacks are left out, and so is the family without any.
 */
static void
metrics_kstatn(struct metrics *m, const struct zfs_named *n,
    const int *rows, const char *const *vals, size_t nrows, const char *name,
    const char *type, const char *help, const char *key)
{
	size_t	i;
	int	any = 0;

	for (i = 0; i < nrows; i++)
		any |= ZFS_HAVE(n, rows[i]);
	if (!any)
		return;
	metrics_family(m, name, type, help);
	for (i = 0; i < nrows; i++)
		if (ZFS_HAVE(n, rows[i]))
			metrics_sample1(m, name, key, vals[i],
			    (double)n->v[rows[i]]);
}

/* nasperf_zfs_*: the ARC, the ZIL, the write throttle and each pool. */
static void
metrics_zfs(struct metrics *m, const struct zfs_counters *z)
{
	static const int	 dh[] = { ZFS_ARC_DEMAND_DATA_HITS,
	    ZFS_ARC_DEMAND_METADATA_HITS, ZFS_ARC_PREFETCH_DATA_HITS,
	    ZFS_ARC_PREFETCH_METADATA_HITS };
	static const int	 dm[] = { ZFS_ARC_DEMAND_DATA_MISSES,
	    ZFS_ARC_DEMAND_METADATA_MISSES, ZFS_ARC_PREFETCH_DATA_MISSES,
	    ZFS_ARC_PREFETCH_METADATA_MISSES };
	static const char *const kinds[] = { "demand_data", "demand_metadata",
	    "prefetch_data", "prefetch_metadata" };
	static const int	 lb[] = { ZFS_ZIL_ITX_NORMAL_BYTES,
	    ZFS_ZIL_ITX_SLOG_BYTES };
	static const char *const to[] = { "pool", "slog" };
	static const int	 tw[] = { ZFS_TX_DELAY, ZFS_TX_ERROR,
	    ZFS_TX_SUSPENDED, ZFS_TX_GROUP, ZFS_TX_MEMORY_RESERVE,
	    ZFS_TX_MEMORY_RECLAIM, ZFS_TX_DIRTY_THROTTLE, ZFS_TX_DIRTY_DELAY,
	    ZFS_TX_DIRTY_OVER_MAX, ZFS_TX_DIRTY_FREES_DELAY, ZFS_TX_QUOTA };
	static const char *const why[] = { "delay", "error", "suspended",
	    "group", "memory_reserve", "memory_reclaim", "dirty_throttle",
	    "dirty_delay", "dirty_over_max", "dirty_frees_delay", "quota" };
	const struct zfs_pool_counters *p;
	const struct zfs_named	*k;
	size_t			 i;
	int			 any;

	for (i = 0; i < NP_NITEMS(metrics_zfs_rows); i++) {
		k = metrics_zfs_rows[i].kstat == ZFS_HAVE_ARC ? &z->arc :
		    metrics_zfs_rows[i].kstat == ZFS_HAVE_ZIL ? &z->zil : &z->tx;
		if (!(z->have & metrics_zfs_rows[i].kstat) ||
		    !ZFS_HAVE(k, metrics_zfs_rows[i].row))
			continue;
		metrics_family(m, metrics_zfs_rows[i].name,
		    metrics_zfs_rows[i].type, metrics_zfs_rows[i].help);
		metrics_sample(m, metrics_zfs_rows[i].name, "",
		    (double)k->v[metrics_zfs_rows[i].row]);
	}
	if (z->have & ZFS_HAVE_ARC) {
		metrics_kstatn(m, &z->arc, dh, kinds, NP_NITEMS(dh),
		    "nasperf_zfs_arc_kind_hits_total", "counter",
		    "ARC hits by kind of read.", "kind");
		metrics_kstatn(m, &z->arc, dm, kinds, NP_NITEMS(dm),
		    "nasperf_zfs_arc_kind_misses_total", "counter",
		    "ARC misses by kind of read.", "kind");
	}
	if (z->have & ZFS_HAVE_ZIL)
		metrics_kstatn(m, &z->zil, lb, to, NP_NITEMS(lb),
		    "nasperf_zfs_zil_log_bytes_total", "counter",
		    "Intent log bytes written, to the pool or to a log "
		    "device (SLOG).", "to");
	if (z->have & ZFS_HAVE_TX)
		metrics_kstatn(m, &z->tx, tw, why, NP_NITEMS(tw),
		    "nasperf_zfs_dmu_tx_waits_total", "counter",
		    "Transactions that waited, by reason (dirty_throttle, "
		    "dirty_delay: the dirty-data write throttle).", "reason");
	for (i = any = 0; i < z->npools; i++)
		any |= z->pools[i].have_txgs;
	if (any) {
		metrics_family(m, "nasperf_zfs_pool_last_txg", "gauge",
		    "The pool's newest committed transaction group.");
		for (i = 0; i < z->npools; i++)
			if ((p = &z->pools[i])->have_txgs)
				metrics_sample1(m, "nasperf_zfs_pool_last_txg",
				    "pool", p->name, (double)p->txg.last);
		metrics_family(m, "nasperf_zfs_pool_txg_sync_seconds_max",
		    "gauge", "The longest sync of the pool's recent committed "
		    "transaction groups.");
		for (i = 0; i < z->npools; i++)
			if ((p = &z->pools[i])->have_txgs)
				metrics_sample1(m,
				    "nasperf_zfs_pool_txg_sync_seconds_max",
				    "pool", p->name,
				    (double)p->txg.max_stime / 1e9);
	}
	for (i = any = 0; i < z->npools; i++)
		any |= z->pools[i].have_io &&
		    ZFS_HAVE(&z->pools[i].io, ZFS_IO_NREAD);
	if (any) {
		metrics_family(m, "nasperf_zfs_pool_read_bytes_total",
		    "counter", "Bytes the pool read (its io kstat).");
		for (i = 0; i < z->npools; i++)
			if ((p = &z->pools[i])->have_io &&
			    ZFS_HAVE(&p->io, ZFS_IO_NREAD))
				metrics_sample1(m,
				    "nasperf_zfs_pool_read_bytes_total", "pool",
				    p->name, (double)p->io.v[ZFS_IO_NREAD]);
		metrics_family(m, "nasperf_zfs_pool_written_bytes_total",
		    "counter", "Bytes the pool wrote (its io kstat).");
		for (i = 0; i < z->npools; i++)
			if ((p = &z->pools[i])->have_io &&
			    ZFS_HAVE(&p->io, ZFS_IO_NWRITTEN))
				metrics_sample1(m,
				    "nasperf_zfs_pool_written_bytes_total",
				    "pool", p->name,
				    (double)p->io.v[ZFS_IO_NWRITTEN]);
	}
}

/* nasperf_unraid_*: the parity array, its operation and its disks. */
static void
metrics_unraid(struct metrics *m, const struct unraid *u)
{
	static const char *const kinds[] = { "none", "check", "recon",
	    "clear", "other" };
	const struct unraid_slot *sl;
	char			 labels[256], slot[16];
	size_t			 i;

	metrics_family(m, "nasperf_unraid_array_started", "gauge",
	    "1 when the array is started.");
	metrics_sample(m, "nasperf_unraid_array_started", "",
	    strcmp(u->state, "STARTED") == 0);
	metrics_family(m, "nasperf_unraid_disks", "gauge",
	    "Disks assigned to the array, by role.");
	metrics_sample1(m, "nasperf_unraid_disks", "role", "parity",
	    u->nparity);
	metrics_sample1(m, "nasperf_unraid_disks", "role", "data", u->ndata);
	if (u->num_disabled >= 0) {
		metrics_family(m, "nasperf_unraid_disks_disabled", "gauge",
		    "Disks of the array that are disabled.");
		metrics_sample(m, "nasperf_unraid_disks_disabled", "",
		    u->num_disabled);
	}
	metrics_family(m, "nasperf_unraid_operation_running", "gauge",
	    "1 while a parity check, sync, rebuild or clear runs.");
	metrics_sample1(m, "nasperf_unraid_operation_running", "kind",
	    (size_t)u->op < NP_NITEMS(kinds) ? kinds[u->op] : "other",
	    u->running != 0);
	if (u->running && u->resync_pct >= 0) {
		metrics_family(m, "nasperf_unraid_operation_done_ratio",
		    "gauge", "How much of the running operation is done.");
		metrics_sample(m, "nasperf_unraid_operation_done_ratio", "",
		    u->resync_pct / 100);
	}
	if (u->running && u->speed_kib > 0) {
		metrics_family(m, "nasperf_unraid_operation_bytes_per_second",
		    "gauge", "The running operation's speed.");
		metrics_sample(m, "nasperf_unraid_operation_bytes_per_second",
		    "", (double)u->speed_kib * 1024);
	}
	if (u->last_check > 0) {
		metrics_family(m, "nasperf_unraid_last_check_timestamp_seconds",
		    "gauge", "When the last parity check ended.");
		metrics_sample(m, "nasperf_unraid_last_check_timestamp_seconds",
		    "", (double)u->last_check);
	}
	metrics_family(m, "nasperf_unraid_disk_errors_total", "counter",
	    "Read and write errors of each disk of the array.");
	for (i = 0; i < UNRAID_SLOTS; i++) {
		sl = &u->slots[i];
		if (sl->role == UNRAID_EMPTY)
			continue;
		labels[0] = '\0';
		snprintf(slot, sizeof slot, "%zu", i);
		metrics_label(labels, sizeof labels, "slot", slot);
		metrics_label(labels, sizeof labels, "role",
		    sl->role == UNRAID_PARITY ? "parity" : "data");
		metrics_label(labels, sizeof labels, "device", sl->dev);
		metrics_sample(m, "nasperf_unraid_disk_errors_total", labels,
		    (double)sl->errors);
	}
}

/* nasperf_crypto_*: offload engines and CPU-accelerated drivers. */
static void
metrics_crypto(struct metrics *m, const struct crypto *c)
{
	const struct crypto_alg	*a;
	char			 labels[512];
	size_t			 i;

	metrics_family(m, "nasperf_crypto_accelerated_algorithms", "gauge",
	    "Kernel crypto algorithms by acceleration.");
	metrics_sample1(m, "nasperf_crypto_accelerated_algorithms", "accel",
	    "hw", (double)c->nhw);
	metrics_sample1(m, "nasperf_crypto_accelerated_algorithms", "accel",
	    "cpu", (double)c->ncpu);
	metrics_family(m, "nasperf_crypto_hw_driver_info", "gauge",
	    "Hardware crypto engine drivers, value 1.");
	for (i = 0; i < c->nalgs; i++) {
		a = &c->algs[i];
		if (a->accel != CRYPTO_ACCEL_HW)
			continue;
		labels[0] = '\0';
		metrics_label(labels, sizeof labels, "name", a->name);
		metrics_label(labels, sizeof labels, "driver", a->driver);
		metrics_label(labels, sizeof labels, "module", a->module);
		metrics_sample(m, "nasperf_crypto_hw_driver_info", labels, 1);
	}
}

/* nasperf_client_*: bytes per client and the transfers noticed. */
int
metrics_render_clients(struct evbuffer *evb, const struct transfers_total *v,
    size_t n, const struct transfers_total *other, unsigned long count,
    unsigned active)
{
	struct metrics	 m = { evb, 0 };
	char		 labels[512];
	size_t		 i;
	int		 dir;

	metrics_family(&m, "nasperf_client_bytes_total", "counter",
	    "Bytes moved over the file services per client address since "
	    "nasperfd started, by the server's direction (sent: reads); the "
	    "first 32 clients have their own, the rest are client=\"other\".");
	for (dir = 0; dir < 2; dir++)
		for (i = 0; i <= n; i++) {
			const struct transfers_total *t = i < n ? &v[i] : other;

			if (i == n && t->sent + t->received == 0)
				continue;
			labels[0] = '\0';
			metrics_label(labels, sizeof labels, "client",
			    t->client);
			metrics_label(labels, sizeof labels, "direction",
			    dir == 0 ? "sent" : "received");
			metrics_sample(&m, "nasperf_client_bytes_total", labels,
			    (double)(dir == 0 ? t->sent : t->received));
		}
	metrics_family(&m, "nasperf_transfers_total", "counter",
	    "Transfers noticed on their own since nasperfd started.");
	metrics_sample(&m, "nasperf_transfers_total", "", (double)count);
	metrics_family(&m, "nasperf_transfers_active", "gauge",
	    "Transfers under way.");
	metrics_sample(&m, "nasperf_transfers_active", "", (double)active);
	return (m.err ? -1 : 0);
}

/* Whether the tallies hold a verdict count of origin and class cls. */
static int
metrics_has_tally(const struct runs_tally *v, size_t n, const char *origin,
    const char *cls)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (v[i].hint[0] == '\0' && strcmp(v[i].origin, origin) == 0 &&
		    strcmp(v[i].cls, cls) == 0)
			return (1);
	return (0);
}

/*
 * nasperf_verdicts_total and nasperf_verdict_hints_total.  Every origin
 * and class of verdict has its series from the start, at 0 until one is
 * given: Prometheus's increase() sees nothing of a series whose first
 * sample is already 1.
 */
int
metrics_render_verdicts(struct evbuffer *evb, const struct runs_tally *v,
    size_t n)
{
	static const char *const origins[] = { "run", "auto" };
	struct metrics	 m = { evb, 0 };
	char		 labels[256];
	const char	*cls;
	size_t		 i, o;
	int		 hints, c;

	for (hints = 0; hints < 2; hints++) {
		if (hints == 0)
			metrics_family(&m, "nasperf_verdicts_total", "counter",
			    "Verdicts given since nasperfd started, by origin "
			    "(run: a client's run; auto: a transfer noticed on "
			    "its own) and class.");
		else
			metrics_family(&m, "nasperf_verdict_hints_total",
			    "counter", "Hints given with verdicts since "
			    "nasperfd started (smb_signing, nfs_sync, ...), by "
			    "origin and the verdict's class.");
		for (i = 0; i < n; i++) {
			if ((v[i].hint[0] != '\0') != hints)
				continue;
			labels[0] = '\0';
			metrics_label(labels, sizeof labels, "origin",
			    v[i].origin);
			metrics_label(labels, sizeof labels, "class", v[i].cls);
			if (hints)
				metrics_label(labels, sizeof labels, "hint",
				    v[i].hint);
			metrics_sample(&m, hints ? "nasperf_verdict_hints_total" :
			    "nasperf_verdicts_total", labels, (double)v[i].n);
		}
		for (o = 0; hints == 0 && o < NP_NITEMS(origins); o++)
			for (c = 0; c < VERDICT_NCLASSES; c++) {
				cls = verdict_class_name((enum verdict_class)c);
				if (metrics_has_tally(v, n, origins[o], cls))
					continue;
				labels[0] = '\0';
				metrics_label(labels, sizeof labels, "origin",
				    origins[o]);
				metrics_label(labels, sizeof labels, "class", cls);
				metrics_sample(&m, "nasperf_verdicts_total",
				    labels, 0);
			}
	}
	return (m.err ? -1 : 0);
}

/* nasperf_baseline_*: what the disk analyzer measured, and when. */
int
metrics_render_baseline(struct evbuffer *evb,
    const struct metrics_baseline *v, size_t n)
{
	static const struct {
		const char	*name, *help;
	} fam[] = {
		{ "nasperf_baseline_read_bytes_per_second", "Sequential read "
		    "the disk analyzer measured a disk (device) or a volume "
		    "(volume) can do." },
		{ "nasperf_baseline_write_bytes_per_second", "Sequential write "
		    "the disk analyzer measured a volume can do (a raw disk is "
		    "never written)." },
		{ "nasperf_baseline_timestamp_seconds", "When the disk or "
		    "volume was last measured, Unix seconds." },
	};
	struct metrics	 m = { evb, 0 };
	char		 labels[600];
	double		 x;
	size_t		 f, i;

	for (f = 0; f < NP_NITEMS(fam); f++) {
		metrics_family(&m, fam[f].name, "gauge", fam[f].help);
		for (i = 0; i < n; i++) {
			x = f == 0 ? v[i].read : f == 1 ? v[i].write :
			    v[i].when;
			if (!(x > 0))
				continue;
			labels[0] = '\0';
			metrics_label(labels, sizeof labels, v[i].volume ?
			    "volume" : "device", v[i].name);
			metrics_sample(&m, fam[f].name, labels, x);
		}
	}
	return (m.err ? -1 : 0);
}

/* nasperf_zfs_vdev_*: zpool iostat -vl's last second, each row. */
int
metrics_render_zfs_vdevs(struct evbuffer *evb, const struct zfs_viostat *io,
    double when)
{
	static const struct {
		const char	*name, *help;
		int		 col[4];	/* read, write (or -1) */
		const char	*key, *val[2];
	} fam[] = {
		{ "nasperf_zfs_vdev_operations_per_second", "Operations a pool, "
		    "vdev or disk did per second, over zpool iostat's last "
		    "second.", { ZFS_VIO_OPS_R, ZFS_VIO_OPS_W }, "op",
		    { "read", "write" } },
		{ "nasperf_zfs_vdev_bytes_per_second", "Bytes a pool, vdev or "
		    "disk moved per second, over zpool iostat's last second.",
		    { ZFS_VIO_BW_R, ZFS_VIO_BW_W }, "op", { "read", "write" } },
		{ "nasperf_zfs_vdev_total_wait_seconds", "Average time an I/O "
		    "took, queued in ZFS and on the disk (total_wait).",
		    { ZFS_VIO_TOTAL_R, ZFS_VIO_TOTAL_W }, "op",
		    { "read", "write" } },
		{ "nasperf_zfs_vdev_disk_wait_seconds", "Average time an I/O "
		    "took on the disk (disk_wait).",
		    { ZFS_VIO_DISK_R, ZFS_VIO_DISK_W }, "op",
		    { "read", "write" } },
		{ "nasperf_zfs_vdev_syncq_wait_seconds", "Average time a "
		    "synchronous I/O waited in ZFS's queue (syncq_wait).",
		    { ZFS_VIO_SYNCQ_R, ZFS_VIO_SYNCQ_W }, "op",
		    { "read", "write" } },
		{ "nasperf_zfs_vdev_asyncq_wait_seconds", "Average time an "
		    "asynchronous I/O waited in ZFS's queue (asyncq_wait).",
		    { ZFS_VIO_ASYNCQ_R, ZFS_VIO_ASYNCQ_W }, "op",
		    { "read", "write" } },
		{ "nasperf_zfs_vdev_scan_wait_seconds", "Average time a scrub, "
		    "trim or rebuild I/O waited.", { ZFS_VIO_SCRUB,
		    ZFS_VIO_TRIM }, "kind", { "scrub", "trim" } },
	};
	const struct zfs_vio_row *r;
	struct metrics		 m = { evb, 0 };
	char			 labels[512];
	size_t			 f, i, k;
	int			 c, any;

	for (f = 0; f < NP_NITEMS(fam); f++) {
		for (k = any = 0; k < 2; k++)
			any |= (io->cols >> fam[f].col[k]) & 1U;
		if (!any)
			continue;
		metrics_family(&m, fam[f].name, "gauge", fam[f].help);
		for (i = 0; i < io->nrows; i++)
			for (k = 0; k < 2; k++) {
				r = &io->rows[i];
				c = fam[f].col[k];
				if (!isfinite(r->v[c]))
					continue;
				labels[0] = '\0';
				metrics_label(labels, sizeof labels, "pool",
				    r->pool);
				metrics_label(labels, sizeof labels, "vdev",
				    r->name);
				metrics_label(labels, sizeof labels, "class",
				    zfs_class_names[r->class]);
				metrics_label(labels, sizeof labels,
				    fam[f].key, fam[f].val[k]);
				metrics_sample(&m, fam[f].name, labels,
				    r->v[c]);
			}
	}
	metrics_family(&m, "nasperf_zfs_vdev_iostat_timestamp_seconds",
	    "gauge", "When zpool iostat's last second ended, Unix seconds.");
	metrics_sample(&m, "nasperf_zfs_vdev_iostat_timestamp_seconds", "",
	    when);
	return (m.err ? -1 : 0);
}

/* Append the Prometheus text exposition of a snapshot to evb. */
int
metrics_render(struct evbuffer *evb, const struct snapshot *s)
{
	struct metrics	m = { evb, 0 };
	int		i;

	metrics_family(&m, "nasperf_probe_up", "gauge",
	    "1 when the part of the counters could be read.");
	for (i = 0; i < SNAPSHOT_NPARTS; i++)
		metrics_sample1(&m, "nasperf_probe_up", "part",
		    snapshot_part_names[i], s->status[i].avail);
	if (s->status[SNAPSHOT_CPU].avail)
		metrics_cpu(&m, &s->cpu);
	if (s->status[SNAPSHOT_MEMORY].avail)
		metrics_memory(&m, &s->mem);
	if (s->status[SNAPSHOT_DISKS].avail)
		metrics_disks(&m, &s->disks);
	if (s->status[SNAPSHOT_NICS].avail)
		metrics_nics(&m, &s->nics);
	if (s->status[SNAPSHOT_GROUPS].avail)
		metrics_groups(&m, &s->groups);
	if (s->status[SNAPSHOT_SOFTIRQS].avail)
		metrics_softirqs(&m, &s->softirqs);
	if (s->status[SNAPSHOT_PRESSURE].avail)
		metrics_pressure(&m, &s->pressure);
	if (s->status[SNAPSHOT_NFSD].avail)
		metrics_nfsd(&m, &s->nfsd);
	if (s->status[SNAPSHOT_CRYPTO].avail)
		metrics_crypto(&m, &s->crypto);
	if (s->status[SNAPSHOT_ZFS].avail && s->zfs != NULL)
		metrics_zfs(&m, s->zfs);
	if (s->status[SNAPSHOT_UNRAID].avail && s->unraid != NULL)
		metrics_unraid(&m, s->unraid);
	return (m.err ? -1 : 0);
}
