/*
 * cmd_disktest.c: nasperf disktest: start the daemon's disk analyzer,
 * follow it with a progress bar, and print the result as the analyzers
 * do: per disk its zones, IOPS and latency; per volume its write and
 * read beside what its disks and layout lead to expect.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/http.h>

#include <jansson.h>

#include "client.h"
#include "probe.h"
#include "show.h"
#include "table.h"

#define DISKTEST_POLL_S	0.5

static volatile sig_atomic_t disktest_interrupted;

/* SIGINT: cancel the test, then print what it measured. */
static void
disktest_sigint(int sig)
{
	(void)sig;
	disktest_interrupted = 1;
}

/* Parse a byte count with an optional k/M/G/T (powers of 1024) suffix. */
static int
disktest_bytes(const char *s, json_int_t *out)
{
	char		*end;
	double		 v, mul = 1;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !(v >= 0))
		return (-1);
	switch (*end) {
	case 'k': case 'K': mul = 1024.0; end++; break;
	case 'm': case 'M': mul = 1048576.0; end++; break;
	case 'g': case 'G': mul = 1073741824.0; end++; break;
	case 't': case 'T': mul = 1099511627776.0; end++; break;
	}
	if (*end != '\0' || v * mul > 9e18)
		return (-1);
	*out = (json_int_t)(v * mul);
	return (0);
}

/* A number member as MB/s text, or "-". */
static const char *
disktest_mbps(char *buf, size_t len, const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	if (!json_is_number(v))
		return ("-");
	snprintf(buf, len, "%.1f", json_number_value(v) / 1e6);
	return (buf);
}

/* A member of a result as "%.0f", or "-". */
static const char *
disktest_fmt(char *buf, size_t len, const json_t *o, const char *key,
    double scale, const char *fmt)
{
	const json_t	*v = json_object_get(o, key);

	if (!json_is_number(v))
		return ("-");
	snprintf(buf, len, fmt, json_number_value(v) * scale);
	return (buf);
}

/* Print a finished (or failed, or cancelled) test as tables. */
static void
disktest_print(const json_t *j)
{
	const json_t	*k, *v, *z, *ex, *eff, *m, *r1, *r32, *cc;
	struct table	*t;
	const char	*s;
	char		 a[7][32];	/* one per column of a row */
	char		 why[512];
	size_t		 i, n;

	printf("disk test %lld: %s", json_integer_value(json_object_get(j,
	    "id")), json_string_value(json_object_get(j, "state")));
	if ((s = json_string_value(json_object_get(j, "box"))) != NULL &&
	    *s != '\0')
		printf(", %s", s);
	if ((s = json_string_value(json_object_get(j, "firmware"))) != NULL &&
	    *s != '\0')
		printf(", firmware %s", s);
	printf(", kernel %s\n", json_string_value(json_object_get(j,
	    "kernel")));
	if ((s = json_string_value(json_object_get(j, "error"))) != NULL)
		printf("error: %s\n", s);
	json_array_foreach(json_object_get(j, "forced"), i, v)
		printf("forced: %s\n", json_string_value(v));
	if (json_array_size(json_object_get(j, "disks")) > 0 &&
	    (t = table_new("l  l  r  r  r  r  r  r  r  l")) != NULL) {
		table_row(t, "DISK", "MODEL", "OUTER", "MIDDLE", "INNER", "ALL",
		    "IOPS1", "IOPS32", "LAT1 p50", NULL);
		table_row(t, "", "", "MB/s", "MB/s", "MB/s", "MB/s", "QD1",
		    "QD32", "us", NULL);
		json_array_foreach(json_object_get(j, "disks"), i, k) {
			z = json_object_get(k, "zones");
			r1 = json_object_get(k, "rand_qd1");
			r32 = json_object_get(k, "rand_qd32");
			cc = json_object_get(k, "concurrent");
			s = json_string_value(json_object_get(k, "model"));
			table_row(t, show_str(k, "name"), s != NULL && *s !=
			    '\0' ? show_str(k, "model") : "-",
			    disktest_mbps(a[0], sizeof a[0],
			    json_object_get(z, "outer"), "bytes_per_s"),
			    disktest_mbps(a[1], sizeof a[1],
			    json_object_get(z, "middle"), "bytes_per_s"),
			    disktest_mbps(a[2], sizeof a[2],
			    json_object_get(z, "inner"), "bytes_per_s"),
			    disktest_mbps(a[3], sizeof a[3], cc,
			    "bytes_per_s"),
			    disktest_fmt(a[4], sizeof a[4], r1, "iops", 1,
			    "%.0f"),
			    disktest_fmt(a[5], sizeof a[5], r32, "iops", 1,
			    "%.0f"),
			    disktest_fmt(a[6], sizeof a[6],
			    json_object_get(r1, "lat_us"), "p50", 1, "%.0f"),
			    json_is_true(json_object_get(k, "slow")) ?
			    "SLOW: more than 8 % below its array's mean" : "",
			    NULL);
			json_array_foreach(json_object_get(k, "implausible"), n,
			    v)
				table_span(t, "  IMPLAUSIBLE: %s",
				    probe_escape_ctl(why, json_string_value(v) !=
				    NULL ? json_string_value(v) : "",
				    sizeof why));
		}
		printf("\n");
		table_done(t, stdout);
	}
	if (json_is_object(v = json_object_get(j, "concurrent")))
		printf("all at once: %.1f MB/s, one at a time: %.1f MB/s "
		    "(%.0f %%)\n", json_number_value(json_object_get(v,
		    "sum_concurrent_bytes_per_s")) / 1e6,
		    json_number_value(json_object_get(v,
		    "sum_individual_bytes_per_s")) / 1e6,
		    100 * json_number_value(json_object_get(v, "ratio")));
	json_array_foreach(json_object_get(j, "volumes"), i, v) {
		m = json_object_get(v, "members");
		n = json_array_size(m);
		printf("\nvolume %s: %s, %s on %s, %zu disk%s\n",
		    json_string_value(json_object_get(v, "path")),
		    json_string_value(json_object_get(v, "fstype")),
		    json_string_value(json_object_get(v, "layout")),
		    json_string_value(json_object_get(v, "device")),
		    n, n == 1 ? "" : "s");
		if ((t = table_new("  l  r  r  r  r")) == NULL)
			continue;
		table_row(t, "", "WRITE MB/s", "READ MB/s", "RAND R IOPS",
		    "RAND W IOPS", NULL);
		table_row(t, "measured", disktest_mbps(a[0], sizeof a[0],
		    json_object_get(v, "write"), "bytes_per_s"),
		    disktest_mbps(a[1], sizeof a[1], json_object_get(v,
		    "read"), "bytes_per_s"),
		    disktest_fmt(a[2], sizeof a[2], json_object_get(v,
		    "rand_read"), "iops", 1, "%.0f"),
		    disktest_fmt(a[3], sizeof a[3], json_object_get(v,
		    "rand_write"), "iops", 1, "%.0f"), NULL);
		ex = json_object_get(v, "expected");
		eff = json_object_get(ex, "efficiency");
		table_row(t, "expected", disktest_mbps(a[0], sizeof a[0], ex,
		    "write_bytes_per_s"), disktest_mbps(a[1], sizeof a[1], ex,
		    "read_bytes_per_s"), NULL);
		table_row(t, "efficiency", disktest_fmt(a[0], sizeof a[0], eff,
		    "write", 100, "%.0f %%"), disktest_fmt(a[1], sizeof a[1],
		    eff, "read", 100, "%.0f %%"), NULL);
		table_done(t, stdout);
		if ((s = json_string_value(json_object_get(v, "cache"))) !=
		    NULL)
			printf("  cache: %s\n", s);
		if ((s = json_string_value(json_object_get(ex, "basis"))) !=
		    NULL)
			printf("  expected from the %s\n", s);
		json_array_foreach(json_object_get(v, "slow_members"), n, k)
			printf("  slow member: %s\n", json_string_value(k));
	}
}

