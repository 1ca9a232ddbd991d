/*
 * report_html.c: a run report as an HTML page with inline SVG charts.
 *
 * The page reads top to bottom as a reviewer would cite it: what ran, the
 * verdict, the likely cause and what to try next, the findings, the
 * evidence table, then the charts.  Every chart
 * is a <figure> holding one <svg> that stretches to the width of its
 * column at a fixed height, its axes' labels and legend HTML around it, so
 * that it fills the page on a wide screen, a phone and paper with its text
 * at one size; a chart alone in its row spans the page.  A null in a
 * series lifts the pen (the line breaks, it does not drop to zero) and the
 * window's gaps are shaded.  Arrays of many members and boxes of many
 * cores become small multiples with a limit, the rest named in an "and N
 * more" line.
 *
 * Strings from the report go out only through html_esc(); class and kind
 * names pick CSS classes from fixed tables, never by pasting.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "advice.h"
#include "jsonget.h"
#include "probe.h"
#include "report_html.h"

/* The page's style sheet: common/report.css, embedded at build time. */
extern const char report_css[];

#define HTML_MAX_NICS		8	/* NIC charts; the rest are named */
#define HTML_MAX_MEMBERS	16	/* member cards under one array */
#define HTML_MAX_DISKS		16	/* cards of disks outside any array */
#define HTML_MAX_CPUS		16	/* per-core charts: the busiest */
#define HTML_MAX_GROUPS		6	/* lines on the process group chart */
#define HTML_MAX_LINES		8	/* lines on one chart */
#define HTML_MAX_LARGE		2	/* disks or cores drawn large */

/* A plot's box in SVG units, stretched to its column: no aspect kept. */
#define HTML_PW			1000
#define HTML_PH			200
#define HTML_TICK		8	/* an x tick, below the axis */

#define HTML_MB			1e6	/* bytes in a MB: MB/s is 10^6 B/s */
#define HTML_MIN_MBS		1	/* MB/s: idle noise stays near 0 */

/* Okabe-Ito colours, told apart with the common colour blindnesses. */
static const char *html_colours[HTML_MAX_LINES] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
	"#000000", "#8c564b"
};
#define HTML_GREY		"#888888"	/* capacities */
#define HTML_DARK		"#444444"	/* the network's ceiling */

/* The verdict and finding classes: CSS class and headline. */
static const struct {
	const char	*name;
	const char	*headline;
} html_classes[] = {
	{ "disk", "Disk-bound" },
	{ "network", "Network-bound" },
	{ "cpu", "CPU-bound" },
	{ "contention", "Contention" },
	{ "cache", "Cache-bound" },
	{ "latency", "Latency-bound" },
	{ "client", "Client-bound" },
	{ "unknown", "No verdict" }
};

struct html {
	FILE		*out;
	const json_t	*t;		/* series.t: seconds from the start */
	size_t		 n;		/* samples */
	double		 xmax;		/* seconds: the end of the x axis */
	double		 wstart;	/* window.start, Unix seconds */
	const json_t	*gaps;		/* window.gaps */
	const json_t	*run;		/* the report's run */
	const char	*nic_name;	/* path.interface, or NULL */
	const json_t	*nic;		/* its series, or NULL */
	const json_t	*ceiling;	/* ceilings.network, or NULL */
};

struct html_line {
	const char	*label;		/* borrowed; escaped on output */
	const json_t	*v;		/* the values, or NULL for constant k */
	double		 k;
	double		 scale;		/* applied to every value */
	const char	*colour;
	int		 dashed;	/* a capacity */
	int		 average;	/* values all one average: dotted */
};

struct html_chart {
	const char	*name;		/* from the report, or NULL; escaped */
	const char	*what;		/* fixed text after the name */
	const char	*unit;		/* of the y axis: "MB/s", "%" */
	double		 ymax;		/* the y axis reaches at least this */
	int		 small;		/* a small multiple */
	struct html_line l[HTML_MAX_LINES];
	int		 nl;
};

/* Write s with &, <, >, " and ' escaped; nothing for NULL. */
static void
html_esc(struct html *h, const char *s)
{
	probe_html_esc(h->out, s);
}

/* Store element i of array a in *v; 1, or 0 for a null or a non-number. */
static int
html_at(const json_t *a, size_t i, double *v)
{
	json_t	*j = json_array_get(a, i);

	if (!json_is_number(j))
		return (0);
	*v = json_number_value(j);
	return (isfinite(*v));
}

/* The mean of the first n numbers of a; 1, or 0 when there is none. */
static int
html_mean(const json_t *a, size_t n, double *mean)
{
	double	v, sum = 0;
	size_t	i, count = 0;

	for (i = 0; i < n; i++) {
		if (html_at(a, i, &v)) {
			sum += v;
			count++;
		}
	}
	if (count == 0)
		return (0);
	*mean = sum / (double)count;
	return (1);
}

/* Format v with three or so significant digits: 605, 48.4, 0.92. */
static const char *
html_fmt(char *buf, size_t size, double v)
{
	double	a = fabs(v);

	if (v == 0)
		snprintf(buf, size, "0");
	else if (a >= 100)
		snprintf(buf, size, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, size, "%.1f", v);
	else if (a >= 0.01)
		snprintf(buf, size, "%.2f", v);
	else
		snprintf(buf, size, "%.2g", v);
	return (buf);
}

/* Format Unix time t as "2025-12-02 16:00:00 UTC". */
static const char *
html_time(char *buf, size_t size, double t)
{
	struct tm	tm;
	time_t		s = (time_t)t;

	if (gmtime_r(&s, &tm) == NULL ||
	    strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, size, "%.1f", t);
	return (buf);
}

/* A round tick step (1, 2, 2.5 or 5 times a power of ten) for span. */
static double
html_step(double span, int nticks)
{
	double	raw, mag, f;

	if (span <= 0)
		return (1);
	raw = span / nticks;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	if (f <= 1)
		f = 1;
	else if (f <= 2)
		f = 2;
	else if (f <= 2.5)
		f = 2.5;
	else if (f <= 5)
		f = 5;
	else
		f = 10;
	return (f * mag);
}

/* The decimals that tick labels a step apart need. */
static int
html_decimals(double step)
{
	int	d;

	for (d = 0; d < 4; d++) {
		if (fabs(step - round(step)) < 1e-9 * (step > 1 ? step : 1))
			break;
		step *= 10;
	}
	return (d);
}

/* The CSS class of a report class name: a fixed name, never the input. */
static const char *
html_class(const char *name)
{
	size_t	i;

	for (i = 0; name != NULL && i < sizeof html_classes /
	    sizeof *html_classes; i++) {
		if (strcmp(name, html_classes[i].name) == 0)
			return (html_classes[i].name);
	}
	return ("unknown");
}

/* 1 if line l has at least one value to draw. */
static int
html_line_has(const struct html *h, const struct html_line *l)
{
	double	v;
	size_t	i;

	if (l->v == NULL)
		return (0);
	for (i = 0; i < h->n; i++) {
		if (html_at(l->v, i, &v))
			return (1);
	}
	return (0);
}

