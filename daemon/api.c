/*
 * api.c: the HTTP API.
 *
 * One evhttp_set_gencb() routes every request through the table below, so
 * that 401, 403, 404 and 405 share the JSON error shape; every method is
 * allowed in evhttp (libevent 2.1 answers a disallowed one with its own HTML
 * 501) and the router answers 405 itself.  A body over api.max_body_bytes
 * gets libevent's own 413 before any callback runs.
 *
 * libevent 2.1 has no evhttp_set_max_connections(), so the connection limit
 * is ours.  A connection is counted from its accept to the close callback of
 * its evhttp_connection, which is set as soon as libevent has made it, so
 * the count is the sockets open.  A peer outside api.allow is closed at
 * once; a connection gets api.head_timeout seconds to send a whole request
 * head, from its accept or from the end of its last reply, however slowly
 * its bytes trickle in.  At the limit, the oldest connection that has sent
 * no request yet is closed to make room; only when every connection has
 * sent one is the listener disabled, so new clients wait in the kernel's
 * backlog until one ends.  Connections that never send a byte cannot lock
 * the API.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include <jansson.h>

#include "api.h"
#include "api_cache.h"
#include "api_disktest.h"
#include "api_runs.h"
#include "cfg.h"
#include "daemon.h"
#include "disktest.h"
#include "encode.h"
#include "history.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "sampler.h"
#include "snapshot.h"
#include "smbsess.h"
#include "synth.h"
#include "topology.h"

#define API_METHODS	(EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD | \
	EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | \
	EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH)
#define API_MAX_WAITS	16		/* concurrent ?interval= requests */
#define API_MAX_INTERVAL 60.0		/* seconds */
#define API_MIN_INTERVAL 0.1

typedef void api_handler_cb(struct daemon *, struct evhttp_request *);

/* One route: a path, the methods it takes, whether it needs the token. */
struct api_route {
	const char	*path;
	int		 methods;	/* EVHTTP_REQ_* */
	int		 auth;		/* 1: bearer token required */
	api_handler_cb	*handler;
	int		 prefix;	/* path is a prefix: /v1/runs/ID... */
};

/* A /v1/counters?interval= request waiting for its second snapshot. */
struct api_wait {
	struct daemon		*d;
	struct evhttp_request	*req;
	struct event		*timer;
	struct snapshot		*first;
	double			 interval;
	struct api_wait		*next;
};

/* An open API connection, counted against api.max_connections. */
struct api_conn {
	struct daemon			*d;
	struct bufferevent		*bev;	/* a reference until attached */
	struct evhttp_connection	*evcon;	/* NULL until attached */
	struct event			*attach; /* once, after the accept */
	struct timespec			 idle;	/* waiting since; monotonic */
	int				 busy;	/* a request in hand */
	unsigned			 nreq;	/* requests it sent */
	struct api_conn			*next;
};

static api_handler_cb	api_healthz, api_info, api_topology, api_counters,
			api_metrics, api_samples, api_time;

static const struct api_route api_routes[] = {
	{ "/healthz", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 0, api_healthz, 0 },
	{ "/v1/info", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_info, 0 },
	{ "/v1/topology", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_topology,
	    0 },
	{ "/v1/counters", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_counters,
	    0 },
	{ "/metrics", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_metrics, 0 },
	{ "/v1/samples", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_samples, 0 },
	{ "/v1/time", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_time, 0 },
	{ "/v1/verdict", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD, 1, api_runs_verdict,
	    0 },
	{ "/v1/runs", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST, 1,
	    api_runs, 0 },
	{ "/v1/runs/", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST, 1,
	    api_runs_item, 1 },
	{ "/v1/disktests", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD | EVHTTP_REQ_POST,
	    1, api_disktests, 0 },
	{ "/v1/disktests/", EVHTTP_REQ_GET | EVHTTP_REQ_HEAD |
	    EVHTTP_REQ_DELETE, 1, api_disktest_item, 1 },
	{ "/v1/cache/drop", EVHTTP_REQ_POST, 1, api_cache_drop, 0 },
};

/* Seconds since ts, on CLOCK_MONOTONIC. */
static double
api_conn_age(const struct timespec *ts)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return ((double)(now.tv_sec - ts->tv_sec) +
	    (now.tv_nsec - ts->tv_nsec) / 1e9);
}

