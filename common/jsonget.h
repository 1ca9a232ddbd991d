/*
 * jsonget.h: the members of a JSON object as C values, for the code that
 * reads the documents the daemon keeps and sends (reports, runs, the
 * path, baselines).  An absent member, or one of another type, reads as
 * "none": NULL, 0, NAN or false, as each says.  Where a whole shape is
 * read at once, jansson's json_unpack() is the tool; these are for one
 * member at a time.
 */
#ifndef JSONGET_H
#define JSONGET_H

#include <math.h>
#include <stdint.h>

#include <jansson.h>

/* o's string member key, or NULL. */
static inline const char *
jget_str(const json_t *o, const char *key)
{
	return (json_string_value(json_object_get(o, key)));
}

/* o's number member key (integer or real), or 0. */
static inline double
jget_num(const json_t *o, const char *key)
{
	return (json_number_value(json_object_get(o, key)));
}

/* o's number member key, or NAN: for figures where 0 is a value. */
static inline double
jget_real(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return (json_is_number(v) ? json_number_value(v) : NAN);
}

/* 1 and *v set when o has a number member key; else 0, *v as it was. */
static inline int
jget_num_to(const json_t *o, const char *key, double *v)
{
	const json_t	*j = json_object_get(o, key);

	if (!json_is_number(j))
		return (0);
	*v = json_number_value(j);
	return (1);
}

/* 1 and *v set when o has an integer member key; else 0. */
static inline int
jget_u64(const json_t *o, const char *key, uint64_t *v)
{
	const json_t	*j = json_object_get(o, key);

	if (!json_is_integer(j))
		return (0);
	*v = (uint64_t)json_integer_value(j);
	return (1);
}

#endif /* JSONGET_H */
