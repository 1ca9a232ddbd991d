/*
 * jsonnum.c: the reals of a JSON answer rounded to what they mean.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <jansson.h>

#include "jsonnum.h"
#include "np.h"

#define JSONNUM_DEFAULT	6	/* seconds to the microsecond, ratios */
#define JSONNUM_EXACT	9.007199254740992e15	/* 2^53 */
#define JSONNUM_UNSEEN	1e-15	/* relative: below HTTP_REAL_DIGITS */

/* A key's unit, by the end of its name (or its whole name), and places. */
static const struct {
	const char	*name;
	int		 whole;		/* the whole key, not its end */
	int		 places;
} jsonnum_units[] = {
	{ "bytes_per_s", 0, 0 },
	{ "bytes_per_second", 0, 0 },
	{ "client_rate", 1, 0 },
	{ "seconds_per_s", 0, 4 },	/* throttled seconds per second */
	{ "_per_s", 0, 2 },
	{ "_per_second", 0, 2 },
	{ "_pct", 0, 2 },
	{ "value", 1, 2 },		/* the evidence's, in its unit */
	{ "capacity", 1, 2 },
	{ "avg_queue", 1, 2 },
	{ "quota_cores", 1, 2 },
	{ "_ms", 0, 3 },
	{ "_us", 0, 1 },
};

int
jsonnum_places(const char *key, int inherited)
{
	size_t	i, n = strlen(key), m;

	for (i = 0; i < NP_NITEMS(jsonnum_units); i++) {
		m = strlen(jsonnum_units[i].name);
		if (jsonnum_units[i].whole ? strcmp(key,
		    jsonnum_units[i].name) == 0 : n >= m &&
		    strcmp(key + n - m, jsonnum_units[i].name) == 0)
			return (jsonnum_units[i].places);
	}
	return (inherited);
}

double
jsonnum_round_to(double x, int places)
{
	double	scale = pow(10, places), y;

	/* Past 2^53 a double has no fraction left to round. */
	if (!isfinite(x) || places < 0 || !(fabs(x) * scale < JSONNUM_EXACT))
		return (x);
	y = round(x * scale) / scale;
	return (y == 0 ? 0 : y);	/* no -0 */
}

/*
 * Put nc, the rounded child, in place of child in a copy of the container
 * v, made at the first change into *copy: at key of an object, or at i of
 * an array (key NULL).  Takes nc.  -1 on ENOMEM.
 */
static int
jsonnum_put(json_t *v, json_t **copy, const char *key, size_t i,
    const json_t *child, json_t *nc)
{
	if (nc == child) {
		json_decref(nc);
		return (0);
	}
	if (*copy == NULL && (*copy = json_copy(v)) == NULL) {
		json_decref(nc);
		return (-1);
	}
	return (key != NULL ? json_object_set_new(*copy, key, nc) :
	    json_array_set_new(*copy, i, nc));
}

/* v rounded with places for its reals; a new reference, or NULL. */
static json_t *
jsonnum_walk(json_t *v, int places)
{
	json_t		*copy = NULL, *child, *nc;
	const char	*key;
	double		 x, r;
	size_t		 i;

	switch (json_typeof(v)) {
	case JSON_REAL:
		/*
		 * A change past the 15 digits an answer prints is none: a
		 * Unix time to the microsecond is a copy saved per sample.
		 */
		x = json_real_value(v);
		r = jsonnum_round_to(x, places);
		return (fabs(r - x) <= fabs(x) * JSONNUM_UNSEEN ?
		    json_incref(v) : json_real(r));
	case JSON_OBJECT:
		json_object_foreach(v, key, child)
			if ((nc = jsonnum_walk(child, jsonnum_places(key,
			    places))) == NULL || jsonnum_put(v, &copy, key, 0,
			    child, nc) == -1)
				goto fail;
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, child)
			if ((nc = jsonnum_walk(child, places)) == NULL ||
			    jsonnum_put(v, &copy, NULL, i, child, nc) == -1)
				goto fail;
		break;
	default:
		break;
	}
	return (copy != NULL ? copy : json_incref(v));
fail:
	json_decref(copy);
	return (NULL);
}

json_t *
jsonnum_round(const json_t *v)
{
	/* Only a reference is taken of what is not copied. */
	return (jsonnum_walk((json_t *)v, JSONNUM_DEFAULT));
}
