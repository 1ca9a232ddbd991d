/*
 * importers.c: which tool's output a text is, and the ops' names.  Each
 * tool has its file (import_dd.c, import_fio.c, import_cdm.c) over the
 * shared reading of text of importers_lex.c.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "importers.h"
#include "importers_lex.h"

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