/* The oldest attached connection that has sent no request yet, or NULL. */
static struct api_conn *
api_conn_waiting(struct daemon *d, const struct api_conn *besides)
{
	struct api_conn	*c, *old = NULL;

	for (c = d->conns; c != NULL; c = c->next) {
		if (c == besides || c->evcon == NULL || c->nreq > 0)
			continue;
		if (old == NULL || c->idle.tv_sec < old->idle.tv_sec ||
		    (c->idle.tv_sec == old->idle.tv_sec &&
		    c->idle.tv_nsec < old->idle.tv_nsec))
			old = c;
	}
	return (old);
}

/*
 * Enable or disable the listener as the connection count requires: off
 * only at the limit with no connection that could make room.
 */
static void
api_conn_gate(struct daemon *d)
{
	struct evconnlistener	*l;
	int			 full;

	if (d->sock == NULL ||
	    (l = evhttp_bound_socket_get_listener(d->sock)) == NULL)
		return;
	full = d->nconns >= d->cfg->max_connections &&
	    api_conn_waiting(d, NULL) == NULL;
	if (d->accepting && full) {
		if (evconnlistener_disable(l) == 0) {
			d->accepting = 0;
			log_debug("api: %u connections, each past its first "
			    "request: not accepting more", d->nconns);
		}
	} else if (!d->accepting && !full) {
		if (evconnlistener_enable(l) == 0)
			d->accepting = 1;
	}
}

/* Forget one connection and let the listener accept again. */
static void
api_conn_remove(struct daemon *d, struct api_conn *c)
{
	struct api_conn	**pp;

	for (pp = &d->conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	if (c->attach != NULL)
		event_free(c->attach);
	if (c->bev != NULL)
		bufferevent_decref(c->bev);
	free(c);
	if (d->nconns > 0)
		d->nconns--;
	api_conn_gate(d);
}

/* libevent is closing a connection. */
static void
api_conn_close_cb(NP_UNUSED struct evhttp_connection *evcon, void *arg)
{
	struct api_conn	*c = arg;

	api_conn_remove(c->d, c);
}

/* Close a connection now; its close callback forgets it. */
static void
api_conn_close(struct api_conn *c)
{
	evhttp_connection_free(c->evcon);
}

/*
 * Log a peer outside api.allow, at most once a second with the number of
 * others left unsaid, so that a flood of them cannot flood the log.
 */
static void
api_conn_refused(struct daemon *d, struct evhttp_connection *evcon)
{
	struct timespec	 now;
	char		*addr = NULL;
	ev_uint16_t	 port = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (d->refused_at != 0 && now.tv_sec - d->refused_at < 1) {
		d->refused_quiet++;
		return;
	}
	evhttp_connection_get_peer(evcon, &addr, &port);
	if (d->refused_quiet > 0)
		log_info("api: %s: not in api.allow: closed (and %u more "
		    "since the last such line)", addr != NULL ? addr : "?",
		    d->refused_quiet);
	else
		log_info("api: %s: not in api.allow: closed",
		    addr != NULL ? addr : "?");
	d->refused_at = now.tv_sec;
	d->refused_quiet = 0;
}

/*
 * Right after the accept, once libevent has made the evhttp_connection
 * (the argument of its bufferevent's callbacks): watch for its close,
 * refuse a peer outside api.allow, and make room at the limit.
 */
static void
api_conn_attach_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what,
    void *arg)
{
	struct api_conn			*c = arg, *old;
	struct daemon			*d = c->d;
	struct evhttp_connection	*evcon;
	const struct sockaddr		*sa;
	bufferevent_event_cb		 eventcb = NULL;
	void				*cbarg = NULL;

	bufferevent_getcb(c->bev, NULL, NULL, &eventcb, &cbarg);
	if (eventcb == NULL || cbarg == NULL) {
		/* libevent gave the connection up already. */
		api_conn_remove(d, c);
		return;
	}
	evcon = cbarg;
	c->evcon = evcon;
	bufferevent_decref(c->bev);
	c->bev = NULL;
	evhttp_connection_set_closecb(evcon, api_conn_close_cb, c);
	if ((sa = evhttp_connection_get_addr(evcon)) == NULL ||
	    !cfg_allowed(d->cfg, sa)) {
		api_conn_refused(d, evcon);
		api_conn_close(c);
		return;
	}
	if (d->nconns > d->cfg->max_connections &&
	    (old = api_conn_waiting(d, c)) != NULL) {
		log_debug("api: %u connections: closing one that sent no "
		    "request for %.1f s", d->nconns, api_conn_age(&old->idle));
		api_conn_close(old);
	}
	api_conn_gate(d);
}

