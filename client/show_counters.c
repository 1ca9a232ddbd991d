/*
 * show_counters.c: the counters snapshot as terminal tables.
 *
 * With a "rates" object (GET /v1/counters?interval=S) the tables show
 * rates the way iostat -x and sar -n DEV do; without, the raw totals.
 * MB is 10^6 bytes.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "np.h"
#include "show.h"
#include "table.h"

/* A number from a JSON integer or real; 0 when absent and *ok cleared. */
static double
show_num(json_t *o, const char *key, int *ok)
{
	json_t	*v = json_object_get(o, key);

	if (json_is_number(v))
		return (json_number_value(v));
	if (ok != NULL)
		*ok = 0;
	return (0);
}

/* Add one number with prec decimals, divided by div, or "-", as a cell. */
static void
show_cell(struct table *t, json_t *o, const char *key, int prec, double div)
{
	int	ok = 1;
	double	v = show_num(o, key, &ok);

	if (!ok)
		table_add(t, "-");
	else
		table_add(t, "%.*f", prec, v / div);
}

/*
 * The CPU table: a row for all and one per core, the columns cols of
 * each, divided by div, with prec decimals.
 */
static void
show_cpu(FILE *fp, json_t *cpu, const char *const *head,
    const char *const *cols, size_t ncols, int prec, double div)
{
	struct table	*t;
	json_t		*c;
	size_t		 i, j;

	if ((t = table_new("l  r  r  r  r  r  r  r  r  r")) == NULL)
		return;
	for (j = 0; j <= ncols; j++)
		table_add(t, "%s", head[j]);
	table_end(t);
	c = json_object_get(cpu, "total");
	if (json_is_object(c)) {
		table_add(t, "all");
		for (j = 0; j < ncols; j++)
			show_cell(t, c, cols[j], prec, div);
		table_end(t);
	}
	json_array_foreach(json_object_get(cpu, "cores"), i, c) {
		table_add(t, "%d", (int)show_num(c, "cpu", NULL));
		for (j = 0; j < ncols; j++)
			show_cell(t, c, cols[j], prec, div);
		table_end(t);
	}
	table_done(t, fp);
	fprintf(fp, "\n");
}

/* Per-core CPU percentages from the rates. */
static void
show_cpu_rates(FILE *fp, json_t *cpu)
{
	static const char *const cols[] = { "user_pct", "nice_pct",
	    "system_pct", "iowait_pct", "irq_pct", "softirq_pct", "steal_pct",
	    "idle_pct", "busy_pct" };
	static const char *const head[] = { "CPU", "%usr", "%nice", "%sys",
	    "%iowait", "%irq", "%soft", "%steal", "%idle", "%busy" };

	show_cpu(fp, cpu, head, cols, NP_NITEMS(cols), 1, 1);
}

/* Per-core CPU totals in seconds. */
static void
show_cpu_totals(FILE *fp, json_t *cpu)
{
	static const char *const cols[] = { "user", "nice", "system",
	    "iowait", "irq", "softirq", "steal", "idle" };
	static const char *const head[] = { "CPU (seconds)", "user", "nice",
	    "system", "iowait", "irq", "softirq", "steal", "idle" };
	double	 hz = show_num(cpu, "hz", NULL);

	show_cpu(fp, cpu, head, cols, NP_NITEMS(cols), 0, hz > 0 ? hz : 100);
}

/* The memory lines. */
static void
show_memory(FILE *fp, json_t *mem)
{
	static const struct {
		const char	*key;
		const char	*label;
	} f[] = {
		{ "total_bytes", "total" }, { "free_bytes", "free" },
		{ "available_bytes", "available" },
		{ "buffers_bytes", "buffers" }, { "cached_bytes", "cached" },
		{ "dirty_bytes", "dirty" }, { "writeback_bytes", "writeback" },
		{ "swap_total_bytes", "swap total" },
		{ "swap_free_bytes", "swap free" }
	};
	size_t	i;
	int	ok;

	if (!json_is_object(mem)) {
		fprintf(fp, "Memory: -\n\n");
		return;
	}
	fprintf(fp, "Memory (MB)\n");
	for (i = 0; i < NP_NITEMS(f); i++) {
		ok = 1;
		(void)show_num(mem, f[i].key, &ok);
		fprintf(fp, "  %-12s", f[i].label);
		if (ok)
			fprintf(fp, "%12.1f\n", show_num(mem, f[i].key,
			    NULL) / 1e6);
		else
			fprintf(fp, "%12s\n", "-");
	}
	fprintf(fp, "\n");
}

