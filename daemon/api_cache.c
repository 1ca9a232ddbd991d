/*
 * api_cache.c: POST /v1/cache/drop.
 */
#include "config.h"

#include <event2/http.h>

#include <jansson.h>

#include "api_cache.h"
#include "cachedrop.h"
#include "http.h"

/* The drop is done: its figures, or why it failed. */
static void
api_cache_done_cb(json_t *doc, const struct http_err *e, void *arg)
{
	struct evhttp_request	*req = arg;

	if (e != NULL)
		http_send_err(req, e);
	else
		http_reply(req, HTTP_OK, doc);
}

void
api_cache_drop(struct daemon *d, struct evhttp_request *req)
{
	struct http_err	e;

	if (cachedrop_start(d, api_cache_done_cb, req, &e) == -1)
		http_send_err(req, &e);
}
