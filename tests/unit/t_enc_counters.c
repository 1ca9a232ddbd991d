/*
 * t_enc_counters.c: a fixture snapshot as JSON, rates, and /metrics text.
 */
#include "config.h"

#include <sys/stat.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "test.h"
#include "encode.h"
#include "transfers.h"
#include "snapshot.h"
#include "zfs.h"

/* What evb holds, as a string; the caller frees it. */
static char *
t_drain(struct evbuffer *evb)
{
	size_t	 len = evbuffer_get_length(evb);
	char	*text = malloc(len + 1);

	if (text == NULL)
		return (NULL);
	evbuffer_remove(evb, text, len);
	text[len] = '\0';
	return (text);
}

static const char *const smb_pats[] = { "smbd" };
static const char *const nfs_pats[] = { "nfsd" };
static const struct snapshot_group groups[] = {
	{ "smb", smb_pats, 1, 0 }, { "nfs", nfs_pats, 1, 0 }
};
static const struct snapshot_opts opts = { groups, 2, 0 };

/* The JSON object of the array element whose "name" is name, or NULL. */
static json_t *
t_named(json_t *arr, const char *name)
{
	json_t	*v;
	size_t	 i;

	json_array_foreach(arr, i, v)
		if (strcmp(json_string_value(json_object_get(v, "name")) ?
		    json_string_value(json_object_get(v, "name")) : "",
		    name) == 0)
			return (v);
	return (NULL);
}

/* An integer member, or -1. */
static long long
t_int(json_t *o, const char *key)
{
	json_t	*v = json_object_get(o, key);

	return (json_is_integer(v) ? (long long)json_integer_value(v) : -1);
}

/* QNAP: values in the JSON, null parts. */
static void
t_json(struct snapshot *s)
{
	json_t	*j, *d, *g, *cg, *n;
	char	*text;

	T_OK(snapshot_take(t_root("qts5-5.10-x86_64"), &opts, s));
	T_TRUE((j = enc_counters(s)) != NULL);
	if (j == NULL)
		return;
	T_TRUE(json_is_real(json_object_get(j, "time")));
	d = t_named(json_object_get(j, "disks"), "sda");
	T_TRUE(d != NULL);
	T_EQ_INT(t_int(d, "major"), 8);
	T_EQ_INT(t_int(d, "nfields"), 20);
	T_EQ_INT(t_int(d, "reads"), 7783259);
	T_EQ_INT(t_int(d, "read_bytes"), 3661373720LL * 512);
	T_EQ_INT(t_int(d, "flushes"), 102336);
	d = t_named(json_object_get(j, "disks"), "md1");
	T_TRUE(json_is_array(json_object_get(d, "md_members")));
	g = t_named(json_object_get(j, "groups"), "smb");
	T_EQ_INT(t_int(g, "processes"), 3);
	T_EQ_INT(t_int(g, "cpu_ticks"), 258334);
	cg = json_array_get(json_object_get(g, "cgroups"), 0);
	T_NEAR(json_real_value(json_object_get(cg, "quota_cores")), 0.5, 1e-9);
	T_NEAR(json_real_value(json_object_get(cg, "throttled_seconds")),
	    39120.334112345, 1e-6);
	T_EQ_INT(t_int(json_object_get(json_object_get(j, "nfsd"),
	    "proc3_named"), "read"), 9120334);
	n = json_object_get(j, "pressure");
	T_TRUE(json_is_object(n));
	T_TRUE(json_is_null(json_object_get(json_object_get(j, "memory"),
	    "load")) || json_is_array(json_object_get(json_object_get(j,
	    "memory"), "load")));
	text = json_dumps(j, 0);
	T_TRUE(text != NULL && strlen(text) > 1000);
	free(text);
	json_decref(j);

	/* DSM 6: no pressure, MemAvailable null. */
	T_OK(snapshot_take(t_root("dsm6-3.10-armhf"), &opts, s));
	j = enc_counters(s);
	T_TRUE(json_is_null(json_object_get(j, "pressure")));
	T_TRUE(json_is_string(json_object_get(json_object_get(j,
	    "unavailable"), "pressure")));
	T_TRUE(json_is_null(json_object_get(json_object_get(j, "memory"),
	    "available_bytes")));
	T_EQ_INT(t_int(json_object_get(j, "memory"), "dirty_bytes"),
	    1432 * 1024);
	json_decref(j);

	/* The empty box: every part null. */
	T_OK(snapshot_take(t_root("empty"), &opts, s));
	j = enc_counters(s);
	T_TRUE(json_is_null(json_object_get(j, "cpu")));
	T_TRUE(json_is_null(json_object_get(j, "disks")));
	T_TRUE(json_is_null(json_object_get(j, "crypto")));
	json_decref(j);
}

