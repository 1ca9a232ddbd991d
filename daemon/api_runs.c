/*
 * api_runs.c: /v1/runs, /v1/runs/ID[/end|/report] and /v1/verdict: the
 * requests taken apart, runs.c called, and the reports rendered as JSON,
 * YAML, text or HTML.
 */
#include "config.h"

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <jansson.h>

#include "advice.h"
#include "api_runs.h"
#include "http.h"
#include "report_html.h"
#include "report_text.h"
#include "report_yaml.h"
#include "run.h"
#include "runs.h"
#include "transfers.h"
#include "verdict.h"

#define API_RUNS_PREFIX	"/v1/runs/"
#define API_TRANSFERS_PREFIX "/v1/transfers/"

/* Whether GET /v1/runs asks ?open=1: only the runs not yet ended. */
static int
api_runs_open_only(struct evhttp_request *req)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	 q;
	const char		*v;
	int			 open = 0;

	if (uri == NULL || evhttp_uri_get_query(uri) == NULL ||
	    evhttp_parse_query_str(evhttp_uri_get_query(uri), &q) == -1)
		return (0);
	if ((v = evhttp_find_header(&q, "open")) != NULL)
		open = strcmp(v, "1") == 0 || strcmp(v, "true") == 0;
	evhttp_clear_headers(&q);
	return (open);
}

/* A request body's figures; 0, or -1 answered 400. */
static int
api_runs_figures(struct evhttp_request *req, const json_t *body,
    struct run_figures *f)
{
	char	msg[256];

	if (run_parse(body, f, msg, sizeof msg) == 0)
		return (0);
	http_error(req, HTTP_BADREQUEST, "bad_request", "%s", msg);
	return (-1);
}

void
api_runs(struct daemon *d, struct evhttp_request *req)
{
	struct http_err		 e;
	struct run_figures	 f;
	json_t			*body, *doc;
	char			 peer[64];
	int			 opened;

	if (evhttp_request_get_command(req) != EVHTTP_REQ_POST) {
		if ((doc = runs_list(d, NULL, api_runs_open_only(req))) ==
		    NULL)
			http_error(req, HTTP_INTERNAL, "internal", "out of "
			    "memory");
		else
			http_reply(req, HTTP_OK, doc);
		return;
	}
	if ((body = http_body_json(req, 1, &e)) == NULL) {
		http_send_err(req, &e);
		return;
	}
	if (http_peer(req, peer, sizeof peer) == -1)
		peer[0] = '\0';
	if (api_runs_figures(req, body, &f) == 0) {
		if ((doc = runs_create(d, &f, peer, &opened, &e)) == NULL)
			http_send_err(req, &e);
		else
			http_reply(req, opened ? 201 : HTTP_OK, doc);
	}
	json_decref(body);
}

/* POST /v1/runs/ID/end. */
static void
api_runs_end(struct daemon *d, struct evhttp_request *req, unsigned long id)
{
	struct http_err		 e;
	struct run_figures	 f;
	json_t			*body, *rep;

	/* An ended run says so before its body is looked at. */
	if (runs_check_open(d, id, &e) == -1) {
		http_send_err(req, &e);
		return;
	}
	if ((body = http_body_json(req, 1, &e)) == NULL) {
		http_send_err(req, &e);
		return;
	}
	if (api_runs_figures(req, body, &f) == 0) {
		if ((rep = runs_end(d, id, &f, &e)) == NULL)
			http_send_err(req, &e);
		else
			http_reply(req, HTTP_OK, rep);
	}
	json_decref(body);
}

/* The ?format= of a report request: json, yaml, text or html; NULL: bad. */
static const char *
api_runs_format(struct evhttp_request *req, char *fmt, size_t fmtsz)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	 q;
	const char		*query, *v;

	snprintf(fmt, fmtsz, "json");
	if (uri == NULL || (query = evhttp_uri_get_query(uri)) == NULL)
		return (fmt);
	if (evhttp_parse_query_str(query, &q) == -1)
		return (NULL);
	v = evhttp_find_header(&q, "format");
	if (v != NULL) {
		if (strcmp(v, "json") == 0 || strcmp(v, "yaml") == 0 ||
		    strcmp(v, "text") == 0 || strcmp(v, "html") == 0)
			snprintf(fmt, fmtsz, "%s", v);
		else
			fmt[0] = '\0';
	}
	evhttp_clear_headers(&q);
	return (fmt[0] != '\0' ? fmt : NULL);
}