/* A column of a per-device table: its heading, key, decimals, divisor. */
struct show_col {
	const char	*head, *key;
	int		 prec;
	double		 div;
};

/*
 * A table of the objects of list, a row each: its name, then cols; the
 * layout is "l" and a right-aligned column per col, two spaces apart.
 */
static void
show_devs(FILE *fp, json_t *list, const char *name,
    const struct show_col *cols, size_t ncols)
{
	struct table	*t;
	json_t		*d;
	size_t		 i, j;

	if ((t = table_new("l  r  r  r  r  r  r  r  r")) == NULL)
		return;
	table_add(t, "%s", name);
	for (j = 0; j < ncols; j++)
		table_add(t, "%s", cols[j].head);
	table_end(t);
	json_array_foreach(list, i, d) {
		table_add(t, "%s", show_str(d, "name"));
		for (j = 0; j < ncols; j++)
			if (strcmp(cols[j].key, "maj:min") == 0)
				table_add(t, "%d:%d", (int)show_num(d, "major",
				    NULL), (int)show_num(d, "minor", NULL));
			else if (strcmp(cols[j].key, "operstate") == 0)
				table_add(t, "%s", show_str(d, "operstate"));
			else
				show_cell(t, d, cols[j].key, cols[j].prec,
				    cols[j].div);
		table_end(t);
	}
	table_done(t, fp);
	fprintf(fp, "\n");
}

/* iostat -x style disk rates. */
static void
show_disk_rates(FILE *fp, json_t *disks)
{
	static const struct show_col cols[] = {
		{ "r/s", "reads_per_s", 2, 1 },
		{ "w/s", "writes_per_s", 2, 1 },
		{ "rMB/s", "read_bytes_per_s", 2, 1e6 },
		{ "wMB/s", "write_bytes_per_s", 2, 1e6 },
		{ "r_await", "read_await_ms", 2, 1 },
		{ "w_await", "write_await_ms", 2, 1 },
		{ "aqu-sz", "avg_queue", 2, 1 },
		{ "%util", "util_pct", 1, 1 },
	};

	show_devs(fp, disks, "Device", cols, NP_NITEMS(cols));
}

/* Disk totals since boot. */
static void
show_disk_totals(FILE *fp, json_t *disks)
{
	static const struct show_col cols[] = {
		{ "maj:min", "maj:min", 0, 1 },
		{ "reads", "reads", 0, 1 },
		{ "writes", "writes", 0, 1 },
		{ "read MB", "read_bytes", 1, 1e6 },
		{ "written MB", "write_bytes", 1, 1e6 },
		{ "busy s", "io_ms", 1, 1e3 },
	};

	show_devs(fp, disks, "Device", cols, NP_NITEMS(cols));
}

/* NIC rates. */
static void
show_nic_rates(FILE *fp, json_t *nics)
{
	static const struct show_col cols[] = {
		{ "rxMB/s", "rx_bytes_per_s", 2, 1e6 },
		{ "txMB/s", "tx_bytes_per_s", 2, 1e6 },
		{ "rxpck/s", "rx_packets_per_s", 1, 1 },
		{ "txpck/s", "tx_packets_per_s", 1, 1 },
	};

	show_devs(fp, nics, "Interface", cols, NP_NITEMS(cols));
}

/* NIC totals and links. */
static void
show_nic_totals(FILE *fp, json_t *nics)
{
	static const struct show_col cols[] = {
		{ "state", "operstate", 0, 1 },
		{ "Mb/s", "speed_mbps", 0, 1 },
		{ "mtu", "mtu", 0, 1 },
		{ "rx MB", "rx_bytes", 1, 1e6 },
		{ "tx MB", "tx_bytes", 1, 1e6 },
		{ "rx err", "rx_errors", 0, 1 },
		{ "tx err", "tx_errors", 0, 1 },
	};

	show_devs(fp, nics, "Interface", cols, NP_NITEMS(cols));
}

