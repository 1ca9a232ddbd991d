/*
 * importers.c: dd summaries, fio JSON and CrystalDiskMark exports.
 *
 * Everything here is string parsing over a buffer that need not end in a
 * NUL; numbers are read by hand because strtod follows LC_NUMERIC and dd
 * itself prints the decimal separator of the user's locale.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "importers.h"
#include "np.h"

#define IMP_LINE_MAX	1024	/* longer lines are no summary of ours */
#define IMP_FIO_GROUPS	64	/* stonewalled groups told apart */
#define IMP_FIO_START_WINDOW	(7 * 86400.0)	/* s a job_start may lie back */

struct imp_records {			/* one "N+M records" line */
	uint64_t	full;
	uint64_t	part;
};

/* Empty r and name its tool. */
static void
imp_clear(struct importers_result *r, const char *tool)
{
	memset(r, 0, sizeof *r);
	r->tool = tool;
	r->op = IMPORTERS_OP_UNKNOWN;
}

/* Set *errstr and errno; always -1. */
static int
imp_fail(const char **errstr, int error, const char *why)
{
	if (errstr != NULL)
		*errstr = why;
	errno = error;
	return (-1);
}

/*
 * Copy the next line of [*p, end) into buf as a string and move *p past it.
 * Lines end at \n, and also at \r when cr is set: dd's status=progress
 * rewrites one line with \r.  Returns the line's length, or -1 at the end;
 * *toolong says it did not fit and was cut.
 */
static int
imp_line(const char **p, const char *end, int cr, char *buf, size_t size,
    int *toolong)
{
	const char	*s = *p, *e;
	size_t		 n;

	if (s >= end)
		return (-1);
	for (e = s; e < end && *e != '\n' && !(cr && *e == '\r'); e++)
		;
	*p = e < end ? e + 1 : e;
	n = (size_t)(e - s);
	if (n > 0 && s[n - 1] == '\r')
		n--;
	*toolong = n >= size;
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return ((int)n);
}

/* 1 if c is an ASCII digit. */
static int
imp_isdigit(int c)
{
	return (c >= '0' && c <= '9');
}

