/*
 * importers_lex.c: the importers' shared reading of text (importers_lex.h):
 * lines of a buffer that need not end in a NUL, and numbers read by hand.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "importers.h"
#include "importers_lex.h"

/* Empty r and name its tool. */
void
imp_clear(struct importers_result *r, const char *tool)
{
	memset(r, 0, sizeof *r);
	r->tool = tool;
	r->op = IMPORTERS_OP_UNKNOWN;
}

/* Set *errstr and errno; always -1. */
int
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
int
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
int
imp_isdigit(int c)
{
	return (c >= '0' && c <= '9');
}

/* 1 if c is an ASCII letter. */
int
imp_isalpha(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/*
 * Length of the space at s: blanks, or the no-break spaces (U+00A0,
 * U+202F) that some locales put between a number and its unit.
 */
size_t
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
const char *
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
int
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
int
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
