/*
 * t_jsonnum.c: the reals of an answer rounded by the unit their keys
 * name, and nothing shared changed.
 */
#include "config.h"

#include <math.h>

#include <jansson.h>

#include "jsonnum.h"
#include "test.h"

/* The places each unit keeps, and inheritance. */
static void
t_places(void)
{
	static const struct {
		const char	*key;
		int		 inherited, want;
	} c[] = {
		{ "read_bytes_per_s", 6, 0 },
		{ "median_bytes_per_second", 6, 0 },
		{ "client_rate", 6, 0 },
		{ "throttled_seconds_per_s", 6, 4 },
		{ "reads_per_s", 6, 2 },
		{ "files_per_second", 6, 2 },
		{ "utilisation_pct", 6, 2 },
		{ "value", 6, 2 },
		{ "read_await_ms", 6, 3 },
		{ "lat_us", 6, 1 },
		{ "p50", 1, 1 },		/* inside "lat_us" */
		{ "start", 6, 6 },
		{ "values", 6, 6 },
	};
	size_t	i;

	for (i = 0; i < NP_NITEMS(c); i++)
		t_check(jsonnum_places(c[i].key, c[i].inherited) == c[i].want,
		    c[i].key, __FILE__, __LINE__, "got %d, want %d",
		    jsonnum_places(c[i].key, c[i].inherited), c[i].want);
}

/* Rounding itself: halves, negatives, what cannot change. */
static void
t_round_to(void)
{
	T_NEAR(jsonnum_round_to(475.66000000000003, 2), 475.66, 0);
	T_NEAR(jsonnum_round_to(87.8787878787879, 2), 87.88, 0);
	T_NEAR(jsonnum_round_to(28491396819.5744, 0), 28491396820, 0);
	T_NEAR(jsonnum_round_to(-0.004, 2), 0, 0);
	T_TRUE(!signbit(jsonnum_round_to(-0.004, 2)));
	T_NEAR(jsonnum_round_to(1796538636.523421, 6), 1796538636.523421, 0);
	T_NEAR(jsonnum_round_to(1e300, 6), 1e300, 0);
	T_TRUE(isnan(jsonnum_round_to(NAN, 2)));
}

/* An answer: rounded as dumped, its source unchanged and still shared. */
static void
t_tree(void)
{
	json_t	*shared, *body, *out;
	char	*s;

	shared = json_pack("{s:f,s:s}", "util_pct", 87.8787878787879, "name",
	    "md2");
	body = json_pack("{s:f,s:f,s:O,s:[f,f],s:{s:f},s:i,s:{s:f}}",
	    "client_rate", 28491396819.5744, "start", 1796538636.52342,
	    "disk", shared, "busy_pct", 12.345, 0.5, "lat_us", "p50",
	    123.456, "n", 3, "plain", "x", 1.5);
	T_TRUE(body != NULL && (out = jsonnum_round(body)) != NULL);
	s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS |
	    JSON_REAL_PRECISION(15));
	T_EQ_STR(s, "{\"busy_pct\":[12.35,0.5],\"client_rate\":28491396820.0,"
	    "\"disk\":{\"name\":\"md2\",\"util_pct\":87.88},\"lat_us\":"
	    "{\"p50\":123.5},\"n\":3,\"plain\":{\"x\":1.5},"
	    "\"start\":1796538636.52342}");
	free(s);
	T_NEAR(json_real_value(json_object_get(shared, "util_pct")),
	    87.8787878787879, 0);
	T_TRUE(json_object_get(out, "disk") != shared);
	/* Nothing to round: the same objects, not copies. */
	T_TRUE(json_object_get(out, "plain") == json_object_get(body,
	    "plain"));
	json_decref(out);
	json_decref(body);
	/* A Unix time's microseconds are past what prints: not copied. */
	body = json_pack("{s:[{s:f,s:i}]}", "samples", "t",
	    1796538637.3017423, "n", 1);
	T_TRUE(body != NULL && (out = jsonnum_round(body)) != NULL);
	T_TRUE(out == body);
	json_decref(out);
	json_decref(body);
	json_decref(shared);
}

int
main(void)
{
	t_places();
	t_round_to();
	t_tree();
	return (t_done());
}