/* Rates: the same box twice gives zero rates; a reboot gives nulls. */
static void
t_rates(struct snapshot *a, struct snapshot *b)
{
	json_t	*r, *d;

	T_OK(snapshot_take(t_root("dsm7-4.4-x86_64"), &opts, a));
	T_OK(snapshot_take(t_root("dsm7-4.4-x86_64"), &opts, b));
	b->mono.tv_sec = a->mono.tv_sec + 2;
	b->mono.tv_nsec = a->mono.tv_nsec;
	/* sata1 read 1000 more I/Os and 2048 sectors, 4000 ms of ticks. */
	b->disks.devs[0].rd_ios += 1000;
	b->disks.devs[0].rd_sectors += 2048;
	b->disks.devs[0].rd_ticks += 4000;
	b->disks.devs[0].io_ticks += 1000;
	r = enc_rates(a, b);
	T_NEAR(json_real_value(json_object_get(r, "interval")), 2, 1e-9);
	d = t_named(json_object_get(r, "disks"), b->disks.devs[0].name);
	T_TRUE(d != NULL);
	T_NEAR(json_real_value(json_object_get(d, "reads_per_s")), 500, 1e-9);
	T_NEAR(json_real_value(json_object_get(d, "read_bytes_per_s")),
	    524288, 1e-6);
	T_NEAR(json_real_value(json_object_get(d, "read_await_ms")), 4, 1e-9);
	T_NEAR(json_real_value(json_object_get(d, "util_pct")), 50, 1e-9);
	T_TRUE(json_is_null(json_object_get(d, "write_await_ms")));
	d = t_named(json_object_get(r, "disks"), "md2");
	T_EQ_INT(t_int(d, "from_members"), 8);
	T_TRUE(t_named(json_object_get(r, "nics"), "eth2") != NULL);
	T_NEAR(json_real_value(json_object_get(t_named(json_object_get(r,
	    "groups"), "smb"), "cpu_pct")), 0, 1e-9);
	json_decref(r);
	/* A counter going backwards: null, not negative. */
	b->disks.devs[0].rd_ios -= 2000;
	r = enc_rates(a, b);
	d = t_named(json_object_get(r, "disks"), b->disks.devs[0].name);
	T_TRUE(json_is_null(json_object_get(d, "reads_per_s")));
	json_decref(r);
	b->cpu.btime++;
	r = enc_rates(a, b);
	T_TRUE(json_is_null(json_object_get(r, "disks")));
	json_decref(r);
}

/* Check the exposition: each family has one HELP and one TYPE, first. */
static int
t_wellformed(const char *text, int *nfam)
{
	char		 seen[256][96], name[96];
	const char	*line, *eol, *sp;
	size_t		 n, i, nseen = 0;
	int		 typed = 0;

	*nfam = 0;
	for (line = text; *line != '\0'; line = eol + 1) {
		if ((eol = strchr(line, '\n')) == NULL)
			return (0);
		if (strncmp(line, "# HELP ", 7) == 0) {
			if ((sp = strchr(line + 7, ' ')) == NULL || sp > eol)
				return (0);
			if ((n = (size_t)(sp - line - 7)) >= sizeof name)
				return (0);
			memcpy(name, line + 7, n);
			name[n] = '\0';
			for (i = 0; i < nseen; i++)
				if (strcmp(seen[i], name) == 0)
					return (0);	/* family twice */
			if (nseen < 256)
				strcpy(seen[nseen++], name);
			(*nfam)++;
			typed = 0;
			continue;
		}
		if (strncmp(line, "# TYPE ", 7) == 0) {
			if (nseen == 0 || typed ||
			    strncmp(line + 7, seen[nseen - 1],
			    strlen(seen[nseen - 1])) != 0)
				return (0);
			typed = 1;
			continue;
		}
		if (nseen == 0 || !typed ||
		    strncmp(line, seen[nseen - 1], strlen(seen[nseen - 1])) != 0)
			return (0);	/* sample outside its family */
	}
	return (1);
}

