/*
 * report_text.c: a run report as plain text, every string from the report
 * with its control characters escaped.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "advice.h"
#include "jsonget.h"
#include "np.h"
#include "nptime.h"
#include "probe.h"
#include "report_text.h"
#include "table.h"
#include "verdict.h"

#define RT_RING		8		/* strings alive at once */
#define RT_STRMAX	2048		/* bytes of one, escaped */
#define RT_TIME		"%Y-%m-%d %H:%M:%S"	/* the window's ends */

/*
 * A string member of o with its control characters escaped, or "-".  The
 * result lives until RT_RING more calls: enough for one line's arguments.
 */
static const char *
rt_str(const json_t *o, const char *key)
{
	static char	 ring[RT_RING][RT_STRMAX];
	static unsigned	 next;
	const char	*s = json_string_value(json_object_get(o, key));

	if (s == NULL)
		return ("-");
	return (probe_escape_ctl(ring[next++ % RT_RING], s, RT_STRMAX));
}

/* The run, its window and the client's figure. */
static void
rt_run(const json_t *rep, FILE *f)
{
	static const char *const said[] = { "protocol", "op" };
	const json_t	*run = json_object_get(rep, "run");
	const json_t	*win = json_object_get(rep, "window");
	const json_t	*o, *v;
	char		 t0[32], t1[32], mb[32];
	size_t		 i, n = 0;
	double		 cr;

	fprintf(f, "run %s", rt_str(run, "id"));
	if (json_is_string(json_object_get(run, "label")))
		fprintf(f, " \"%s\"", rt_str(run, "label"));
	/* What the client did not say is left out. */
	for (i = 0; i < NP_NITEMS(said); i++)
		if (json_is_string(json_object_get(run, said[i])))
			fprintf(f, "%s %s", n++ == 0 ? ":" : "",
			    rt_str(run, said[i]));
	if (json_is_string(json_object_get(run, "client")))
		fprintf(f, " from %s", rt_str(run, "client"));
	fprintf(f, "\n");
	nptime_local(t0, sizeof t0, RT_TIME, jget_num(win, "start"));
	nptime_local(t1, sizeof t1, RT_TIME, jget_num(win, "end"));
	fprintf(f, "window   %s to %s (%.1f s, %lld samples)\n", t0, t1 + 11,
	    jget_num(win, "seconds"),
	    json_integer_value(json_object_get(win, "samples")));
	json_array_foreach(json_object_get(win, "gaps"), i, o)
		fprintf(f, "         not sampling for %.0f s in it (the "
		    "daemon was down)\n", jget_num(o, "seconds"));
	if (json_is_string(json_object_get(rep, "history_note")))
		fprintf(f, "         %s\n", rt_str(rep, "history_note"));
	if (json_is_number(v = json_object_get(rep, "client_rate"))) {
		cr = json_number_value(v);
		verdict_mbs(mb, sizeof mb, cr);
		fprintf(f, "client   %.1f MB in %.2f s = %s (%.0f Mb/s)\n",
		    jget_num(run, "bytes") / 1e6,
		    json_is_number(json_object_get(run, "client_seconds")) ?
		    jget_num(run, "client_seconds") : jget_num(win, "seconds"), mb,
		    cr * 8 / 1e6);
	}
	if (json_is_true(json_object_get(run, "interrupted")))
		fprintf(f, "         interrupted: the client stopped it before "
		    "it finished; the figures are what it moved until then\n");
}

/*
 * The verdict, the observations, the likely causes and what to try next.
 * -1 (ENOMEM) when the advice could not be put together.
 */
static int
rt_verdict(const json_t *rep, FILE *f)
{
	const json_t	*ver = json_object_get(rep, "verdict");
	const json_t	*a, *o;
	json_t		*next;
	size_t		 i;

	fprintf(f, "\nverdict  %s: %s\n", rt_str(ver, "class"),
	    rt_str(ver, "resource"));
	fprintf(f, "         %s\n", rt_str(ver, "summary"));
	if (json_is_number(json_object_get(ver, "utilisation_pct")))
		fprintf(f, "         utilisation %.1f %%, headroom %.1f %%, ",
		    jget_num(ver, "utilisation_pct"), jget_num(ver,
		    "headroom_pct"));
	else
		fprintf(f, "         ");
	fprintf(f, "confidence %s\n", rt_str(ver, "confidence"));
	a = json_object_get(rep, "observations");
	if (json_array_size(a) > 0)
		fprintf(f, "\nalso\n");
	json_array_foreach(a, i, o)
		fprintf(f, "  - %s\n", rt_str(o, "text"));
	a = json_object_get(rep, "hints");
	if (json_array_size(a) > 0)
		fprintf(f, "\nlikely cause\n");
	json_array_foreach(a, i, o)
		fprintf(f, "  - %s\n    (%s)\n", rt_str(o, "text"),
		    rt_str(o, "figure"));
	if ((next = json_array()) == NULL || advice_add(next,
	    json_string_value(json_object_get(ver, "class")), a) == -1) {
		json_decref(next);
		return (-1);
	}
	if (json_array_size(next) > 0)
		fprintf(f, "\nwhat to try next\n");
	json_array_foreach(next, i, o)
		fprintf(f, "  - %s\n", json_string_value(o));
	json_decref(next);
	return (0);
}