/* 1 if chart c has a line with something to draw. */
static int
html_chart_has(const struct html *h, const struct html_chart *c)
{
	int	i;

	for (i = 0; i < c->nl; i++) {
		if (html_line_has(h, &c->l[i]))
			return (1);
	}
	return (0);
}

/* The largest value over the lines of c, scaled; at least c->ymax. */
static double
html_chart_max(const struct html *h, const struct html_chart *c)
{
	const struct html_line	*l;
	double			 v, max = c->ymax;
	size_t			 i;
	int			 j;

	for (j = 0; j < c->nl; j++) {
		l = &c->l[j];
		if (l->v == NULL && l->k * l->scale > max)
			max = l->k * l->scale;
		for (i = 0; l->v != NULL && i < h->n; i++) {
			if (html_at(l->v, i, &v) && v * l->scale > max)
				max = v * l->scale;
		}
	}
	return (max);
}

/* Add a line of values (borrowed) to chart c; ignored past the limit. */
static void
html_add(struct html_chart *c, const char *label, const json_t *v,
    double scale)
{
	struct html_line	*l;

	if (c->nl == HTML_MAX_LINES)
		return;
	l = &c->l[c->nl];
	memset(l, 0, sizeof *l);
	l->label = label;
	l->v = v;
	l->scale = scale;
	l->colour = html_colours[c->nl++];
}

/* Add a dashed horizontal line at k (a capacity) to chart c. */
static void
html_add_const(struct html_chart *c, const char *label, double k,
    double scale)
{
	struct html_line	*l;

	if (c->nl == HTML_MAX_LINES)
		return;
	l = &c->l[c->nl++];
	memset(l, 0, sizeof *l);
	l->label = label;
	l->k = k;
	l->scale = scale;
	l->colour = HTML_GREY;
	l->dashed = 1;
}

/* Write the path of one line, lifting the pen over nulls. */
static void
html_path(struct html *h, const struct html_line *l, double x0, double pw,
    double y0, double ph, double top)
{
	double	t, v, x, y;
	size_t	i;
	int	run = 0;

	fprintf(h->out, "<path class=\"ln%s\" stroke=\"%s\" d=\"",
	    l->dashed ? " cap" : l->average ? " avg" : "", l->colour);
	if (l->v == NULL) {
		y = y0 + ph - l->k * l->scale / top * ph;
		fprintf(h->out, "M%.1f %.1fH%.1f", x0, y, x0 + pw);
		fputs("\"/>\n", h->out);
		return;
	}
	for (i = 0; i < h->n; i++) {
		if (!html_at(h->t, i, &t) || !html_at(l->v, i, &v)) {
			if (run == 1)
				fputs("m-2 0h4", h->out); /* a lone point */
			run = 0;
			continue;
		}
		if (v < 0)
			v = 0;
		x = x0 + (t < 0 ? 0 : t > h->xmax ? h->xmax : t) / h->xmax * pw;
		y = y0 + ph - v * l->scale / top * ph;
		fprintf(h->out, "%s%.1f %.1f", run == 0 ? "M" : "L", x, y);
		run++;
	}
	if (run == 1)
		fputs("m-2 0h4", h->out);
	fputs("\"/>\n", h->out);
}

/* Shade the window's gaps (times the daemon was not sampling); 1 if any. */
static int
html_gaps(struct html *h, double x0, double pw, double y0, double ph)
{
	json_t	*g;
	double	 from, to;
	size_t	 i;
	int	 any = 0;

	json_array_foreach(h->gaps, i, g) {
		if (!jget_num_to(g, "from", &from) || !jget_num_to(g, "to", &to))
			continue;
		from -= h->wstart;
		to -= h->wstart;
		if (from < 0)
			from = 0;
		if (to > h->xmax)
			to = h->xmax;
		if (to <= from)
			continue;
		fprintf(h->out, "<rect class=\"gap\" x=\"%.1f\" y=\"%.1f\" "
		    "width=\"%.1f\" height=\"%.1f\"><title>not sampled: "
		    "%.1f s</title></rect>\n", x0 + from / h->xmax * pw, y0,
		    (to - from) / h->xmax * pw, ph, to - from);
		any = 1;
	}
	return (any);
}

/*
 * Write chart c as a figure: caption, plot, legend.  The plot is as wide
 * as its column and of a fixed height, whatever the page's width: the SVG
 * holds the lines in a box of HTML_PW by HTML_PH stretched to fill it
 * (preserveAspectRatio none, strokes kept their width by the style sheet),
 * and the axes' labels are HTML beside it, placed in percent, so that
 * their text keeps its size on a phone, a wide screen and paper.
 */
static void
html_chart(struct html *h, const struct html_chart *c)
{
	const struct html_line	*l;
	char			 b[64];
	double			 top, step, xstep, v, mean;
	int			 i, d, gaps;

	v = html_chart_max(h, c);
	step = html_step(v, c->small ? 3 : 4);
	top = ceil(v / step - 1e-9) * step;
	if (top <= 0)
		top = step;
	d = html_decimals(step);

	fputs("<figure class=\"ch\"><figcaption>", h->out);
	html_esc(h, c->name);
	fprintf(h->out, "%s%s</figcaption>\n<div class=\"pl%s\"><span "
	    "class=\"u\">%s</span>\n<div class=\"yl\">", c->name != NULL ?
	    " " : "", c->what, c->small ? " sm" : "", c->unit);
	for (v = 0; v <= top + step / 2; v += step)
		fprintf(h->out, "<span style=\"bottom:%.2f%%\">%.*f</span>",
		    v / top * 100, d, v);
	fprintf(h->out, "</div>\n<svg viewBox=\"0 0 %d %d\" "
	    "preserveAspectRatio=\"none\" role=\"img\" aria-label=\"",
	    HTML_PW, HTML_PH);
	html_esc(h, c->name);
	fprintf(h->out, "%s%s, %s over %.1f s\">\n",
	    c->name != NULL ? " " : "", c->what, c->unit, h->xmax);
	gaps = html_gaps(h, 0, HTML_PW, 0, HTML_PH);

	/* The y grid, and the axes with a tick under each x label. */
	for (v = step; v <= top + step / 2; v += step)
		fprintf(h->out, "<line class=\"gr\" x1=\"0\" x2=\"%d\" "
		    "y1=\"%.1f\" y2=\"%.1f\"/>", HTML_PW,
		    HTML_PH - v / top * HTML_PH, HTML_PH - v / top * HTML_PH);
	xstep = html_step(h->xmax, c->small ? 3 : 6);
	for (v = 0; v <= h->xmax + xstep / 1000; v += xstep)
		fprintf(h->out, "<line class=\"ax\" x1=\"%.1f\" x2=\"%.1f\" "
		    "y1=\"%d\" y2=\"%d\"/>", v / h->xmax * HTML_PW,
		    v / h->xmax * HTML_PW, HTML_PH, HTML_PH + HTML_TICK);
	fprintf(h->out, "\n<line class=\"ax\" x1=\"0\" x2=\"%d\" "
	    "y1=\"%d\" y2=\"%d\"/><line class=\"ax\" x1=\"0\" x2=\"0\" "
	    "y1=\"0\" y2=\"%d\"/>\n", HTML_PW, HTML_PH, HTML_PH, HTML_PH);

	for (i = 0; i < c->nl; i++) {
		if (c->l[i].v == NULL || html_line_has(h, &c->l[i]))
			html_path(h, &c->l[i], 0, HTML_PW, 0, HTML_PH, top);
	}
	fputs("</svg>\n<div class=\"xl\">", h->out);
	for (v = 0; v <= h->xmax + xstep / 1000; v += xstep)
		fprintf(h->out, "<span style=\"left:%.2f%%\">%.*f s</span>",
		    v / h->xmax * 100, html_decimals(xstep), v);
	fputs("</div></div>\n<ul class=\"lg\">", h->out);
	for (i = 0; i < c->nl; i++) {
		l = &c->l[i];
		fprintf(h->out, "<li><i%s style=\"border-color:%s\"></i>",
		    l->dashed ? " class=\"d\"" : l->average ? " class=\"a\"" :
		    "", l->colour);
		html_esc(h, l->label);
		if (l->average && html_mean(l->v, h->n, &mean))
			fprintf(h->out, " %s %s", html_fmt(b, sizeof b,
			    mean * l->scale), c->unit);
		else if (l->v == NULL)
			fprintf(h->out, " %s %s", html_fmt(b, sizeof b,
			    l->k * l->scale), c->unit);
		else if (html_mean(l->v, h->n, &mean))
			fprintf(h->out, ", mean %s %s", html_fmt(b, sizeof b,
			    mean * l->scale), c->unit);
		else
			fputs(": no data", h->out);
		fputs("</li>", h->out);
	}
	if (gaps)
		fputs("<li><i class=\"g\"></i>not sampled</li>", h->out);
	fputs("</ul></figure>\n", h->out);
}

