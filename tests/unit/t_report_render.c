/*
 * t_report_render.c: the YAML and HTML renderers over the example reports
 * in tests/fixtures/reports.
 *
 * The YAML is read back with libyaml's parser into a json_t, resolving
 * plain scalars as a YAML 1.1 reader would (yes/on are booleans, 0x10 and
 * 1_000 integers), and must equal the original.  The HTML is checked for
 * balanced elements, one <svg> per chart each with a drawn line, escaping
 * and self-containment.
 *
 * With arguments it is the renderer for 60-html.sh:
 *	t_report_render html|yaml FILE	write FILE's report to stdout
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <yaml.h>

#include "test.h"
#include "yaml_read.h"
#include "advice.h"
#include "report_html.h"
#include "report_yaml.h"

static const char *fixtures[] = {
	"disk-raid6", "network-1gbe", "cpu-4core", "nulls-gaps",
	"cpu64-client", "empty", "transfer-stopped"
};

static json_t	*y_node(yaml_parser_t *, yaml_event_t *);

/* Load fixture name; bail out when it cannot be read. */
static json_t *
load(const char *name)
{
	json_error_t	 err;
	json_t		*j;
	const char	*src;
	char		 path[4096];

	if ((src = getenv("NP_SRCDIR")) == NULL)
		src = ".";
	snprintf(path, sizeof path, "%s/tests/fixtures/reports/%s.json", src,
	    name);
	if ((j = json_load_file(path, 0, &err)) == NULL) {
		printf("Bail out! %s:%d: %s\n", path, err.line, err.text);
		exit(1);
	}
	return (j);
}


/* Render j with fn into a new buffer (caller frees); rc gets the result. */
static char *
render(int (*fn)(const json_t *, FILE *), const json_t *j, int *rc,
    size_t *len)
{
	FILE	*f;
	char	*buf = NULL;

	*len = 0;
	if ((f = open_memstream(&buf, len)) == NULL) {
		printf("Bail out! open_memstream: %s\n", strerror(errno));
		exit(1);
	}
	*rc = fn(j, f);
	fclose(f);
	return (buf);
}

