/*
 * http.c: JSON replies, the error shape, bodies and queries over evhttp.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <jansson.h>

#include "http.h"
#include "jsonnum.h"

int
http_fail(struct http_err *e, int status, const char *code, const char *fmt,
    ...)
{
	va_list	ap;

	if (e != NULL) {
		e->status = status;
		snprintf(e->code, sizeof e->code, "%s", code);
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return (-1);
}

static int
http_write_cb(const char *buf, size_t len, void *arg)
{
	return (evbuffer_add(arg, buf, len));
}

/*
 * 500 with the error shape, made of nothing that can fail: the reply when
 * the answer could not be made (evhttp_send_error's page is HTML).
 */
static void
http_internal(struct evhttp_request *req)
{
	static const char	 body[] = "{\"error\":{\"code\":\"internal\","
	    "\"message\":\"the answer could not be made\"}}\n";

	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "application/json");
	evbuffer_add(evhttp_request_get_output_buffer(req), body,
	    sizeof body - 1);
	evhttp_send_reply(req, HTTP_INTERNAL, NULL, NULL);
}

void
http_reply(struct evhttp_request *req, int status, json_t *body)
{
	struct evbuffer	*evb;
	json_t		*out = NULL;

	/* Reals as they mean: 87.88 %, not 87.8787878787879 (jsonnum.h). */
	if ((evb = evbuffer_new()) == NULL || body == NULL ||
	    (out = jsonnum_round(body)) == NULL ||
	    json_dump_callback(out, http_write_cb, evb, JSON_COMPACT |
	    JSON_REAL_PRECISION(HTTP_REAL_DIGITS)) == -1) {
		http_internal(req);
		goto out;
	}
	evbuffer_add(evb, "\n", 1);
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "application/json");
	evhttp_send_reply(req, status, NULL, evb);	/* evb is still ours */
out:
	if (evb != NULL)
		evbuffer_free(evb);
	json_decref(out);
	json_decref(body);
}

void
http_error(struct evhttp_request *req, int status, const char *code,
    const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	http_reply(req, status, json_pack("{s:{s:s,s:s}}", "error", "code",
	    code, "message", msg));
}

void
http_send_err(struct evhttp_request *req, const struct http_err *e)
{
	http_error(req, e->status != 0 ? e->status : HTTP_INTERNAL,
	    e->code[0] != '\0' ? e->code : "internal", "%s", e->msg);
}

void
http_send(struct evhttp_request *req, const char *type, const char *buf,
    size_t len)
{
	struct evbuffer	*evb;

	if ((evb = evbuffer_new()) == NULL ||
	    evbuffer_add(evb, buf, len) == -1) {
		if (evb != NULL)
			evbuffer_free(evb);
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
		return;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", type);
	evhttp_send_reply(req, HTTP_OK, NULL, evb);
	evbuffer_free(evb);
}

json_t *
http_body_json(struct evhttp_request *req, int empty_ok, struct http_err *e)
{
	struct evbuffer	*in = evhttp_request_get_input_buffer(req);
	json_error_t	 jerr;
	json_t		*j;
	size_t		 len = evbuffer_get_length(in);
	char		*buf;

	if (len == 0 && empty_ok)
		return (json_object());
	if ((buf = malloc(len + 1)) == NULL) {
		http_fail(e, HTTP_INTERNAL, "internal", "out of memory");
		return (NULL);
	}
	evbuffer_copyout(in, buf, len);
	buf[len] = '\0';
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (j == NULL) {
		http_fail(e, HTTP_BADREQUEST, "bad_json", "the body is not "
		    "JSON: %s (line %d, column %d)", jerr.text, jerr.line,
		    jerr.column);
		return (NULL);
	}
	if (!json_is_object(j)) {
		json_decref(j);
		http_fail(e, HTTP_BADREQUEST, "bad_json", "the body must be "
		    "a JSON object");
		return (NULL);
	}
	return (j);
}

int
http_query_num(struct evkeyvalq *q, const char *key, double *out, char *msg,
    size_t msgsz)
{
	const char	*v;
	char		*end;
	double		 x;

	if ((v = evhttp_find_header(q, key)) == NULL)
		return (0);
	errno = 0;
	x = strtod(v, &end);
	if (errno != 0 || end == v || *end != '\0' || !isfinite(x)) {
		snprintf(msg, msgsz, "%s: '%.40s' is not a number", key, v);
		return (-1);
	}
	*out = x;
	return (0);
}

int
http_peer(struct evhttp_request *req, char *out, size_t outsz)
{
	struct evhttp_connection	*evcon;
	char				*addr = NULL;
	ev_uint16_t			 port = 0;

	evcon = evhttp_request_get_connection(req);
	if (evcon != NULL)
		evhttp_connection_get_peer(evcon, &addr, &port);
	snprintf(out, outsz, "%s", addr != NULL ? addr : "?");
	return (addr != NULL ? 0 : -1);
}

int
http_bearer_ok(const char *auth, const char *token)
{
	unsigned char	diff = 0;
	size_t		i, len = strlen(token);

	if (auth == NULL || len == 0 || strncasecmp(auth, "Bearer ", 7) != 0)
		return (0);
	auth += 7;
	while (*auth == ' ')
		auth++;
	if (strlen(auth) != len)
		return (0);
	for (i = 0; i < len; i++)
		diff |= (unsigned char)(auth[i] ^ token[i]);
	return (diff == 0);
}

enum http_scope
http_bearer_scope(const char *auth, const char *control, const char *read)
{
	int	c = http_bearer_ok(auth, control);
	int	r = http_bearer_ok(auth, read);

	return (c ? HTTP_SCOPE_CONTROL : r ? HTTP_SCOPE_READ : HTTP_SCOPE_NONE);
}

const char *
http_scope_name(enum http_scope s)
{
	return (s == HTTP_SCOPE_CONTROL ? "control" : s == HTTP_SCOPE_READ ?
	    "read" : "none");
}

int
http_path_id(const char *s, unsigned long *id, const char **end)
{
	unsigned long	v = 0;
	const char	*p;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1] >= '0' &&
	    s[1] <= '9'))
		return (-1);
	for (p = s; *p >= '0' && *p <= '9'; p++) {
		if (v > (ULONG_MAX - (unsigned long)(*p - '0')) / 10)
			return (-1);
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (*p != '\0' && *p != '/')
		return (-1);
	*id = v;
	*end = p;
	return (0);
}