/* Start a chart: clear c and name it. */
static void
html_chart_init(struct html_chart *c, const char *name, const char *what,
    const char *unit, double ymax, int small)
{
	memset(c, 0, sizeof *c);
	c->name = name;
	c->what = what;
	c->unit = unit;
	c->ymax = ymax;
	c->small = small;
}

/* Write "label: value" as one <div> of a definition list; value escaped. */
static void
html_kv(struct html *h, const char *label, const char *value)
{
	fprintf(h->out, "<div><dt>%s</dt><dd>", label);
	if (value == NULL)
		fputs("—", h->out);
	else
		html_esc(h, value);
	fputs("</dd></div>\n", h->out);
}

/* The head of the page: title and style. */
static void
html_head(struct html *h, const json_t *run)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n<title>nasperf: ", h->out);
	if (jget_str(run, "label") != NULL)
		html_esc(h, jget_str(run, "label"));
	else {
		fputs("run ", h->out);
		html_esc(h, jget_str(run, "id"));
	}
	if (json_is_true(json_object_get(run, "interrupted")))
		fputs(" (interrupted)", h->out);
	fprintf(h->out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
	    report_css);
}

/* Write before, the string at key of o escaped, and after; or nothing. */
static void
html_opt(struct html *h, const json_t *o, const char *key,
    const char *before, const char *after)
{
	const char	*s;

	if ((s = jget_str(o, key)) == NULL)
		return;
	fputs(before, h->out);
	html_esc(h, s);
	fputs(after, h->out);
}

/*
 * The line under the title: protocol and operation where the client said
 * them, the client, the server; then, for a run the client stopped, that
 * its figures are partial.
 */
static void
html_sub(struct html *h, const json_t *run, const json_t *srv)
{
	const char	*proto = jget_str(run, "protocol");
	const char	*op = jget_str(run, "op"), *s;

	fputs("<p class=\"sub\">", h->out);
	if (proto != NULL || op != NULL) {
		html_esc(h, proto);
		fputs(proto != NULL && op != NULL ? " " : "", h->out);
		html_esc(h, op);
		fputs(" · ", h->out);
	}
	fputs("client ", h->out);
	html_esc(h, (s = jget_str(run, "client")) != NULL ? s : "unknown");
	html_opt(h, run, "client_addr", " (", ")");
	fputs(" · server ", h->out);
	html_esc(h, (s = jget_str(srv, "hostname")) != NULL ? s : "unknown");
	html_opt(h, srv, "model", ", ", "");
	html_opt(h, srv, "kernel", ", Linux ", "");
	fputs("</p>\n", h->out);
	if (json_is_true(json_object_get(run, "interrupted")))
		fputs("<p class=\"alert\" id=\"interrupted\"><b>Interrupted."
		    "</b> The client stopped this run before it finished: its "
		    "figures and the verdict are of what it moved until then."
		    "</p>\n", h->out);
}

/* The header: the run's label, what ran where, and when. */
static void
html_header(struct html *h, const json_t *r)
{
	const json_t	*run, *srv, *win;
	const char	*s;
	char		 b[64], b2[128], b3[64];
	double		 v, v2;
	size_t		 i, ngaps;

	run = json_object_get(r, "run");
	srv = json_object_get(r, "server");
	win = json_object_get(r, "window");

	fputs("<header>\n<h1>", h->out);
	if ((s = jget_str(run, "label")) != NULL)
		html_esc(h, s);
	else {
		fputs("Run ", h->out);
		html_esc(h, jget_str(run, "id"));
	}
	fputs("</h1>\n", h->out);
	html_sub(h, run, srv);
	fputs("<dl class=\"meta\">\n", h->out);

	html_kv(h, "Run", jget_str(run, "id"));
	s = jget_str(run, "state");
	snprintf(b, sizeof b, "%s%s%s", s != NULL ? s : "—",
	    json_is_true(json_object_get(run, "retroactive")) ?
	    ", marked afterwards" : "", json_is_true(json_object_get(run,
	    "interrupted")) ? ", interrupted" : "");
	html_kv(h, "State", b);
	html_kv(h, "Started", jget_num_to(run, "start", &v) ?
	    html_time(b, sizeof b, v) : NULL);
	html_kv(h, "Ended", jget_num_to(run, "end", &v) ?
	    html_time(b, sizeof b, v) : NULL);
	b3[0] = '\0';
	if (jget_num_to(win, "seconds", &v))
		snprintf(b3, sizeof b3, "%.1f s", v);
	if (jget_num_to(win, "samples", &v) && jget_num_to(win, "step", &v2))
		snprintf(b3 + strlen(b3), sizeof b3 - strlen(b3),
		    "%s%.0f samples of %g s", b3[0] != '\0' ? ", " : "", v, v2);
	/* The date is in Started; the time of day is enough here. */
	if (jget_num_to(win, "start", &v) &&
	    strlen(html_time(b, sizeof b, v)) > 11)
		snprintf(b2, sizeof b2, "%s%sfrom %s", b3, b3[0] != '\0' ?
		    " " : "", b + 11);
	else
		snprintf(b2, sizeof b2, "%s", b3);
	html_kv(h, "Window", b2);
	if ((ngaps = json_array_size(h->gaps)) > 0) {
		v2 = 0;
		for (i = 0; i < ngaps; i++) {
			if (jget_num_to(json_array_get(h->gaps, i), "seconds", &v))
				v2 += v;
		}
		snprintf(b, sizeof b, "%zu, %.1f s not sampled", ngaps, v2);
		html_kv(h, "Gaps", b);
	}
	html_kv(h, "Client rate", jget_num_to(r, "client_rate", &v) ?
	    (snprintf(b, sizeof b, "%s MB/s", html_fmt(b2, sizeof b2,
	    v / HTML_MB)), b) : NULL);
	html_kv(h, "Client timing", jget_num_to(run, "client_seconds", &v) ?
	    (snprintf(b, sizeof b, "%.2f s", v), b) : NULL);
	if (jget_num_to(run, "bytes", &v)) {
		snprintf(b, sizeof b, "%s MB", html_fmt(b2, sizeof b2,
		    v / HTML_MB));
		if (jget_num_to(run, "ops", &v2))
			snprintf(b + strlen(b), sizeof b - strlen(b),
			    " in %.0f ops", v2);
		if (jget_num_to(run, "block_size", &v2))
			snprintf(b + strlen(b), sizeof b - strlen(b),
			    " of %.0f B", v2);
		html_kv(h, "Data", b);
	} else
		html_kv(h, "Data", NULL);
	if (jget_num_to(run, "files", &v)) {
		snprintf(b, sizeof b, "%.0f", v);
		html_kv(h, "Files", b);
	}
	if (json_is_object(json_object_get(r, "path")))
		html_kv(h, "Path", json_is_true(json_object_get(json_object_get(
		    r, "path"), "observed")) ? jget_str(json_object_get(r,
		    "path"), "summary") : jget_str(json_object_get(r, "path"),
		    "why"));
	html_kv(h, "Clock offset", jget_num_to(run, "clock_offset", &v) ?
	    (snprintf(b, sizeof b, "%+.1f ms (client − server)", v * 1000),
	    b) : NULL);
	fputs("</dl>\n</header>\n", h->out);
}

