/*
 * http.h: what every HTTP handler of nasperfd shares, over libevent's
 * evhttp: JSON replies and the error shape, other bodies with their type,
 * query numbers, request bodies as JSON, the peer's address.
 *
 * A leaf: it knows nothing of the daemon.  The core reports a refusal in
 * a struct http_err (a status, a code and a message), which the API's
 * handlers send; the core never sees a request.
 */
#ifndef HTTP_H
#define HTTP_H

/*
 * Significant digits of a real in an answer: 2.31, not 2.3100000000000001
 * (a Unix time keeps its tens of microseconds).
 */
#define HTTP_REAL_DIGITS	15

#include <stddef.h>

#include <jansson.h>

#include "np.h"

struct evhttp_request;
struct evkeyvalq;

/* A refusal: what the API answers {"error": {"code", "message"}} with. */
struct http_err {
	int	status;			/* 400, 404, 409, 500 ... */
	char	code[32];		/* "bad_request" */
	char	msg[768];		/* for people */
};

/*
 * The answer to a request the core finishes later (a disk test's start,
 * a cache drop): doc (the callee's reference) or, doc NULL, the refusal e;
 * both NULL when no document could be made.
 */
typedef void http_done_cb(json_t *doc, const struct http_err *e, void *arg);

/* Fill e (which may be NULL) and return -1, for "return (http_fail(...))". */
int	http_fail(struct http_err *e, int status, const char *code,
	    const char *fmt, ...) NP_PRINTF(4, 5);
/* Reply with a JSON body.  Steals the reference to body; NULL is a 500. */
void	http_reply(struct evhttp_request *, int status, json_t *body);
/* Reply {"error":{"code","message"}} with the status given. */
void	http_error(struct evhttp_request *, int status, const char *code,
	    const char *fmt, ...) NP_PRINTF(4, 5);
/* Reply with the refusal e. */
void	http_send_err(struct evhttp_request *, const struct http_err *e);
/* Reply 200 with len bytes of buf as content type type. */
void	http_send(struct evhttp_request *, const char *type, const char *buf,
	    size_t len);
/*
 * The request body as a JSON object: an empty body is {} when empty_ok.
 * NULL with e filled (400 bad_json, 500) otherwise.  Caller decrefs.
 */
json_t	*http_body_json(struct evhttp_request *, int empty_ok,
	    struct http_err *e);
/*
 * Query parameter key of q as a number into *out, left as it is when
 * absent; -1 with a message in msg when it is not a finite number.
 */
int	http_query_num(struct evkeyvalq *q, const char *key, double *out,
	    char *msg, size_t msgsz);
/*
 * Whether authorization (an Authorization header's value, NULL when there
 * is none) is "Bearer <token>"; compared in constant time.
 */
int	http_bearer_ok(const char *authorization, const char *token);

/* What a request's token allows. */
enum http_scope {
	HTTP_SCOPE_NONE,		/* no token, or a wrong one */
	HTTP_SCOPE_READ,		/* the read-only token: GET and HEAD */
	HTTP_SCOPE_CONTROL		/* the control token: everything */
};
/*
 * The scope of authorization against the control and the read-only
 * tokens (read may be "" when there is none); both compared in constant
 * time.
 */
enum http_scope http_bearer_scope(const char *authorization,
	    const char *control, const char *read);
/* "read", "control" or "none". */
const char *http_scope_name(enum http_scope);
/*
 * The number at the start of a path segment s: digits only (no sign, no
 * blank, no leading zero but "0" itself), ending at '\0' or '/', where
 * *end is left.  -1 when s is not one, or it overflows.
 */
int	http_path_id(const char *s, unsigned long *id, const char **end);
/* The client's address into out ("?" when unknown, and then -1). */
int	http_peer(struct evhttp_request *, char *out, size_t outsz);

#endif /* HTTP_H */
