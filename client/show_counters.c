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

/* Print one number right-aligned in width w with prec decimals, or "-". */
static void
show_cell(FILE *fp, json_t *o, const char *key, int w, int prec, double div)
{
	int	ok = 1;
	double	v = show_num(o, key, &ok);

	if (!ok)
		fprintf(fp, " %*s", w, "-");
	else
		fprintf(fp, " %*.*f", w, prec, v / div);
}

/* Per-core CPU percentages from the rates. */
static void
show_cpu_rates(FILE *fp, json_t *cpu)
{
	static const char *const cols[] = { "user_pct", "nice_pct",
	    "system_pct", "iowait_pct", "irq_pct", "softirq_pct", "steal_pct",
	    "idle_pct", "busy_pct" };
	json_t	*c;
	size_t	 i, j;

	fprintf(fp, "CPU        %%usr  %%nice   %%sys %%iowait   %%irq  "
	    "%%soft %%steal  %%idle  %%busy\n");
	c = json_object_get(cpu, "total");
	if (json_is_object(c)) {
		fprintf(fp, "%-6s", "all");
		for (j = 0; j < NP_NITEMS(cols); j++)
			show_cell(fp, c, cols[j], 6, 1, 1);
		fprintf(fp, "\n");
	}
	json_array_foreach(json_object_get(cpu, "cores"), i, c) {
		fprintf(fp, "%-6d", (int)show_num(c, "cpu", NULL));
		for (j = 0; j < NP_NITEMS(cols); j++)
			show_cell(fp, c, cols[j], 6, 1, 1);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
}

/* Per-core CPU totals in seconds. */
static void
show_cpu_totals(FILE *fp, json_t *cpu)
{
	static const char *const cols[] = { "user", "nice", "system",
	    "iowait", "irq", "softirq", "steal", "idle" };
	json_t	*c;
	double	 hz = show_num(cpu, "hz", NULL);
	size_t	 i, j;

	if (hz <= 0)
		hz = 100;
	fprintf(fp, "CPU (seconds)     user       nice     system     iowait"
	    "        irq    softirq      steal       idle\n");
	c = json_object_get(cpu, "total");
	if (json_is_object(c)) {
		fprintf(fp, "%-12s", "all");
		for (j = 0; j < NP_NITEMS(cols); j++)
			show_cell(fp, c, cols[j], 10, 0, hz);
		fprintf(fp, "\n");
	}
	json_array_foreach(json_object_get(cpu, "cores"), i, c) {
		fprintf(fp, "%-12d", (int)show_num(c, "cpu", NULL));
		for (j = 0; j < NP_NITEMS(cols); j++)
			show_cell(fp, c, cols[j], 10, 0, hz);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
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

/* iostat -x style disk rates. */
static void
show_disk_rates(FILE *fp, json_t *disks)
{
	json_t	*d;
	size_t	 i;

	fprintf(fp, "%-14s %9s %9s %9s %9s %8s %8s %7s %6s\n", "Device",
	    "r/s", "w/s", "rMB/s", "wMB/s", "r_await", "w_await", "aqu-sz",
	    "%util");
	json_array_foreach(disks, i, d) {
		fprintf(fp, "%-14s", show_str(d, "name"));
		show_cell(fp, d, "reads_per_s", 9, 2, 1);
		show_cell(fp, d, "writes_per_s", 9, 2, 1);
		show_cell(fp, d, "read_bytes_per_s", 9, 2, 1e6);
		show_cell(fp, d, "write_bytes_per_s", 9, 2, 1e6);
		show_cell(fp, d, "read_await_ms", 8, 2, 1);
		show_cell(fp, d, "write_await_ms", 8, 2, 1);
		show_cell(fp, d, "avg_queue", 7, 2, 1);
		show_cell(fp, d, "util_pct", 6, 1, 1);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
}

/* Disk totals since boot. */
static void
show_disk_totals(FILE *fp, json_t *disks)
{
	json_t	*d;
	size_t	 i;

	fprintf(fp, "%-14s %7s %12s %12s %12s %12s %10s\n", "Device",
	    "maj:min", "reads", "writes", "read MB", "written MB", "busy s");
	json_array_foreach(disks, i, d) {
		fprintf(fp, "%-14s %3d:%-3d", show_str(d, "name"),
		    (int)show_num(d, "major", NULL),
		    (int)show_num(d, "minor", NULL));
		show_cell(fp, d, "reads", 12, 0, 1);
		show_cell(fp, d, "writes", 12, 0, 1);
		show_cell(fp, d, "read_bytes", 12, 1, 1e6);
		show_cell(fp, d, "write_bytes", 12, 1, 1e6);
		show_cell(fp, d, "io_ms", 10, 1, 1e3);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
}

/* NIC rates. */
static void
show_nic_rates(FILE *fp, json_t *nics)
{
	json_t	*n;
	size_t	 i;

	fprintf(fp, "%-14s %10s %10s %10s %10s\n", "Interface", "rxMB/s",
	    "txMB/s", "rxpck/s", "txpck/s");
	json_array_foreach(nics, i, n) {
		fprintf(fp, "%-14s", show_str(n, "name"));
		show_cell(fp, n, "rx_bytes_per_s", 10, 2, 1e6);
		show_cell(fp, n, "tx_bytes_per_s", 10, 2, 1e6);
		show_cell(fp, n, "rx_packets_per_s", 10, 1, 1);
		show_cell(fp, n, "tx_packets_per_s", 10, 1, 1);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
}

/* NIC totals and links. */
static void
show_nic_totals(FILE *fp, json_t *nics)
{
	json_t	*n;
	size_t	 i;

	fprintf(fp, "%-14s %6s %6s %8s %12s %12s %8s %8s\n", "Interface",
	    "state", "Mb/s", "mtu", "rx MB", "tx MB", "rx err", "tx err");
	json_array_foreach(nics, i, n) {
		fprintf(fp, "%-14s %6s", show_str(n, "name"),
		    show_str(n, "operstate"));
		show_cell(fp, n, "speed_mbps", 6, 0, 1);
		show_cell(fp, n, "mtu", 8, 0, 1);
		show_cell(fp, n, "rx_bytes", 12, 1, 1e6);
		show_cell(fp, n, "tx_bytes", 12, 1, 1e6);
		show_cell(fp, n, "rx_errors", 8, 0, 1);
		show_cell(fp, n, "tx_errors", 8, 0, 1);
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
}

/* Process group rates: CPU of one core, the busiest process, throttling. */
static void
show_group_rates(FILE *fp, json_t *groups)
{
	json_t	*g, *top;
	size_t	 i;

	fprintf(fp, "%-16s %8s %10s  %s\n", "Group", "%cpu", "%throttled",
	    "busiest process");
	json_array_foreach(groups, i, g) {
		fprintf(fp, "%-16s", show_str(g, "name"));
		show_cell(fp, g, "cpu_pct", 8, 1, 1);
		show_cell(fp, g, "throttled_pct", 10, 1, 1);
		top = json_object_get(g, "top");
		if (json_is_object(top)) {
			fprintf(fp, "  %s pid %d", show_str(top, "comm"),
			    (int)show_num(top, "pid", NULL));
			if (json_is_integer(json_object_get(top, "cpu")))
				fprintf(fp, " on cpu%d", (int)show_num(top,
				    "cpu", NULL));
			fprintf(fp, " %.1f%%", show_num(top, "cpu_pct", NULL));
		} else
			fprintf(fp, "  -");
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
}

/* Process group totals. */
static void
show_group_totals(FILE *fp, json_t *groups)
{
	json_t	*g, *cg;
	size_t	 i, j;
	int	 ok;
	double	 q;

	fprintf(fp, "%-16s %6s %8s %12s %10s  %s\n", "Group", "procs",
	    "threads", "cpu s", "rss MB", "cpu quota");
	json_array_foreach(groups, i, g) {
		fprintf(fp, "%-16s", show_str(g, "name"));
		show_cell(fp, g, "processes", 6, 0, 1);
		show_cell(fp, g, "threads", 8, 0, 1);
		show_cell(fp, g, "cpu_seconds", 12, 2, 1);
		show_cell(fp, g, "rss_bytes", 10, 1, 1e6);
		fprintf(fp, " ");
		json_array_foreach(json_object_get(g, "cgroups"), j, cg) {
			ok = 1;
			q = show_num(cg, "quota_cores", &ok);
			if (ok)
				fprintf(fp, " %.2f cores", q);
			else if (json_is_true(json_object_get(cg,
			    "unlimited")))
				fprintf(fp, " unlimited");
			else
				fprintf(fp, " -");
		}
		fprintf(fp, "\n");
	}
	fprintf(fp, "\n");
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
}