/*
 * Make the bufferevent of a new connection, and count the connection.
 * libevent makes its evhttp_connection after this returns: a callback made
 * active now runs before the loop next waits, and attaches to it.  Until
 * then a reference keeps the bufferevent for that callback to look at.
 */
static struct bufferevent *
api_bev_cb(struct event_base *base, void *arg)
{
	struct daemon		*d = arg;
	struct bufferevent	*bev;
	struct api_conn		*c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (NULL);
	if ((c->attach = event_new(base, -1, 0, api_conn_attach_cb, c)) ==
	    NULL || (bev = bufferevent_socket_new(base, -1,
	    BEV_OPT_CLOSE_ON_FREE)) == NULL) {
		if (c->attach != NULL)
			event_free(c->attach);
		free(c);
		return (NULL);
	}
	bufferevent_incref(bev);
	c->d = d;
	c->bev = bev;
	clock_gettime(CLOCK_MONOTONIC, &c->idle);
	c->next = d->conns;
	d->conns = c;
	d->nconns++;
	event_active(c->attach, EV_TIMEOUT, 1);
	return (bev);
}

/* The connection of req, or NULL. */
static struct api_conn *
api_conn_find(struct daemon *d, struct evhttp_request *req)
{
	struct evhttp_connection	*evcon;
	struct api_conn			*c;

	if ((evcon = evhttp_request_get_connection(req)) == NULL)
		return (NULL);
	for (c = d->conns; c != NULL; c = c->next)
		if (c->evcon == evcon)
			return (c);
	return (NULL);
}

/* A reply has gone out: the connection waits for its next request. */
static void
api_conn_done_cb(struct evhttp_request *req, void *arg)
{
	struct api_conn	*c;

	if ((c = api_conn_find(arg, req)) != NULL) {
		c->busy = 0;
		clock_gettime(CLOCK_MONOTONIC, &c->idle);
		api_conn_gate(c->d);
	}
}

/* A whole request head came: the connection has a request in hand. */
static void
api_conn_seen(struct daemon *d, struct evhttp_request *req)
{
	struct api_conn	*c;

	if ((c = api_conn_find(d, req)) == NULL)
		return;
	c->busy = 1;
	c->nreq++;
	evhttp_request_set_on_complete_cb(req, api_conn_done_cb, d);
}

/*
 * Once a second: close the connections that have waited longer than
 * api.head_timeout for a whole request head.
 */
static void
api_conn_sweep_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what,
    void *arg)
{
	struct daemon	*d = arg;
	struct api_conn	*c, *next;

	for (c = d->conns; c != NULL; c = next) {
		next = c->next;
		if (c->evcon != NULL && !c->busy &&
		    api_conn_age(&c->idle) > (double)d->cfg->head_timeout) {
			log_debug("api: no request head in %u s: closed",
			    d->cfg->head_timeout);
			api_conn_close(c);
		}
	}
}

/* 1 if the peer of req is in api.allow. */
static int
api_allowed(struct daemon *d, struct evhttp_request *req)
{
	struct evhttp_connection	*evcon;
	const struct sockaddr		*sa;

	if ((evcon = evhttp_request_get_connection(req)) == NULL)
		return (0);
	if ((sa = evhttp_connection_get_addr(evcon)) == NULL)
		return (0);
	return (cfg_allowed(d->cfg, sa));
}