/* One figure of the verdict: label and a percentage, or "—". */
static void
html_kpi(struct html *h, const char *label, const json_t *o, const char *key,
    int bar)
{
	char	b[32];
	double	v;

	fprintf(h->out, "<div><dt>%s</dt><dd>", label);
	if (!jget_num_to(o, key, &v)) {
		fputs("—</dd></div>\n", h->out);
		return;
	}
	fprintf(h->out, "%s %%", html_fmt(b, sizeof b, v));
	if (bar)
		fprintf(h->out, "<span class=\"bar\"><i style=\"width:%.0f%%\">"
		    "</i></span>", v < 0 ? 0 : v > 100 ? 100 : v);
	fputs("</dd></div>\n", h->out);
}

/* The verdict in large type, with its summary and figures. */
static void
html_verdict(struct html *h, const json_t *v)
{
	const char	*cls, *s;
	size_t		 i;

	cls = html_class(jget_str(v, "class"));
	fprintf(h->out, "<section class=\"verdict c-%s\" id=\"verdict\">\n"
	    "<p class=\"big\">", cls);
	for (i = 0; i < sizeof html_classes / sizeof *html_classes; i++) {
		if (strcmp(cls, html_classes[i].name) == 0)
			fputs(html_classes[i].headline, h->out);
	}
	fputs("</p>\n", h->out);
	if ((s = jget_str(v, "resource")) != NULL) {
		fputs("<p class=\"res\">", h->out);
		html_esc(h, s);
		fputs("</p>\n", h->out);
	}
	fputs("<p class=\"sum\">", h->out);
	html_esc(h, (s = jget_str(v, "summary")) != NULL ? s : "No summary.");
	fputs("</p>\n<dl class=\"kpi\">\n", h->out);
	html_kpi(h, "Utilisation", v, "utilisation_pct", 1);
	html_kpi(h, "Headroom", v, "headroom_pct", 0);
	fputs("<div><dt>Confidence</dt><dd>", h->out);
	html_esc(h, (s = jget_str(v, "confidence")) != NULL ? s : "—");
	fputs("</dd></div>\n</dl>\n</section>\n", h->out);
}

/* One ceiling's row: its rate, of what and by what; or how to measure it. */
static void
html_ceiling(struct html *h, const char *name, const json_t *c)
{
	const char	*s;
	char		 b[32], t[64];
	double		 v;

	fprintf(h->out, "<tr><th>%s</th>", name);
	if (!jget_num_to(c, "bytes_per_s", &v)) {
		fputs("<td>—</td><td>unmeasured: ", h->out);
		html_esc(h, jget_str(c, "how"));
		fputs("</td></tr>\n", h->out);
		return;
	}
	fprintf(h->out, "<td class=\"n\">%s MB/s</td><td>", html_fmt(b,
	    sizeof b, v / HTML_MB));
	/* "of" is "" where the run's interface is not known. */
	if ((s = jget_str(c, "of")) != NULL && *s != '\0') {
		html_esc(h, s);
		fputs(", ", h->out);
	}
	fputs("by ", h->out);
	html_esc(h, jget_str(c, "basis"));
	if (jget_num_to(c, "measured", &v)) {
		html_time(t, sizeof t, v);
		fputs(", ", h->out);
		html_esc(h, t);
	}
	fputs("</td></tr>\n", h->out);
}

/* The three ceilings and the share of the lower one the transfer got. */
static void
html_ceilings(struct html *h, const json_t *c)
{
	char	b[32];
	double	v, pct;

	if (!json_is_object(c))
		return;
	fputs("<section id=\"ceilings\">\n<h2>Ceilings</h2>\n<table>\n", h->out);
	html_ceiling(h, "Disks", json_object_get(c, "disks"));
	html_ceiling(h, "Network", json_object_get(c, "network"));
	if (jget_num_to(c, "transfer_bytes_per_s", &v)) {
		fprintf(h->out, "<tr><th>Transfer</th><td class=\"n\">%s "
		    "MB/s</td><td>", html_fmt(b, sizeof b, v / HTML_MB));
		if (jget_num_to(c, "share_of_lower_pct", &pct)) {
			fprintf(h->out, "%.0f %% of the lower ceiling, the ",
			    pct);
			html_esc(h, jget_str(c, "lower"));
			fputs(jget_str(c, "lower") != NULL && strcmp(jget_str(c,
			    "lower"), "disks") == 0 ? "'" : "'s", h->out);
		}
		fputs("</td></tr>\n", h->out);
	}
	if (json_is_object(json_object_get(c, "rest"))) {
		fputs("<tr><th>The rest</th><td></td><td>taken by ", h->out);
		html_esc(h, jget_str(json_object_get(c, "rest"), "text"));
		fputs("</td></tr>\n", h->out);
	}
	fputs("</table>\n</section>\n", h->out);
}

/* The secondary findings, a sentence each. */
static void
html_observations(struct html *h, const json_t *obs)
{
	json_t	*o;
	size_t	 i;

	fputs("<section id=\"observations\">\n<h2>Observations</h2>\n", h->out);
	if (json_array_size(obs) == 0) {
		fputs("<p class=\"none\">None.</p>\n</section>\n", h->out);
		return;
	}
	fputs("<ul class=\"obs\">\n", h->out);
	json_array_foreach(obs, i, o) {
		fprintf(h->out, "<li class=\"c-%s\"><span class=\"tag\">",
		    html_class(jget_str(o, "class")));
		html_esc(h, jget_str(o, "class"));
		fputs("</span> ", h->out);
		if (jget_str(o, "resource") != NULL) {
			fputs("<b>", h->out);
			html_esc(h, jget_str(o, "resource"));
			fputs("</b>: ", h->out);
		}
		html_esc(h, jget_str(o, "text"));
		fputs("</li>\n", h->out);
	}
	fputs("</ul>\n</section>\n", h->out);
}

