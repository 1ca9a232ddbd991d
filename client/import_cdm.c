/*
 * import_cdm.c: CrystalDiskMark's text export (versions 6 to 8, UTF-8 or
 * UTF-16), its tests and its footer.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "importers.h"
#include "importers_lex.h"
#include "np.h"

/*
 * If text is UTF-16LE (CrystalDiskMark 7 writes it so), return a copy
 * narrowed to bytes, other characters as '?', in *copy (caller frees).
 * *copy is NULL when the text is not UTF-16LE.  -1 on ENOMEM.
 */
static int
imp_narrow(const char *text, size_t len, char **copy, size_t *nlen)
{
	const unsigned char	*u = (const unsigned char *)text;
	size_t			 i, j, k;
	char			*s;

	*copy = NULL;
	i = 0;
	if (len >= 2 && u[0] == 0xff && u[1] == 0xfe)
		i = 2;
	else if (len < 4 || u[0] == 0 || u[1] != 0 || u[3] != 0)
		return (0);
	if ((s = malloc(len / 2 + 1)) == NULL)
		return (-1);
	for (j = 0, k = i; k + 1 < len; k += 2) {
		unsigned	c = u[k] | (unsigned)u[k + 1] << 8;

		if (c == 0)
			break;
		s[j++] = c < 0x80 ? (char)c : '?';
	}
	s[j] = '\0';
	*copy = s;
	*nlen = j;
	return (0);
}

/* Trim spaces at both ends of s, in place; returns the new start. */
static char *
imp_trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t' ||
	    e[-1] == '\r'); e--)
		;
	*e = '\0';
	return (s);
}

/* Bytes in a size unit ("KiB", "MiB", "GiB", "KB", "MB"...); 0 if none. */
static uint64_t
imp_size_unit(const char *u, const char **after)
{
	static const struct {
		const char	*name;
		uint64_t	 mult;
	} units[] = {
		{ "KiB", 1ULL << 10 }, { "MiB", 1ULL << 20 },
		{ "GiB", 1ULL << 30 }, { "TiB", 1ULL << 40 },
		{ "KB", 1000 }, { "MB", 1000000 }, { "GB", 1000000000 },
		{ "TB", 1000000000000ULL }
	};
	size_t			 i;

	for (i = 0; i < NP_NITEMS(units); i++) {
		size_t	n = strlen(units[i].name);

		if (strncmp(u, units[i].name, n) == 0 &&
		    !imp_isalpha(u[n])) {
			if (after != NULL)
				*after = u + n;
			return (units[i].mult);
		}
	}
	return (0);
}

/* The number after "key=" in s (spaces allowed), or -1. */
static long
imp_cdm_param(const char *s, const char *key)
{
	const char	*p;
	long		 v = 0;

	if ((p = strstr(s, key)) == NULL)
		return (-1);
	for (p += strlen(key); *p == ' '; p++)
		;
	if (!imp_isdigit(*p))
		return (-1);
	for (; imp_isdigit(*p) && v < 100000; p++)
		v = v * 10 + (*p - '0');
	return (v);
}

/* "Read", "Write" or "Mix" as CrystalDiskMark says it; "" otherwise. */
static const char *
imp_cdm_opname(enum importers_op op)
{
	switch (op) {
	case IMPORTERS_OP_READ:
		return ("Read");
	case IMPORTERS_OP_WRITE:
		return ("Write");
	case IMPORTERS_OP_MIXED:
		return ("Mix");
	default:
		return ("");
	}
}

/*
 * Label one CrystalDiskMark test and find its op and block size:
 * "SEQ    1MiB (Q=  8, T= 1)" (8), "Sequential 1MiB (Q=  8, T= 1)" (7) and
 * "Random Read 4KiB (Q= 32,T= 1)" (5, 6) become "SEQ1M Q8T1 Read" and
 * "RND4K Q32T1 Read".  A name of other words keeps its own text.  An op
 * in the name wins over the section's.
 */
static void
imp_cdm_name(const char *name, enum importers_op section,
    struct importers_result *r)
{
	const char	*kind = NULL, *u, *unit, *opname;
	char		 copy[IMP_LINE_MAX], size[24] = "", qt[32] = "";
	char		*w, *last, *paren;
	uint64_t	 mult, num;
	int		 other = 0, named_op = 0;

