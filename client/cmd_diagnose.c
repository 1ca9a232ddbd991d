/*
 * cmd_diagnose.c: nasperf diagnose TARGET, one command for one answer.
 *
 * It measures what the verdicts need and the daemon does not have yet,
 * then runs the test matrix and prints one page: the three ceilings (the
 * disks under the share's volume, the network path from this client, and
 * what the transfers got), each test's rate and verdict, the likely causes
 * with their figures, and what to try next.  Each step is nasperf itself
 * run as a child with --json (bench, synth, disktest), so that diagnose
 * does exactly what those commands do and adds only the plan and the page:
 *
 *	1. a sequential write and read of TARGET (bench --tests seq): their
 *	   reports name the volume behind the share and the ceilings known;
 *	2. the network path with a synthetic test each way, when its ceiling
 *	   was never measured from this client or is over a day old;
 *	3. the volume with a short disk test, when its ceiling was never
 *	   measured (the daemon refuses while an array resyncs, unless
 *	   --force; it writes only to a temporary file in a configured
 *	   volume);
 *	4. the test matrix (bench --quick), smaller when the budget is short.
 *
 * The budget (--budget, 300 s) is kept by skipping a step that would not
 * fit, and the page says what was skipped and why.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/http.h>

#include <jansson.h>

#include "advice.h"
#include "bench.h"
#include "client.h"
#include "nptime.h"
#include "show.h"
#include "table.h"

#define DIAG_BUDGET	300.0	/* seconds, by default */
#define DIAG_SYNTH_S	4	/* each way */
#define DIAG_SYNTH_EST	(2.0 * DIAG_SYNTH_S + 6.0)
#define DIAG_DISK_EST	30.0	/* a short disk test of one volume */
#define DIAG_DISK_SIZE	"256M"	/* its temporary file */
#define DIAG_STALE_S	86400.0	/* a ceiling older than this is redone */
#define DIAG_MATRIX	8.0	/* the quick matrix, in probes */
#define DIAG_SMALL	2.5	/* its sequential and small tests */
#define DIAG_MAX_ARGS	32
#define DIAG_MAX_LEGS	16	/* targets times protocols */
#define DIAG_OUT_MAX	(16 * 1024 * 1024)

/* What diagnose was asked. */
struct diag {
	struct client	*c;
	const char	*target;
	const char	*proto;		/* this leg's: smb3, nfs, local ... */
	double		 budget;
	double		 t0;
	int		 force;
	const char	*html;		/* --html: the page's file */
	const char	*pass[DIAG_MAX_ARGS];	/* bench's protocol options */
	int		 npass;
	json_t		*steps;		/* [{"step", "status", ...}] */
};

/* Seconds left of the budget. */
static double
diag_left(const struct diag *g)
{
	return (g->budget - (nptime_mono() - g->t0));
}

/* Note a step: done, failed or skipped, with why and how long. */
static void
diag_step(struct diag *g, const char *step, const char *status,
    double secs, const char *why)
{
	json_array_append_new(g->steps, json_pack("{s:s,s:s,s:f,s:s?}",
	    "step", step, "status", status, "seconds", secs, "why", why));
	if (!g->c->json)
		fprintf(stderr, "nasperf diagnose: %s %s%s%s (%.0f s)\n", step,
		    status, why != NULL ? ": " : "", why != NULL ? why : "",
		    secs);
}

/*
 * Run nasperf with the daemon's address, --json and args (NULL-ended) as
 * a child, its token in its environment; its standard output as JSON, or
 * NULL.  *rc gets its exit status.
 */