/* Compare without leaking, through timing, how much of the token matched. */
static int
api_token_equal(const char *a, const char *b, size_t len)
{
	unsigned char	diff = 0;
	size_t		i;

	for (i = 0; i < len; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return (diff == 0);
}

/* 1 if req carries "Authorization: Bearer <token>". */
static int
api_authorized(struct daemon *d, struct evhttp_request *req)
{
	const char	*h;

	h = evhttp_find_header(evhttp_request_get_input_headers(req),
	    "Authorization");
	if (h == NULL || strncasecmp(h, "Bearer ", 7) != 0)
		return (0);
	h += 7;
	while (*h == ' ')
		h++;
	if (strlen(h) != STATE_TOKEN_LEN)
		return (0);
	return (api_token_equal(h, d->token, STATE_TOKEN_LEN));
}

/* The Allow header value for a route's methods. */
static void
api_allow_header(int methods, char *out, size_t outsz)
{
	out[0] = '\0';
	if (methods & EVHTTP_REQ_GET)
		strncat(out, "GET, ", outsz - strlen(out) - 1);
	if (methods & EVHTTP_REQ_HEAD)
		strncat(out, "HEAD, ", outsz - strlen(out) - 1);
	if (methods & EVHTTP_REQ_POST)
		strncat(out, "POST, ", outsz - strlen(out) - 1);
	if (methods & EVHTTP_REQ_PUT)
		strncat(out, "PUT, ", outsz - strlen(out) - 1);
	if (methods & EVHTTP_REQ_DELETE)
		strncat(out, "DELETE, ", outsz - strlen(out) - 1);
	if (strlen(out) >= 2)
		out[strlen(out) - 2] = '\0';
}

/* Route every request: allow-list, path, method, token, handler. */
static void
api_gen_cb(struct evhttp_request *req, void *arg)
{
	struct daemon		*d = arg;
	const struct api_route	*r = NULL;
	const struct evhttp_uri	*uri;
	const char		*path;
	char			 peer[64], allow[64];
	size_t			 i;

	api_conn_seen(d, req);
	http_peer(req, peer, sizeof peer);
	if (!api_allowed(d, req)) {
		log_debug("api: %s: refused by api.allow", peer);
		http_error(req, 403, "forbidden",
		    "client %s is not in api.allow", peer);
		return;
	}
	uri = evhttp_request_get_evhttp_uri(req);
	path = uri != NULL ? evhttp_uri_get_path(uri) : NULL;
	if (path == NULL || *path == '\0')
		path = "/";
	for (i = 0; i < NP_NITEMS(api_routes); i++) {
		if (api_routes[i].prefix ? strncmp(api_routes[i].path, path,
		    strlen(api_routes[i].path)) == 0 :
		    strcmp(api_routes[i].path, path) == 0) {
			r = &api_routes[i];
			break;
		}
	}
	if (r == NULL) {
		http_error(req, HTTP_NOTFOUND, "not_found", "no such endpoint: "
		    "%.200s", path);
		return;
	}
	if ((r->methods & (int)evhttp_request_get_command(req)) == 0) {
		api_allow_header(r->methods, allow, sizeof allow);
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", allow);
		http_error(req, HTTP_BADMETHOD, "method_not_allowed",
		    "%s takes %s", r->path, allow);
		return;
	}
	if (r->auth && d->cfg->auth && !api_authorized(d, req)) {
		log_debug("api: %s: %s: missing or wrong token", peer, path);
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "WWW-Authenticate", "Bearer realm=\"nasperfd\"");
		http_error(req, 401, "unauthorized", "a valid bearer token is "
		    "required (see %s/token on the server)", d->state_dir);
		return;
	}
	r->handler(d, req);
}

/* Take a snapshot of the configured root into a new struct; NULL on ENOMEM. */
static struct snapshot *
api_snapshot(struct daemon *d)
{
	struct snapshot_opts	 opts;
	struct snapshot_group	 groups[CFG_MAX_GROUPS];
	const char		*pats[CFG_MAX_GROUPS][CFG_MAX_PATTERNS];
	struct snapshot		*s;

	if ((s = snapshot_new()) == NULL)
		return (NULL);
	cfg_snapshot_opts(d->cfg, &opts, groups, pats);
	if (snapshot_take(&d->root, &opts, s) == -1) {
		snapshot_free(s);
		return (NULL);
	}
	return (s);
}

static void
api_healthz(struct daemon *d, struct evhttp_request *req)
{
	http_reply(req, HTTP_OK, json_pack("{s:s}", "status", "ok"));
}

/* Copy key of src into dst, or null when src lacks it. */
static void
api_take(json_t *dst, const char *key, json_t *src, const char *skey)
{
	json_t	*v = src != NULL ? json_object_get(src, skey) : NULL;

	json_object_set(dst, key, v != NULL ? v : json_null());
}

