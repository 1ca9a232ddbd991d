/*
 * import_dd.c: dd's summary, from GNU coreutils in any locale, busybox,
 * BSD and macOS, and FreeBSD's progress line.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "importers.h"
#include "importers_lex.h"
#include "np.h"

struct imp_records {			/* one "N+M records" line */
	uint64_t	full;
	uint64_t	part;
};

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
 * Whether s, in line, starts a number outside parentheses (*depth counts
 * them as s moves on): a digit not after a digit, a letter or one of the
 * characters of glue.
 */
static int
imp_dd_number_at(const char *line, const char *s, int *depth,
    const char *glue)
{
	if (*s == '(') {
		(*depth)++;
		return (0);
	}
	if (*s == ')' && *depth > 0) {
		(*depth)--;
		return (0);
	}
	return (*depth == 0 && imp_isdigit(*s) && !(s > line &&
	    (imp_isdigit(s[-1]) || imp_isalpha(s[-1]) ||
	    strchr(glue, s[-1]) != NULL)));
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
		if (!imp_dd_number_at(line, s, &depth, ".,"))
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
		if (!imp_dd_number_at(line, s, &depth, ".,+"))
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