static json_t *
diag_child(struct diag *g, const char *const *args, int *rc)
{
	const char	*av[DIAG_MAX_ARGS + 8];
	char		 hp[300], *buf = NULL;
	size_t		 len = 0, cap = 0;
	ssize_t		 n;
	json_error_t	 jerr;
	json_t		*j;
	pid_t		 pid;
	int		 p[2], st, i, k = 0;

	*rc = 1;
	/* The scheme and the CAs too: the children speak as we do. */
	snprintf(hp, sizeof hp, "%s", g->c->tls ? "https://" : "");
	args_hostport(hp + strlen(hp), sizeof hp - strlen(hp), g->c->host,
	    g->c->port);
	av[k++] = "nasperf";
	av[k++] = "-H";
	av[k++] = hp;
	if (g->c->cacert != NULL) {
		av[k++] = "--cacert";
		av[k++] = g->c->cacert;
	}
	av[k++] = "--json";
	for (i = 0; args[i] != NULL && k < (int)NP_NITEMS(av) - 1; i++)
		av[k++] = args[i];
	av[k] = NULL;
	if (pipe(p) == -1)
		return (NULL);
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return (NULL);
	}
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (g->c->token[0] != '\0')
			setenv("NASPERF_TOKEN", g->c->token, 1);
		execv("/proc/self/exe", (char *const *)av);
		fprintf(stderr, "nasperf diagnose: /proc/self/exe: %s\n",
		    strerror(errno));
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		if (len + 65536 > cap) {
			char *nb;

			if (cap >= DIAG_OUT_MAX || (nb = realloc(buf, cap +
			    65536 + 1)) == NULL)
				break;
			buf = nb;
			cap += 65536;
		}
		if ((n = read(p[0], buf + len, cap - len)) == -1 &&
		    errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(p[0]);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	*rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	j = buf != NULL ? json_loadb(buf, len, 0, &jerr) : NULL;
	free(buf);
	return (j);
}

/* bench over the target with args (tests, sizes) and the protocol options. */
static json_t *
diag_bench(struct diag *g, const char *tests, int *rc)
{
	const char	*av[DIAG_MAX_ARGS + 8];
	int		 k = 0, i;

	av[k++] = "bench";
	av[k++] = "--quick";
	av[k++] = "--label";
	av[k++] = "diagnose";
	if (tests != NULL) {
		av[k++] = "--tests";
		av[k++] = tests;
	}
	for (i = 0; i < g->npass; i++)
		av[k++] = g->pass[i];
	av[k++] = g->target;
	av[k] = NULL;
	return (diag_child(g, av, rc));
}

/* The report of run id, or NULL. */
static json_t *
diag_report(struct diag *g, long id)
{
	char	path[64];

	if (id <= 0)
		return (NULL);
	snprintf(path, sizeof path, "/v1/runs/%ld/report", id);
	return (client_call(g->c, EVHTTP_REQ_GET, path, NULL));
}

/* The report of the first bench row of op that ran, or NULL. */
static json_t *
diag_row_report(struct diag *g, const json_t *bench, const char *op)
{
	const json_t	*r;
	size_t		 i;

	json_array_foreach(json_object_get(bench, "rows"), i, r)
		if (strcmp(show_str(r, "op"), op) == 0 &&
		    json_integer_value(json_object_get(r, "run")) > 0)
			return (diag_report(g, (long)json_integer_value(
			    json_object_get(r, "run"))));
	return (NULL);
}

/* Whether a ceiling is missing, or measured over a day ago. */
static int
diag_stale(const json_t *ceil, const char *basis_word)
{
	const json_t	*m = json_object_get(ceil, "measured");
	const char	*b = json_string_value(json_object_get(ceil, "basis"));

	if (!json_is_number(json_object_get(ceil, "bytes_per_s")))
		return (1);
	if (basis_word != NULL && (b == NULL || strstr(b, basis_word) ==
	    NULL))
		return (1);
	return (json_is_number(m) && nptime_real() - json_number_value(m) >
	    DIAG_STALE_S);
}

/* One line of a test for the page's table, and its JSON. */
static json_t *
diag_test(struct diag *g, const json_t *row)
{
	const json_t	*v = json_object_get(row, "verdict");
	json_t		*rep, *o, *ceil;
	long		 id = (long)json_integer_value(json_object_get(row,
			    "run"));

	o = json_pack("{s:s,s:s,s:s,s:O?,s:O?,s:O?,s:i}", "test",
	    show_str(row, "test"), "op", show_str(row, "op"), "status",
	    show_str(row, "status"), "bytes_per_second", json_object_get(row,
	    "bytes_per_second"), "files_per_second", json_object_get(row,
	    "files_per_second"), "verdict", v, "run", (int)id);
	if (o == NULL || (rep = diag_report(g, id)) == NULL)
		return (o);
	ceil = json_object_get(rep, "ceilings");
	json_object_set(o, "share_of_lower_pct", json_object_get(ceil,
	    "share_of_lower_pct"));
	json_object_set(o, "lower", json_object_get(ceil, "lower"));
	json_object_set(o, "rest", json_object_get(ceil, "rest"));
	json_object_set(o, "hints", json_object_get(rep, "hints"));
	json_decref(rep);
	return (o);
}