/* /metrics of a fixture box, and an escaped non-UTF-8 device. */
static void
t_metrics(struct snapshot *s)
{
	struct evbuffer	*evb;
	char		*text;
	int		 nfam;

	T_OK(snapshot_take(t_root("qts5-5.10-x86_64"), &opts, s));
	/* A device called "sd\xff\"x" as a hostile kernel could print. */
	strcpy(s->disks.devs[0].name, "sd\xff\"x");
	evb = evbuffer_new();
	T_OK(metrics_render(evb, s));
	text = t_drain(evb);
	T_TRUE(t_wellformed(text, &nfam));
	T_TRUE(nfam > 40);
	T_TRUE(strstr(text, "nasperf_cpu_seconds_total{cpu=\"0\",mode=\"user\"} "
	    "88172.47\n") != NULL);
	T_TRUE(strstr(text, "nasperf_disk_read_bytes_total{device=\"sd\\\\xff\\\"x\"}")
	    != NULL);
	T_TRUE(strstr(text, "nasperf_disk_io_time_seconds_total{device=\"md1\"} 0\n")
	    != NULL);
	T_TRUE(strstr(text, "nasperf_network_receive_bytes_total{device=\"eth0\"}")
	    != NULL);
	T_TRUE(strstr(text, "nasperf_memory_dirty_bytes ") != NULL);
	T_TRUE(strstr(text, "nasperf_pressure_io_waiting_seconds_total ") != NULL);
	T_TRUE(strstr(text, "nasperf_procgroup_cpu_seconds_total{group=\"smb\"} "
	    "2583.34\n") != NULL);
	T_TRUE(strstr(text, "nasperf_procgroup_cgroup_throttled_seconds_total{"
	    "group=\"smb\",cgroup=\"/AppLimit/smbd\"} 39120.334112345") != NULL);
	T_TRUE(strstr(text, "nasperf_nfsd_requests_total{proto=\"3\","
	    "method=\"read\"} 9120334\n") != NULL);
	T_TRUE(strstr(text, "# TYPE nasperf_disk_io_time_seconds_total counter\n")
	    != NULL);
	free(text);
	evbuffer_free(evb);

	/* The empty box: only nasperf_probe_up. */
	T_OK(snapshot_take(t_root("empty"), &opts, s));
	evb = evbuffer_new();
	T_OK(metrics_render(evb, s));
	text = t_drain(evb);
	T_TRUE(t_wellformed(text, &nfam));
	T_EQ_INT(nfam, 1);
	T_TRUE(strstr(text, "nasperf_probe_up{part=\"disks\"} 0\n") != NULL);
	free(text);
	evbuffer_free(evb);

	/* The clients' counters: one each, then "other" when it has any. */
	{
		struct transfers_total	v[2], other;

		memset(v, 0, sizeof v);
		memset(&other, 0, sizeof other);
		snprintf(v[0].client, sizeof v[0].client, "192.0.2.7");
		v[0].sent = 734003200;
		v[0].received = 1048576;
		snprintf(v[1].client, sizeof v[1].client, "2001:db8::7");
		v[1].received = 5;
		snprintf(other.client, sizeof other.client, "other");
		evb = evbuffer_new();
		T_OK(metrics_render_clients(evb, v, 2, &other, 3, 1));
		text = t_drain(evb);
		T_TRUE(t_wellformed(text, &nfam));
		T_EQ_INT(nfam, 3);
		T_TRUE(strstr(text, "nasperf_client_bytes_total{client="
		    "\"192.0.2.7\",direction=\"sent\"} 734003200\n") != NULL);
		T_TRUE(strstr(text, "nasperf_client_bytes_total{client="
		    "\"2001:db8::7\",direction=\"received\"} 5\n") != NULL);
		T_TRUE(strstr(text, "{client=\"other\"") == NULL);
		T_TRUE(strstr(text, "nasperf_transfers_total 3\n") != NULL);
		T_TRUE(strstr(text, "nasperf_transfers_active 1\n") != NULL);
		free(text);
		evbuffer_free(evb);
		other.sent = 9;
		evb = evbuffer_new();
		T_OK(metrics_render_clients(evb, v, 2, &other, 3, 1));
		text = t_drain(evb);
		T_TRUE(strstr(text, "nasperf_client_bytes_total{client="
		    "\"other\",direction=\"sent\"} 9\n") != NULL);
		free(text);
		evbuffer_free(evb);
	}
}