/* The likely causes from the server's settings, each with its figure. */
static void
html_hints(struct html *h, const json_t *hints)
{
	json_t	*o;
	size_t	 i;

	if (json_array_size(hints) == 0)
		return;
	fputs("<section id=\"hints\">\n<h2>Likely cause</h2>\n<ul class=\"obs\">"
	    "\n", h->out);
	json_array_foreach(hints, i, o) {
		fputs("<li><span class=\"tag\">", h->out);
		html_esc(h, jget_str(o, "kind"));
		fputs("</span> ", h->out);
		html_esc(h, jget_str(o, "text"));
		fputs(" <i>(", h->out);
		html_esc(h, jget_str(o, "figure"));
		fputs(")</i></li>\n", h->out);
	}
	fputs("</ul>\n</section>\n", h->out);
}

/*
 * What to try next, from the likely causes and the verdict's class, for
 * a NAS reviewer; nothing when there is no advice.  0, or -1 (ENOMEM).
 */
static int
html_next(struct html *h, const json_t *report)
{
	json_t	*next, *o;
	size_t	 i;

	if ((next = json_array()) == NULL || advice_add(next,
	    jget_str(json_object_get(report, "verdict"), "class"),
	    json_object_get(report, "hints")) == -1) {
		json_decref(next);
		return (-1);
	}
	if (json_array_size(next) > 0) {
		fputs("<section id=\"next\">\n<h2>What to try next</h2>\n"
		    "<ul class=\"next\">\n", h->out);
		json_array_foreach(next, i, o) {
			fputs("<li>", h->out);
			html_esc(h, json_string_value(o));
			fputs("</li>\n", h->out);
		}
		fputs("</ul>\n</section>\n", h->out);
	}
	json_decref(next);
	return (0);
}

/* One figure with its unit: B/s shown in MB/s, "—" for null. */
static void
html_cell_value(struct html *h, const json_t *row, const char *key,
    const char *unit, const char *label)
{
	char	b[32];
	double	v;

	fprintf(h->out, "<td class=\"n\" data-l=\"%s\">", label);
	if (!jget_num_to(row, key, &v))
		fputs("—", h->out);
	else if (unit != NULL && strcmp(unit, "B/s") == 0)
		fprintf(h->out, "%s MB/s", html_fmt(b, sizeof b, v / HTML_MB));
	else {
		fputs(html_fmt(b, sizeof b, v), h->out);
		if (unit != NULL) {
			fputs(" ", h->out);
			html_esc(h, unit);
		}
	}
	fputs("</td>", h->out);
}

/* A percentage with a bar, "—" for null. */
static void
html_cell_pct(struct html *h, const json_t *row, const char *key)
{
	char	b[32];
	double	v;

	fputs("<td class=\"n\" data-l=\"Used\">", h->out);
	if (jget_num_to(row, key, &v))
		fprintf(h->out, "%s %%<span class=\"bar\"><i style=\"width:"
		    "%.0f%%\"></i></span>", html_fmt(b, sizeof b, v),
		    v < 0 ? 0 : v > 100 ? 100 : v);
	else
		fputs("—", h->out);
	fputs("</td>", h->out);
}

/* The evidence table: one row per resource looked at. */
static void
html_evidence(struct html *h, const json_t *ev)
{
	json_t		*row;
	const char	*unit;
	size_t		 i;

	fputs("<section id=\"evidence\">\n<h2>Evidence</h2>\n", h->out);
	if (json_array_size(ev) == 0) {
		fputs("<p class=\"none\">None.</p>\n</section>\n", h->out);
		return;
	}
	fputs("<div class=\"tw\"><table>\n<thead><tr><th>Class</th>"
	    "<th>Resource</th><th>Metric</th><th>Value</th><th>Capacity</th>"
	    "<th>Used</th><th>Detail</th></tr></thead>\n<tbody>\n", h->out);
	json_array_foreach(ev, i, row) {
		unit = jget_str(row, "unit");
		fprintf(h->out, "<tr class=\"c-%s\"><td><span class=\"tag\">",
		    html_class(jget_str(row, "class")));
		html_esc(h, jget_str(row, "class"));
		fputs("</span></td><td data-l=\"Resource\">", h->out);
		html_esc(h, jget_str(row, "resource"));
		fputs("</td><td data-l=\"Metric\">", h->out);
		html_esc(h, jget_str(row, "metric"));
		fputs("</td>", h->out);
		html_cell_value(h, row, "value", unit, "Value");
		html_cell_value(h, row, "capacity", unit, "Capacity");
		html_cell_pct(h, row, "utilisation_pct");
		fputs("<td class=\"d\" data-l=\"Detail\">", h->out);
		html_esc(h, jget_str(row, "detail"));
		fputs("</td></tr>\n", h->out);
	}
	fputs("</tbody></table></div>\n</section>\n", h->out);
}

/*
 * Write "<p>prefix name, name…</p>" naming the entries of arr whose mark in
 * st is m; prefix is a format taking their count.  Nothing if there is none.
 */
static void
html_list(struct html *h, const json_t *arr, const char *st, char m,
    const char *prefix)
{
	size_t	i, count = 0, done = 0;

	for (i = 0; i < json_array_size(arr); i++)
		count += st[i] == m;
	if (count == 0)
		return;
	fputs("<p class=\"more\">", h->out);
	fprintf(h->out, prefix, count);
	for (i = 0; i < json_array_size(arr); i++) {
		if (st[i] != m)
			continue;
		html_esc(h, jget_str(json_array_get(arr, i), "name"));
		fputs(++done < count ? ", " : ".", h->out);
	}
	fputs("</p>\n", h->out);
}

/*
 * 1 if the values of a are all one number (*v), as when the client gave
 * only its bytes and seconds and the daemon spread their quotient over
 * the window; 0 when they vary or there is none.
 */
static int
html_flat(const struct html *h, const json_t *a, double *v)
{
	double	x;
	size_t	i;
	int	any = 0;

	for (i = 0; i < h->n; i++) {
		if (!html_at(a, i, &x))
			continue;
		if (any++ == 0)
			*v = x;
		else if (fabs(x - *v) > 1e-9 * fabs(*v))
			return (0);
	}
	return (any > 0);
}

/*
 * The rate the client saw, over the window: its own progress where the
 * report has it, else plainly its average; beside it, the run's interface
 * in the direction the data went, which is the transfer over time as the
 * server saw it.
 */