/* A ceiling's line: "680.0 MB/s (of /volume1, the disk analyzer, ...)". */
static void
diag_print_ceiling(const char *name, const json_t *c)
{
	const json_t	*m = json_object_get(c, "measured");
	char		 when[32] = "";

	if (!json_is_number(json_object_get(c, "bytes_per_s"))) {
		printf("  %-9s unknown: %s\n", name, show_str(c, "how"));
		return;
	}
	if (json_is_number(m))
		nptime_local(when, sizeof when, "%Y-%m-%d %H:%M",
		    json_number_value(m));
	printf("  %-9s %.1f MB/s (%s, by %s%s%s)\n", name,
	    json_number_value(json_object_get(c, "bytes_per_s")) / 1e6,
	    show_str(c, "of"), show_str(c, "basis"), when[0] != '\0' ?
	    ", " : "", when);
}

/* The page: ceilings, tests, causes, next steps, what was skipped. */
static void
diag_print(const json_t *doc)
{
	const json_t	*t, *v, *x, *c = json_object_get(doc, "ceilings");
	struct table	*tb;
	char		 rate[48];
	size_t		 i, n;

	printf("nasperf diagnose %s (daemon %s, %.0f s of %.0f s)\n\n",
	    show_str(doc, "target"), show_str(doc, "daemon"),
	    json_number_value(json_object_get(doc, "seconds")),
	    json_number_value(json_object_get(doc, "budget_seconds")));
	printf("ceilings (for a read; the write's are in its report)\n");
	diag_print_ceiling("disks", json_object_get(c, "disks"));
	diag_print_ceiling("network", json_object_get(c, "network"));
	if (json_is_string(json_object_get(doc, "ceilings_note")))
		printf("  (%s)\n", show_str(doc, "ceilings_note"));
	if (json_is_string(json_object_get(c, "lower")))
		printf("  the lower ceiling is the %s\n", show_str(c,
		    "lower"));
	if ((tb = table_new("l  r  r  l")) == NULL)
		return;
	table_row(tb, "test", "rate", "of low", "verdict", NULL);
	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		v = json_object_get(t, "verdict");
		diag_rate(rate, sizeof rate, t);
		table_add(tb, "%s", show_str(t, "test"));
		table_add(tb, "%s", rate);
		if (json_is_number(json_object_get(t, "share_of_lower_pct")))
			table_add(tb, "%.0f%%", json_number_value(
			    json_object_get(t, "share_of_lower_pct")));
		else
			table_add(tb, "-");
		table_add(tb, "%s%s%s", json_is_object(v) ? show_str(v,
		    "class") : "-", json_is_object(v) ? ": " : "",
		    json_is_object(v) ? show_str(v, "resource") : "");
		table_end(tb);
	}
	printf("\n");
	table_done(tb, stdout);
	/* Below its lower ceiling, what a test lost the rest to. */
	n = 0;
	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		if (!json_is_object(json_object_get(t, "rest")))
			continue;
		if (n++ == 0)
			printf("\nwhat took the rest of the lower ceiling\n");
		printf("  - %s: %s\n", show_str(t, "test"), show_str(
		    json_object_get(t, "rest"), "text"));
	}
	if (json_array_size(json_object_get(doc, "causes")) > 0)
		printf("\nlikely causes\n");
	json_array_foreach(json_object_get(doc, "causes"), i, x)
		printf("  - %s\n    (%s)\n", show_str(x, "text"), show_str(x,
		    "figure"));
	if (json_array_size(json_object_get(doc, "next")) > 0)
		printf("\nwhat to try next\n");
	json_array_foreach(json_object_get(doc, "next"), i, x)
		printf("  - %s\n", json_string_value(x));
	printf("\nsteps\n");
	json_array_foreach(json_object_get(doc, "steps"), i, x) {
		printf("  - %s %s (%.0f s)", show_str(x, "step"), show_str(x,
		    "status"), json_number_value(json_object_get(x,
		    "seconds")));
		if (json_is_string(json_object_get(x, "why")))
			printf(": %s", show_str(x, "why"));
		printf("\n");
	}
}

