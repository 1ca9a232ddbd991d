/*
 * jsonnum.h: the reals of a JSON answer rounded to what they mean.
 *
 * A figure keeps the decimal places its unit calls for, and the unit is
 * in its key's name, as the API names them: bytes per second to the byte
 * (_bytes_per_s, client_rate), other rates and percentages to the
 * hundredth (_per_s, _pct, value, capacity), milliseconds to the
 * microsecond (_ms), microseconds to a tenth (_us), anything else
 * (seconds, Unix times, ratios) to the millionth.  The elements of an
 * array, and the members of an object whose own names say no unit, take
 * the rule of the key that holds them ("lat_us": {"p50": ...}).
 *
 * The daemon rounds every answer (http_reply) and nasperf what it prints
 * with --json, so 475.66000000000003 is 475.66 and 87.8787878787879 %
 * is 87.88.
 */
#ifndef JSONNUM_H
#define JSONNUM_H

#include <jansson.h>

/* The decimal places a real under key keeps; inherited when key says none. */
int	 jsonnum_places(const char *key, int inherited);
/* x rounded to places decimals; as it is when that cannot change it. */
double	 jsonnum_round_to(double x, int places);
/*
 * v with every real rounded as its key says: a new reference.  Nothing of
 * v changes: a container holding a changed real is copied (v may be
 * shared with what the daemon keeps), the rest is shared.  NULL on ENOMEM.
 */
json_t	*jsonnum_round(const json_t *v);

#endif /* JSONNUM_H */