static void
html_client(struct html *h, const json_t *series)
{
	struct html_chart	 c;
	const json_t		*cl = json_object_get(series,
				    "client_bytes_per_s");
	const char		*op = jget_str(h->run, "op");
	char			 label[96], wire[96], b[32];
	double			 avg, v;
	int			 flat = html_flat(h, cl, &avg);

	html_chart_init(&c, NULL, flat ? "Client rate: an average" :
	    "Client rate", "MB/s", HTML_MIN_MBS, 0);
	snprintf(label, sizeof label, "client");
	if (flat && jget_num_to(h->run, "bytes", &v)) {
		snprintf(label, sizeof label, "client's average: %s MB",
		    html_fmt(b, sizeof b, v / HTML_MB));
		if (jget_num_to(h->run, "client_seconds", &v))
			snprintf(label + strlen(label), sizeof label -
			    strlen(label), " in %.2f s,", v);
	} else if (flat)
		snprintf(label, sizeof label, "client's average");
	html_add(&c, label, cl, 1 / HTML_MB);
	c.l[0].average = flat;
	if (h->nic != NULL && op != NULL && (strcmp(op, "read") == 0 ||
	    strcmp(op, "write") == 0)) {
		snprintf(wire, sizeof wire, "%s %s, on the server", h->nic_name,
		    *op == 'r' ? "sent" : "received");
		html_add(&c, wire, json_object_get(h->nic, *op == 'r' ?
		    "tx_bytes_per_s" : "rx_bytes_per_s"), 1 / HTML_MB);
	}
	fputs("<h3>Client</h3>\n", h->out);
	if (!html_chart_has(h, &c)) {
		fputs("<p class=\"none\">The client's rate is not known "
		    "over the window.</p>\n", h->out);
		return;
	}
	if (flat) {
		fputs("<p class=\"more\">The client gave only its bytes and "
		    "seconds: its line is their average, not its progress.",
		    h->out);
		if (c.nl > 1) {
			fputs("  The run's interface, ", h->out);
			html_esc(h, h->nic_name);
			fputs(", shows the transfer over time.", h->out);
		}
		fputs("</p>\n", h->out);
	}
	fputs("<div class=\"g2\">\n", h->out);
	html_chart(h, &c);
	fputs("</div>\n", h->out);
}

/*
 * The chart of nic's receive and send rates against its capacity (not
 * drawn yet); for the run's own interface also the network's ceiling,
 * where a synthetic test measured one other than the link's.
 */
static void
html_nic(struct html *h, struct html_chart *c, const json_t *nic, int own)
{
	double	cap, ceil;
	int	has_cap;

	html_chart_init(c, jget_str(nic, "name"), own ? "receive and send: "
	    "the run's interface" : "receive and send", "MB/s", HTML_MIN_MBS,
	    0);
	html_add(c, "rx", json_object_get(nic, "rx_bytes_per_s"), 1 / HTML_MB);
	html_add(c, "tx", json_object_get(nic, "tx_bytes_per_s"), 1 / HTML_MB);
	if ((has_cap = jget_num_to(nic, "capacity_bytes_per_s", &cap)))
		html_add_const(c, "capacity", cap, 1 / HTML_MB);
	if (own && jget_num_to(h->ceiling, "bytes_per_s", &ceil) && (!has_cap ||
	    fabs(ceil - cap) > 0.01 * cap)) {
		html_add_const(c, "network ceiling", ceil, 1 / HTML_MB);
		c->l[c->nl - 1].colour = HTML_DARK;
	}
}

/* The run's own interface, across the page, where its path was seen. */
static void
html_own_nic(struct html *h)
{
	struct html_chart	c;

	if (h->nic != NULL)
		html_nic(h, &c, h->nic, 1);
	if (h->nic == NULL || !html_chart_has(h, &c)) {
		fputs("<p class=\"none\">The run's interface, ", h->out);
		html_esc(h, h->nic_name);
		fputs(", carried nothing in the window.</p>\n", h->out);
		return;
	}
	fputs("<div class=\"g1\">\n", h->out);
	html_chart(h, &c);
	if (c.nl == 2) {
		fputs("<p class=\"more\">", h->out);
		html_esc(h, h->nic_name);
		fputs("'s capacity is not known: no link speed, and no "
		    "synthetic test of the path (nasperf synth).</p>\n",
		    h->out);
	}
	fputs("</div>\n", h->out);
}

/* The run's own interface first, then each other NIC that carried any. */
static int
html_nics(struct html *h, const json_t *nics)
{
	struct html_chart	 c;
	json_t			*nic;
	char			*st;
	size_t			 i, shown = 0;
	int			 open = 0;

	if (json_array_size(nics) == 0 && h->nic_name == NULL)
		return (0);
	if ((st = calloc(json_array_size(nics) + 1, 1)) == NULL)
		return (-1);
	fputs("<h3>Network</h3>\n", h->out);
	if (h->nic_name != NULL) {
		html_own_nic(h);
		shown++;
	}
	json_array_foreach(nics, i, nic) {
		if (nic == h->nic)
			continue;
		html_nic(h, &c, nic, 0);
		if (!html_chart_has(h, &c)) {
			st[i] = 'n';
			continue;
		}
		if (shown == HTML_MAX_NICS) {
			st[i] = 'm';
			continue;
		}
		if (!open++)
			fprintf(h->out, "%s<div class=\"g2\">\n", h->nic_name !=
			    NULL ? "<h4>Other interfaces</h4>\n" : "");
		html_chart(h, &c);
		shown++;
	}
	if (open)
		fputs("</div>\n", h->out);
	html_list(h, nics, st, 'm', "and %zu more: ");
	html_list(h, nics, st, 'n', "No data from %zu: ");
	free(st);
	return (0);
}

/* The throughput chart of disk d (not drawn yet); ymax as html_chart. */
static void
html_disk_rw(struct html_chart *c, const json_t *d, double ymax, int small)
{
	html_chart_init(c, jget_str(d, "name"), "throughput", "MB/s",
	    ymax > HTML_MIN_MBS ? ymax : HTML_MIN_MBS, small);
	html_add(c, "read", json_object_get(d, "read_bytes_per_s"),
	    1 / HTML_MB);
	html_add(c, "write", json_object_get(d, "write_bytes_per_s"),
	    1 / HTML_MB);
}

/* The busy % chart of disk d (not drawn yet). */
static void
html_disk_busy(struct html_chart *c, const json_t *d, int small)
{
	html_chart_init(c, jget_str(d, "name"), "busy", "%", 100, small);
	html_add(c, "busy", json_object_get(d, "busy_pct"), 1);
	c->l[0].colour = html_colours[2];
}

/* Draw disk d's two charts, small or not; 0 if it has no data at all. */
static int
html_disk(struct html *h, const json_t *d, double ymax, int small)
{
	struct html_chart	rw, busy;

	html_disk_rw(&rw, d, ymax, small);
	html_disk_busy(&busy, d, small);
	if (!html_chart_has(h, &rw) && !html_chart_has(h, &busy))
		return (0);
	if (small)
		fputs("<div class=\"card\">\n", h->out);
	if (html_chart_has(h, &rw))
		html_chart(h, &rw);
	if (html_chart_has(h, &busy))
		html_chart(h, &busy);
	if (small)
		fputs("</div>\n", h->out);
	return (1);
}

/* The index of the disk named name in disks, or -1. */
static long
html_disk_find(const json_t *disks, const char *name)
{
	json_t	*d;
	size_t	 i;

	json_array_foreach(disks, i, d) {
		if (name != NULL && jget_str(d, "name") != NULL &&
		    strcmp(jget_str(d, "name"), name) == 0)
			return ((long)i);
	}
	return (-1);
}