/* The causes (each hint kind once) and next steps of the tests. */
static void
diag_conclude(json_t *doc)
{
	json_t		*causes = json_array(), *next = json_array();
	const json_t	*t, *h, *c;
	size_t		 i, j, k;
	int		 seen;

	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		json_array_foreach(json_object_get(t, "hints"), j, h) {
			seen = 0;
			json_array_foreach(causes, k, c)
				seen |= strcmp(show_str(c, "kind"),
				    show_str(h, "kind")) == 0;
			if (!seen)
				json_array_append(causes, (json_t *)h);
		}
		advice_add(next, json_string_value(json_object_get(
		    json_object_get(t, "verdict"), "class")),
		    json_object_get(t, "hints"));
	}
	json_object_set_new(doc, "causes", causes);
	json_object_set_new(doc, "next", next);
}

/* --html FILE: the page, written whole or not at all; -1 when not. */
static int
diag_write_html(const char *path, const json_t *doc)
{
	char	tmp[4096];
	FILE	*f;
	int	 e;

	if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
		client_fail("--html %s: name too long", path);
		return (-1);
	}
	if ((f = fopen(tmp, "w")) == NULL) {
		client_fail("--html %s: %s", path, strerror(errno));
		return (-1);
	}
	e = diag_html(f, doc);
	if (fclose(f) == EOF || e == -1 || rename(tmp, path) == -1) {
		client_fail("--html %s: %s", path, strerror(errno));
		unlink(tmp);
		return (-1);
	}
	return (0);
}

static const struct option diag_longopts[] = {
	{ "budget",		required_argument,	NULL, 'B' },
	{ "force",		no_argument,		NULL, 'f' },
	{ "html",		required_argument,	NULL, 'w' },
	{ "protocols",		required_argument,	NULL, 'P' },
	BENCH_PROTO_LONGOPTS,
	{ NULL,			0,			NULL, 0 }
};

static const struct args_cmd diag_args = {
	"diagnose", "", diag_longopts, 0,
"usage: nasperf diagnose [--budget SECONDS] [--force] [--html FILE]\n"
"                        [--protocols LIST] [--min-protocol P]\n"
"                        [--max-protocol P] [--signing S] [--encrypt E]\n"
"                        [--credentials FILE] [--nfs-version V] TARGET...\n"
"One answer for a share: measures what the verdicts lack (the network\n"
"path with a synthetic test each way, the volume with a short disk test),\n"
"runs the test matrix, and prints the three ceilings, each test's rate\n"
"and verdict, the likely causes and what to try next.  TARGET: a\n"
"directory (a mounted share), smb://[user@]host[:port]/share/path or\n"
"nfs://host/export/path.  With several targets, or --protocols, each is\n"
"diagnosed in turn within the one budget, and a table sets them side by\n"
"side: read, write and small files, each with its verdict.\n"
"\n"
"Options:\n"
"      --budget SECONDS  the time to keep to (30 to 86400, default 300);\n"
"                        steps that would not fit are skipped and said\n"
"      --force           run the disk test while an array resyncs\n"
"      --html FILE       also write the answer as an HTML page to FILE\n"
"      --protocols LIST  each smb:// target at each of smb1, smb2, smb3\n"
"                        and each nfs:// one at each of nfs3, nfs4 named\n"
"                        (comma-separated)\n"
BENCH_PROTO_HELP
};

/* The probe: the share written and read in order, and its read's report. */
static json_t *
diag_probe(struct diag *g, json_t **probe)
{
	json_t	*rep;
	double	 t;
	int	 rc;

	t = nptime_mono();
	*probe = diag_bench(g, "seq", &rc);
	if (*probe == NULL || (rep = diag_row_report(g, *probe, "read")) ==
	    NULL) {
		diag_step(g, "probe", "failed", nptime_mono() - t, rc != 0 ?
		    "bench --tests seq failed (run nasperf bench on the "
		    "target to see why)" : "no read was measured");
		return (NULL);
	}
	diag_step(g, "probe", "done", nptime_mono() - t, NULL);
	return (rep);
}