/* Render report rep as fmt (yaml, text or html) into *buf; -1 on failure. */
static int
api_runs_render(const json_t *rep, const char *fmt, char **buf, size_t *len)
{
	FILE	*f;
	int	 rc;

	*buf = NULL;
	*len = 0;
	if ((f = open_memstream(buf, len)) == NULL)
		return (-1);
	if (strcmp(fmt, "text") == 0)
		rc = report_text_write(rep, f);
	else if (strcmp(fmt, "yaml") == 0)
		rc = report_yaml_write(rep, f);
	else
		rc = report_html_write(rep, f);
	if (fclose(f) != 0 || rc == -1) {
		free(*buf);
		*buf = NULL;
		return (-1);
	}
	return (0);
}

/*
 * A report as JSON with "next", what to try next (advice.c), as the HTML
 * and text reports give it; the saved report is not changed.  Steals rep.
 */
static json_t *
api_runs_next(json_t *rep)
{
	json_t	*out, *next;

	if ((out = json_copy(rep)) == NULL || (next = json_array()) == NULL) {
		json_decref(out);
		return (rep);
	}
	(void)advice_add(next, json_string_value(json_object_get(
	    json_object_get(rep, "verdict"), "class")), json_object_get(rep,
	    "hints"));
	json_object_set_new(out, "next", next);
	json_decref(rep);
	return (out);
}

/* GET /v1/runs/ID/report?format=. */
static void
api_runs_report(struct daemon *d, struct evhttp_request *req,
    unsigned long id)
{
	struct http_err	 e;
	json_t		*rep;
	char		 fmt[8], *buf;
	size_t		 len;

	if (api_runs_format(req, fmt, sizeof fmt) == NULL) {
		http_error(req, HTTP_BADREQUEST, "bad_request", "format: "
		    "expected json, yaml, text or html");
		return;
	}
	if ((rep = runs_report(d, id, &e)) == NULL) {
		http_send_err(req, &e);
		return;
	}
	if (strcmp(fmt, "json") == 0) {
		http_reply(req, HTTP_OK, api_runs_next(rep));
		return;
	}
	if (api_runs_render(rep, fmt, &buf, &len) == -1)
		http_error(req, HTTP_INTERNAL, "internal", "cannot render the "
		    "report as %s", fmt);
	else
		http_send(req, strcmp(fmt, "text") == 0 ?
		    "text/plain; charset=utf-8" : strcmp(fmt, "yaml") == 0 ?
		    "application/yaml" : "text/html; charset=utf-8", buf, len);
	free(buf);
	json_decref(rep);
}

/*
 * A run under prefix (/v1/runs/ or /v1/transfers/), its end and its
 * report; under /v1/transfers/ only a run of origin "auto" is one.
 */
static void
api_runs_at(struct daemon *d, struct evhttp_request *req, const char *prefix,
    const char *origin)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	enum evhttp_cmd_type	 cmd = evhttp_request_get_command(req);
	json_t			*doc;
	const char		*rest, *sub, *end;
	unsigned long		 id;

	rest = evhttp_uri_get_path(uri) + strlen(prefix);
	if (http_path_id(rest, &id, &end) == -1) {
		http_error(req, HTTP_NOTFOUND, origin != NULL ?
		    "no_such_transfer" : "no_such_run", "no %s %.*s: not a "
		    "run id", origin != NULL ? "transfer" : "run",
		    (int)strcspn(rest, "/"), rest);
		return;
	}
	if ((doc = runs_get(d, id, origin != NULL)) == NULL) {
		http_error(req, HTTP_NOTFOUND, origin != NULL ?
		    "no_such_transfer" : "no_such_run", "no %s %lu",
		    origin != NULL ? "transfer" : "run", id);
		return;
	}
	sub = *end == '/' ? end + 1 : "";
	if (strcmp(sub, "") == 0 && (cmd == EVHTTP_REQ_GET ||
	    cmd == EVHTTP_REQ_HEAD)) {
		http_reply(req, HTTP_OK, doc);
		return;
	}
	json_decref(doc);
	if (strcmp(sub, "end") == 0 && cmd == EVHTTP_REQ_POST)
		api_runs_end(d, req, id);
	else if (strcmp(sub, "report") == 0 && (cmd == EVHTTP_REQ_GET ||
	    cmd == EVHTTP_REQ_HEAD))
		api_runs_report(d, req, id);
	else if (strcmp(sub, "") == 0 || strcmp(sub, "end") == 0 ||
	    strcmp(sub, "report") == 0) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", strcmp(sub, "end") == 0 ? "POST" : "GET, HEAD");
		http_error(req, HTTP_BADMETHOD, "method_not_allowed",
		    "%s%lu%s%s takes %s", prefix, id, *sub ? "/" : "", sub,
		    strcmp(sub, "end") == 0 ? "POST" : "GET, HEAD");
	} else
		http_error(req, HTTP_NOTFOUND, "not_found", "no such endpoint: "
		    "%s%.40s", prefix, rest);
}