/*
 * The members of array a sharing one throughput scale, so that the slow
 * member stands out: small multiples, or large for one or two; st marks
 * what was drawn.
 */
static void
html_members(struct html *h, const json_t *disks, const json_t *a, char *st)
{
	struct html_chart	 c;
	json_t			*m, *members = json_object_get(a, "members");
	double			 ymax = 0, v;
	size_t			 i, shown = 0, nmore = 0, nmissing = 0;
	long			 j;
	int			 small;

	json_array_foreach(members, i, m) {
		if ((j = html_disk_find(disks, json_string_value(m))) == -1)
			continue;
		html_disk_rw(&c, json_array_get(disks, j), 0, 1);
		if ((v = html_chart_max(h, &c)) > ymax)
			ymax = v;
	}
	small = json_array_size(members) > HTML_MAX_LARGE;
	fprintf(h->out, "<div class=\"members\">\n<div class=\"%s\">\n",
	    small ? "g3" : "g2");
	json_array_foreach(members, i, m) {
		j = html_disk_find(disks, json_string_value(m));
		if (j == -1) {
			nmissing++;
			continue;
		}
		if (st[j] != '\0')
			continue;	/* drawn already, under another array */
		if (shown == HTML_MAX_MEMBERS) {
			st[j] = 'm';
			nmore++;
			continue;
		}
		if (html_disk(h, json_array_get(disks, j), ymax, small)) {
			st[j] = 's';
			shown++;
		} else
			st[j] = 'n';
	}
	fputs("</div>\n", h->out);
	if (nmore > 0 || nmissing > 0) {
		fprintf(h->out, "<p class=\"more\">");
		if (nmore > 0)
			fprintf(h->out, "and %zu more members. ", nmore);
		if (nmissing > 0)
			fprintf(h->out, "%zu members have no series.",
			    nmissing);
		fputs("</p>\n", h->out);
	}
	fputs("</div>\n", h->out);
}

/* Each array with its members under it, then the disks in no array. */
static int
html_disks(struct html *h, const json_t *disks)
{
	json_t		*d, *m;
	char		*st;
	const char	*kind;
	size_t		 i, k, n, shown = 0, rest = 0;
	long		 j;
	int		 open = 0, small;

	if ((n = json_array_size(disks)) == 0)
		return (0);
	/* st: 'a' array, 'e' a member, then 's' shown, 'm' more, 'n' none. */
	if ((st = calloc(n, 1)) == NULL)
		return (-1);
	fputs("<h3>Disks</h3>\n", h->out);
	json_array_foreach(disks, i, d) {
		if (json_array_size(json_object_get(d, "members")) == 0)
			continue;
		fputs("<div class=\"array\">\n<h4>", h->out);
		html_esc(h, jget_str(d, "name"));
		kind = jget_str(d, "kind");
		fputs(" <span class=\"sub\">(", h->out);
		html_esc(h, kind != NULL ? kind : "array");
		fprintf(h->out, " of %zu: ",
		    json_array_size(json_object_get(d, "members")));
		json_array_foreach(json_object_get(d, "members"), k, m) {
			html_esc(h, json_string_value(m));
			fputs(k + 1 < json_array_size(json_object_get(d,
			    "members")) ? ", " : ")", h->out);
		}
		fputs("</span></h4>\n<div class=\"g2\">\n", h->out);
		if (!html_disk(h, d, 0, 0))
			fputs("<p class=\"none\">No data.</p>\n", h->out);
		fputs("</div>\n", h->out);
		html_members(h, disks, d, st);
		fputs("</div>\n", h->out);
		st[i] = st[i] == '\0' ? 'a' : st[i];
		json_array_foreach(json_object_get(d, "members"), k, m) {
			j = html_disk_find(disks, json_string_value(m));
			if (j != -1 && st[j] == '\0')
				st[j] = 'e';
		}
	}
	for (i = 0; i < n; i++)
		rest += st[i] == '\0';
	small = rest > HTML_MAX_LARGE;
	for (i = 0; i < n; i++) {
		if (st[i] != '\0')
			continue;
		if (!open++)
			fprintf(h->out, "<div class=\"%s\">\n", small ? "g3" :
			    "g2");
		if (shown == HTML_MAX_DISKS)
			st[i] = 'm';
		else if (html_disk(h, json_array_get(disks, i), 0, small)) {
			st[i] = 's';
			shown++;
		} else
			st[i] = 'n';
	}
	if (open)
		fputs("</div>\n", h->out);
	html_list(h, disks, st, 'm', "and %zu more disks: ");
	html_list(h, disks, st, 'n', "No data from %zu: ");
	free(st);
	return (0);
}

/* Order indices by the means they point to, the largest first. */
static const double *html_sort_means;
static int
html_by_mean(const void *a, const void *b)
{
	double	ma = html_sort_means[*(const size_t *)a];
	double	mb = html_sort_means[*(const size_t *)b];

	return (ma < mb ? 1 : ma > mb ? -1 : 0);
}

/*
 * Mark in st the limit entries of arr with the largest mean of key ('s'),
 * the others with data 'm', those without 'n'.  means[] gets the means.
 */
static int
html_pick(const struct html *h, const json_t *arr, const char *key,
    size_t limit, char *st, double *means)
{
	size_t	*idx, i, n = json_array_size(arr), k = 0;

	if ((idx = calloc(n, sizeof *idx)) == NULL)
		return (-1);
	for (i = 0; i < n; i++) {
		if (html_mean(json_object_get(json_array_get(arr, i), key),
		    h->n, &means[i]))
			idx[k++] = i;
		else
			st[i] = 'n';
	}
	html_sort_means = means;
	qsort(idx, k, sizeof *idx, html_by_mean);
	for (i = 0; i < k; i++)
		st[idx[i]] = i < limit ? 's' : 'm';
	free(idx);
	return (0);
}

/* Mean and busiest core at each step, as two new arrays; -1 on ENOMEM. */
static int
html_cpu_summary(const struct html *h, const json_t *cpus, json_t **mean,
    json_t **max)
{
	json_t	*c;
	double	 v, sum, top;
	size_t	 i, j, count;

	*mean = json_array();
	*max = json_array();
	if (*mean == NULL || *max == NULL)
		return (-1);
	for (i = 0; i < h->n; i++) {
		sum = top = 0;
		count = 0;
		json_array_foreach(cpus, j, c) {
			if (!html_at(json_object_get(c, "busy_pct"), i, &v))
				continue;
			sum += v;
			top = v > top ? v : top;
			count++;
		}
		if (json_array_append_new(*mean, count ? json_real(sum /
		    (double)count) : json_null()) == -1 ||
		    json_array_append_new(*max, count ? json_real(top) :
		    json_null()) == -1)
			return (-1);
	}
	return (0);
}

