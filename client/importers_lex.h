/*
 * importers_lex.h: what the importers (import_dd.c, import_fio.c,
 * import_cdm.c) share to read text: lines of a buffer that need not end
 * in a NUL, and numbers read by hand, as strtod follows LC_NUMERIC and
 * dd prints the decimal separator of the user's locale (importers_lex.c).
 */
#ifndef IMPORTERS_LEX_H
#define IMPORTERS_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "importers.h"

#define IMP_LINE_MAX	1024	/* longer lines are no summary of ours */

/* Empty r and name its tool. */
void	imp_clear(struct importers_result *r, const char *tool);
/* Set *errstr and errno; always -1. */
int	imp_fail(const char **errstr, int error, const char *why);
/*
 * Copy the next line of [*p, end) into buf as a string and move *p past it.
 * Lines end at \n, and also at \r when cr is set: dd's status=progress
 * rewrites one line with \r.  Returns the line's length, or -1 at the end;
 * *toolong says it did not fit and was cut.
 */
int	imp_line(const char **p, const char *end, int cr, char *buf,
	    size_t size, int *toolong);
/* 1 if c is an ASCII digit. */
int	imp_isdigit(int c);
/* 1 if c is an ASCII letter. */
int	imp_isalpha(int c);
/*
 * Length of the space at s: blanks, or the no-break spaces (U+00A0,
 * U+202F) that some locales put between a number and its unit.
 */
size_t	imp_space(const char *s);
/* Skip spaces of any kind. */
const char	*imp_skipspace(const char *s);
/*
 * Read a decimal number at *sp: digits, one '.' or ',' decimal separator
 * followed by a digit, an optional exponent.  Returns -1 without a digit.
 */
int	imp_decimal(const char **sp, double *v);
/*
 * Read an unsigned integer at *sp, allowing thousands groups ("1,073,741,
 * 824" or with '.', '\'' or a no-break space) when each group has three
 * digits.  -1 without a digit or on overflow (errno ERANGE).
 */
int	imp_count(const char **sp, uint64_t *v);

#endif /* IMPORTERS_LEX_H */
