/*
 * show.c: what the tables of the client share.
 */
#include "config.h"

#include <stdio.h>

#include <jansson.h>

#include "probe.h"
#include "show.h"

#define SHOW_RING	16		/* strings alive at once */
#define SHOW_STRMAX	1024		/* bytes of one, escaped */

const char *
show_str(const json_t *o, const char *key)
{
	static char	 ring[SHOW_RING][SHOW_STRMAX];
	static unsigned	 next;
	const char	*s = json_string_value(json_object_get(o, key));

	if (s == NULL || *s == '\0')
		return ("-");
	return (probe_escape_ctl(ring[next++ % SHOW_RING], s, SHOW_STRMAX));
}

const char *
show_who(const json_t *run, char *out, size_t outsz)
{
	if (!json_is_string(json_object_get(run, "user")))
		return (NULL);
	snprintf(out, outsz, "%s@%s", show_str(run, "user"), show_str(run,
	    "machine"));
	return (out);
}