	snprintf(copy, sizeof copy, "%s", name);
	r->op = section;
	if ((paren = strchr(copy, '(')) != NULL) {
		long	q = imp_cdm_param(paren, "Q=");
		long	t = imp_cdm_param(paren, "T=");

		if (q >= 0 && t >= 0)
			snprintf(qt, sizeof qt, " Q%ldT%ld", q, t);
		else if (t >= 0)
			snprintf(qt, sizeof qt, " T%ld", t);
		*paren = '\0';
	}
	for (w = strtok_r(copy, " \t", &last); w != NULL;
	    w = strtok_r(NULL, " \t", &last)) {
		if (w == copy && (strcmp(w, "SEQ") == 0 ||
		    strcmp(w, "Sequential") == 0))
			kind = "SEQ";
		else if (w == copy && (strcmp(w, "RND") == 0 ||
		    strcmp(w, "Random") == 0))
			kind = "RND";
		else if (strcmp(w, "Read") == 0 || strcmp(w, "Write") == 0 ||
		    strcmp(w, "Mix") == 0) {
			r->op = *w == 'R' ? IMPORTERS_OP_READ : *w == 'W' ?
			    IMPORTERS_OP_WRITE : IMPORTERS_OP_MIXED;
			named_op = 1;
		} else if (imp_isdigit(*w)) {
			for (u = w, num = 0; imp_isdigit(*u) && num < 1000000;
			    u++)
				num = num * 10 + (uint64_t)(*u - '0');
			if ((mult = imp_size_unit(u, &unit)) != 0 &&
			    *unit == '\0') {
				r->has_block_size = 1;
				r->block_size = num * mult;
				snprintf(size, sizeof size, "%llu%c",
				    (unsigned long long)num, *u);
			} else
				other = 1;
		} else
			other = 1;
	}
	opname = imp_cdm_opname(r->op);
	if (kind != NULL && !other)
		snprintf(r->label, sizeof r->label, "%s%s%s%s%s", kind, size,
		    qt, *opname != '\0' ? " " : "", opname);
	else
		snprintf(r->label, sizeof r->label, "%s%s%s", name,
		    !named_op && *opname != '\0' ? " " : "",
		    named_op ? "" : opname);
}

/*
 * Parse one result line "<name> :  552.514 MB/s [  134.9 IOPS] < 9.1 us>"
 * into r, with *iops when stated (else -1).  0 when it is one, 1 when it
 * is not, -1 when it looks like one but has no rate.
 */
static int
imp_cdm_result(char *line, enum importers_op section,
    struct importers_result *r, double *iops)
{
	char		*colon, *rate;
	const char	*s;
	double		 v, mult;

	*iops = -1;
	if ((rate = strstr(line, "B/s")) == NULL || line[0] == '*')
		return (1);
	for (colon = rate; colon > line && colon[-1] != ':'; colon--)
		;
	if (colon == line)
		return (1);
	colon--;
	imp_clear(r, "crystaldiskmark");
	s = imp_skipspace(colon + 1);
	if (imp_decimal(&s, &v) == -1)
		return (-1);
	s = imp_skipspace(s);
	if (strncmp(s, "MB/s", 4) == 0)
		mult = 1e6;
	else if (strncmp(s, "GB/s", 4) == 0)
		mult = 1e9;
	else if (strncmp(s, "KB/s", 4) == 0)
		mult = 1e3;
	else
		return (-1);
	r->has_rate = 1;
	r->rate = v * mult;
	s = imp_skipspace(s + 4);
	if (*s == '[') {
		s = imp_skipspace(s + 1);
		if (imp_decimal(&s, &v) == 0 &&
		    strncmp(imp_skipspace(s), "IOPS", 4) == 0)
			*iops = v;
	}
	*colon = '\0';
	imp_cdm_name(imp_trim(line), section, r);
	return (0);
}

/*
 * Parse the footer value "2024/01/06 5:41:48" as local time.  -1 when it
 * is malformed.
 */
static int
imp_cdm_date(const char *v, double *when)
{
	struct tm	tm;
	int		y, mo, d, h, mi, s;
	time_t		t;

	if (sscanf(v, "%d/%d/%d %d:%d:%d", &y, &mo, &d, &h, &mi, &s) != 6 ||
	    y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 60)
		return (-1);
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	if ((t = mktime(&tm)) == (time_t)-1)
		return (-1);
	*when = (double)t;
	return (0);
}

struct imp_cdm_footer {			/* what the export says of all tests */
	int		has_date;
	double		date;		/* Unix seconds */
	int		has_measure;
	double		measure;	/* seconds per test */
	uint64_t	file_size;	/* bytes; 0 unknown */
	unsigned	runs;
};

