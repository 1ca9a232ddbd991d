/*
 * fuzz_http.c: libFuzzer target of the API's request targets.  The input
 * is the target of a request line ("/v1/runs/12/report?format=text"),
 * taken where the API listener takes it: libevent's URI parser, with the
 * flags evhttp parses a request line with; the route table; a run's,
 * transfer's or disk test's id after a prefix route; the numbers the
 * handlers read from the query.  The same bytes are also tried as an
 * Authorization header's value, and as what a client sends, raw and as
 * a request line's target, through http_head.c: fed whole and a byte at
 * a time, it must come to the same.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "http.h"
#include "http_head.h"
#include "np.h"
#include "routes.h"
#include "web.h"

/* A token as state.c makes them: STATE_TOKEN_LEN hex characters. */
#define FUZZ_TOKEN \
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define FUZZ_TOKEN_READ \
	"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The query's numbers, as api_box.c and api_runs.c read them. */
static void
fuzz_query(const char *query)
{
	static const char *const keys[] = { "interval", "from", "to", "step",
	    "seconds" };
	struct evkeyvalq	 q;
	char			 msg[160];
	double			 x;
	size_t			 i;

	/* evhttp_parse_query_str() initialises q, and clears it on error. */
	if (evhttp_parse_query_str(query, &q) == -1)
		return;
	for (i = 0; i < NP_NITEMS(keys); i++)
		(void)http_query_num(&q, keys[i], &x, msg, sizeof msg);
	evhttp_clear_headers(&q);
}

/*
 * The input as the headers the page's routes read: Accept-Encoding,
 * Host and X-Forwarded-Host into its policy, which no host may add a
 * directive to; and as a token against both scopes.
 */
static void
fuzz_headers(const char *v)
{
	char		 policy[1024], host[256];
	const char	*p;
	int		 semis = 0, want = 0;

	(void)web_accepts_gzip(v);
	(void)web_host(v, host, sizeof host);
	(void)http_bearer_scope(v, FUZZ_TOKEN, FUZZ_TOKEN_READ);
	web_policy(policy, sizeof policy, "nas", NULL, 9632, 0);
	for (p = policy; *p != '\0'; p++)
		want += *p == ';';
	web_policy(policy, sizeof policy, v, v, 9632, v[0] & 1);
	for (p = policy; *p != '\0'; p++)
		semis += *p == ';';
	if (semis != want || strchr(policy, '\n') != NULL ||
	    strchr(policy, '\r') != NULL)
		abort();
}

/*
 * Feed p to a reader in pieces of piece bytes; a digest of what came that
 * pieces do not change: where each head ended, the body and blank bytes,
 * and the refusal.
 */
static uint64_t
fuzz_head_run(const unsigned char *p, size_t n, size_t piece)
{
	struct http_head	 h;
	enum http_head_event	 ev;
	uint64_t		 sum = 0, body = 0, blank = 0;
	size_t			 at = 0, len, took;

	http_head_init(&h, 512, 4096);
	while (at < n) {
		len = n - at < piece ? n - at : piece;
		took = http_head_feed(&h, p + at, len, &ev);
		if (took > len)
			abort();
		if (ev == HH_BAD)
			break;
		if (took == 0)
			abort();
		if (ev == HH_HEAD)
			sum = sum * 31 + at + took;
		else if (ev == HH_BODY)
			body += took;
		else if (ev == HH_DROP)
			blank += took;
		at += took;
	}
	return (((sum * 31 + body) * 31 + blank) * 31 + (uint64_t)h.status);
}

/* The bytes through http_head.c, whole and a byte at a time. */
static void
fuzz_head(const unsigned char *p, size_t n)
{
	if (fuzz_head_run(p, n, n == 0 ? 1 : n) != fuzz_head_run(p, n, 1))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct route	*r;
	struct evhttp_uri	*uri;
	const char		*path, *query, *end;
	char			*target, allow[64];
	unsigned long		 id;

	fuzz_head(data, size);
	if ((target = malloc(size + 32)) == NULL)
		return (0);
	memcpy(target, "GET ", 4);
	memcpy(target + 4, data, size);
	memcpy(target + 4 + size, " HTTP/1.1\r\n\r\n", 13);
	fuzz_head((const unsigned char *)target, size + 17);
	free(target);
	/* A request line is text: evhttp stops at a NUL. */
	if ((target = strndup((const char *)data, size)) == NULL)
		return (0);
	(void)http_bearer_ok(target, FUZZ_TOKEN);
	fuzz_headers(target);
	if ((uri = evhttp_uri_parse_with_flags(target,
	    EVHTTP_URI_NONCONFORMANT)) == NULL)
		goto out;
	path = evhttp_uri_get_path(uri);
	if (path == NULL || *path == '\0')
		path = "/";
	if ((r = route_find(ROUTE_API, path)) != NULL) {
		route_allow(r->methods, allow, sizeof allow);
		if (r->prefix)
			(void)http_path_id(path + strlen(r->path), &id, &end);
	}
	if ((query = evhttp_uri_get_query(uri)) != NULL)
		fuzz_query(query);
	evhttp_uri_free(uri);
out:
	free(target);
	return (0);
}