/* Process group rates: CPU of one core, the busiest process, throttling. */
static void
show_group_rates(FILE *fp, json_t *groups)
{
	struct table	*t;
	json_t		*g, *top;
	size_t		 i;

	if ((t = table_new("l  r  r  l")) == NULL)
		return;
	table_row(t, "Group", "%cpu", "%throttled", "busiest process", NULL);
	json_array_foreach(groups, i, g) {
		table_add(t, "%s", show_str(g, "name"));
		show_cell(t, g, "cpu_pct", 1, 1);
		show_cell(t, g, "throttled_pct", 1, 1);
		top = json_object_get(g, "top");
		if (!json_is_object(top))
			table_add(t, "-");
		else if (json_is_integer(json_object_get(top, "cpu")))
			table_add(t, "%s pid %d on cpu%d %.1f%%", show_str(top,
			    "comm"), (int)show_num(top, "pid", NULL),
			    (int)show_num(top, "cpu", NULL), show_num(top,
			    "cpu_pct", NULL));
		else
			table_add(t, "%s pid %d %.1f%%", show_str(top, "comm"),
			    (int)show_num(top, "pid", NULL), show_num(top,
			    "cpu_pct", NULL));
		table_end(t);
	}
	table_done(t, fp);
	fprintf(fp, "\n");
}

/* Process group totals. */
static void
show_group_totals(FILE *fp, json_t *groups)
{
	struct table	*t;
	json_t		*g, *cg;
	char		 quota[256];
	size_t		 i, j, len;
	int		 ok;
	double		 q;

	if ((t = table_new("l  r  r  r  r  l")) == NULL)
		return;
	table_row(t, "Group", "procs", "threads", "cpu s", "rss MB",
	    "cpu quota", NULL);
	json_array_foreach(groups, i, g) {
		table_add(t, "%s", show_str(g, "name"));
		show_cell(t, g, "processes", 0, 1);
		show_cell(t, g, "threads", 0, 1);
		show_cell(t, g, "cpu_seconds", 2, 1);
		show_cell(t, g, "rss_bytes", 1, 1e6);
		quota[0] = '\0';
		json_array_foreach(json_object_get(g, "cgroups"), j, cg) {
			ok = 1;
			q = show_num(cg, "quota_cores", &ok);
			len = strlen(quota);
			if (ok)
				snprintf(quota + len, sizeof quota - len,
				    "%s%.2f cores", len > 0 ? " " : "", q);
			else
				snprintf(quota + len, sizeof quota - len,
				    "%s%s", len > 0 ? " " : "", json_is_true(
				    json_object_get(cg, "unlimited")) ?
				    "unlimited" : "-");
		}
		table_add(t, "%s", quota);
		table_end(t);
	}
	table_done(t, fp);
	fprintf(fp, "\n");
}

/*
 * ZFS: the ARC (its hit ratio over the interval with rates, else since the
 * module loaded), the intent log and the write throttle, then each pool.
 */
static void
show_zfs(FILE *fp, json_t *z, json_t *r)
{
	json_t	*arc = json_object_get(z, "arcstats"), *p, *t;
	size_t	 i;
	int	 ok = 1, ok2 = 1;
	double	 h, m;

	if (json_is_object(r) && json_is_number(json_object_get(r,
	    "arc_hit_pct")))
		fprintf(fp, "ZFS ARC: %.0f hits/s, %.0f misses/s, %.1f %% hit\n",
		    show_num(r, "arc_hits_per_s", NULL), show_num(r,
		    "arc_misses_per_s", NULL), show_num(r, "arc_hit_pct", NULL));
	else if (json_is_object(arc)) {
		h = show_num(arc, "hits", &ok);
		m = show_num(arc, "misses", &ok);
		if (ok && h + m > 0)
			fprintf(fp, "ZFS ARC: %.0f hits, %.0f misses since the "
			    "module loaded, %.1f %% hit\n", h, m,
			    100 * h / (h + m));
	}
	h = show_num(arc, "size", &ok2);
	m = show_num(arc, "c", &ok2);
	if (ok2)
		fprintf(fp, "ZFS ARC size: %.0f MB of a target of %.0f MB\n",
		    h / 1e6, m / 1e6);
	if (json_is_object(r) && json_is_number(json_object_get(r,
	    "zil_commits_per_s")))
		fprintf(fp, "ZFS intent log: %.1f commits/s\n", show_num(r,
		    "zil_commits_per_s", NULL));
	if (json_is_object(r) && json_is_number(json_object_get(r,
	    "throttle_waits_per_s")))
		fprintf(fp, "ZFS write throttle: %.1f waits/s on dirty data\n",
		    show_num(r, "throttle_waits_per_s", NULL));
	json_array_foreach(json_object_get(z, "pools"), i, p) {
		t = json_object_get(p, "txgs");
		if (!json_is_object(t))
			continue;
		fprintf(fp, "ZFS pool %s: txg %.0f; recent syncs %.0f ms on "
		    "average, %.0f ms at most\n", show_str(p, "name"),
		    show_num(t, "last_txg", NULL), show_num(t, "avg_sync_ms",
		    NULL), show_num(t, "max_sync_ms", NULL));
	}
	fprintf(fp, "\n");
}