/* Copy fixture rel to dir/dst, making its directories. */
static void
t_place(const char *dir, const char *rel, const char *dst)
{
	char	 path[4096], *text, *slash;
	size_t	 len;
	FILE	*f;

	text = t_fixture(rel, &len);
	snprintf(path, sizeof path, "%s/%s", dir, dst);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		(void)mkdir(path, 0755);
		*slash = '/';
	}
	if ((f = fopen(path, "w")) == NULL || fwrite(text, 1, len, f) != len ||
	    fclose(f) != 0) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	free(text);
}

/*
 * A ZFS box with Unraid's array, composed of real captures (a box that
 * has both: Unraid 6.12 with a ZFS pool): arcstats of 0.6.5, dmu_tx,
 * zil's commit rows, pool anima's txgs and pool zstore's io kstat, and
 * an Unraid 6.11 /proc/mdstat.  The "zfs" and "unraid" parts in JSON and
 * on /metrics, and a box with neither.
 */
static void
t_zfs_unraid(struct snapshot *s)
{
	struct probe_root	 root;
	struct evbuffer		*evb;
	char			 dir[] = "/tmp/t_enc_counters.XXXXXX", cmd[64];
	json_t			*j, *z, *p, *u, *sl;
	char			*text;
	size_t			 i;
	int			 nfam;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	t_place(dir, "zfs/arcstats-0.6.5-zfs4880.txt",
	    "proc/spl/kstat/zfs/arcstats");
	t_place(dir, "zfs/dmu_tx-zfs7718.txt", "proc/spl/kstat/zfs/dmu_tx");
	t_place(dir, "zfs/zil-grep-zfs16315.txt", "proc/spl/kstat/zfs/zil");
	t_place(dir, "zfs/txgs-zfs3811.txt", "proc/spl/kstat/zfs/anima/txgs");
	t_place(dir, "zfs/io-zabbix-zfs-checks2.txt",
	    "proc/spl/kstat/zfs/zstore/io");
	t_place(dir, "unraid/mdstat-6.11-node_exporter2642.txt",
	    "proc/mdstat");
	T_OK(probe_root_open(&root, dir));
	T_OK(snapshot_take(&root, &opts, s));
	T_TRUE(s->status[SNAPSHOT_ZFS].avail);
	T_TRUE(s->status[SNAPSHOT_UNRAID].avail);
	j = enc_counters(s);
	z = json_object_get(j, "zfs");
	T_EQ_INT(t_int(json_object_get(z, "arcstats"), "hits"), 800938102);
	T_EQ_INT(t_int(json_object_get(z, "arcstats"), "demand_data_misses"),
	    24056278);
	/* 0.6.5's capture stops before size: not there, not 0. */
	T_TRUE(json_object_get(json_object_get(z, "arcstats"), "size") ==
	    NULL);
	T_EQ_INT(t_int(json_object_get(z, "dmu_tx"), "dmu_tx_assigned"), 3);
	T_EQ_INT(t_int(json_object_get(z, "zil"), "zil_commit_count"), 0);
	T_EQ_INT(json_array_size(json_object_get(z, "pools")), 2);
	p = json_array_get(json_object_get(z, "pools"), 0);
	T_EQ_STR(json_string_value(json_object_get(p, "name")), "anima");
	T_EQ_INT(t_int(json_object_get(p, "txgs"), "committed"), 6);
	T_EQ_INT(t_int(json_object_get(p, "txgs"), "last_txg"), 31601026);
	T_TRUE(json_is_integer(json_object_get(json_object_get(p, "txgs"),
	    "max_dirty_bytes")));
	T_TRUE(json_is_null(json_object_get(p, "io")));
	p = json_array_get(json_object_get(z, "pools"), 1);
	T_EQ_STR(json_string_value(json_object_get(p, "name")), "zstore");
	T_TRUE(json_is_null(json_object_get(p, "txgs")));
	T_EQ_INT(t_int(json_object_get(p, "io"), "nread"), 481047831040LL);
	u = json_object_get(j, "unraid");
	T_EQ_STR(json_string_value(json_object_get(u, "state")), "STARTED");
	T_EQ_INT(t_int(u, "disabled"), 1);
	T_EQ_STR(json_string_value(json_object_get(json_object_get(u,
	    "operation"), "kind")), "check");
	T_TRUE(json_is_false(json_object_get(json_object_get(u, "operation"),
	    "running")));
	T_EQ_INT(t_int(u, "last_check"), 1678709639);
	sl = json_array_get(json_object_get(u, "slots"), 0);
	T_EQ_STR(json_string_value(json_object_get(sl, "role")), "parity");
	T_EQ_STR(json_string_value(json_object_get(sl, "device")), "sdo");
	T_EQ_INT(t_int(u, "parity_disks") + t_int(u, "data_disks"),
	    (long long)json_array_size(json_object_get(u, "slots")));
	json_decref(j);

	/*
	 * Two seconds later: 900 more hits, 100 more misses, all of file
	 * data; 4 commits, 1 MiB to a log device; 6 throttled waits.
	 */
	{
		struct snapshot	*b = snapshot_new();
		json_t		*r, *zr;

		T_OK(snapshot_take(&root, &opts, b));
		b->mono.tv_sec = s->mono.tv_sec + 2;
		b->mono.tv_nsec = s->mono.tv_nsec;
		b->zfs->arc.v[ZFS_ARC_HITS] += 900;
		b->zfs->arc.v[ZFS_ARC_MISSES] += 100;
		b->zfs->arc.v[ZFS_ARC_DEMAND_DATA_HITS] += 900;
		b->zfs->arc.v[ZFS_ARC_DEMAND_DATA_MISSES] += 100;
		b->zfs->zil.v[ZFS_ZIL_COMMIT] += 4;
		b->zfs->tx.v[ZFS_TX_DIRTY_THROTTLE] += 6;
		r = enc_rates(s, b);
		zr = json_object_get(r, "zfs");
		T_NEAR(json_real_value(json_object_get(zr, "arc_hits_per_s")),
		    450, 1e-9);
		T_NEAR(json_real_value(json_object_get(zr, "arc_hit_pct")),
		    90, 1e-9);
		T_NEAR(json_real_value(json_object_get(zr,
		    "demand_data_hit_pct")), 90, 1e-9);
		T_NEAR(json_real_value(json_object_get(zr,
		    "zil_commits_per_s")), 2, 1e-9);
		T_NEAR(json_real_value(json_object_get(zr,
		    "throttle_waits_per_s")), 3, 1e-9);
		/* zil's capture has no itx rows; the release lacks them. */
		T_TRUE(json_is_null(json_object_get(zr,
		    "zil_slog_bytes_per_s")));
		T_TRUE(json_is_null(json_object_get(zr, "l2arc_hits_per_s")));
		json_decref(r);
		/* The module reloaded: counters fell, no rate. */
		b->zfs->arc.v[ZFS_ARC_HITS] = 5;
		r = enc_rates(s, b);
		T_TRUE(json_is_null(json_object_get(json_object_get(r, "zfs"),
		    "arc_hits_per_s")));
		json_decref(r);
		snapshot_free(b);
	}

	evb = evbuffer_new();
	T_OK(metrics_render(evb, s));
	text = t_drain(evb);
	T_TRUE(t_wellformed(text, &nfam));
	T_TRUE(strstr(text, "nasperf_probe_up{part=\"zfs\"} 1\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_arc_hits_total 800938102\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_arc_kind_misses_total{kind="
	    "\"demand_data\"} 24056278\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_arc_size_bytes") == NULL);
	T_TRUE(strstr(text, "nasperf_zfs_dmu_tx_waits_total{reason="
	    "\"dirty_throttle\"} 0\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_zil_commits_total 0\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_pool_last_txg{pool=\"anima\"} "
	    "31601026\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_pool_read_bytes_total{pool="
	    "\"zstore\"} 481047831040\n") != NULL);
	T_TRUE(strstr(text, "nasperf_unraid_array_started 1\n") != NULL);
	T_TRUE(strstr(text, "nasperf_unraid_disks_disabled 1\n") != NULL);
	T_TRUE(strstr(text, "nasperf_unraid_operation_running{kind=\"check\"} "
	    "0\n") != NULL);
	T_TRUE(strstr(text, "nasperf_unraid_disk_errors_total{slot=\"0\","
	    "role=\"parity\",device=\"sdo\"} 0\n") != NULL);
	if (text != NULL)
		for (i = 0; text[i] != '\0'; i++)
			if (strncmp(text + i, "\nnasperf_zfs_", 13) == 0 ||
			    strncmp(text + i, "\nnasperf_unraid_", 16) == 0) {
				printf("# %.*s\n", (int)strcspn(text + i + 1,
				    "\n"), text + i + 1);
			}
	free(text);
	evbuffer_free(evb);
	probe_root_close(&root);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	T_EQ_INT(system(cmd), 0);

	/* A box with neither: both parts null, and why. */
	T_OK(snapshot_take(t_root("qts5-5.10-x86_64"), &opts, s));
	j = enc_counters(s);
	T_TRUE(json_is_null(json_object_get(j, "zfs")));
	T_EQ_STR(json_string_value(json_object_get(json_object_get(j,
	    "unavailable"), "zfs")), "no ZFS (no /proc/spl/kstat/zfs/arcstats)");
	T_TRUE(json_is_null(json_object_get(j, "unraid")));
	T_EQ_STR(json_string_value(json_object_get(json_object_get(j,
	    "unavailable"), "unraid")),
	    "not Unraid (no md_unraid /proc/mdstat)");
	json_decref(j);
}