/* Draw the progress bar on a terminal. */
static void
disktest_bar(struct client *c, const json_t *j)
{
	const json_t	*p = json_object_get(j, "progress");
	double		 f = json_number_value(json_object_get(p, "fraction"));
	char		 bar[32];
	int		 i, w = 30, fill;

	if (!(f >= 0))
		f = 0;
	if (f > 1)
		f = 1;
	fill = (int)(f * w);
	for (i = 0; i < w; i++)
		bar[i] = i < fill ? '#' : ' ';
	bar[w] = '\0';
	client_progress(c, "[%s] %3.0f %% %lld/%lld %-40.40s %7.1f MB/s", bar,
	    f * 100, json_integer_value(json_object_get(p, "step")),
	    json_integer_value(json_object_get(p, "steps")),
	    show_str(p, "label"),
	    json_number_value(json_object_get(p, "bytes_per_s")) / 1e6);
}

/* Show a result as JSON or tables; the exit status of its state. */
static int
disktest_show(struct client *c, json_t *j)
{
	const char	*st = json_string_value(json_object_get(j, "state"));
	int		 rc = st != NULL && strcmp(st, "done") == 0 ? 0 : 1;

	if (c->json) {
		client_print_json(j, CLIENT_JSON);
	} else
		disktest_print(j);
	json_decref(j);
	return (rc);
}

static const struct option disktest_longopts[] = {
	{ "kind",	required_argument,	NULL, 'k' },
	{ "size",	required_argument,	NULL, 's' },
	{ "block-size",	required_argument,	NULL, 'b' },
	{ "queue-depth", required_argument,	NULL, 'q' },
	{ "seconds",	required_argument,	NULL, 'S' },
	{ "zone-bytes",	required_argument,	NULL, 'z' },
	{ "force",	no_argument,		NULL, 'f' },
	{ "show",	required_argument,	NULL, 'w' },
	{ "cancel",	required_argument,	NULL, 'x' },
	{ NULL,		0,			NULL, 0 }
};