/* The network path's ceiling from this client: a synthetic test each way. */
static void
diag_network(struct diag *g, const json_t *ceil)
{
	static const char *const av[] = { "synth", "--both", "--time", "4",
	    "--label", "diagnose", NULL };
	json_t	*j;
	double	 t;
	int	 rc;

	if (!diag_stale(json_object_get(ceil, "network"), "synthetic")) {
		diag_step(g, "network", "skipped", 0, "measured already");
		return;
	}
	if (diag_left(g) < DIAG_SYNTH_EST) {
		diag_step(g, "network", "skipped", 0, "it would not fit in "
		    "the budget");
		return;
	}
	t = nptime_mono();
	j = diag_child(g, av, &rc);
	diag_step(g, "network", j != NULL && rc == 0 ? "done" : "failed",
	    nptime_mono() - t, j != NULL && rc == 0 ? NULL : "nasperf synth "
	    "failed (the daemon's data port must be reachable from here)");
	json_decref(j);
}

/* The volume's ceiling: a short disk test of the volume behind the share. */
static void
diag_disks(struct diag *g, const json_t *rep)
{
	const json_t	*ceil = json_object_get(rep, "ceilings");
	const char	*vol = json_string_value(json_object_get(json_array_get(
			    json_object_get(json_object_get(rep, "path"),
			    "volumes"), 0), "mount"));
	const char	*av[16];
	char		 why[256];
	json_t		*j;
	double		 t;
	int		 rc, k = 0;

	if (!diag_stale(json_object_get(ceil, "disks"), NULL)) {
		diag_step(g, "disks", "skipped", 0, "measured already");
		return;
	}
	if (vol == NULL) {
		diag_step(g, "disks", "skipped", 0, "the daemon did not see "
		    "which volume served the share");
		return;
	}
	if (diag_left(g) < DIAG_DISK_EST) {
		diag_step(g, "disks", "skipped", 0, "it would not fit in the "
		    "budget");
		return;
	}
	av[k++] = "disktest";
	av[k++] = "--kind";
	av[k++] = "seq";
	av[k++] = "--seconds";
	av[k++] = "2";
	av[k++] = "--size";
	av[k++] = DIAG_DISK_SIZE;
	if (g->force)
		av[k++] = "--force";
	av[k++] = vol;
	av[k] = NULL;
	t = nptime_mono();
	j = diag_child(g, av, &rc);
	snprintf(why, sizeof why, "the disk test of %s failed or was refused%s",
	    vol, json_is_string(json_object_get(j, "error")) ? ": " : "");
	if (json_is_string(json_object_get(j, "error")))
		snprintf(why + strlen(why), sizeof why - strlen(why), "%s",
		    json_string_value(json_object_get(j, "error")));
	diag_step(g, "disks", rc == 0 ? "done" : "failed", nptime_mono() - t,
	    rc == 0 ? NULL : why);
	json_decref(j);
}

/* {rate key, "test", "verdict": class, "run"} of a test, or null. */
static json_t *
diag_cell(const json_t *t, const char *key)
{
	if (t == NULL)
		return (json_null());
	return (json_pack("{s:O,s:O,s:O?,s:O}", key, json_object_get(t, key),
	    "test", json_object_get(t, "test"), "verdict",
	    json_object_get(json_object_get(t, "verdict"), "class"), "run",
	    json_object_get(t, "run")));
}

/*
 * The field reports' three figures of one page: the first large read and
 * write, and the small-files write (the write with the fewest bytes a
 * file), each with its rate and verdict class; null where it did not run.
 */
static json_t *
diag_cells(const json_t *doc)
{
	const json_t	*t, *read = NULL, *write = NULL, *small = NULL;
	double		 per, least = INFINITY, b, f;
	size_t		 i;
	const char	*op;

	json_array_foreach(json_object_get(doc, "tests"), i, t) {
		op = json_string_value(json_object_get(t, "op"));
		b = json_number_value(json_object_get(t, "bytes_per_second"));
		f = json_number_value(json_object_get(t, "files_per_second"));
		if (op == NULL || !(b > 0))
			continue;
		if (strcmp(op, "read") == 0 && read == NULL)
			read = t;
		if (strcmp(op, "write") != 0)
			continue;
		if (write == NULL)
			write = t;
		if (f > 0 && (per = b / f) < least) {
			least = per;
			small = t;
		}
	}
	if (small == write)
		small = NULL;		/* one size only: no small files */
	return (json_pack("{s:s?,s:s?,s:o,s:o,s:o}", "protocol",
	    json_string_value(json_object_get(doc, "protocol")), "target",
	    json_string_value(json_object_get(doc, "target")), "read",
	    diag_cell(read, "bytes_per_second"), "write", diag_cell(write,
	    "bytes_per_second"), "small_files", diag_cell(small,
	    "files_per_second")));
}