/* nasperf_zfs_vdev_*: zpool iostat's last second, a row at a time. */
static void
t_vdev_metrics(void)
{
	struct zfs_viostat	*io = calloc(1, sizeof *io);
	struct evbuffer		*evb;
	const char		*err;
	char			*buf, *text;
	size_t			 len;
	int			 nfam;

	if (io == NULL)
		return;
	buf = t_fixture("zfs/iostat-vlTd-mirrors-zfs11754.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	evb = evbuffer_new();
	T_OK(metrics_render_zfs_vdevs(evb, io, 1615841324));
	text = t_drain(evb);
	T_TRUE(t_wellformed(text, &nfam));
	T_EQ_INT(nfam, 8);
	T_TRUE(strstr(text, "nasperf_zfs_vdev_operations_per_second{pool="
	    "\"pool2\",vdev=\"pool2-4\",class=\"data\",op=\"read\"} 1007\n")
	    != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_vdev_disk_wait_seconds{pool=\"pool2\","
	    "vdev=\"pool2\",class=\"data\",op=\"write\"} 0.000131\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_vdev_scan_wait_seconds{pool=\"pool2\","
	    "vdev=\"mirror\",class=\"data\",kind=\"trim\"} 0.002\n") != NULL);
	T_TRUE(strstr(text, "nasperf_zfs_vdev_iostat_timestamp_seconds "
	    "1615841324\n") != NULL);
	free(text);
	evbuffer_free(evb);
	free(io);
}

int
main(void)
{
	struct snapshot	*a, *b;

	a = snapshot_new();
	b = snapshot_new();
	t_json(a);
	t_rates(a, b);
	t_metrics(a);
	t_zfs_unraid(a);
	t_vdev_metrics();
	snapshot_free(a);
	snapshot_free(b);
	(void)t_skip;
	return (t_done());
}
