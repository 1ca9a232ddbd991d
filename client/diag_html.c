/*
 * diag_html.c: nasperf diagnose's answer as one HTML page, to keep or to
 * send: the ceilings, each test's rate against the lower one with its
 * verdict, the likely causes, what to try next and each step taken.  It
 * wears the run report's style sheet (common/report.css), has no script,
 * and every string from the document goes out escaped.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "client.h"
#include "jsonget.h"
#include "nptime.h"
#include "probe.h"
#include "show.h"

extern const char	report_css[];

/* A test's rate for the tables: MB/s, files/s or its status. */
void
diag_rate(char *out, size_t outsz, const json_t *t)
{
	const char	*op = json_string_value(json_object_get(t, "op"));

	if (json_is_number(json_object_get(t, "bytes_per_second")) &&
	    (op == NULL || strcmp(op, "list") != 0))
		snprintf(out, outsz, "%.1f MB/s", json_number_value(
		    json_object_get(t, "bytes_per_second")) / 1e6);
	else if (json_is_number(json_object_get(t, "files_per_second")))
		snprintf(out, outsz, "%.0f files/s", json_number_value(
		    json_object_get(t, "files_per_second")));
	else
		snprintf(out, outsz, "%s", show_str(t, "status"));
}

/* A table cell holding s escaped, with its label for narrow screens. */
static void
dh_td(FILE *f, const char *label, const char *cls, const char *s)
{
	fprintf(f, "<td data-l=\"%s\"%s%s%s>", label, cls != NULL ?
	    " class=\"" : "", cls != NULL ? cls : "", cls != NULL ? "\"" : "");
	probe_html_esc(f, s != NULL ? s : "-");
	fputs("</td>", f);
}

/* A bar of pct (0 to 100) in the colour of the verdict class cls. */
static void
dh_bar(FILE *f, double pct, const char *cls)
{
	if (!isfinite(pct))
		return;
	fprintf(f, "<span class=\"bar c-%s\"><i style=\"width:%.0f%%\">"
	    "</i></span>", cls, pct < 0 ? 0 : pct > 100 ? 100 : pct);
}

/* A verdict's class c as a class name: one of ours or "unknown". */
static const char *
dh_class(const char *c)
{
	static const char *const known[] = { "disk", "network", "cpu",
	    "contention", "cache", "latency", "client" };
	size_t		 i;

	for (i = 0; c != NULL && i < sizeof known / sizeof known[0]; i++)
		if (strcmp(c, known[i]) == 0)
			return (known[i]);
	return ("unknown");
}

static void
dh_ceiling(FILE *f, const char *name, const json_t *c, const char *lower)
{
	const json_t	*m = json_object_get(c, "measured");
	char		 buf[64], when[32] = "";

	fputs("<tr>", f);
	snprintf(buf, sizeof buf, "%s%s", name, lower != NULL &&
	    strcmp(lower, name) == 0 ? " (the lower)" : "");
	dh_td(f, "ceiling", NULL, buf);
	if (!json_is_number(json_object_get(c, "bytes_per_s"))) {
		dh_td(f, "rate", "n", "unknown");
		dh_td(f, "how", "d", jget_str(c, "how"));
		fputs("<td></td></tr>\n", f);
		return;
	}
	snprintf(buf, sizeof buf, "%.1f MB/s", json_number_value(
	    json_object_get(c, "bytes_per_s")) / 1e6);
	dh_td(f, "rate", "n", buf);
	dh_td(f, "basis", "d", jget_str(c, "basis"));
	if (json_is_number(m))
		nptime_local(when, sizeof when, "%Y-%m-%d %H:%M",
		    json_number_value(m));
	dh_td(f, "measured", NULL, when[0] != '\0' ? when : NULL);
	fputs("</tr>\n", f);
}