/* The comparison rows of several pages. */
static json_t *
diag_compare(const json_t *docs)
{
	const json_t	*doc;
	json_t		*a = json_array();
	size_t		 i;

	json_array_foreach(docs, i, doc)
		if (json_object_get(doc, "error") == NULL)
			json_array_append_new(a, diag_cells(doc));
	return (a);
}

/* One cell of the comparison table: "652.1 MB/s disk". */
static void
diag_cell_text(char *out, size_t outsz, const json_t *cell, const char *key)
{
	const char	*v = json_string_value(json_object_get(cell,
			    "verdict"));
	double		 x = json_number_value(json_object_get(cell, key));

	if (!json_is_object(cell))
		snprintf(out, outsz, "-");
	else if (strcmp(key, "files_per_second") == 0)
		snprintf(out, outsz, "%.0f files/s %s", x, v != NULL ? v : "");
	else
		snprintf(out, outsz, "%.1f MB/s %s", x / 1e6, v != NULL ? v :
		    "");
}

/* The comparison as the field reports print it, a verdict in each cell. */
static void
diag_print_compare(const json_t *rows)
{
	const json_t	*r;
	struct table	*tb;
	char		 a[64], b[64], c[64];
	size_t		 i;

	if ((tb = table_new("l  l  r  r  r")) == NULL)
		return;
	table_row(tb, "protocol", "target", "read", "write", "small files",
	    NULL);
	json_array_foreach(rows, i, r) {
		diag_cell_text(a, sizeof a, json_object_get(r, "read"),
		    "bytes_per_second");
		diag_cell_text(b, sizeof b, json_object_get(r, "write"),
		    "bytes_per_second");
		diag_cell_text(c, sizeof c, json_object_get(r, "small_files"),
		    "files_per_second");
		table_row(tb, show_str(r, "protocol"), show_str(r, "target"),
		    a, b, c, NULL);
	}
	printf("\n== the protocols side by side (each cell: its rate and its "
	    "verdict)\n\n");
	table_done(tb, stdout);
}

/* One target at one protocol: its page, or NULL when its probe failed. */
static json_t *
diag_one(struct diag *g, int *rc)
{
	json_t		*probe = NULL, *bench = NULL, *rep, *doc, *tests, *t;
	const json_t	*row;
	const char	*what;
	char		 hp[300];
	double		 left, ts, t1;
	size_t		 i;
	int		 stale = 0;

	*rc = 1;
	if ((g->steps = json_array()) == NULL) {
		client_fail("out of memory");
		return (NULL);
	}
	/* 1. What is known: the share written and read once. */
	if ((rep = diag_probe(g, &probe)) == NULL) {
		json_decref(g->steps);
		json_decref(probe);
		return (NULL);
	}
	ts = json_number_value(json_object_get(json_array_get(g->steps, 0),
	    "seconds"));
	/* 2, 3. What the ceilings lack. */
	diag_network(g, json_object_get(rep, "ceilings"));
	diag_disks(g, rep);
	json_decref(rep);
	/*
	 * 4. The matrix, as much of it as the budget takes: the whole quick
	 * matrix takes some eight times the probe, its sequential and small
	 * tests some two and a half.
	 */
	*rc = 0;
	left = diag_left(g);
	what = left >= DIAG_MATRIX * ts ? NULL : left >= DIAG_SMALL * ts ?
	    "seq,small" : left >= ts ? "seq" : "";
	if (what == NULL || *what != '\0') {
		t1 = nptime_mono();
		bench = diag_bench(g, what, rc);
		diag_step(g, "matrix", bench == NULL ? "failed" : what !=
		    NULL ? "cut" : "done", nptime_mono() - t1, bench == NULL ?
		    "nasperf bench failed" : what != NULL ? "the budget kept "
		    "only some of its tests" : NULL);
	} else
		diag_step(g, "matrix", "skipped", 0, "it would not fit in "
		    "the budget; the probe's tests stand for it");
	/*
	 * Without the matrix, the probe's reports stand for it: made before
	 * the measuring, their ceilings are those known then.
	 */
	if (bench == NULL) {
		bench = probe;
		probe = NULL;
		stale = 1;
	}

	/* The page. */
	snprintf(hp, sizeof hp, "%s:%u", g->c->host, g->c->port);
	doc = json_pack("{s:s,s:s?,s:s,s:f,s:f,s:O,s:o}", "target",
	    g->target, "protocol", g->proto, "daemon", hp, "budget_seconds",
	    g->budget, "seconds", nptime_mono() - g->t0, "steps", g->steps,
	    "tests", tests = json_array());
	json_array_foreach(json_object_get(bench, "rows"), i, row)
		if ((t = diag_test(g, row)) != NULL)
			json_array_append_new(tests, t);
	/* The ceilings as the matrix's read saw them, after the measuring. */
	if ((rep = diag_row_report(g, bench, "read")) != NULL) {
		json_object_set(doc, "ceilings", json_object_get(rep,
		    "ceilings"));
		json_decref(rep);
	}
	if (stale)
		json_object_set_new(doc, "ceilings_note", json_string("the "
		    "ceilings are those known before this diagnose measured: "
		    "run it again to see them with its measures"));
	diag_conclude(doc);
	json_decref(bench);
	json_decref(probe);
	json_decref(g->steps);
	g->steps = NULL;
	return (doc);
}