/* Busy % per core, softirq shown; past the limit, the busiest cores. */
static int
html_cpus(struct html *h, const json_t *cpus)
{
	struct html_chart	 c;
	json_t			*cpu, *mean = NULL, *max = NULL;
	char			*st = NULL, b[32], hdr[64];
	double			*means = NULL, rest = 0;
	size_t			 i, n;
	int			 rc = -1;

	if ((n = json_array_size(cpus)) == 0)
		return (0);
	if ((st = calloc(n, 1)) == NULL ||
	    (means = calloc(n, sizeof *means)) == NULL ||
	    html_pick(h, cpus, "busy_pct", HTML_MAX_CPUS, st, means) == -1)
		goto out;
	fputs("<h3>CPU</h3>\n", h->out);
	if (n > HTML_MAX_CPUS) {
		if (html_cpu_summary(h, cpus, &mean, &max) == -1)
			goto out;
		snprintf(hdr, sizeof hdr, "All %zu cores", n);
		html_chart_init(&c, NULL, hdr, "%", 100, 0);
		html_add(&c, "mean", mean, 1);
		html_add(&c, "busiest core", max, 1);
		fputs("<div class=\"g2\">\n", h->out);
		html_chart(h, &c);
		fputs("</div>\n", h->out);
	}
	fprintf(h->out, "<div class=\"%s\">\n", n > HTML_MAX_LARGE ? "g3" :
	    "g2");
	json_array_foreach(cpus, i, cpu) {
		if (st[i] == 'm' && means[i] > rest)
			rest = means[i];
		if (st[i] != 's')
			continue;
		html_chart_init(&c, jget_str(cpu, "name"), "busy", "%", 100,
		    n > HTML_MAX_LARGE);
		html_add(&c, "busy", json_object_get(cpu, "busy_pct"), 1);
		html_add(&c, "softirq", json_object_get(cpu, "softirq_pct"), 1);
		html_chart(h, &c);
	}
	fputs("</div>\n", h->out);
	/* hdr is a format for html_list(): its own % doubled. */
	snprintf(hdr, sizeof hdr, "and %%zu more cores, none above %s %%%% "
	    "busy on average: ", html_fmt(b, sizeof b, rest));
	html_list(h, cpus, st, 'm', hdr);
	html_list(h, cpus, st, 'n', "No data from %zu: ");
	rc = 0;
out:
	json_decref(mean);
	json_decref(max);
	free(means);
	free(st);
	return (rc);
}

/* The busiest process groups' CPU, in % of one core, on one chart. */
static int
html_groups(struct html *h, const json_t *groups)
{
	struct html_chart	 c;
	json_t			*g;
	char			*st = NULL, labels[HTML_MAX_GROUPS][96];
	double			*means = NULL;
	size_t			 i, n, k = 0;
	int			 rc = -1;

	if ((n = json_array_size(groups)) == 0)
		return (0);
	if ((st = calloc(n, 1)) == NULL ||
	    (means = calloc(n, sizeof *means)) == NULL ||
	    html_pick(h, groups, "cpu_pct", HTML_MAX_GROUPS, st, means) == -1)
		goto out;
	fputs("<h3>Process groups</h3>\n<div class=\"g2\">\n", h->out);
	html_chart_init(&c, NULL, "CPU by process group (100 % = one core)",
	    "%", 100, 0);
	json_array_foreach(groups, i, g) {
		if (st[i] != 's')
			continue;
		if (jget_str(g, "top") != NULL)
			snprintf(labels[k], sizeof labels[k], "%s (%s)",
			    jget_str(g, "name") ? jget_str(g, "name") : "?",
			    jget_str(g, "top"));
		else
			snprintf(labels[k], sizeof labels[k], "%s",
			    jget_str(g, "name") ? jget_str(g, "name") : "?");
		html_add(&c, labels[k++], json_object_get(g, "cpu_pct"), 1);
	}
	if (k > 0)
		html_chart(h, &c);
	fputs("</div>\n", h->out);
	html_list(h, groups, st, 'm', "and %zu more groups: ");
	html_list(h, groups, st, 'n', "No data from %zu: ");
	rc = 0;
out:
	free(means);
	free(st);
	return (rc);
}

/* The charts over the window. */
static int
html_series(struct html *h, const json_t *series)
{
	fputs("<section id=\"series\">\n<h2>Over the window</h2>\n", h->out);
	if (h->n == 0) {
		fputs("<p class=\"none\">No samples in the window.</p>\n"
		    "</section>\n", h->out);
		return (0);
	}
	html_client(h, series);
	if (html_nics(h, json_object_get(series, "nics")) == -1 ||
	    html_disks(h, json_object_get(series, "disks")) == -1 ||
	    html_cpus(h, json_object_get(series, "cpus")) == -1 ||
	    html_groups(h, json_object_get(series, "groups")) == -1)
		return (-1);
	fputs("</section>\n", h->out);
	return (0);
}

int
report_html_write(const json_t *report, FILE *out)
{
	struct html	 h;
	const json_t	*win, *series;
	json_t		*nic;
	char		 b[64];
	double		 v;
	size_t		 i;

	if (!json_is_object(report) || out == NULL) {
		errno = EINVAL;
		return (-1);
	}
	memset(&h, 0, sizeof h);
	h.out = out;
	win = json_object_get(report, "window");
	series = json_object_get(report, "series");
	h.t = json_object_get(series, "t");
	h.n = json_array_size(h.t);
	/* Gaps can be placed only against the window's start. */
	if (jget_num_to(win, "start", &h.wstart))
		h.gaps = json_object_get(win, "gaps");
	if (!jget_num_to(win, "seconds", &h.xmax))
		h.xmax = 0;
	for (i = 0; i < h.n; i++) {
		if (html_at(h.t, i, &v) && v > h.xmax)
			h.xmax = v;
	}
	if (!(h.xmax > 0))
		h.xmax = 1;
	h.run = json_object_get(report, "run");
	h.ceiling = json_object_get(json_object_get(report, "ceilings"),
	    "network");
	if (json_is_true(json_object_get(json_object_get(report, "path"),
	    "observed")))
		h.nic_name = jget_str(json_object_get(report, "path"),
		    "interface");
	json_array_foreach(json_object_get(series, "nics"), i, nic) {
		if (h.nic_name != NULL && jget_str(nic, "name") != NULL &&
		    strcmp(jget_str(nic, "name"), h.nic_name) == 0)
			h.nic = nic;
	}

	html_head(&h, json_object_get(report, "run"));
	html_header(&h, report);
	html_verdict(&h, json_object_get(report, "verdict"));
	html_ceilings(&h, json_object_get(report, "ceilings"));
	html_hints(&h, json_object_get(report, "hints"));
	if (html_next(&h, report) == -1)
		return (-1);
	html_observations(&h, json_object_get(report, "observations"));
	html_evidence(&h, json_object_get(report, "evidence"));
	if (html_series(&h, series) == -1)
		return (-1);
	fputs("<footer>nasperf report", out);
	if (jget_num_to(report, "version", &v))
		fprintf(out, " version %.0f", v);
	if (jget_num_to(report, "generated", &v))
		fprintf(out, ", generated %s", html_time(b, sizeof b, v));
	fputs(".  Rates in MB/s (10<sup>6</sup> bytes per second), times "
	    "in UTC on the server's clock, x axes in seconds from the "
	    "window's start.</footer>\n</body>\n</html>\n", out);
	if (fflush(out) != 0 || ferror(out)) {
		if (errno == 0)
			errno = EIO;
		return (-1);
	}
	return (0);
}