/* 1 if c is an ASCII letter. */
static int
imp_isalpha(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/*
 * Length of the space at s: blanks, or the no-break spaces (U+00A0,
 * U+202F) that some locales put between a number and its unit.
 */
static size_t
imp_space(const char *s)
{
	if (*s == ' ' || *s == '\t')
		return (1);
	if ((unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0)
		return (2);
	if ((unsigned char)s[0] == 0xe2 && (unsigned char)s[1] == 0x80 &&
	    (unsigned char)s[2] == 0xaf)
		return (3);
	return (0);
}

/* Skip spaces of any kind. */
static const char *
imp_skipspace(const char *s)
{
	size_t	n;

	while ((n = imp_space(s)) != 0)
		s += n;
	return (s);
}

/*
 * Read a decimal number at *sp: digits, one '.' or ',' decimal separator
 * followed by a digit, an optional exponent.  Returns -1 without a digit.
 */
static int
imp_decimal(const char **sp, double *v)
{
	const char	*s = *sp;
	uint64_t	 mant = 0;
	int		 exp10 = 0;
	double		 d;

	if (!imp_isdigit(*s))
		return (-1);
	for (; imp_isdigit(*s); s++) {
		if (mant < UINT64_MAX / 100)
			mant = mant * 10 + (uint64_t)(*s - '0');
		else
			exp10++;
	}
	if ((*s == '.' || *s == ',') && imp_isdigit(s[1])) {
		for (s++; imp_isdigit(*s); s++) {
			if (mant < UINT64_MAX / 100) {
				mant = mant * 10 + (uint64_t)(*s - '0');
				exp10--;
			}
		}
	}
	if ((*s == 'e' || *s == 'E') && (imp_isdigit(s[1]) ||
	    ((s[1] == '-' || s[1] == '+') && imp_isdigit(s[2])))) {
		int	eneg, e;

		s++;
		eneg = *s == '-';
		if (*s == '-' || *s == '+')
			s++;
		for (e = 0; imp_isdigit(*s); s++)
			if (e < 1000)
				e = e * 10 + (*s - '0');
		exp10 += eneg ? -e : e;
	}
	if (exp10 > 300 || exp10 < -300)
		return (-1);		/* no time or rate of ours */
	d = (double)mant;
	/* One multiplication or division by an exact power: best rounding. */
	if (exp10 < 0 && exp10 >= -22)
		d /= pow(10, -exp10);
	else if (exp10 != 0)
		d *= pow(10, exp10);
	*v = d;
	*sp = s;
	return (0);
}

/*
 * Read an unsigned integer at *sp, allowing thousands groups ("1,073,741,
 * 824" or with '.', '\'' or a no-break space) when each group has three
 * digits.  -1 without a digit or on overflow (errno ERANGE).
 */
static int
imp_count(const char **sp, uint64_t *v)
{
	const char	*s = *sp, *g;
	uint64_t	 n = 0;
	size_t		 sep, lead;
	int		 i;

	if (!imp_isdigit(*s))
		return (-1);
	for (lead = 0; imp_isdigit(*s); s++, lead++) {
		if (n > (UINT64_MAX - 9) / 10) {
			errno = ERANGE;
			return (-1);
		}
		n = n * 10 + (uint64_t)(*s - '0');
	}
	while (lead <= 3) {
		if (*s == ',' || *s == '.' || *s == '\'')
			sep = 1;
		else if ((sep = imp_space(s)) < 2)
			break;
		g = s + sep;
		for (i = 0; i < 3 && imp_isdigit(g[i]); i++)
			;
		if (i != 3 || imp_isdigit(g[3]))
			break;
		if (n > UINT64_MAX / 1000) {
			errno = ERANGE;
			return (-1);
		}
		n = n * 1000 + (uint64_t)(g[0] - '0') * 100 +
		    (uint64_t)(g[1] - '0') * 10 + (uint64_t)(g[2] - '0');
		s = g + 3;
	}
	*v = n;
	*sp = s;
	return (0);
}

/* 1 if s, at a word boundary, is a unit of seconds; *after past it. */
static int
imp_seconds_unit(const char *s, const char **after)
{
	static const char	*units[] = {
		"seconds", "second", "secs", "sec", "s"
	};
	size_t			 i;

	for (i = 0; i < NP_NITEMS(units); i++) {
		size_t	n = strlen(units[i]);

		if (strncmp(s, units[i], n) == 0 && !imp_isalpha(s[n])) {
			*after = s + n;
			return (1);
		}
	}
	return (0);
}

/* Parse "N+M" at the start of a token in line; 0 when found. */
static int
imp_dd_records(const char *line, struct imp_records *rec)
{
	const char	*s;

	for (s = line; *s != '\0'; s++) {
		if (!imp_isdigit(*s) || (s > line && (imp_isdigit(s[-1]) ||
		    imp_isalpha(s[-1]))))
			continue;
		if (imp_count(&s, &rec->full) == -1)
			return (-1);
		if (*s != '+' || !imp_isdigit(s[1])) {
			s--;		/* the loop steps to what follows */
			continue;
		}
		s++;
		if (imp_count(&s, &rec->part) == -1)
			return (-1);
		if (*s == '\0' || imp_space(s) != 0)
			return (0);
		s--;
	}
	return (-1);
}

/*
 * Find in a line a time ("1.23 s", "1,2 s", "1.234s", "1.2 seconds",
 * "1.2 secs") outside parentheses and followed by a rate ("/s", "/sec").
 * *at is where the number starts.  0 when found.
 */
static int
imp_dd_time(const char *line, double *secs, const char **at)
{
	const char	*s, *t, *u;
	int		 depth = 0;
	double		 v;

	for (s = line; *s != '\0'; s++) {
		if (*s == '(') {
			depth++;
			continue;
		}
		if (*s == ')' && depth > 0) {
			depth--;
			continue;
		}
		if (depth > 0 || !imp_isdigit(*s) || (s > line &&
		    (imp_isdigit(s[-1]) || imp_isalpha(s[-1]) ||
		    s[-1] == '.' || s[-1] == ',')))
			continue;
		t = s;
		if (imp_decimal(&t, &v) == -1)
			continue;
		u = t + imp_space(t);
		if (imp_seconds_unit(u, &u) && strstr(u, "/s") != NULL) {
			*secs = v;
			*at = s;
			return (0);
		}
		s = t - 1;
	}
	return (-1);
}

/*
 * The byte count of a transfer line: the first integer before the time,
 * outside parentheses, followed by a space and a word ("bytes", "Bytes",
 * "octets" or a word of another script).  0 when found; -1 and errno
 * ERANGE on overflow.
 */
static int
imp_dd_bytes(const char *line, const char *stop, uint64_t *bytes)
{
	const char	*s, *t;
	int		 depth = 0;
	size_t		 sp;

	for (s = line; s < stop; s++) {
		if (*s == '(') {
			depth++;
			continue;
		}
		if (*s == ')' && depth > 0) {
			depth--;
			continue;
		}
		if (depth > 0 || !imp_isdigit(*s) || (s > line &&
		    (imp_isdigit(s[-1]) || imp_isalpha(s[-1]) ||
		    s[-1] == '.' || s[-1] == ',' || s[-1] == '+')))
			continue;
		t = s;
		errno = 0;
		if (imp_count(&t, bytes) == -1) {
			if (errno == ERANGE)
				return (-1);
			continue;
		}
		if ((sp = imp_space(t)) != 0 && !imp_isdigit(t[sp]) &&
		    t[sp] != '\0' && t[sp] != '(')
			return (0);
		s = t - 1;
	}
	errno = 0;
	return (-1);
}

/*
 * Find the last dd summary in text.  The records lines come in pairs, in
 * then out, and belong to the transfer line after them.
 */
int
importers_dd(const char *text, size_t len, struct importers_result *r,
    const char **errstr)
{
	const char		*p, *end, *at, *bad = NULL;
	char			 buf[IMP_LINE_MAX];
	struct imp_records	 rec, out_rec;
	int			 toolong, prev_rec = 0, have_pair = 0;
	int			 found = 0, keyword, has_time;
	double			 secs;
	uint64_t		 bytes;

	if (errstr != NULL)
		*errstr = NULL;
	if (text == NULL) {
		text = "";
		len = 0;
	}
	p = text;
	end = text + len;
	imp_clear(r, "dd");
	memset(&out_rec, 0, sizeof out_rec);
	while (imp_line(&p, end, 1, buf, sizeof buf, &toolong) != -1) {
		if (toolong || buf[0] == '\0')
			continue;
		if (imp_dd_records(buf, &rec) == 0) {
			if (prev_rec) {
				out_rec = rec;
				have_pair = 1;
			}
			prev_rec = !prev_rec;
			continue;
		}
		prev_rec = 0;
		keyword = strstr(buf, "byte") != NULL &&
		    (strstr(buf, " copied") != NULL ||
		    strstr(buf, " transferred") != NULL);
		has_time = imp_dd_time(buf, &secs, &at) == 0;
		if (!keyword && !has_time)
			continue;
		if (!has_time) {
			bad = "dd summary without a time in seconds";
			continue;
		}
		if (imp_dd_bytes(buf, at, &bytes) == -1) {
			if (errno == ERANGE)
				bad = "dd byte count out of range";
			else if (keyword)
				bad = "dd summary without a byte count";
			continue;
		}
		imp_clear(r, "dd");
		r->has_bytes = 1;
		r->bytes = bytes;
		r->has_seconds = 1;
		r->seconds = secs;
		if (have_pair) {
			r->has_ops = 1;
			r->ops = out_rec.full + out_rec.part;
			if (out_rec.part == 0 && out_rec.full > 0 &&
			    bytes > 0 && bytes % out_rec.full == 0) {
				r->has_block_size = 1;
				r->block_size = bytes / out_rec.full;
			}
			have_pair = 0;
		}
		found = 1;
		bad = NULL;
	}
	if (bad != NULL) {
		imp_clear(r, "dd");
		return (imp_fail(errstr, EINVAL, bad));
	}
	if (!found && have_pair) {
		/* Records alone: status=noxfer, or busybox built without. */
		r->has_ops = 1;
		r->ops = out_rec.full + out_rec.part;
		found = 1;
	}
	if (!found)
		return (imp_fail(errstr, ENOENT, "no dd summary found"));
	return (0);
}

/* Get key of o as a non-negative number; -1 when missing or not one. */
static int
imp_json_u64(json_t *o, const char *key, uint64_t *v)
{
	json_t	*j;

	if ((j = json_object_get(o, key)) == NULL)
		return (-1);
	if (json_is_integer(j) && json_integer_value(j) >= 0) {
		*v = (uint64_t)json_integer_value(j);
		return (0);
	}
	if (json_is_real(j) && json_real_value(j) >= 0 &&
	    json_real_value(j) < 1.8e19) {
		*v = (uint64_t)json_real_value(j);
		return (0);
	}
	return (-1);
}

/* Bytes one side of a fio job moved: io_bytes, else io_kbytes; or -1. */
static int
imp_fio_io(json_t *side, uint64_t *io)
{
	if (imp_json_u64(side, "io_bytes", io) == 0)
		return (0);
	if (imp_json_u64(side, "io_kbytes", io) == -1 ||
	    *io > UINT64_MAX / 1024)
		return (-1);
	*io *= 1024;
	return (0);
}

/* Append s to the label, separated by ", ". */
static void
imp_label_add(struct importers_result *r, const char *s)
{
	size_t	n = strlen(r->label);

	if (n + 1 >= sizeof r->label)
		return;
	snprintf(r->label + n, sizeof r->label - n, "%s%s",
	    n > 0 ? ", " : "", s);
}

/* Parse fio's JSON output. */
int
importers_fio_json(const char *text, size_t len, struct importers_result *r,
    const char **errstr)
{
	static const char	*sides[] = { "read", "write" };
	const char		*p, *end, *name;
	json_t			*root = NULL, *jobs, *job, *side, *jv;
	json_error_t		 jerr;
	struct {
		long long	id;
		uint64_t	ms;
	}			 groups[IMP_FIO_GROUPS];
	size_t			 ngroups = 0, i, g, s;
	uint64_t		 io, ms, ios, bw, ts, start_ms = 0, total_ms;
	uint64_t		 rbytes = 0, wbytes = 0, bs = 0;
	long long		 gid;
	int			 rc = -1, mixed_bs = 0, have_rate = 0;

	if (errstr != NULL)
		*errstr = NULL;
	if (text == NULL) {
		text = "";
		len = 0;
	}
	end = text + len;
	imp_clear(r, "fio");
	for (p = text; p < end; p++)
		if (*p == '{' && (p == text || p[-1] == '\n'))
			break;
	if (p >= end) {
		rc = imp_fail(errstr, ENOENT, "no fio JSON output found");
		goto out;
	}
	root = json_loadb(p, (size_t)(end - p), JSON_DISABLE_EOF_CHECK, &jerr);
	if (root == NULL) {
		rc = imp_fail(errstr, EINVAL, "fio JSON is truncated or "
		    "malformed");
		goto out;
	}
	if (!json_is_object(root) ||
	    !json_is_array(jobs = json_object_get(root, "jobs"))) {
		rc = imp_fail(errstr, EINVAL, "fio JSON without a jobs array");
		goto out;
	}
	if (json_array_size(jobs) == 0) {
		rc = imp_fail(errstr, EINVAL, "fio JSON with no jobs");
		goto out;
	}
	for (i = 0; i < json_array_size(jobs); i++) {
		job = json_array_get(jobs, i);
		if (!json_is_object(job)) {
			rc = imp_fail(errstr, EINVAL, "fio job is not an "
			    "object");
			goto out;
		}
		if ((name = json_string_value(json_object_get(job,
		    "jobname"))) != NULL)
			imp_label_add(r, name);
		jv = json_object_get(job, "groupid");
		gid = json_is_integer(jv) ? json_integer_value(jv) : 0;
		for (g = 0; g < ngroups && groups[g].id != gid; g++)
			;
		if (g == ngroups) {
			if (ngroups < IMP_FIO_GROUPS) {
				groups[ngroups].id = gid;
				groups[ngroups++].ms = 0;
			} else
				g = ngroups - 1;	/* fold the rest */
		}
		if (imp_json_u64(job, "job_start", &ms) == 0 && ms > 0 &&
		    (start_ms == 0 || ms < start_ms))
			start_ms = ms;
		for (s = 0; s < NP_NITEMS(sides); s++) {
			side = json_object_get(job, sides[s]);
			if (side == NULL)
				continue;
			if (!json_is_object(side)) {
				rc = imp_fail(errstr, EINVAL, "fio job side "
				    "is not an object");
				goto out;
			}
			if (imp_fio_io(side, &io) == -1) {
				rc = imp_fail(errstr, EINVAL, "fio job without "
				    "io_bytes");
				goto out;
			}
			if (s == 0)
				rbytes += io;
			else
				wbytes += io;
			if (io == 0)
				continue;
			if (imp_json_u64(side, "runtime", &ms) == 0 &&
			    ms > groups[g].ms)
				groups[g].ms = ms;
			if (imp_json_u64(side, "total_ios", &ios) == 0) {
				r->has_ops = 1;
				r->ops += ios;
				if (ios == 0 || io % ios != 0 ||
				    (bs != 0 && bs != io / ios))
					mixed_bs = 1;
				else
					bs = io / ios;
			} else
				mixed_bs = 1;
			if (imp_json_u64(side, "bw_bytes", &bw) == 0) {
				have_rate = 1;
				r->rate += (double)bw;
			}
		}
	}
	r->has_bytes = 1;
	r->bytes = rbytes + wbytes;
	if (rbytes > 0 && wbytes > 0)
		r->op = IMPORTERS_OP_MIXED;
	else if (rbytes > 0)
		r->op = IMPORTERS_OP_READ;
	else if (wbytes > 0)
		r->op = IMPORTERS_OP_WRITE;
	if (bs != 0 && !mixed_bs) {
		r->has_block_size = 1;
		r->block_size = bs;
	}
	r->has_rate = have_rate && r->rate > 0;
	for (total_ms = 0, g = 0; g < ngroups; g++)
		total_ms += groups[g].ms;
	if (total_ms > 0) {
		r->has_seconds = 1;
		r->seconds = (double)total_ms / 1000;
	}
	if (imp_json_u64(root, "timestamp_ms", &ts) == 0) {
		r->has_end = 1;
		r->end = (double)ts / 1000;
	} else if (imp_json_u64(root, "timestamp", &ts) == 0) {
		r->has_end = 1;
		r->end = (double)ts;
	}
	/*
	 * job_start (fio 3.36 on) is read from job_start_clock_id, which need
	 * not be the wall clock: only a start in the week before the end is.
	 */
	if (start_ms > 0 && r->has_end && (double)start_ms / 1000 <= r->end &&
	    (double)start_ms / 1000 >= r->end - IMP_FIO_START_WINDOW) {
		r->has_start = 1;
		r->start = (double)start_ms / 1000;
	} else if (r->has_end && r->has_seconds) {
		r->has_start = 1;
		r->start = r->end - r->seconds;
	}
	rc = 0;
out:
	if (rc == -1)
		imp_clear(r, "fio");
	json_decref(root);
	return (rc);
}

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

/* Tell the format of text and parse it. */
int
importers_detect(const char *text, size_t len, struct importers_result *out,
    size_t max, size_t *n, const char **errstr)
{
	const unsigned char	*u = (const unsigned char *)text;

	*n = 0;
	if (errstr != NULL)
		*errstr = NULL;
	if (text == NULL) {
		text = "";
		len = 0;
	}
	if (max == 0)
		return (imp_fail(errstr, EINVAL, "no room for a result"));
	if ((len >= 2 && u[0] == 0xff && u[1] == 0xfe) ||
	    (len >= 4 && u[0] != 0 && u[1] == 0 && u[3] == 0) ||
	    memmem(text, len, "CrystalDiskMark", 15) != NULL)
		return (importers_cdm(text, len, out, max, n, errstr));
	if (memmem(text, len, "\"fio version\"", 13) != NULL ||
	    memmem(text, len, "\"jobs\"", 6) != NULL) {
		if (importers_fio_json(text, len, out, errstr) == -1)
			return (-1);
		*n = 1;
		return (0);
	}
	if (importers_dd(text, len, out, errstr) == -1) {
		if (errno == ENOENT)
			return (imp_fail(errstr, ENOENT, "no dd, fio JSON or "
			    "CrystalDiskMark output found"));
		return (-1);
	}
	*n = 1;
	return (0);
}

/* The op's name for people and JSON. */
const char *
importers_op_name(enum importers_op op)
{
	switch (op) {
	case IMPORTERS_OP_READ:
		return ("read");
	case IMPORTERS_OP_WRITE:
		return ("write");
	case IMPORTERS_OP_MIXED:
		return ("mixed");
	default:
		return ("unknown");
	}
}
