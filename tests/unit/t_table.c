/*
 * t_table.c: text tables: widths from the content, alignment, gaps,
 * spans, UTF-8 widths, no trailing blanks, bad layouts.
 */
#include "config.h"

#include "test.h"
#include "table.h"

static char	*t_out;

/* Print t into t_out (freed by the next call), then free t. */
static const char *
t_render(struct table *t)
{
	size_t	 len;
	FILE	*fp;

	free(t_out);
	t_out = NULL;
	if ((fp = open_memstream(&t_out, &len)) == NULL) {
		printf("Bail out! open_memstream: %s\n", strerror(errno));
		exit(1);
	}
	T_OK(table_print(t, fp));
	fclose(fp);
	table_free(t);
	return (t_out);
}

/* Columns as wide as their widest cell, whatever it is; nothing cut. */
static void
t_widths(void)
{
	struct table	*t;

	T_TRUE((t = table_new("l r  l")) != NULL);
	T_OK(table_row(t, "ID", "CLIENT", "VERDICT", NULL));
	table_add(t, "1");
	table_add(t, "28491.4 MB/s");
	table_add(t, "cache: page cache");
	table_end(t);
	table_add(t, "a label well past twenty-four characters");
	table_add(t, "-");
	table_add(t, "client");
	table_end(t);
	T_EQ_STR(t_render(t),
	    "ID                                             CLIENT  VERDICT\n"
	    "1                                        28491.4 MB/s  "
	    "cache: page cache\n"
	    "a label well past twenty-four characters            -  client\n");
}

/* Indent, spans under a row and alone, empty cells, short rows. */
static void
t_spans(void)
{
	struct table	*t;

	T_TRUE((t = table_new("  l l r")) != NULL);
	table_row(t, "test", "state", "MB/s", NULL);
	table_add(t, "seq write");
	table_span(t, "skipped: %s", "read-only share, much wider than any");
	table_add(t, "seq read");
	table_add(t, "%s", "");
	table_add(t, "%.1f", 123.45);
	table_end(t);
	table_span(t, "note");
	table_add(t, "x");
	table_add(t, "%s", "");
	table_end(t);
	table_end(t);
	T_EQ_INT(table_rows(t), 6);
	T_EQ_STR(t_render(t),
	    "  test      state  MB/s\n"
	    "  seq write skipped: read-only share, much wider than any\n"
	    "  seq read        123.5\n"
	    "  note\n"
	    "  x\n"
	    "\n");
}

/* UTF-8 characters count once; cells past the layout are dropped. */
static void
t_utf8(void)
{
	struct table	*t;

	T_TRUE((t = table_new("l r")) != NULL);
	table_add(t, "lat µs");
	table_add(t, "1");
	table_add(t, "dropped");
	table_end(t);
	table_add(t, "p50");
	table_add(t, "12345");
	T_EQ_STR(t_render(t),
	    "lat µs     1\n"
	    "p50    12345\n");
}

/* Layouts that are not one. */
static void
t_layouts(void)
{
	T_ERRNO(table_new("") == NULL ? -1 : 0, EINVAL);
	T_ERRNO(table_new("   ") == NULL ? -1 : 0, EINVAL);
	T_ERRNO(table_new("l x") == NULL ? -1 : 0, EINVAL);
	T_ERRNO(table_new("l                  r") == NULL ? -1 : 0, EINVAL);
	table_free(NULL);
}

int
main(void)
{
	t_widths();
	t_spans();
	t_utf8();
	t_layouts();
	free(t_out);
	return (t_done());
}
