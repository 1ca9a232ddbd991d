/*
 * show.c: what the tables of the client share.
 */
#include "config.h"

#include <jansson.h>

#include "show.h"

const char *
show_str(json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return (s != NULL && *s != '\0' ? s : "-");
}
