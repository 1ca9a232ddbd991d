/*
 * routes.h: every route nasperfd answers, on both its listeners: the API
 * port (api.c, through evhttp) and the synthetic data port (synth.c, its
 * own reader).  A listener finds the route of a path here, answers 404
 * when there is none and 405 with route_allow()'s Allow header when the
 * method is not the route's, checks the token when the route needs it,
 * and calls the handler.
 */
#ifndef ROUTES_H
#define ROUTES_H

#include <stddef.h>

struct daemon;
struct evhttp_request;

typedef void route_handler_cb(struct daemon *, struct evhttp_request *);

enum route_port {
	ROUTE_API,		/* api.listen */
	ROUTE_SYNTH		/* synth.listen */
};

/*
 * What a route asks of the token: nothing; a token, the read-only one
 * enough for GET and HEAD and the control one for the rest; or the
 * control token whatever the method (what makes load: the data plane).
 */
#define ROUTE_OPEN	0
#define ROUTE_TOKEN	1
#define ROUTE_CONTROL	2

struct route {
	enum route_port	 port;
	const char	*path;
	int		 methods;	/* EVHTTP_REQ_* */
	int		 auth;		/* ROUTE_OPEN, _TOKEN or _CONTROL */
	int		 prefix;	/* path is a prefix: /v1/runs/ID... */
	route_handler_cb *handler;	/* NULL: the listener serves it */
	const char	*what;		/* one line, for people */
};

/* The route of path on port, or NULL. */
const struct route *route_find(enum route_port, const char *path);
/* The Allow header value of methods (EVHTTP_REQ_*): "GET, HEAD, PUT". */
void	route_allow(int methods, char *out, size_t outsz);
/*
 * The scope (enum http_scope of http.h) a request with method (an
 * EVHTTP_REQ_*) on route r needs.
 */
int	route_scope(const struct route *r, int method);
/* The name of an EVHTTP_REQ_* method; "?" when not one of ours. */
const char *route_method_name(int method);
/* The EVHTTP_REQ_* of an HTTP method's name; 0 when not one of ours. */
int	route_method(const char *name);

#endif /* ROUTES_H */