static void
api_info(struct daemon *d, struct evhttp_request *req)
{
	struct topology	*t = NULL;
	struct snapshot	*s = NULL;
	json_t		*topo = NULL, *ctr = NULL, *body, *limits;
	struct timespec	 now;
	struct sampler_stats st;

	clock_gettime(CLOCK_REALTIME, &now);
	if ((t = topology_new()) != NULL && topology_read(&d->root, t) == 0)
		topo = enc_topology(t);
	if ((s = api_snapshot(d)) != NULL)
		ctr = enc_counters(s);
	limits = json_array();
	if (!d->is_root) {
		json_array_append_new(limits, json_string("not running as "
		    "root: other users' /proc/PID/io and raw block devices "
		    "are not readable, process groups may be incomplete"));
	}
	body = json_pack("{s:s,s:s,s:s,s:b,s:f,s:f,s:o}",
	    "name", PACKAGE_NAME, "version", PACKAGE_VERSION,
	    "root", d->root.path, "running_as_root", d->is_root,
	    "server_time", (double)now.tv_sec + (double)now.tv_nsec / 1e9,
	    "daemon_uptime", nptime_since(&d->started), "limits", limits);
	if (body != NULL) {
		sampler_stats(d, &st);
		json_object_set_new(body, "sampler", json_pack("{s:f,s:I,s:f,"
		    "s:f,s:f,s:f,s:I,s:I,s:I,s:f,s:f}", "interval", st.interval,
		    "ticks", (json_int_t)st.ticks, "jitter_mean_ms",
		    st.jitter_mean_ms, "jitter_max_ms", st.jitter_max_ms,
		    "cost_mean_ms", st.cost_mean_ms, "cost_max_ms",
		    st.cost_max_ms, "memory_bytes", (json_int_t)st.memory_bytes,
		    "samples_full", (json_int_t)st.full, "samples_coarse",
		    (json_int_t)st.coarse, "oldest", st.oldest, "newest",
		    st.newest));
		json_object_set_new(body, "synth", json_pack("{s:o,s:i}",
		    "port", synth_port(d) > 0 ? json_integer(synth_port(d)) :
		    json_null(), "max_streams",
		    (int)d->cfg->synth_max_streams));
		api_take(body, "identity", topo, "identity");
		api_take(body, "cpu", topo, "cpu");
		api_take(body, "memory", ctr, "memory");
		api_take(body, "uptime_seconds", json_object_get(ctr,
		    "memory"), "uptime_s");
	}
	json_decref(topo);
	json_decref(ctr);
	snapshot_free(s);
	topology_free(t);
	http_reply(req, HTTP_OK, body);
}

static void
api_topology(struct daemon *d, struct evhttp_request *req)
{
	struct topology	*t;
	json_t		*body;

	if ((t = daemon_topology(d)) == NULL) {
		http_error(req, HTTP_INTERNAL, "internal", "topology: %s",
		    strerror(errno));
		return;
	}
	body = enc_topology(t);
	topology_free(t);
	/* The sessions smbstatus listed last, beside smb.conf's settings. */
	json_object_set_new(json_object_get(json_object_get(body,
	    "protocols"), "smb"), "sessions", smbsess_json(d));
	http_reply(req, HTTP_OK, body);
}

/* Unlink w from the daemon's list of pending requests and free it. */
static void
api_wait_free(struct api_wait *w)
{
	struct api_wait	**pp;

	for (pp = &w->d->waits; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	w->d->nwaits--;
	if (w->timer != NULL)
		event_free(w->timer);
	snapshot_free(w->first);
	free(w);
}

/* The interval of a ?interval= request has passed: reply with the rates. */
static void
api_wait_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct api_wait	*w = arg;
	struct snapshot	*s;
	json_t		*body;

	if ((s = api_snapshot(w->d)) == NULL) {
		http_error(w->req, HTTP_INTERNAL, "internal", "snapshot: %s",
		    strerror(errno));
		api_wait_free(w);
		return;
	}
	body = enc_counters(s);
	if (body != NULL)
		json_object_set_new(body, "rates", enc_rates(w->first, s));
	snapshot_free(s);
	http_reply(w->req, HTTP_OK, body);
	api_wait_free(w);
}

