/*
 * api.c: the HTTP API.
 *
 * One evhttp_set_gencb() routes every request through routes.c's table, so
 * that 401, 403, 404 and 405 share the JSON error shape; every method is
 * allowed in evhttp (libevent 2.1 answers a disallowed one with its own HTML
 * 501) and the router answers 405 itself.
 *
 * libevent also answers what its parser refuses (a malformed head, a body
 * over the limit) with its own HTML, and cuts a header's value at a NUL.
 * So every byte a client sends goes through http_head.c first, in a
 * callback on the connection's input buffer that runs as bytes are read,
 * before evhttp looks at them: a head is held back until it is whole and
 * passes, and one refused is replaced by a request of our own on which
 * the refusal is answered in JSON (400, 411, 413, 431, 501, 505), after
 * which the connection reads nothing more and closes.
 *
 * libevent 2.1 has no evhttp_set_max_connections(), so the connection limit
 * is ours.  A connection is counted from its accept to the close callback of
 * its evhttp_connection, which is set as soon as libevent has made it, so
 * the count is the sockets open.  A peer outside api.allow is closed at
 * once, and so is one from an address that has
 * api.max_connections_per_address open already (peercap.c), before it can
 * make room or count against the limit; a connection gets api.head_timeout seconds to send a whole request
 * head, from its accept or from the end of its last reply, however slowly
 * its bytes trickle in.  At the limit, the oldest connection that has sent
 * no request yet is closed to make room; only when every connection has
 * sent one is the listener disabled, so new clients wait in the kernel's
 * backlog until one ends.  Connections that never send a byte cannot lock
 * the API.
 *
 * With api.tls every connection speaks TLS (tls.c); its handshake runs
 * under the same head deadline, so a peer that never finishes one holds
 * its slot no longer than one that never sends a request.
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
#include "api_box.h"
#include "authfail.h"
#include "cfg.h"
#include "daemon.h"
#include "http.h"
#include "http_head.h"
#include "log.h"
#include "np.h"
#include "peercap.h"
#include "routes.h"
#include "state.h"
#include "tls.h"

#define API_METHODS	(EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD | \
	EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | \
	EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH)



/* An open API connection, counted against api.max_connections. */
struct api_conn {
	struct daemon			*d;
	struct bufferevent		*bev;	/* a reference until attached */
	struct evhttp_connection	*evcon;	/* NULL until attached */
	struct event			*attach; /* once, after the accept */
	struct timespec			 idle;	/* waiting since; monotonic */
	struct sockaddr_storage		 peer;	/* once counted per address */
	int				 counted; /* in d->peercap */
	int				 busy;	/* a request in hand */
	int				 notls;	/* api.tls, but no TLS for it */
	unsigned			 nreq;	/* requests it sent */
	struct evbuffer			*input;	/* its bufferevent's */
	struct evbuffer			*held;	/* a head not yet whole */
	struct evbuffer			*fresh;	/* bytes being read */
	struct http_head		 head;	/* what http_head.c read */
	int				 feeding; /* in api_head_cb */
	unsigned			 refused; /* the request, from 1 */
	struct api_conn			*next;
};

/*
 * What evhttp is given in place of a refused head: a request of ours, the
 * refusal's number among the connection's requests, answered in JSON.
 */
#define API_REFUSED_HEAD	"GET / HTTP/1.1\r\nConnection: close\r\n\r\n"


static void	api_head_cb(struct evbuffer *,
		    const struct evbuffer_cb_info *, void *);

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
	if (c->input != NULL)
		evbuffer_remove_cb(c->input, api_head_cb, c);
	if (c->held != NULL)
		evbuffer_free(c->held);
	if (c->fresh != NULL)
		evbuffer_free(c->fresh);
	if (c->bev != NULL)
		bufferevent_decref(c->bev);
	if (c->counted) {
		peercap_del(d->peercap, (struct sockaddr *)&c->peer);
		d->nadmitted--;
	}
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
 * refuse a peer outside api.allow or over its cap per address, and make
 * room at the limit.
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
	if (c->notls) {
		log_warnx("api: no TLS for a new connection (see the TLS "
		    "lines above): closed");
		api_conn_close(c);
		return;
	}
	if ((sa = evhttp_connection_get_addr(evcon)) == NULL ||
	    !cfg_allowed(d->cfg, sa)) {
		api_conn_refused(d, evcon);
		api_conn_close(c);
		return;
	}
	if (peercap_add(d->peercap, sa, d->cfg->max_per_address) == -1) {
		api_conn_close(c);
		return;
	}
	memcpy(&c->peer, sa, sa->sa_family == AF_INET6 ?
	    sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in));
	c->counted = 1;
	/*
	 * Room is made for the connections admitted, not for those of a
	 * burst still to be looked at, which the checks above may refuse.
	 */
	if (++d->nadmitted > d->cfg->max_connections &&
	    (old = api_conn_waiting(d, c)) != NULL) {
		log_debug("api: %u connections: closing one that sent no "
		    "request for %.1f s", d->nadmitted,
		    api_conn_age(&old->idle));
		api_conn_close(old);
	}
	api_conn_gate(d);
}