static const struct args_cmd disktest_args = {
	"disktest", "k:s:b:q:S:z:fw:x:", disktest_longopts, 0,
"usage: nasperf disktest [-f] [-k full|seq|random] [-s SIZE] [-b BLOCK]\n"
"                        [-q DEPTH] [-S SECONDS] [-z ZONE] [TARGET...]\n"
"       nasperf disktest --show ID | --cancel ID\n"
"The daemon's disk analyzer on the TARGET disks and volumes (default:\n"
"disktest.volumes and their disks): each disk's zones, IOPS and latency,\n"
"all disks at once, each volume's write and read beside what its disks\n"
"lead to expect.  Ctrl-C cancels the test.\n"
"\n"
"Options (sizes take K, M, G, T: powers of 1024):\n"
"  -k, --kind KIND       the steps: full, seq or random\n"
"  -s, --size SIZE       the size of each volume's temporary file\n"
"  -b, --block-size SIZE the block size of sequential steps\n"
"  -q, --queue-depth N   the queue depth of sequential steps\n"
"  -S, --seconds S       the seconds of each step\n"
"  -z, --zone-bytes SIZE the size of each zone of a disk\n"
"  -f, --force           run even while an array resyncs or a disk is busy\n"
"      --show ID         print a test the daemon keeps\n"
"      --cancel ID       cancel a running test\n"
};

/*
 * The options of disktest into body (the request), show and cancel; -1
 * to go on, else the exit status.
 */
static int
disktest_options(struct client *c, int argc, char **argv, json_t *body,
    const char **show, const char **cancel)
{
	json_int_t	 n;
	char		*end;
	double		 x;
	int		 ch;

	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &disktest_args)) != -1) {
		switch (ch) {
		case 'k':
			json_object_set_new(body, "kind", json_string(optarg));
			break;
		case 's':
		case 'b':
		case 'z':
			if (disktest_bytes(optarg, &n) == -1)
				return (args_fail("-%c %s: expected a size "
				    "such as 4096 or 64M", ch, optarg));
			json_object_set_new(body, ch == 's' ? "size" : ch ==
			    'b' ? "block_size" : "zone_bytes",
			    json_integer(n));
			break;
		case 'q':
			errno = 0;
			n = strtoll(optarg, &end, 10);
			if (errno != 0 || end == optarg || *end != '\0')
				return (args_fail("-q %s: expected a number",
				    optarg));
			json_object_set_new(body, "queue_depth",
			    json_integer(n));
			break;
		case 'S':
			errno = 0;
			x = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0')
				return (args_fail("-S %s: expected seconds",
				    optarg));
			json_object_set_new(body, "seconds", json_real(x));
			break;
		case 'f':
			json_object_set_new(body, "force", json_true());
			break;
		case 'w':
			*show = optarg;
			break;
		case 'x':
			*cancel = optarg;
			break;
		default:
			return (args_exit(ch));
		}
	}
	return (-1);
}

/* nasperf disktest [options] [TARGET...]. */
int
cmd_disktest(struct client *c, int argc, char **argv)
{
	struct timespec	 ts = { 0, (long)(DISKTEST_POLL_S * 1e9) };
	json_t		*body, *targets, *j;
	const char	*st, *show = NULL, *cancel = NULL;
	char		 path[96];
	int		 i, rc, cancelled = 0;

	body = json_object();
	targets = json_array();
	if ((rc = disktest_options(c, argc, argv, body, &show,
	    &cancel)) != -1) {
		json_decref(body);
		json_decref(targets);
		return (rc);
	}
	for (i = optind; i < argc; i++)
		json_array_append_new(targets, json_string(argv[i]));
	if (show != NULL || cancel != NULL) {
		json_decref(body);
		json_decref(targets);
		snprintf(path, sizeof path, "/v1/disktests/%.40s",
		    show != NULL ? show : cancel);
		if ((j = client_call(c, show != NULL ? EVHTTP_REQ_GET :
		    EVHTTP_REQ_DELETE, path, NULL)) == NULL)
			return (1);
		if (cancel != NULL) {
			printf("disk test %s: cancelling\n", cancel);
			json_decref(j);
			return (0);
		}
		return (disktest_show(c, j));
	}
	json_object_set_new(body, "targets", targets);
	j = client_call(c, EVHTTP_REQ_POST, "/v1/disktests", body);
	json_decref(body);
	if (j == NULL)
		return (1);
	snprintf(path, sizeof path, "/v1/disktests/%lld",
	    json_integer_value(json_object_get(j, "id")));
	signal(SIGINT, disktest_sigint);
	for (;;) {
		st = json_string_value(json_object_get(j, "state"));
		if (st == NULL || (strcmp(st, "running") != 0 &&
		    strcmp(st, "checking") != 0))
			break;
		disktest_bar(c, j);
		if (disktest_interrupted && !cancelled) {
			json_decref(client_call(c, EVHTTP_REQ_DELETE, path,
			    NULL));
			cancelled = 1;
		}
		nanosleep(&ts, NULL);
		json_decref(j);
		if ((j = client_call(c, EVHTTP_REQ_GET, path, NULL)) == NULL)
			return (1);
	}
	signal(SIGINT, SIG_DFL);
	client_progress_clear();
	return (disktest_show(c, j));
}