/* A protocol of --protocols, and the bench options that hold to it. */
static const struct diag_proto {
	const char	*name;
	const char	*scheme;	/* of the targets it applies to */
	const char	*opts[5];
} diag_protos[] = {
	{ "smb1", "smb://", { "--min-protocol", "NT1", "--max-protocol",
	    "NT1", NULL } },
	{ "smb2", "smb://", { "--min-protocol", "SMB2", "--max-protocol",
	    "SMB2", NULL } },
	{ "smb3", "smb://", { "--min-protocol", "SMB3", "--max-protocol",
	    "SMB3", NULL } },
	{ "nfs3", "nfs://", { "--nfs-version", "3", NULL } },
	{ "nfs4", "nfs://", { "--nfs-version", "4", NULL } },
};

/* One target at one protocol (NULL: as bench connects by default). */
struct diag_leg {
	const char		*target;
	const struct diag_proto	*proto;
};

/*
 * --protocols: the known names into order (indexes of diag_protos, in the
 * order given, each once), their number into *n; -1 with a message.
 */
static int
diag_protocols(const char *list, size_t *order, size_t *n)
{
	char	 buf[128], *p, *save = NULL;
	size_t	 i, k;

	*n = 0;
	if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf) {
		args_fail("--protocols: too long");
		return (-1);
	}
	for (p = strtok_r(buf, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NP_NITEMS(diag_protos); i++)
			if (strcmp(p, diag_protos[i].name) == 0)
				break;
		if (i == NP_NITEMS(diag_protos)) {
			args_fail("--protocols: '%s' is not one of smb1, smb2, "
			    "smb3, nfs3, nfs4", p);
			return (-1);
		}
		for (k = 0; k < *n && order[k] != i; k++)
			;
		if (k == *n)
			order[(*n)++] = i;
	}
	return (0);
}

/*
 * The legs: each target at each protocol of --protocols (order, nwant of
 * them) that fits it, in the order given.
 */
static size_t
diag_legs(char **targets, int ntargets, const size_t *order, size_t nwant,
    struct diag_leg *legs, size_t max)
{
	const struct diag_proto	*pr;
	const char		*scheme;
	size_t			 n = 0, i, before;
	int			 k;

	for (k = 0; k < ntargets && n < max; k++) {
		scheme = strncmp(targets[k], "smb://", 6) == 0 ? "smb://" :
		    strncmp(targets[k], "nfs://", 6) == 0 ? "nfs://" : "";
		before = n;
		for (i = 0; i < nwant && n < max; i++) {
			pr = &diag_protos[order[i]];
			if (strcmp(pr->scheme, scheme) == 0) {
				legs[n].target = targets[k];
				legs[n++].proto = pr;
			}
		}
		if (n == before) {
			legs[n].target = targets[k];
			legs[n++].proto = NULL;
		}
	}
	return (n);
}