/*
 * Make the bufferevent of a new connection (a TLS one with api.tls), and
 * count the connection.
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
	/*
	 * libevent serves plain HTTP over a bufferevent of its own when this
	 * gives none: with api.tls, one that cannot have TLS gets a plain
	 * one and is closed at attach, before it is read.
	 */
	bev = NULL;
	if (d->cfg->tls && (bev = tls_server_bev(d, -1, 0)) == NULL)
		c->notls = 1;
	if ((c->attach = event_new(base, -1, 0, api_conn_attach_cb, c)) ==
	    NULL || (bev == NULL && (bev = bufferevent_socket_new(base, -1,
	    BEV_OPT_CLOSE_ON_FREE)) == NULL)) {
		if (c->attach != NULL)
			event_free(c->attach);
		if (bev != NULL)
			bufferevent_free(bev);
		free(c);
		return (NULL);
	}
	if ((c->held = evbuffer_new()) == NULL ||
	    (c->fresh = evbuffer_new()) == NULL ||
	    evbuffer_add_cb(bufferevent_get_input(bev), api_head_cb, c) ==
	    NULL) {
		if (c->held != NULL)
			evbuffer_free(c->held);
		if (c->fresh != NULL)
			evbuffer_free(c->fresh);
		event_free(c->attach);
		bufferevent_free(bev);
		free(c);
		return (NULL);
	}
	c->input = bufferevent_get_input(bev);
	http_head_init(&c->head, d->cfg->max_headers, d->cfg->max_body);
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

/* The connection's peer, for a log line. */
static const char *
api_conn_peer(struct api_conn *c, char *buf, size_t len)
{
	char		*addr = NULL;
	ev_uint16_t	 port = 0;

	if (c->evcon != NULL)
		evhttp_connection_get_peer(c->evcon, &addr, &port);
	snprintf(buf, len, "%s", addr != NULL ? addr : "?");
	return (buf);
}

/*
 * Bytes were added to a connection's input buffer, at its end: read them
 * through http_head.c before evhttp sees them.  A head goes on to evhttp
 * only whole; a body goes as it comes; a refused head is dropped with all
 * that follows, and API_REFUSED_HEAD stands in its place.
 */