void
api_runs_item(struct daemon *d, struct evhttp_request *req)
{
	api_runs_at(d, req, API_RUNS_PREFIX, NULL);
}

void
api_transfers_item(struct daemon *d, struct evhttp_request *req)
{
	api_runs_at(d, req, API_TRANSFERS_PREFIX, "auto");
}

/* Keep the items of array a whose key is the address addr. */
static void
api_only_client(json_t *a, const char *key, const char *addr)
{
	const char	*v;
	size_t		 i;

	for (i = json_array_size(a); i-- > 0;) {
		v = json_string_value(json_object_get(json_array_get(a, i), key));
		if (v == NULL || strcmp(v, addr) != 0)
			json_array_remove(a, i);
	}
}

void
api_transfers(struct daemon *d, struct evhttp_request *req)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	 q;
	const char		*query, *v;
	char			 client[INET6_ADDRSTRLEN] = "";
	unsigned char		 a[16];
	json_t			*runs, *live, *doc;

	/* ?client=ADDR: that client's transfers and copies under way only. */
	if (uri != NULL && (query = evhttp_uri_get_query(uri)) != NULL) {
		if (evhttp_parse_query_str(query, &q) == -1) {
			http_error(req, HTTP_BADREQUEST, "bad_request",
			    "malformed query string");
			return;
		}
		if ((v = evhttp_find_header(&q, "client")) != NULL &&
		    (strlen(v) >= sizeof client || (inet_pton(AF_INET, v,
		    a) != 1 && inet_pton(AF_INET6, v, a) != 1))) {
			http_error(req, HTTP_BADREQUEST, "bad_request",
			    "client: '%.60s' is not an IPv4 or IPv6 address",
			    v);
			evhttp_clear_headers(&q);
			return;
		}
		if (v != NULL)
			snprintf(client, sizeof client, "%s", v);
		evhttp_clear_headers(&q);
	}
	runs = runs_list(d, "auto", 0);
	live = transfers_live(d);
	if (runs == NULL || live == NULL || (doc = json_pack("{s:O,s:O}",
	    "transfers", json_object_get(runs, "runs"), "live", live)) ==
	    NULL)
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
	else {
		if (client[0] != '\0') {
			api_only_client(json_object_get(doc, "transfers"),
			    "client_addr", client);
			api_only_client(json_object_get(doc, "live"), "client",
			    client);
		}
		http_reply(req, HTTP_OK, doc);
	}
	json_decref(runs);
	json_decref(live);
}

void
api_runs_verdict(struct daemon *d, struct evhttp_request *req)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	 q;
	struct http_err		 e;
	const char		*query;
	char			 msg[160];
	double			 secs = 5;
	json_t			*rep;
	int			 bad;

	if (uri != NULL && (query = evhttp_uri_get_query(uri)) != NULL) {
		if (evhttp_parse_query_str(query, &q) == -1) {
			http_error(req, HTTP_BADREQUEST, "bad_request",
			    "malformed query string");
			return;
		}
		bad = http_query_num(&q, "seconds", &secs, msg, sizeof msg);
		evhttp_clear_headers(&q);
		if (bad == -1 || !(secs >= 1 && secs <= 3600)) {
			http_error(req, HTTP_BADREQUEST, "bad_request", "%s",
			    bad == -1 ? msg : "seconds: expected 1 to 3600");
			return;
		}
	}
	if ((rep = runs_verdict(d, secs, &e)) == NULL)
		http_send_err(req, &e);
	else
		http_reply(req, HTTP_OK, rep);
}