static void
dh_tests(FILE *f, const json_t *tests, const char *h)
{
	const json_t	*t, *v;
	const char	*cls;
	char		 rate[48], run[24];
	double		 share;
	size_t		 i;

	fprintf(f, "<%s>Tests</%s>\n<div class=\"tw\"><table><thead><tr>"
	    "<th>test</th><th>rate</th><th>of the lower ceiling</th>"
	    "<th>verdict</th><th>run</th></tr></thead><tbody>\n", h, h);
	json_array_foreach(tests, i, t) {
		v = json_object_get(t, "verdict");
		cls = dh_class(jget_str(v, "class"));
		diag_rate(rate, sizeof rate, t);
		fprintf(f, "<tr class=\"c-%s\">", cls);
		dh_td(f, "test", NULL, jget_str(t, "test"));
		dh_td(f, "rate", "n", rate);
		share = json_is_number(json_object_get(t, "share_of_lower_pct")) ?
		    json_number_value(json_object_get(t, "share_of_lower_pct")) :
		    NAN;
		fputs("<td data-l=\"of the lower ceiling\" class=\"n\">", f);
		if (isfinite(share)) {
			fprintf(f, "%.0f %%", share);
			dh_bar(f, share, cls);
		} else
			fputs("-", f);
		fputs("</td><td data-l=\"verdict\" class=\"d\">", f);
		if (json_is_object(v)) {
			fprintf(f, "<span class=\"tag\">%s</span> ", cls);
			probe_html_esc(f, jget_str(v, "summary"));
		} else
			fputs("-", f);
		/* Below its lower ceiling: what took the rest. */
		if (json_is_object(json_object_get(t, "rest"))) {
			fputs("<br>the rest of the lower ceiling: taken by ", f);
			probe_html_esc(f, jget_str(json_object_get(t, "rest"),
			    "text"));
		}
		fputs("</td>", f);
		snprintf(run, sizeof run, "%lld", (long long)json_integer_value(
		    json_object_get(t, "run")));
		dh_td(f, "run", "n", json_integer_value(json_object_get(t,
		    "run")) > 0 ? run : NULL);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* The <head> and the page's title. */
static void
dh_head(FILE *f, const char *title)
{
	fputs("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width,"
	    "initial-scale=1\"><title>nasperf diagnose ", f);
	probe_html_esc(f, title);
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>", report_css);
	probe_html_esc(f, title);
	fputs("</h1>\n", f);
}

/*
 * One target's page under a heading of its own (h: "h2", its sections
 * "h3") or as the page itself (h: "h1" already written, sections "h2").
 */
static void
dh_body(FILE *f, const json_t *doc, int sub)
{
	const json_t	*c = json_object_get(doc, "ceilings"), *x;
	const char	*lower = jget_str(c, "lower"), *h = sub ? "h3" : "h2";
	char		 buf[64];
	size_t		 i;

	if (sub) {
		fputs("<h2>", f);
		if (jget_str(doc, "protocol") != NULL) {
			probe_html_esc(f, jget_str(doc, "protocol"));
			fputs(" over ", f);
		}
		probe_html_esc(f, jget_str(doc, "target"));
		fputs("</h2>\n", f);
	}
	if (jget_str(doc, "error") != NULL) {
		fputs("<p class=\"none\">", f);
		probe_html_esc(f, jget_str(doc, "error"));
		fputs("</p>\n", f);
		return;
	}
	fputs("<p class=\"sub\">nasperf diagnose, daemon ", f);
	probe_html_esc(f, jget_str(doc, "daemon"));
	fprintf(f, ", %.0f s of a budget of %.0f s</p>\n",
	    json_number_value(json_object_get(doc, "seconds")),
	    json_number_value(json_object_get(doc, "budget_seconds")));

	fprintf(f, "<%s>Ceilings</%s>\n<p class=\"sub\">For a read; the "
	    "write's are in its report.</p>\n<div class=\"tw\"><table><thead>"
	    "<tr><th>ceiling</th><th>rate</th><th>by</th><th>measured</th>"
	    "</tr></thead><tbody>\n", h, h);
	dh_ceiling(f, "disks", json_object_get(c, "disks"), lower);
	dh_ceiling(f, "network", json_object_get(c, "network"), lower);
	fputs("</tbody></table></div>\n", f);
	if (json_is_number(json_object_get(c, "share_of_lower_pct"))) {
		snprintf(buf, sizeof buf, "%.0f", json_number_value(
		    json_object_get(c, "share_of_lower_pct")));
		fprintf(f, "<p>The read reached %s %% of the lower ceiling, "
		    "the ", buf);
		probe_html_esc(f, lower);
		fputs(".</p>\n", f);
	}
	if (jget_str(doc, "ceilings_note") != NULL) {
		fputs("<p class=\"more\">", f);
		probe_html_esc(f, jget_str(doc, "ceilings_note"));
		fputs("</p>\n", f);
	}
	dh_tests(f, json_object_get(doc, "tests"), h);

	if (json_array_size(json_object_get(doc, "causes")) > 0) {
		fprintf(f, "<%s>Likely causes</%s>\n<ul class=\"obs\">\n", h,
		    h);
		json_array_foreach(json_object_get(doc, "causes"), i, x) {
			fputs("<li>", f);
			probe_html_esc(f, jget_str(x, "text"));
			if (jget_str(x, "figure") != NULL) {
				fputs(" <span class=\"more\">(", f);
				probe_html_esc(f, jget_str(x, "figure"));
				fputs(")</span>", f);
			}
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (json_array_size(json_object_get(doc, "next")) > 0) {
		fprintf(f, "<%s>What to try next</%s>\n<ul class=\"obs\">\n",
		    h, h);
		json_array_foreach(json_object_get(doc, "next"), i, x) {
			fputs("<li>", f);
			probe_html_esc(f, json_string_value(x));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}

	fprintf(f, "<%s>Steps</%s>\n<div class=\"tw\"><table><thead><tr>"
	    "<th>step</th><th>status</th><th>seconds</th><th>why</th></tr>"
	    "</thead><tbody>\n", h, h);
	json_array_foreach(json_object_get(doc, "steps"), i, x) {
		fputs("<tr>", f);
		dh_td(f, "step", NULL, jget_str(x, "step"));
		dh_td(f, "status", NULL, jget_str(x, "status"));
		snprintf(buf, sizeof buf, "%.1f", json_number_value(
		    json_object_get(x, "seconds")));
		dh_td(f, "seconds", "n", buf);
		dh_td(f, "why", "d", jget_str(x, "why"));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* One cell of the comparison: the rate, and the verdict's tag. */
static void
dh_cell(FILE *f, const char *label, const json_t *cell, int files)
{
	const char	*cls;
	double		 x;

	fprintf(f, "<td data-l=\"%s\" class=\"n\">", label);
	if (!json_is_object(cell)) {
		fputs("-</td>", f);
		return;
	}
	x = json_number_value(json_object_get(cell, files ?
	    "files_per_second" : "bytes_per_second"));
	if (files)
		fprintf(f, "%.0f files/s", x);
	else
		fprintf(f, "%.1f MB/s", x / 1e6);
	cls = dh_class(jget_str(cell, "verdict"));
	fprintf(f, " <span class=\"tag c-%s\">%s</span></td>", cls, cls);
}

int
diag_html(FILE *f, const json_t *doc)
{
	const json_t	*docs = json_object_get(doc, "diagnoses"), *r, *d;
	char		 title[64];
	size_t		 i;

	if (docs == NULL) {
		dh_head(f, jget_str(doc, "target"));
		dh_body(f, doc, 0);
	} else {
		snprintf(title, sizeof title, "%zu targets side by side",
		    json_array_size(docs));
		dh_head(f, title);
		fputs("<h2>The protocols side by side</h2>\n<div class=\"tw\">"
		    "<table><thead><tr><th>protocol</th><th>target</th>"
		    "<th>read</th><th>write</th><th>small files</th></tr>"
		    "</thead><tbody>\n", f);
		json_array_foreach(json_object_get(doc, "comparison"), i, r) {
			fputs("<tr>", f);
			dh_td(f, "protocol", NULL, jget_str(r, "protocol"));
			dh_td(f, "target", "d", jget_str(r, "target"));
			dh_cell(f, "read", json_object_get(r, "read"), 0);
			dh_cell(f, "write", json_object_get(r, "write"), 0);
			dh_cell(f, "small files", json_object_get(r,
			    "small_files"), 1);
			fputs("</tr>\n", f);
		}
		fputs("</tbody></table></div>\n", f);
		json_array_foreach(docs, i, d)
			dh_body(f, d, 1);
	}
	fputs("<footer>Each test's run has its own report: nasperf report ID "
	    "--html FILE.</footer>\n</body></html>\n", f);
	return (ferror(f) ? -1 : 0);
}