/* nasperf diagnose [options] TARGET... */
int
cmd_diagnose(struct client *c, int argc, char **argv)
{
	struct diag	 g;
	struct diag_leg	 legs[DIAG_MAX_LEGS];
	json_t		*docs, *doc, *out;
	char		*end;
	double		 total, t0;
	size_t		 i, nlegs;
	int		 ch, rc = 0, lrc, npass, k;
	size_t		 order[NP_NITEMS(diag_protos)], nwant = 0;

	memset(&g, 0, sizeof g);
	g.c = c;
	g.budget = DIAG_BUDGET;
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &diag_args)) != -1) {
		switch (ch) {
		case 'B':
			g.budget = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(g.budget >= 30) ||
			    g.budget > 86400) {
				client_fail("--budget: expected seconds from 30 "
				    "to 86400");
				return (2);
			}
			break;
		case 'f':
			g.force = 1;
			break;
		case 'w':
			g.html = optarg;
			break;
		case 'P':
			if (diag_protocols(optarg, order, &nwant) == -1)
				return (2);
			break;
		case 'm': case 'M': case 'S': case 'e': case 'A': case 'n':
			if (g.npass + 2 > DIAG_MAX_ARGS - 8)
				return (client_fail("too many options") + 1);
			g.pass[g.npass++] = ch == 'm' ? "--min-protocol" :
			    ch == 'M' ? "--max-protocol" : ch == 'S' ?
			    "--signing" : ch == 'e' ? "--encrypt" : ch == 'A' ?
			    "--credentials" : "--nfs-version";
			g.pass[g.npass++] = optarg;
			break;
		default:
			return (args_exit(ch));
		}
	}
	if (optind >= argc) {
		client_fail("expected a TARGET");
		args_usage(stderr);
		return (2);
	}
	nlegs = diag_legs(argv + optind, argc - optind, order, nwant, legs,
	    NP_NITEMS(legs));
	if ((docs = json_array()) == NULL)
		return (client_fail("out of memory"));
	/* The budget is shared: each leg gets its part of what is left. */
	total = g.budget;
	t0 = nptime_mono();
	npass = g.npass;
	for (i = 0; i < nlegs; i++) {
		g.target = legs[i].target;
		g.proto = legs[i].proto != NULL ? legs[i].proto->name :
		    strncmp(g.target, "smb://", 6) == 0 ? "smb" :
		    strncmp(g.target, "nfs://", 6) == 0 ? "nfs" : "local";
		g.npass = npass;
		for (k = 0; legs[i].proto != NULL &&
		    legs[i].proto->opts[k] != NULL; k++)
			g.pass[g.npass++] = legs[i].proto->opts[k];
		g.t0 = nptime_mono();
		g.budget = (total - (g.t0 - t0)) / (double)(nlegs - i);
		if (nlegs > 1 && !c->json)
			fprintf(stderr, "nasperf diagnose: %s%s%s, %.0f s\n",
			    g.proto != NULL ? g.proto : "", g.proto != NULL ?
			    " over " : "", g.target, g.budget);
		if ((doc = diag_one(&g, &lrc)) == NULL) {
			rc = 1;
			doc = json_pack("{s:s,s:s?,s:s}", "target", g.target,
			    "protocol", g.proto, "error", "its probe failed: "
			    "run nasperf bench on it to see why");
		}
		if (lrc != 0)
			rc = 1;
		json_array_append_new(docs, doc);
	}
	g.budget = total;
	if (nlegs == 1 && json_object_get(json_array_get(docs, 0), "error") !=
	    NULL) {
		json_decref(docs);
		return (1);
	}
	if (nlegs == 1)
		out = json_incref(json_array_get(docs, 0));
	else
		out = json_pack("{s:o,s:O}", "comparison", diag_compare(docs),
		    "diagnoses", docs);
	if (g.html != NULL && diag_write_html(g.html, out) == -1)
		rc = 1;
	if (c->json)
		client_print_json(out, CLIENT_JSON);
	else if (nlegs == 1)
		diag_print(out);
	else {
		json_array_foreach(docs, i, doc) {
			if (json_object_get(doc, "error") != NULL)
				continue;
			printf("%s== %s%s%s\n\n", i > 0 ? "\n" : "",
			    json_string_value(json_object_get(doc, "protocol")) ?
			    json_string_value(json_object_get(doc, "protocol")) :
			    "", json_object_get(doc, "protocol") != NULL ?
			    " over " : "", json_string_value(json_object_get(doc,
			    "target")));
			diag_print(doc);
		}
		diag_print_compare(json_object_get(out, "comparison"));
	}
	json_decref(out);
	json_decref(docs);
	return (rc != 0 ? 1 : 0);
}