/* One ceiling's line: its rate, of what, by what and when; or how. */
static void
rt_ceiling(FILE *f, const char *name, const json_t *c, const char *dir)
{
	const char	*of;
	char		 mb[32], t[32];

	if (!json_is_number(json_object_get(c, "bytes_per_s"))) {
		fprintf(f, "         %-8s unmeasured: %s\n", name,
		    rt_str(c, "how"));
		return;
	}
	verdict_mbs(mb, sizeof mb, jget_num(c, "bytes_per_s"));
	/* "of" is "" where the run's interface is not known. */
	of = json_string_value(json_object_get(c, "of"));
	fprintf(f, "         %-8s %s%s, %s%sby %s", name, mb, dir,
	    of != NULL && *of != '\0' ? rt_str(c, "of") : "", of != NULL &&
	    *of != '\0' ? " " : "", rt_str(c, "basis"));
	if (json_is_number(json_object_get(c, "measured")))
		fprintf(f, ", %s", nptime_local(t, sizeof t, RT_TIME,
		    jget_num(c, "measured")));
	fprintf(f, "\n");
}

/*
 * The three ceilings: the disks', the network's, and what the transfer
 * got of the lower one.
 */
static void
rt_ceilings(const json_t *rep, FILE *f)
{
	const json_t	*c = json_object_get(rep, "ceilings");
	const char	*op = json_string_value(json_object_get(
			    json_object_get(rep, "run"), "op"));
	char		 mb[32];

	if (!json_is_object(c))
		return;
	fprintf(f, "\nceilings\n");
	rt_ceiling(f, "disks", json_object_get(c, "disks"), op != NULL &&
	    strcmp(op, "write") == 0 ? " write" : op != NULL &&
	    strcmp(op, "read") == 0 ? " read" : "");
	rt_ceiling(f, "network", json_object_get(c, "network"), "");
	if (!json_is_number(json_object_get(c, "transfer_bytes_per_s")))
		return;
	verdict_mbs(mb, sizeof mb, jget_num(c, "transfer_bytes_per_s"));
	fprintf(f, "         %-8s %s", "transfer", mb);
	if (json_is_number(json_object_get(c, "share_of_lower_pct")))
		fprintf(f, ": %.0f %% of the lower ceiling, the %s%s",
		    jget_num(c, "share_of_lower_pct"), rt_str(c, "lower"),
		    strcmp(rt_str(c, "lower"), "disks") == 0 ? "'" : "'s");
	fprintf(f, "\n");
	if (json_is_object(json_object_get(c, "rest")))
		fprintf(f, "         %-8s taken by %s\n", "the rest",
		    rt_str(json_object_get(c, "rest"), "text"));
}

/* The SMB session, the path, and the evidence as a table. */
static void
rt_evidence(const json_t *rep, FILE *f)
{
	const json_t	*a, *o, *v;
	struct table	*t;
	size_t		 i;

	o = json_object_get(rep, "session");
	if (json_is_object(o))
		fprintf(f, "\nsession  smbd pid %lld for %s, %s, signing %s, "
		    "encryption %s\n", json_integer_value(json_object_get(o,
		    "pid")), rt_str(o, "address"), rt_str(o, "dialect"),
		    rt_str(json_object_get(o, "signing"), "degree"),
		    rt_str(json_object_get(o, "encryption"), "degree"));
	o = json_object_get(rep, "path");
	if (json_is_true(json_object_get(o, "observed")))
		fprintf(f, "\npath     %s\n", rt_str(o, "summary"));
	a = json_object_get(rep, "evidence");
	if (json_array_size(a) == 0 || (t = table_new("l  l  l  r  l")) == NULL)
		return;
	table_row(t, "CLASS", "RESOURCE", "METRIC", "UTIL", "DETAIL", NULL);
	json_array_foreach(a, i, o) {
		v = json_object_get(o, "utilisation_pct");
		table_add(t, "%s", rt_str(o, "class"));
		table_add(t, "%s", rt_str(o, "resource"));
		table_add(t, "%s", rt_str(o, "metric"));
		if (json_is_number(v))
			table_add(t, "%.1f%%", json_number_value(v));
		else
			table_add(t, "-");
		table_add(t, "%s", rt_str(o, "detail"));
		table_end(t);
	}
	fputc('\n', f);
	table_done(t, f);
}

/* Write the report as text; see report_text.h. */
int
report_text_write(const json_t *rep, FILE *f)
{
	rt_run(rep, f);
	if (rt_verdict(rep, f) == -1)
		return (-1);
	rt_ceilings(rep, f);
	rt_evidence(rep, f);
	if (ferror(f)) {
		errno = EIO;
		return (-1);
	}
	return (0);
}