/* Emit j as YAML, read it back, and check it equals j. */
static void
roundtrip(const char *what, const json_t *j)
{
	json_t	*back;
	char	*yaml, *s, *t;
	size_t	 len;
	int	 rc;

	yaml = render(report_yaml_write, j, &rc, &len);
	t_check(rc == 0, what, __FILE__, __LINE__, "%s", strerror(errno));
	back = y_parse(yaml, len);
	if (!t_check(back != NULL && json_equal((json_t *)j, back), what,
	    __FILE__, __LINE__, "%s", "read back differs")) {
		s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
		t = back != NULL ? json_dumps(back,
		    JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		printf("# want %.2000s\n# got  %.2000s\n# yaml:\n%.3000s\n", s,
		    t ? t : "(parse failed)", yaml);
		free(s);
		free(t);
	}
	json_decref(back);
	free(yaml);
}

/* Strings, keys and numbers a naive emitter gets wrong. */
static json_t *
tricky(void)
{
	static const char	*strs[] = {
		"true", "false", "True", "FALSE", "yes", "No", "ON", "off",
		"y", "n", "Y", "null", "Null", "~", "", " ", " leading",
		"trailing ", "a: b", "key:", ":", "- dash", "-", "#hash",
		"a #b", "0x10", "0o17", "0b101", "1_000", "1:20", "1e3",
		"1.5", ".5", "5.", "+1", "-0", "007", ".inf", "-.inf", ".NaN",
		"2025-12-02", "12:30:00",
		"h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 "
		"\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80", "line1\nline2",
		"line1\n", "\n", "tab\there", "\"quoted\"", "'single'",
		"back\\slash", "<<", "=", "!tag", "&anchor", "*alias",
		"%percent", "@at", "`tick", "{brace}", "[bracket]", "|", ">",
		"?", "? q", "a,b", "<script>alert(1)</script> & \"x\"",
		"\xc2\x85next line", "\xe2\x80\xa8separator", "\x7f", "\x01",
		"smbd pid 4121 on cpu3"
	};
	json_t	*j, *a, *o;
	size_t	 i;

	j = json_object();
	a = json_array();
	o = json_object();
	for (i = 0; i < NP_NITEMS(strs); i++) {
		json_array_append_new(a, json_string(strs[i]));
		json_object_set_new(o, strs[i], json_integer((json_int_t)i));
	}
	json_array_append_new(a, json_stringn("nul\0inside", 10));
	json_object_set_new(j, "strings", a);
	json_object_set_new(j, "keys", o);
	a = json_array();
	json_array_append_new(a, json_integer(0));
	json_array_append_new(a, json_integer(-1));
	json_array_append_new(a, json_integer(INT64_MAX));
	json_array_append_new(a, json_integer(INT64_MIN));
	json_array_append_new(a, json_integer(9007199254740993LL));
	json_array_append_new(a, json_integer(4294967296LL));
	json_object_set_new(j, "integers", a);
	a = json_array();
	json_array_append_new(a, json_real(0.1));
	json_array_append_new(a, json_real(1.0 / 3));
	json_array_append_new(a, json_real(-0.0));
	json_array_append_new(a, json_real(1e300));
	json_array_append_new(a, json_real(1e20));
	json_array_append_new(a, json_real(5e-324));
	json_array_append_new(a, json_real(1.7976931348623157e308));
	json_array_append_new(a, json_real(604925459.0));
	json_array_append_new(a, json_real(123456789012345678.0));
	json_array_append_new(a, json_real(0.30000000000000004));
	json_array_append_new(a, json_null());
	json_object_set_new(j, "reals", a);
	a = json_pack("[i, s, n, b, f, {}, [], [[i, i], [f]], {s: [n, n]}]",
	    1, "a", 1, 2.5, 1, 2, 3.0, "k");
	json_object_set_new(j, "mixed", a);
	json_object_set_new(j, "empty_object", json_object());
	json_object_set_new(j, "empty_array", json_array());
	return (j);
}

/* Checks on the YAML text itself: plain where it can be, series in flow. */
static void
test_yaml_text(void)
{
	json_t	*j = load("disk-raid6"), *n = load("nulls-gaps");
	char	*y;
	size_t	 len;
	int	 rc;

	y = render(report_yaml_write, j, &rc, &len);
	T_TRUE(strstr(y, "\n  label: AJA 4GB read\n") != NULL);
	T_TRUE(strstr(y, "\n  bytes: 4294967296\n") != NULL);
	T_TRUE(strstr(y, "\nclient_rate: 604925459.0\n") != NULL);
	T_TRUE(strstr(y, "\n  t: [0.5, 1.0, 1.5,") != NULL);
	T_TRUE(strstr(y, "\n  retroactive: false\n") != NULL);
	free(y);
	y = render(report_yaml_write, n, &rc, &len);
	T_TRUE(strstr(y, "\n  id: \"0x10\"\n") != NULL);
	T_TRUE(strstr(y, "\n  client: \"yes\"\n") != NULL);
	T_TRUE(strstr(y, "\n  hostname: \"null\"\n") != NULL);
	T_TRUE(strstr(y, "\n  model: null\n") != NULL);
	T_TRUE(strstr(y, "\n  cpus: []\n") != NULL);
	T_TRUE(strstr(y, "\n  summary: |-\n    no verdict: the daemon") != NULL);
	free(y);
	json_decref(j);
	json_decref(n);
}

/* Every fixture and the tricky values go through YAML and back. */
static void
test_yaml(void)
{
	json_t	*j;
	FILE	*f;
	char	 what[128];
	size_t	 i;

	for (i = 0; i < NP_NITEMS(fixtures); i++) {
		j = load(fixtures[i]);
		snprintf(what, sizeof what, "yaml round trip: %s", fixtures[i]);
		roundtrip(what, j);
		json_decref(j);
	}
	j = tricky();
	roundtrip("yaml round trip: tricky strings, integers and reals", j);
	json_decref(j);
	j = json_string("yes");
	roundtrip("yaml round trip: a lone string", j);
	json_decref(j);
	j = json_integer(INT64_MIN);
	roundtrip("yaml round trip: a lone integer", j);
	json_decref(j);
	T_ERRNO(report_yaml_write(NULL, stdout), EINVAL);
	if ((f = fopen("/dev/full", "w")) != NULL) {
		j = load("disk-raid6");
		T_EQ_INT(report_yaml_write(j, f), -1);
		fclose(f);
		json_decref(j);
	} else
		t_skip("no /dev/full");
	test_yaml_text();
}

/* Occurrences of needle in hay. */
static int
count(const char *hay, const char *needle)
{
	int	n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return (n);
}

/* s HTML-escaped, in a static buffer. */
static const char *
esc(const char *s)
{
	static char	 buf[8192];
	char		*p = buf;

	for (; *s != '\0' && p < buf + sizeof buf - 8; s++) {
		switch (*s) {
		case '&':
			p += sprintf(p, "&amp;");
			break;
		case '<':
			p += sprintf(p, "&lt;");
			break;
		case '>':
			p += sprintf(p, "&gt;");
			break;
		case '"':
			p += sprintf(p, "&quot;");
			break;
		case '\'':
			p += sprintf(p, "&#39;");
			break;
		default:
			*p++ = *s;
		}
	}
	*p = '\0';
	return (buf);
}

/* 1 if every element in the list opens as often as it closes. */
static int
balanced(const char *html, const char *name)
{
	static const char	*names[] = {
		"html", "head", "body", "header", "section", "footer", "div",
		"figure", "figcaption", "svg", "table", "thead", "tbody", "tr",
		"td", "th", "ul", "li", "dl", "dt", "dd", "p", "h1", "h2",
		"h3", "h4", "span", "text", "title", "rect"
	};
	char	 o1[32], o2[32], c[32];
	size_t	 i;
	int	 ok = 1, a, b;

	for (i = 0; i < NP_NITEMS(names); i++) {
		snprintf(o1, sizeof o1, "<%s>", names[i]);
		snprintf(o2, sizeof o2, "<%s ", names[i]);
		snprintf(c, sizeof c, "</%s>", names[i]);
		a = count(html, o1) + count(html, o2);
		b = count(html, c);
		if (a != b) {
			printf("# %s: <%s> opens %d times, closes %d\n", name,
			    names[i], a, b);
			ok = 0;
		}
	}
	return (ok);
}

/*
 * 1 if each <svg> is the one chart of its figure and draws at least one
 * line with two points or more: a series, or a client's average, not a
 * capacity.
 */
static int
charts_drawn(const char *html, const char *name)
{
	const char	*p, *end, *d;
	char		*svg;
	int		 ok = 1, lines;

	if (count(html, "<svg") != count(html, "<figure class=\"ch\">")) {
		printf("# %s: %d <svg>, %d chart figures\n", name,
		    count(html, "<svg"), count(html, "<figure class=\"ch\">"));
		return (0);
	}
	for (p = html; (p = strstr(p, "<svg")) != NULL; p = end) {
		if ((end = strstr(p, "</svg>")) == NULL)
			return (0);
		svg = strndup(p, (size_t)(end - p));
		lines = 0;
		for (d = svg; (d = strstr(d, "<path class=\"ln")) != NULL;
		    d++) {
			if (strncmp(d + 15, " cap", 4) == 0)
				continue;
			d = strstr(d, " d=\"M");
			if (d != NULL && strchr("0123456789", d[5]) != NULL &&
			    strchr(d, 'L') != NULL && strchr(d, 'L') <
			    strchr(d + 5, '"'))
				lines++;
			if (d == NULL)
				break;
		}
		if (lines == 0) {
			printf("# %s: a chart with no line: %.200s\n", name,
			    svg);
			ok = 0;
		}
		free(svg);
	}
	return (ok);
}

/* 1 if html has an event handler attribute (onload=, onclick=...). */
static int
handlers(const char *html)
{
	const char	*p;

	for (p = html; (p = strstr(p, " on")) != NULL; p++) {
		p += 3;
		while (*p >= 'a' && *p <= 'z')
			p++;
		if (*p == '=')
			return (1);
	}
	return (0);
}

/* The checks every page passes. */
static void
html_common(const char *name, const json_t *j, const char *html, int rc)
{
	const json_t	*o;
	json_t		*next;
	const char	*s, *p;
	char		 what[160];
	size_t		 i;
	int		 ok;

	snprintf(what, sizeof what, "html %s: rendered", name);
	t_check(rc == 0, what, __FILE__, __LINE__, "%s", strerror(errno));
	snprintf(what, sizeof what, "html %s: a whole HTML5 page", name);
	t_check(strncmp(html, "<!DOCTYPE html>\n", 16) == 0 &&
	    strlen(html) > 8 && strcmp(html + strlen(html) - 8, "</html>\n") ==
	    0, what, __FILE__, __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: elements balanced", name);
	t_check(balanced(html, name), what, __FILE__, __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: each chart one svg with a line",
	    name);
	t_check(charts_drawn(html, name), what, __FILE__, __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: each plot stretches to its "
	    "column, its labels HTML beside it", name);
	t_check(count(html, "preserveAspectRatio=\"none\"") ==
	    count(html, "<svg") && count(html, "<div class=\"pl") ==
	    count(html, "<svg") && strstr(html, "<text") == NULL, what,
	    __FILE__, __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: self-contained, no script",
	    name);
	t_check(strstr(html, "http://") == NULL &&
	    strstr(html, "https://") == NULL && strcasestr(html, "<script")
	    == NULL && !handlers(html) && strcasestr(html,
	    "url(") == NULL && strcasestr(html, "<img") == NULL &&
	    strcasestr(html, "<link") == NULL, what, __FILE__, __LINE__, "%s",
	    "");
	s = json_string_value(json_object_get(json_object_get(j, "verdict"),
	    "summary"));
	snprintf(what, sizeof what, "html %s: the verdict's summary", name);
	t_check(s != NULL && strstr(html, esc(s)) != NULL, what, __FILE__,
	    __LINE__, "%s", "");
	s = json_string_value(json_object_get(json_object_get(j, "run"),
	    "label"));
	snprintf(what, sizeof what, "html %s: the label in title and h1", name);
	t_check(s != NULL && count(html, esc(s)) >= 2, what, __FILE__,
	    __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: interrupted said at the top "
	    "when it was", name);
	t_check((strstr(html, "<p class=\"alert\" id=\"interrupted\">") !=
	    NULL && strstr(html, "id=\"interrupted\"") < strstr(html,
	    "id=\"verdict\"")) == json_is_true(json_object_get(
	    json_object_get(j, "run"), "interrupted")), what, __FILE__,
	    __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: no line starts with a separator",
	    name);
	t_check(strstr(html, "<td>, ") == NULL && strstr(html,
	    "<p class=\"sub\"> ") == NULL && strstr(html, "<dd> ") == NULL,
	    what, __FILE__, __LINE__, "%s", "");
	snprintf(what, sizeof what, "html %s: what to try next, from the "
	    "likely causes and the verdict", name);
	next = json_array();
	advice_add(next, json_string_value(json_object_get(json_object_get(j,
	    "verdict"), "class")), json_object_get(j, "hints"));
	p = strstr(html, "<section id=\"next\">\n<h2>What to try next</h2>");
	ok = (p == NULL) == (json_array_size(next) == 0);
	json_array_foreach(next, i, o)
		ok = ok && strstr(p, esc(json_string_value(o))) != NULL;
	t_check(ok, what, __FILE__, __LINE__, "%s", "");
	json_decref(next);
	json_array_foreach(json_object_get(j, "hints"), i, o) {
		s = json_string_value(json_object_get(o, "figure"));
		snprintf(what, sizeof what, "html %s: hint %zu and its figure",
		    name, i);
		t_check(s != NULL && strstr(html, esc(s)) != NULL &&
		    strstr(html, "<h2>Likely cause</h2>") != NULL, what,
		    __FILE__, __LINE__, "%s", "");
	}
}

/* Render one fixture; the caller frees the page. */
static char *
html_of(const char *name, json_t **jp)
{
	char	*html;
	size_t	 len;
	int	 rc;

	*jp = load(name);
	html = render(report_html_write, *jp, &rc, &len);
	html_common(name, *jp, html, rc);
	return (html);
}

/* The d attribute of the first line after caption (caller frees). */
static char *
first_path(const char *html, const char *caption)
{
	const char	*p, *e;

	if ((p = strstr(html, caption)) == NULL ||
	    (p = strstr(p, "<path class=\"ln\"")) == NULL ||
	    (p = strstr(p, " d=\"")) == NULL ||
	    (e = strchr(p + 4, '"')) == NULL)
		return (strdup(""));
	return (strndup(p + 4, (size_t)(e - p - 4)));
}

/* The HTML pages, and what each fixture must show. */
static void
test_html(void)
{
	json_t	*j;
	char	*h, *d;
	FILE	*f;
	size_t	 len;
	int	 rc;

	h = html_of("disk-raid6", &j);
	T_TRUE(strstr(h, "<p class=\"big\">Disk-bound</p>") != NULL);
	/* The client's progress, drawn as it is. */
	T_TRUE(strstr(h, "<figcaption>Client rate</figcaption>") != NULL &&
	    strstr(h, "ln avg") == NULL && strstr(h, "</i>client, mean 561 "
	    "MB/s</li>") != NULL);
	T_TRUE(strstr(h, "md2 <span class=\"sub\">(md of 8: sda, sdb, sdc, "
	    "sdd, sde, sdf, sdg, sdh)</span>") != NULL);
	T_EQ_INT(count(h, "class=\"card\""), 8);	/* one per member */
	T_TRUE(strstr(h, "<div class=\"members\">\n<div class=\"g3\">") !=
	    NULL);
	T_EQ_INT(count(h, "<svg"), 1 + 2 + 2 + 16 + 4 + 1);
	T_TRUE(strstr(h, "<li><i class=\"d\" style=\"border-color:#888888\">"
	    "</i>capacity 1250 MB/s</li>") != NULL);
	T_TRUE(strstr(h, "99.1 %<span class=\"bar\">") != NULL);
	T_TRUE(strstr(h, "<td class=\"n\" data-l=\"Value\">605 MB/s</td>") !=
	    NULL);
	T_TRUE(strstr(h, "smb (smbd pid 4121)") != NULL);
	T_TRUE(strstr(h, "2025-12-02 16:00:00 UTC") != NULL);
	free(h);
	json_decref(j);

	h = html_of("network-1gbe", &j);
	T_TRUE(strstr(h, "Network-bound") != NULL);
	T_EQ_INT(count(h, "class=\"ln cap\""), 2);	/* eth0, eth1 */
	/* The two members of a RAID1 are drawn large, not as cards. */
	T_TRUE(strstr(h, "<div class=\"members\">\n<div class=\"g2\">") !=
	    NULL && strstr(h, "class=\"card\"") == NULL);
	free(h);
	json_decref(j);

	h = html_of("cpu-4core", &j);
	T_TRUE(strstr(h, "CPU-bound") != NULL);
	T_EQ_INT(count(h, "</i>softirq, mean"), 4);
	T_TRUE(strstr(h, "smbd pid 4121 on cpu3") != NULL);
	/* SMB signing: how to turn it off on the client, then the CPU. */
	d = strstr(h, "<h2>What to try next</h2>");
	T_TRUE(d != NULL && d > strstr(h, "<h2>Likely cause</h2>") &&
	    d < strstr(h, "<h2>Observations</h2>"));
	T_TRUE(d != NULL && strstr(d, "<li>SMB signing: turn signing off on "
	    "the client to confirm, then copy again: macOS /etc/nsmb.conf "
	    "signing_required=no") != NULL && strstr(d, "Windows: "
	    "Set-SmbClientConfiguration -RequireSecuritySignature $false") !=
	    NULL && strstr(d, "SMB signing:") < strstr(d, "<li>The NAS&#39;s "
	    "CPU is the limit"));
	T_TRUE(strstr(h, "<h3>CPU</h3>\n<div class=\"g3\">") != NULL);
	/* Two cores are drawn large, a row of their own. */
	json_array_remove(json_object_get(json_object_get(j, "series"),
	    "cpus"), 3);
	json_array_remove(json_object_get(json_object_get(j, "series"),
	    "cpus"), 2);
	free(h);
	h = render(report_html_write, j, &rc, &len);
	T_TRUE(strstr(h, "<h3>CPU</h3>\n<div class=\"g2\">") != NULL);
	T_TRUE(strstr(h, "<figcaption>cpu1 busy</figcaption>\n<div "
	    "class=\"pl\">") != NULL);
	free(h);
	json_decref(j);

	h = html_of("nulls-gaps", &j);
	T_TRUE(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; "
	    "&quot;x&quot;") != NULL);
	T_TRUE(strstr(h, "<title>nasperf: &lt;script&gt;") != NULL);
	T_TRUE(strstr(h, "&quot;quoted&quot; &amp; &lt;odd&gt;") != NULL);
	T_TRUE(strstr(h, "&lt;b&gt;bold&lt;/b&gt;") != NULL);
	T_TRUE(strstr(h, "<b>bold") == NULL);
	T_TRUE(strstr(h, "No verdict") != NULL);
	T_TRUE(strstr(h, "The client's rate is not known") != NULL);
	T_TRUE(strstr(h, "No data from 1: wlan0.") != NULL);
	T_TRUE(strstr(h, "No data from 1: loop0.") != NULL);
	T_TRUE(count(h, "<rect class=\"gap\"") >= 4);
	/* The gap lifts the pen: rx is four runs, two of them lone dots. */
	d = first_path(h, "eth0 &lt;lan&gt; receive and send");
	T_EQ_INT(count(d, "M"), 4);
	T_EQ_INT(count(d, "m-2 0h4"), 2);
	free(d);
	free(h);
	json_decref(j);

	h = html_of("cpu64-client", &j);
	T_TRUE(strstr(h, "Client-bound") != NULL);
	T_TRUE(strstr(h, "All 64 cores") != NULL);
	T_EQ_INT(count(h, "</i>softirq, mean"), 16);
	T_TRUE(strstr(h, "and 48 more cores, none above 1.25 % busy on "
	    "average: cpu1, cpu3,") != NULL);
	T_TRUE(strstr(h, "<figcaption>cpu17 busy</figcaption>") != NULL);
	T_TRUE(strstr(h, "and 2 more groups: g5, g6.") != NULL);
	T_TRUE(count(h, "<svg") <= 24);
	/* A disk alone is drawn large. */
	T_TRUE(strstr(h, "<figcaption>nvme0n1 throughput</figcaption>\n<div "
	    "class=\"pl\">") != NULL);
	free(h);
	json_decref(j);

	/* A run stopped by its client, on a path seen, its network measured. */
	h = html_of("transfer-stopped", &j);
	T_TRUE(strstr(h, "<title>nasperf: Finder copy of the shoot, stopped "
	    "(interrupted)</title>") != NULL);
	T_TRUE(strstr(h, "<p class=\"sub\">read · client unknown (10.0.0.31) "
	    "· server studio-nas") != NULL);
	T_TRUE(strstr(h, "<dd>ended, interrupted</dd>") != NULL);
	T_TRUE(strstr(h, "<td>by a synthetic test of the path") != NULL);
	T_TRUE(strstr(h, "<td>/volume1, by the disk analyzer") != NULL);
	T_TRUE(strstr(h, "of the lower ceiling, the network's") != NULL);
	/* The client gave bytes and seconds: its line said to be an average. */
	T_TRUE(strstr(h, "<figcaption>Client rate: an average</figcaption>") !=
	    NULL);
	T_TRUE(strstr(h, "its line is their average, not its progress.  The "
	    "run's interface, eth0, shows the transfer over time.") != NULL);
	T_TRUE(strstr(h, "class=\"ln avg\"") != NULL);
	T_TRUE(strstr(h, "</i>client&#39;s average: 1000 MB in 9.25 s, 108 "
	    "MB/s</li>") != NULL);
	T_TRUE(strstr(h, "</i>eth0 sent, on the server, mean") != NULL);
	/* The run's interface first, across the page, then the others. */
	d = strstr(h, "<h3>Network</h3>\n<div class=\"g1\">\n<figure "
	    "class=\"ch\"><figcaption>eth0 receive and send: the run's "
	    "interface</figcaption>");
	T_TRUE(d != NULL && strstr(h, "<h4>Other interfaces</h4>\n<div "
	    "class=\"g2\">\n<figure class=\"ch\"><figcaption>eth1 receive") >
	    d);
	T_TRUE(d != NULL && strstr(d, "</i>capacity 125 MB/s</li>") != NULL &&
	    strstr(d, "</i>network ceiling 118 MB/s</li>") != NULL &&
	    strstr(d, "</i>network ceiling") < strstr(d, "eth1 receive"));
	T_EQ_INT(count(h, "class=\"ln cap\""), 3);
	free(h);
	/* What took the rest of the lower ceiling, escaped. */
	json_object_set_new(json_object_get(j, "ceilings"), "rest", json_pack(
	    "{s:s,s:s}", "by", "smb_signing", "text", "SMB signing, on the "
	    "CPU of the serving process (smbd <pid> 7)"));
	h = render(report_html_write, j, &rc, &len);
	T_TRUE(strstr(h, "<tr><th>The rest</th><td></td><td>taken by SMB "
	    "signing, on the CPU of the serving process (smbd &lt;pid&gt; "
	    "7)</td></tr>") != NULL);
	free(h);
	/* Its capacity unknown, or its interface silent: said so. */
	json_object_set_new(json_array_get(json_object_get(json_object_get(j,
	    "series"), "nics"), 1), "capacity_bytes_per_s", json_null());
	json_object_del(j, "ceilings");
	h = render(report_html_write, j, &rc, &len);
	T_TRUE(strstr(h, "eth0's capacity is not known") != NULL);
	free(h);
	json_object_set_new(json_object_get(j, "path"), "interface",
	    json_string("eth9"));
	h = render(report_html_write, j, &rc, &len);
	T_TRUE(strstr(h, "The run's interface, eth9, carried nothing in "
	    "the window.") != NULL);
	T_TRUE(strstr(h, "<h4>Other interfaces</h4>") != NULL);
	free(h);
	/* No path seen: the average alone, every interface alike. */
	json_object_del(j, "path");
	h = render(report_html_write, j, &rc, &len);
	T_TRUE(charts_drawn(h, "transfer-stopped without a path"));
	T_TRUE(strstr(h, "sent, on the server") == NULL && strstr(h, "Other "
	    "interfaces") == NULL && strstr(h, "not its progress.</p>") !=
	    NULL);
	/* No protocol or operation said: the line starts at the client. */
	json_object_set_new(json_object_get(j, "run"), "op", json_null());
	free(h);
	h = render(report_html_write, j, &rc, &len);
	T_TRUE(strstr(h, "<p class=\"sub\">client unknown") != NULL);
	free(h);
	json_decref(j);

	h = html_of("empty", &j);
	T_TRUE(strstr(h, "No samples in the window.") != NULL);
	T_TRUE(strstr(h, "What to try next") == NULL);	/* no verdict */
	T_EQ_INT(count(h, "<svg"), 0);
	free(h);
	json_decref(j);

	j = json_integer(1);
	T_ERRNO(report_html_write(j, stdout), EINVAL);
	json_decref(j);
	if ((f = fopen("/dev/full", "w")) != NULL) {
		j = load("disk-raid6");
		T_EQ_INT(report_html_write(j, f), -1);
		fclose(f);
		json_decref(j);
	} else
		t_skip("no /dev/full");
}

/* Render the report in a file to stdout, for the integration test. */
static int
cmd_render(const char *format, const char *path)
{
	json_error_t	 err;
	json_t		*j;
	int		 rc;

	if ((j = json_load_file(path, 0, &err)) == NULL) {
		fprintf(stderr, "%s:%d: %s\n", path, err.line, err.text);
		return (1);
	}
	if (strcmp(format, "yaml") == 0)
		rc = report_yaml_write(j, stdout);
	else
		rc = report_html_write(j, stdout);
	if (rc == -1)
		fprintf(stderr, "render: %s\n", strerror(errno));
	json_decref(j);
	return (rc == 0 ? 0 : 1);
}

int
main(int argc, char **argv)
{
	if (argc == 3)
		return (cmd_render(argv[1], argv[2]));
	test_yaml();
	test_html();
	return (t_done());
}