/* Unraid's array: its state, disks and the operation under way. */
static void
show_unraid(FILE *fp, json_t *u)
{
	json_t	*op = json_object_get(u, "operation");
	int	 ok = 1;
	double	 pct;

	fprintf(fp, "Unraid array: %s, %.0f parity and %.0f data disks",
	    show_str(u, "state"), show_num(u, "parity_disks", NULL),
	    show_num(u, "data_disks", NULL));
	if (show_num(u, "disabled", NULL) > 0)
		fprintf(fp, ", %.0f disabled", show_num(u, "disabled", NULL));
	if (json_is_true(json_object_get(op, "running"))) {
		pct = show_num(op, "done_pct", &ok);
		fprintf(fp, "; %s running (%s)", strcmp(show_str(op, "kind"),
		    "check") == 0 ? "a parity check" : strcmp(show_str(op,
		    "kind"), "recon") == 0 ? "a sync or rebuild" : "an operation",
		    show_str(op, "action"));
		if (ok)
			fprintf(fp, ", %.1f %% done", pct);
		ok = 1;
		pct = show_num(op, "bytes_per_second", &ok);
		if (ok)
			fprintf(fp, " at %.0f MB/s", pct / 1e6);
	}
	fprintf(fp, "\n\n");
}

/* GET /v1/counters, optionally with the "rates" object of ?interval=. */
void
show_counters(FILE *fp, json_t *body)
{
	json_t	*rates = json_object_get(body, "rates"), *v;
	int	 have = json_is_object(rates);

	if (have)
		fprintf(fp, "Rates over %.2f s\n\n", show_num(rates,
		    "interval", NULL));
	if (have && json_is_object(v = json_object_get(rates, "cpu")))
		show_cpu_rates(fp, v);
	else if (json_is_object(v = json_object_get(body, "cpu")))
		show_cpu_totals(fp, v);
	else
		fprintf(fp, "CPU: -\n\n");
	show_memory(fp, json_object_get(body, "memory"));
	if (have && json_is_array(v = json_object_get(rates, "disks")))
		show_disk_rates(fp, v);
	else if (json_is_array(v = json_object_get(body, "disks")))
		show_disk_totals(fp, v);
	else
		fprintf(fp, "Disks: -\n\n");
	if (have && json_is_array(v = json_object_get(rates, "nics")))
		show_nic_rates(fp, v);
	else if (json_is_array(v = json_object_get(body, "nics")))
		show_nic_totals(fp, v);
	else
		fprintf(fp, "Interfaces: -\n\n");
	if (have && json_is_array(v = json_object_get(rates, "groups")) &&
	    json_array_size(v) > 0)
		show_group_rates(fp, v);
	if (json_is_array(v = json_object_get(body, "groups")) &&
	    json_array_size(v) > 0)
		show_group_totals(fp, v);
	if (json_is_object(v = json_object_get(body, "zfs")))
		show_zfs(fp, v, have ? json_object_get(rates, "zfs") : NULL);
	if (json_is_object(v = json_object_get(body, "unraid")))
		show_unraid(fp, v);
}
