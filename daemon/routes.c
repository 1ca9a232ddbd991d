/*
 * routes.c: the route table of both listeners.
 */
#include "config.h"

#include <string.h>

#include <event2/http.h>

#include "api_box.h"
#include "api_cache.h"
#include "api_disktest.h"
#include "api_runs.h"
#include "http.h"
#include "np.h"
#include "routes.h"
#include "synth_parse.h"
#include "web.h"

#define R_GET		(EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)

static const struct route routes[] = {
	{ ROUTE_API, "/", R_GET, ROUTE_OPEN, 0, api_web,
	    "the page: the live server, runs, transfers and tests" },
	{ ROUTE_API, "/ui/", R_GET, ROUTE_OPEN, 1, api_web,
	    "the page's scripts, styles and chart library" },
	{ ROUTE_API, "/healthz", R_GET, ROUTE_OPEN, 0, api_healthz,
	    "the daemon answers" },
	{ ROUTE_API, "/v1/info", R_GET, ROUTE_TOKEN, 0, api_info,
	    "the box, the daemon and its limits" },
	{ ROUTE_API, "/v1/topology", R_GET, ROUTE_TOKEN, 0, api_topology,
	    "disks, volumes, NICs and shares" },
	{ ROUTE_API, "/v1/counters", R_GET, ROUTE_TOKEN, 0, api_counters,
	    "the counters now, or their rates over ?interval=" },
	{ ROUTE_API, "/v1/baseline", R_GET, ROUTE_TOKEN, 0, api_baseline,
	    "the disks' and volumes' measured figures" },
	{ ROUTE_API, "/metrics", R_GET, ROUTE_TOKEN, 0, api_metrics,
	    "the counters for Prometheus" },
	{ ROUTE_API, "/v1/samples", R_GET, ROUTE_TOKEN, 0, api_samples,
	    "the sampler's history" },
	{ ROUTE_API, "/v1/time", R_GET, ROUTE_TOKEN, 0, api_time,
	    "the server's clock" },
	{ ROUTE_API, "/v1/verdict", R_GET, ROUTE_TOKEN, 0, api_runs_verdict,
	    "the verdict of the last seconds" },
	{ ROUTE_API, "/v1/runs", R_GET | EVHTTP_REQ_POST, ROUTE_TOKEN, 0,
	    api_runs, "the runs; open or record one" },
	{ ROUTE_API, "/v1/runs/", R_GET | EVHTTP_REQ_POST, ROUTE_TOKEN, 1,
	    api_runs_item, "a run, its end and its report" },
	{ ROUTE_API, "/v1/transfers", R_GET, ROUTE_TOKEN, 0, api_transfers,
	    "the copies noticed on their own, and those under way" },
	{ ROUTE_API, "/v1/transfers/", R_GET | EVHTTP_REQ_POST, ROUTE_TOKEN,
	    1, api_transfers_item, "a transfer and its report" },
	{ ROUTE_API, "/v1/disktests", R_GET | EVHTTP_REQ_POST, ROUTE_TOKEN, 0,
	    api_disktests, "the disk tests; start one" },
	{ ROUTE_API, "/v1/disktests/", R_GET | EVHTTP_REQ_DELETE, ROUTE_TOKEN,
	    1, api_disktest_item, "a disk test; cancel it" },
	{ ROUTE_API, "/v1/cache/drop", EVHTTP_REQ_POST, ROUTE_TOKEN, 0,
	    api_cache_drop, "write out and drop the page cache" },
	{ ROUTE_SYNTH, SYNTH_PATH, R_GET | EVHTTP_REQ_PUT, ROUTE_CONTROL, 0,
	    NULL, "data from memory, or into nothing" },
};

const struct route *
route_find(enum route_port port, const char *path)
{
	const struct route	*r;
	size_t			 i;

	for (i = 0; i < NP_NITEMS(routes); i++) {
		r = &routes[i];
		if (r->port != port)
			continue;
		if (r->prefix ? strncmp(r->path, path, strlen(r->path)) == 0 :
		    strcmp(r->path, path) == 0)
			return (r);
	}
	return (NULL);
}

static const struct {
	const char	*name;
	int		 m;
} route_methods[] = {
	{ "GET", EVHTTP_REQ_GET }, { "HEAD", EVHTTP_REQ_HEAD },
	{ "POST", EVHTTP_REQ_POST }, { "PUT", EVHTTP_REQ_PUT },
	{ "DELETE", EVHTTP_REQ_DELETE }, { "OPTIONS", EVHTTP_REQ_OPTIONS },
	{ "TRACE", EVHTTP_REQ_TRACE }, { "CONNECT", EVHTTP_REQ_CONNECT },
	{ "PATCH", EVHTTP_REQ_PATCH }
};

void
route_allow(int methods, char *out, size_t outsz)
{
	size_t	i;

	out[0] = '\0';
	/* The first five: those a route of ours may take. */
	for (i = 0; i < 5; i++) {
		if ((methods & route_methods[i].m) == 0)
			continue;
		if (out[0] != '\0')
			strncat(out, ", ", outsz - strlen(out) - 1);
		strncat(out, route_methods[i].name, outsz - strlen(out) - 1);
	}
}

int
route_scope(const struct route *r, int method)
{
	if (r->auth == ROUTE_OPEN)
		return (HTTP_SCOPE_NONE);
	if (r->auth == ROUTE_TOKEN && (method == EVHTTP_REQ_GET ||
	    method == EVHTTP_REQ_HEAD))
		return (HTTP_SCOPE_READ);
	return (HTTP_SCOPE_CONTROL);
}

const char *
route_method_name(int method)
{
	size_t	i;

	for (i = 0; i < NP_NITEMS(route_methods); i++)
		if (route_methods[i].m == method)
			return (route_methods[i].name);
	return ("?");
}

int
route_method(const char *name)
{
	size_t	i;

	for (i = 0; i < NP_NITEMS(route_methods); i++)
		if (strcmp(name, route_methods[i].name) == 0)
			return (route_methods[i].m);
	return (0);
}