/* Parse the interval= query parameter; -1 with a message when malformed. */
static int
api_interval(struct evhttp_request *req, double *out, char *msg, size_t msgsz)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	 q;
	const char		*query, *v;
	char			*end;
	double			 x;
	int			 rc = 0;

	*out = 0;
	if (uri == NULL || (query = evhttp_uri_get_query(uri)) == NULL)
		return (0);
	/* evhttp_parse_query_str() initialises q, and clears it on error. */
	if (evhttp_parse_query_str(query, &q) == -1) {
		snprintf(msg, msgsz, "malformed query string");
		return (-1);
	}
	if ((v = evhttp_find_header(&q, "interval")) != NULL) {
		errno = 0;
		x = strtod(v, &end);
		if (errno != 0 || end == v || *end != '\0' ||
		    !(x >= API_MIN_INTERVAL && x <= API_MAX_INTERVAL)) {
			snprintf(msg, msgsz, "interval: '%.40s' is not a number "
			    "of seconds from %.1f to %.0f", v,
			    API_MIN_INTERVAL, API_MAX_INTERVAL);
			rc = -1;
		} else
			*out = x;
	}
	evhttp_clear_headers(&q);
	return (rc);
}

static void
api_counters(struct daemon *d, struct evhttp_request *req)
{
	struct snapshot	*s;
	struct api_wait	*w;
	struct timeval	 tv;
	double		 interval;
	char		 msg[160];

	if (api_interval(req, &interval, msg, sizeof msg) == -1) {
		http_error(req, HTTP_BADREQUEST, "bad_request", "%s", msg);
		return;
	}
	if ((s = api_snapshot(d)) == NULL) {
		http_error(req, HTTP_INTERNAL, "internal", "snapshot: %s",
		    strerror(errno));
		return;
	}
	if (interval == 0) {
		http_reply(req, HTTP_OK, enc_counters(s));
		snapshot_free(s);
		return;
	}
	/* The second snapshot comes from a timer: the loop never sleeps. */
	if (d->nwaits >= API_MAX_WAITS) {
		snapshot_free(s);
		http_error(req, HTTP_SERVUNAVAIL, "busy", "%u interval requests "
		    "are already waiting; try again", d->nwaits);
		return;
	}
	if ((w = calloc(1, sizeof *w)) == NULL ||
	    (w->timer = evtimer_new(d->base, api_wait_cb, w)) == NULL) {
		free(w);
		snapshot_free(s);
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
		return;
	}
	w->d = d;
	w->req = req;
	w->first = s;
	w->interval = interval;
	w->next = d->waits;
	d->waits = w;
	d->nwaits++;
	tv.tv_sec = (time_t)interval;
	tv.tv_usec = (suseconds_t)((interval - (double)tv.tv_sec) * 1e6);
	evtimer_add(w->timer, &tv);
}

