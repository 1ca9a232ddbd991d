/*
 * api_disktest.c: the disk analyzer's routes.
 *
 *	GET	/v1/disktests		the tests saved and the one running
 *	POST	/v1/disktests		start one (201 once it runs)
 *	GET	/v1/disktests/ID	its progress or its result
 *	DELETE	/v1/disktests/ID	cancel it (202)
 *
 * A POST is answered when the test has started, which may be a second
 * later: the disks are first watched for other I/O.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>

#include <jansson.h>

#include "api_disktest.h"
#include "daemon.h"
#include "disktest.h"
#include "http.h"

#define API_DT_PREFIX	"/v1/disktests/"

/* A POST's test started or was refused after its checks. */
static void
api_dt_started_cb(json_t *doc, const struct http_err *e, void *arg)
{
	struct evhttp_request	*req = arg;

	if (e != NULL)
		http_send_err(req, e);
	else
		http_reply(req, 201, doc);
}

void
api_disktests(struct daemon *d, struct evhttp_request *req)
{
	struct http_err	 e;
	json_t		*body;

	if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
		http_reply(req, HTTP_OK, disktest_list(d));
		return;
	}
	if ((body = http_body_json(req, 1, &e)) == NULL) {
		http_send_err(req, &e);
		return;
	}
	if (disktest_start(d, body, api_dt_started_cb, req, &e) == -1)
		http_send_err(req, &e);
	json_decref(body);
}

void
api_disktest_item(struct daemon *d, struct evhttp_request *req)
{
	const char	*rest;
	struct http_err	 e;
	unsigned long	 id;
	json_t		*doc;
	const char	*end;

	rest = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(req)) +
	    strlen(API_DT_PREFIX);
	if (http_path_id(rest, &id, &end) == -1 || *end != '\0') {
		http_error(req, 404, "no_such_test", "no disk test %.40s", rest);
		return;
	}
	if (evhttp_request_get_command(req) == EVHTTP_REQ_DELETE) {
		if ((doc = disktest_cancel(d, id, &e)) == NULL)
			http_send_err(req, &e);
		else
			http_reply(req, 202, doc);
		return;
	}
	if ((doc = disktest_get(d, id, &e)) == NULL)
		http_send_err(req, &e);
	else
		http_reply(req, HTTP_OK, doc);
}
