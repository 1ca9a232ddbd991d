/*
 * table.h: text tables whose columns are as wide as their widest cell.
 *
 * Rows of cells are added, then printed at once: each column is padded to
 * its widest cell (UTF-8 characters counted, not bytes), left or right as
 * the table's layout says, and nothing is cut.  The last cell of a row is
 * not padded when it is left-aligned.  A span is a row's last cell that
 * runs on to the end of the line and widens no column: a note under a
 * row, or a row with one text.
 *
 *	t = table_new("l l r  l");	-- left, left, right, two spaces, left
 *	table_row(t, "NAME", "STATE", "MB/s", "VERDICT", NULL);
 *	table_add(t, "%s", name); ...; table_end(t);
 *	table_print(t, stdout);
 *	table_free(t);
 */
#ifndef TABLE_H
#define TABLE_H

#include <stdio.h>

#include "np.h"

struct table;

/*
 * A table laid out as layout says: a letter a column, 'l' for left- and
 * 'r' for right-aligned, and between two letters the spaces that separate
 * those columns (none: one); spaces before the first letter indent every
 * line.  NULL with errno: EINVAL for a bad layout, ENOMEM.
 */
struct table	*table_new(const char *layout);
/* Free t and its cells; NULL is allowed. */
void	 table_free(struct table *t);
/*
 * Add a cell to the current row, printf-style; a row's cells past the
 * layout's columns are dropped.  -1 with errno ENOMEM (the table then
 * prints without it and table_print fails).
 */
int	 table_add(struct table *t, const char *fmt, ...) NP_PRINTF(2, 3);
/*
 * Add the strings up to a NULL as cells, then end the row: a header, or
 * a row whose cells are made already.
 */
int	 table_row(struct table *t, ...) __attribute__((sentinel));
/* End the current row; an empty row prints as an empty line. */
int	 table_end(struct table *t);
/*
 * End the current row with a cell that runs to the end of the line and
 * counts in no column's width; alone in its row, it starts at the indent.
 */
int	 table_span(struct table *t, const char *fmt, ...) NP_PRINTF(2, 3);
/* Rows added so far, the current one included if it has a cell. */
size_t	 table_rows(const struct table *t);
/*
 * Print every row to fp, ending a row left open.  -1 when a cell was
 * lost to ENOMEM or fp failed (what could be printed is).
 */
int	 table_print(struct table *t, FILE *fp);

/* table_print, then table_free: what table_print returns. */
int	 table_done(struct table *t, FILE *fp);

#endif /* TABLE_H */