static void
api_head_cb(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct api_conn		*c = arg;
	struct evbuffer_iovec	 v;
	enum http_head_event	 ev;
	size_t			 len, before, took;
	char			 peer[64];

	if (c->feeding || info->n_added == 0)
		return;
	c->feeding = 1;
	/* Take the new bytes off the end: what is before them stays. */
	len = evbuffer_get_length(buf);
	if (info->n_added < len) {
		before = len - info->n_added;
		evbuffer_remove_buffer(buf, c->fresh, before);
		evbuffer_add_buffer(c->fresh, buf);
		evbuffer_remove_buffer(c->fresh, buf, before);
	} else
		evbuffer_add_buffer(c->fresh, buf);
	while ((len = evbuffer_get_length(c->fresh)) > 0) {
		if (evbuffer_peek(c->fresh, -1, NULL, &v, 1) < 1)
			break;
		took = http_head_feed(&c->head, v.iov_base, v.iov_len, &ev);
		if (took == 0 && ev != HH_BAD)
			break;
		switch (ev) {
		case HH_MORE:
			evbuffer_remove_buffer(c->fresh, c->held, took);
			break;
		case HH_DROP:
			evbuffer_drain(c->fresh, took);
			break;
		case HH_HEAD:
			evbuffer_remove_buffer(c->fresh, c->held, took);
			evbuffer_add_buffer(buf, c->held);
			break;
		case HH_BODY:
			evbuffer_remove_buffer(c->fresh, buf, took);
			break;
		case HH_BAD:
			if (c->refused == 0) {
				log_debug("api: %s: request refused (%d): %s",
				    api_conn_peer(c, peer, sizeof peer),
				    c->head.status, c->head.why);
				evbuffer_drain(c->held,
				    evbuffer_get_length(c->held));
				evbuffer_add(buf, API_REFUSED_HEAD,
				    sizeof API_REFUSED_HEAD - 1);
				c->refused = c->head.heads + 1;
			}
			evbuffer_drain(c->fresh, len);
			break;
		}
	}
	c->feeding = 0;
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

/*
 * A whole request head came: the connection has a request in hand.  Its
 * connection, or NULL.
 */
static struct api_conn *
api_conn_seen(struct daemon *d, struct evhttp_request *req)
{
	struct api_conn	*c;

	if ((c = api_conn_find(d, req)) == NULL)
		return (NULL);
	c->busy = 1;
	c->nreq++;
	evhttp_request_set_on_complete_cb(req, api_conn_done_cb, d);
	return (c);
}

/* The code of a refusal of http_head.c, by its status. */
static const char *
api_refusal_code(int status)
{
	switch (status) {
	case 411:
		return ("length_required");
	case 413:
		return ("body_too_large");
	case 431:
		return ("head_too_large");
	case 501:
		return ("unknown_method");
	case 505:
		return ("http_version");
	}
	return ("bad_request");
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

	peercap_sweep(d->peercap);
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

/* Route every request: allow-list, path, method, token, handler. */
static void
api_gen_cb(struct evhttp_request *req, void *arg)
{
	struct daemon		*d = arg;
	struct api_conn		*c;
	const struct route	*r;
	const struct evhttp_uri	*uri;
	const char		*path;
	char			 peer[64], allow[64];
	unsigned		 retry;
	int			 need, have;

	c = api_conn_seen(d, req);
	if (c != NULL && c->refused != 0 && c->refused == c->nreq) {
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Connection", "close");
		http_error(req, c->head.status, api_refusal_code(
		    c->head.status), "%s", c->head.why);
		return;
	}
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
	if ((r = route_find(ROUTE_API, path)) == NULL) {
		http_error(req, HTTP_NOTFOUND, "not_found", "no such endpoint: "
		    "%.200s", path);
		return;
	}
	if ((r->methods & (int)evhttp_request_get_command(req)) == 0) {
		route_allow(r->methods, allow, sizeof allow);
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Allow", allow);
		http_error(req, HTTP_BADMETHOD, "method_not_allowed",
		    "%s takes %s", r->path, allow);
		return;
	}
	need = route_scope(r, (int)evhttp_request_get_command(req));
	if (need == HTTP_SCOPE_NONE || !d->cfg->auth) {
		r->handler(d, req);
		return;
	}
	if (authfail_blocked(d, peer, &retry)) {
		snprintf(allow, sizeof allow, "%u", retry);
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Retry-After", allow);
		http_error(req, 429, "too_many_failures", "too many requests "
		    "from %s failed to authenticate: retry in %u s", peer,
		    retry);
		return;
	}
	if ((have = daemon_scope(d, evhttp_find_header(
	    evhttp_request_get_input_headers(req), "Authorization"))) ==
	    HTTP_SCOPE_NONE) {
		log_debug("api: %s: %s: missing or wrong token", peer, path);
		authfail_record(d, peer, "api");
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "WWW-Authenticate", "Bearer realm=\"nasperfd\"");
		http_error(req, 401, "unauthorized", "a valid bearer token is "
		    "required (see %s/token on the server)", d->state_dir);
		return;
	}
	authfail_ok(d, peer);
	if (have < need) {
		http_error(req, 403, "read_only_token", "%s %s needs the "
		    "control token (%s/" STATE_TOKEN " on the server): this "
		    "one only reads", route_method_name((int)
		    evhttp_request_get_command(req)), path,
		    d->state_dir);
		return;
	}
	r->handler(d, req);
}

void
api_reconfigure(struct daemon *d)
{
	evhttp_set_max_body_size(d->http, (ev_ssize_t)d->cfg->max_body);
	/* http_head.c holds heads to max_headers: evhttp never sees more. */
	evhttp_set_max_headers_size(d->http, (ev_ssize_t)d->cfg->max_headers +
	    (ev_ssize_t)sizeof API_REFUSED_HEAD);
	evhttp_set_timeout(d->http, (int)d->cfg->idle_timeout);
}

int
api_init(struct daemon *d, char **cause)
{
	const struct cfg	*cfg = d->cfg;
	struct timeval		 sweep = { 1, 0 };

	*cause = NULL;
	if ((d->peercap = peercap_new("api")) == NULL) {
		if (asprintf(cause, "out of memory") == -1)
			*cause = NULL;
		return (-1);
	}
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
	api_box_shutdown(d);
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
	while (d->conns != NULL) {
		/* An attached one's buffers went with its connection. */
		if (d->conns->evcon != NULL)
			d->conns->input = NULL;
		api_conn_remove(d, d->conns);
	}
	peercap_free(d->peercap);
	d->peercap = NULL;
}