static void
api_metrics(struct daemon *d, struct evhttp_request *req)
{
	struct snapshot	*s;
	struct evbuffer	*evb;

	if ((s = api_snapshot(d)) == NULL) {
		http_error(req, HTTP_INTERNAL, "internal", "snapshot: %s",
		    strerror(errno));
		return;
	}
	if ((evb = evbuffer_new()) == NULL || metrics_render(evb, s) == -1) {
		http_error(req, HTTP_INTERNAL, "internal", "metrics: %s",
		    strerror(errno));
		goto out;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	evhttp_send_reply(req, HTTP_OK, NULL, evb);
out:
	if (evb != NULL)
		evbuffer_free(evb);
	snapshot_free(s);
}

#define API_MAX_SAMPLES	20000	/* in one /v1/samples answer */

/* GET /v1/samples?from=&to=&step=: the history's counters. */
static void
api_samples(struct daemon *d, struct evhttp_request *req)
{
	const struct history		*h = sampler_history(d);
	const struct evhttp_uri		*uri = evhttp_request_get_evhttp_uri(req);
	const struct hist_sample	*first;
	struct evkeyvalq		 q;
	struct hist_window		 w;
	const char			*query;
	char				 msg[160];
	double				 now = nptime_real(), from, to, step = 0;
	json_t				*doc;
	int				 bad = 0;

	from = now - 60;
	to = now;
	query = uri != NULL ? evhttp_uri_get_query(uri) : NULL;
	if (query != NULL) {
		if (evhttp_parse_query_str(query, &q) == -1) {
			http_error(req, HTTP_BADREQUEST, "bad_request",
			    "malformed query string");
			return;
		}
		bad = http_query_num(&q, "from", &from, msg, sizeof msg) == -1 ||
		    http_query_num(&q, "to", &to, msg, sizeof msg) == -1 ||
		    http_query_num(&q, "step", &step, msg, sizeof msg) == -1;
		evhttp_clear_headers(&q);
		if (bad) {
			http_error(req, HTTP_BADREQUEST, "bad_request", "%s "
			    "(from and to: Unix seconds, or negative for "
			    "seconds before now; step: seconds)", msg);
			return;
		}
	}
	/* Negative times count back from now. */
	if (from <= 0)
		from += now;
	if (to <= 0)
		to += now;
	if (!(to > from) || step < 0 || step > 86400) {
		http_error(req, HTTP_BADREQUEST, "bad_request", "need from < to "
		    "and a step from 0 to 86400 s");
		return;
	}
	if (h == NULL || (first = history_first(h)) == NULL ||
	    to < first->t) {
		http_error(req, 410, "window_not_covered", "the history no "
		    "longer covers this window (it starts at %.3f)",
		    h != NULL && history_first(h) != NULL ?
		    history_first(h)->t : now);
		return;
	}
	if (history_window(h, from, to, step, &w) == -1) {
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
		return;
	}
	if (w.n > API_MAX_SAMPLES) {
		http_error(req, HTTP_BADREQUEST, "too_many_samples", "%zu "
		    "samples: ask for at most %d with a larger step", w.n,
		    API_MAX_SAMPLES);
		history_window_clear(&w);
		return;
	}
	doc = history_to_json(h, &w);
	history_window_clear(&w);
	if (doc != NULL) {
		json_object_set_new(doc, "from", json_real(from));
		json_object_set_new(doc, "to", json_real(to));
		json_object_set_new(doc, "covered_from", json_real(first->t));
	}
	http_reply(req, HTTP_OK, doc);
}

/*
 * GET /v1/time: the server's clock when the request arrived and when the
 * answer left, for an NTP-style offset estimate on the client.
 */
static void
api_time(struct daemon *d, struct evhttp_request *req)
{
	double	rx = nptime_real();

	http_reply(req, HTTP_OK, json_pack("{s:f,s:f,s:f}", "receive", rx,
	    "transmit", nptime_real(), "server_time", rx));
}

void
api_reconfigure(struct daemon *d)
{
	evhttp_set_max_body_size(d->http, (ev_ssize_t)d->cfg->max_body);
	evhttp_set_max_headers_size(d->http, (ev_ssize_t)d->cfg->max_headers);
	evhttp_set_timeout(d->http, (int)d->cfg->idle_timeout);
}

int
api_init(struct daemon *d, char **cause)
{
	const struct cfg	*cfg = d->cfg;
	struct timeval		 sweep = { 1, 0 };

	*cause = NULL;
	if ((d->http = evhttp_new(d->base)) == NULL) {
		if (asprintf(cause, "evhttp_new failed") == -1)
			*cause = NULL;
		return (-1);
	}
	evhttp_set_allowed_methods(d->http, API_METHODS);
	evhttp_set_gencb(d->http, api_gen_cb, d);
	evhttp_set_bevcb(d->http, api_bev_cb, d);
	api_reconfigure(d);
	d->sock = evhttp_bind_socket_with_handle(d->http, cfg->listen_addr,
	    cfg->listen_port);
	if (d->sock == NULL) {
		if (asprintf(cause, "cannot listen on %s:%u: %s",
		    cfg->listen_addr, cfg->listen_port, strerror(errno)) == -1)
			*cause = NULL;
		evhttp_free(d->http);
		d->http = NULL;
		return (-1);
	}
	d->accepting = 1;
	if ((d->ev_sweep = event_new(d->base, -1, EV_PERSIST,
	    api_conn_sweep_cb, d)) == NULL ||
	    event_add(d->ev_sweep, &sweep) == -1) {
		if (asprintf(cause, "cannot add the connection timer") == -1)
			*cause = NULL;
		return (-1);
	}
	log_info("listening on %s%s%s:%u", strchr(cfg->listen_addr, ':') ?
	    "[" : "", cfg->listen_addr, strchr(cfg->listen_addr, ':') ? "]" :
	    "", cfg->listen_port);
	return (0);
}

void
api_shutdown(struct daemon *d)
{
	while (d->waits != NULL) {
		http_error(d->waits->req, HTTP_SERVUNAVAIL, "shutting_down",
		    "nasperfd is stopping");
		api_wait_free(d->waits);
	}
	if (d->ev_sweep != NULL) {
		event_free(d->ev_sweep);
		d->ev_sweep = NULL;
	}
	if (d->http != NULL) {
		/* Closes every connection: their close callbacks free them. */
		d->sock = NULL;
		evhttp_free(d->http);
		d->http = NULL;
	}
	while (d->conns != NULL)
		api_conn_remove(d, d->conns);
}