/* Read the footer's Test:, Time: and Date: lines; -1 with *why if bad. */
static int
imp_cdm_footer(const char *text, size_t len, struct imp_cdm_footer *f,
    const char **why)
{
	const char	*p = text, *end = text + len, *s;
	char		 buf[IMP_LINE_MAX], *key, *val;
	double		 v;
	uint64_t	 mult;
	int		 toolong;

	memset(f, 0, sizeof *f);
	while (imp_line(&p, end, 0, buf, sizeof buf, &toolong) != -1) {
		char	*colon;

		if (strstr(buf, "B/s") != NULL ||
		    (colon = strchr(buf, ':')) == NULL)
			continue;
		*colon = '\0';
		key = imp_trim(buf);
		val = imp_trim(colon + 1);
		if (strcmp(key, "Date") == 0) {
			if (imp_cdm_date(val, &f->date) == -1) {
				*why = "malformed CrystalDiskMark Date: line";
				return (-1);
			}
			f->has_date = 1;
		} else if (strcmp(key, "Time") == 0 &&
		    strncmp(val, "Measure", 7) == 0) {
			s = imp_skipspace(val + 7);
			if (imp_decimal(&s, &f->measure) == -1 ||
			    f->measure <= 0) {
				*why = "malformed CrystalDiskMark Time: line";
				return (-1);
			}
			f->has_measure = 1;
		} else if (strcmp(key, "Test") == 0) {
			s = val;
			/* Past 2^64 bytes the conversion is undefined. */
			if (imp_decimal(&s, &v) == -1 || (mult =
			    imp_size_unit(imp_skipspace(s), NULL)) == 0 ||
			    !(v * (double)mult < 1.8e19)) {
				*why = "malformed CrystalDiskMark Test: line";
				return (-1);
			}
			f->file_size = (uint64_t)(v * (double)mult);
			if ((s = strstr(val, "(x")) != NULL &&
			    imp_isdigit(s[2]))
				f->runs = (unsigned)strtoul(s + 2, NULL, 10);
		}
	}
	return (0);
}

/* Parse a CrystalDiskMark text export. */
int
importers_cdm(const char *text, size_t len, struct importers_result *out,
    size_t max, size_t *n, const char **errstr)
{
	const char		*p, *end, *why = NULL;
	char			*copy = NULL, buf[IMP_LINE_MAX], *line;
	struct importers_result	 res;
	struct imp_cdm_footer	 f;
	enum importers_op	 section = IMPORTERS_OP_UNKNOWN;
	size_t			 total = 0, clen = 0;
	int			 toolong, header = 0, rc = -1, error = EINVAL;
	double			 iops;

	if (errstr != NULL)
		*errstr = NULL;
	*n = 0;
	if (text == NULL) {
		text = "";
		len = 0;
	}
	if (imp_narrow(text, len, &copy, &clen) == -1)
		return (imp_fail(errstr, ENOMEM, "out of memory"));
	if (copy != NULL) {
		text = copy;
		len = clen;
	}
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	if (imp_cdm_footer(text, len, &f, &why) == -1)
		goto out;
	p = text;
	end = text + len;
	while (imp_line(&p, end, 0, buf, sizeof buf, &toolong) != -1) {
		line = imp_trim(buf);
		if (strstr(line, "CrystalDiskMark") != NULL) {
			header = 1;
			continue;
		}
		if (line[0] == '[') {
			if (strncmp(line, "[Read]", 6) == 0)
				section = IMPORTERS_OP_READ;
			else if (strncmp(line, "[Write]", 7) == 0)
				section = IMPORTERS_OP_WRITE;
			else if (strncmp(line, "[Mix]", 5) == 0)
				section = IMPORTERS_OP_MIXED;
			else
				section = IMPORTERS_OP_UNKNOWN;
			continue;
		}
		switch (imp_cdm_result(line, section, &res, &iops)) {
		case 0:
			break;
		case -1:
			why = "CrystalDiskMark result without a rate in MB/s";
			goto out;
		default:
			continue;
		}
		if (f.has_measure) {
			res.has_seconds = 1;
			res.seconds = f.measure;
			res.has_bytes = 1;
			res.bytes = (uint64_t)llround(res.rate * f.measure);
			if (iops >= 0) {
				res.has_ops = 1;
				res.ops = (uint64_t)llround(iops * f.measure);
			}
		}
		res.has_start = f.has_date;
		res.start = f.date;
		res.has_file_size = f.file_size > 0;
		res.file_size = f.file_size;
		res.runs = f.runs;
		if (total++ < max)
			out[(*n)++] = res;
	}
	if (total == 0) {
		if (header)
			why = "CrystalDiskMark header without results";
		else {
			error = ENOENT;
			why = "no CrystalDiskMark results found";
		}
		goto out;
	}
	if (total > max) {
		error = EFBIG;
		why = "more CrystalDiskMark results than room for them";
		goto out;
	}
	rc = 0;
out:
	free(copy);
	if (rc == -1) {
		if (error != EFBIG)
			*n = 0;
		return (imp_fail(errstr, error, why));
	}
	return (0);
}
