/*
 * table.c: text tables whose columns are as wide as their widest cell.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

#define TABLE_MAX_COLS	32
#define TABLE_MAX_GAP	16

enum table_kind {
	TABLE_CELL,		/* a cell of its column */
	TABLE_SPAN,		/* the rest of the line, in no column */
	TABLE_END		/* the row ends here */
};

struct table_cell {
	char		*s;		/* NULL for TABLE_END */
	size_t		 width;		/* characters */
	size_t		 col;
	enum table_kind	 kind;
};

struct table {
	size_t			 ncols, indent;
	char			 align[TABLE_MAX_COLS];	/* 'l' or 'r' */
	size_t			 gap[TABLE_MAX_COLS];	/* spaces before */
	size_t			 width[TABLE_MAX_COLS];
	struct table_cell	*cells;
	size_t			 n, cap;
	size_t			 col;		/* the current row's next */
	size_t			 rows;
	int			 lost;		/* a cell lost to ENOMEM */
};

/* The characters of a UTF-8 string: its bytes that start one. */
static size_t
table_width(const char *s)
{
	size_t	w = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return (w);
}

struct table *
table_new(const char *layout)
{
	struct table	*t;
	const char	*p;
	size_t		 spaces = 0;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return (NULL);
	for (p = layout; *p != '\0'; p++) {
		if (*p == ' ') {
			if (++spaces > TABLE_MAX_GAP)
				goto bad;
			continue;
		}
		if ((*p != 'l' && *p != 'r') || t->ncols == TABLE_MAX_COLS)
			goto bad;
		if (t->ncols == 0)
			t->indent = spaces;
		else
			t->gap[t->ncols] = spaces > 0 ? spaces : 1;
		t->align[t->ncols++] = *p;
		spaces = 0;
	}
	if (t->ncols == 0)
		goto bad;
	return (t);
bad:
	free(t);
	errno = EINVAL;
	return (NULL);
}

void
table_free(struct table *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++)
		free(t->cells[i].s);
	free(t->cells);
	free(t);
}

/* Append a cell of kind with text s (taken; may be NULL for an end). */
static int
table_push(struct table *t, enum table_kind kind, char *s)
{
	struct table_cell	*nc;
	size_t			 ncap;

	if (t->n == t->cap) {
		ncap = t->cap == 0 ? 64 : t->cap * 2;
		if ((nc = realloc(t->cells, ncap * sizeof *nc)) == NULL) {
			free(s);
			t->lost = 1;
			return (-1);
		}
		t->cells = nc;
		t->cap = ncap;
	}
	nc = &t->cells[t->n++];
	nc->s = s;
	nc->kind = kind;
	nc->col = t->col;
	nc->width = s != NULL ? table_width(s) : 0;
	if (kind == TABLE_CELL && nc->width > t->width[t->col])
		t->width[t->col] = nc->width;
	return (0);
}

/* A cell's text from a format; NULL with the table marked. */
static char *
table_text(struct table *t, const char *fmt, va_list ap)
{
	char	*s;

	if (vasprintf(&s, fmt, ap) == -1) {
		t->lost = 1;
		errno = ENOMEM;
		return (NULL);
	}
	return (s);
}

int
table_add(struct table *t, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	if (t->col >= t->ncols)
		return (0);
	va_start(ap, fmt);
	s = table_text(t, fmt, ap);
	va_end(ap);
	if (s == NULL || table_push(t, TABLE_CELL, s) == -1)
		return (-1);
	t->col++;
	return (0);
}

int
table_row(struct table *t, ...)
{
	va_list		 ap;
	const char	*s;
	int		 rc = 0;

	va_start(ap, t);
	while ((s = va_arg(ap, const char *)) != NULL)
		if (table_add(t, "%s", s) == -1)
			rc = -1;
	va_end(ap);
	if (table_end(t) == -1)
		rc = -1;
	return (rc);
}

int
table_end(struct table *t)
{
	t->col = 0;
	t->rows++;
	return (table_push(t, TABLE_END, NULL));
}

int
table_span(struct table *t, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 rc = 0;

	va_start(ap, fmt);
	s = table_text(t, fmt, ap);
	va_end(ap);
	if (s == NULL || table_push(t, TABLE_SPAN, s) == -1)
		rc = -1;
	if (table_end(t) == -1)
		rc = -1;
	return (rc);
}

size_t
table_rows(const struct table *t)
{
	return (t->rows + (t->col > 0));
}

/* Print n spaces. */
static void
table_pad(FILE *fp, size_t n)
{
	while (n-- > 0)
		fputc(' ', fp);
}

/* Print the row of cells c[0..n-1] (its end not included). */
static void
table_line(const struct table *t, FILE *fp, const struct table_cell *c,
    size_t n)
{
	size_t	i, last = 0, pad;
	int	any = 0;

	/* Nothing after the last cell with text: no trailing blanks. */
	for (i = 0; i < n; i++)
		if (c[i].kind == TABLE_SPAN || c[i].s[0] != '\0') {
			last = i;
			any = 1;
		}
	if (any)
		table_pad(fp, t->indent);
	for (i = 0; any && i <= last; i++) {
		if (i > 0)
			table_pad(fp, c[i].col < t->ncols ? t->gap[c[i].col] :
			    1);
		if (c[i].kind == TABLE_SPAN) {
			fputs(c[i].s, fp);
			break;
		}
		pad = t->width[c[i].col] - c[i].width;
		if (t->align[c[i].col] == 'r')
			table_pad(fp, pad);
		fputs(c[i].s, fp);
		if (t->align[c[i].col] == 'l' && i < last)
			table_pad(fp, pad);
	}
	fputc('\n', fp);
}

int
table_print(struct table *t, FILE *fp)
{
	size_t	i, start = 0;

	if (t->col > 0 && table_end(t) == -1)
		return (-1);
	for (i = 0; i < t->n; i++) {
		if (t->cells[i].kind != TABLE_END)
			continue;
		table_line(t, fp, t->cells + start, i - start);
		start = i + 1;
	}
	return (t->lost || ferror(fp) ? -1 : 0);
}

int
table_done(struct table *t, FILE *fp)
{
	int	rc = table_print(t, fp);

	table_free(t);
	return (rc);
}
