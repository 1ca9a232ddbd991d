/*
 * http_head.c: a strict reader of HTTP/1.x request heads (RFC 9112), so
 * that evhttp is given only heads it takes, and the API answers the rest
 * in JSON.  See http_head.h.
 *
 * Taken: a request line of one of the nine methods evhttp knows, a target
 * in origin form (or "*"), HTTP/1.0 or HTTP/1.1; header fields of a token,
 * a colon and a value of visible characters, spaces and tabs; lines ended
 * by CRLF or by LF alone; at most one Content-Length, within
 * api.max_body_bytes, and none above 0 on a method that has no body.
 * Refused: anything else, among it a NUL or any other control character
 * in a value (evhttp would cut the value there), a folded line, a
 * Transfer-Encoding (a body comes with its length), and a head over
 * api.max_header_bytes.  Blank lines before a request line are dropped,
 * as RFC 9112 lets a server do.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "http_head.h"
#include "np.h"

enum {
	S_START,	/* before a request line */
	S_METHOD,
	S_TARGET,
	S_VERSION,
	S_NAME,		/* at or in a header field's name */
	S_VALUE,
	S_LF,		/* a CR was read: an LF must follow */
	S_BODY,
	S_BAD
};

/* Which header's value is being read. */
enum {
	V_OTHER,
	V_CONTENT_LENGTH,
	V_TRANSFER_ENCODING
};

/* The methods evhttp 2.1 knows, and whether each may carry a body. */
static const struct {
	const char	*name;
	int		 body;
} http_head_methods[] = {
	{ "GET", 0 }, { "POST", 1 }, { "HEAD", 0 }, { "PUT", 1 },
	{ "DELETE", 0 }, { "OPTIONS", 0 }, { "TRACE", 0 }, { "CONNECT", 0 },
	{ "PATCH", 1 }
};

/* 1 if c is a tchar of RFC 9110 5.6.2. */
static int
http_head_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z'))
		return (1);
	return (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Refuse the head with status and a reason; returns HH_BAD. */
static enum http_head_event
http_head_bad(struct http_head *h, int status, const char *fmt, ...)
    NP_PRINTF(3, 4);

static enum http_head_event
http_head_bad(struct http_head *h, int status, const char *fmt, ...)
{
	va_list	ap;

	h->state = S_BAD;
	h->status = status;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof h->why, fmt, ap);
	va_end(ap);
	return (HH_BAD);
}

/* Keep c of a token in name, as far as it fits. */
static void
http_head_keep(struct http_head *h, unsigned char c)
{
	if (h->tok < sizeof h->name - 1)
		h->name[h->tok] = (char)c;
	h->tok++;
}

/* The token read so far, ended, or "" when it did not fit. */
static const char *
http_head_token(struct http_head *h)
{
	if (h->tok >= sizeof h->name)
		return ("");
	h->name[h->tok] = '\0';
	return (h->name);
}

/* A printable byte for a message: 0x00 rather than the byte. */
static const char *
http_head_byte(unsigned char c, char *buf, size_t len)
{
	if (c >= 0x21 && c <= 0x7e)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "0x%02x", c);
	return (buf);
}

/* The method just read: known, and whether it may have a body. */
static enum http_head_event
http_head_method(struct http_head *h)
{
	const char	*m = http_head_token(h);
	size_t		 i;

	for (i = 0; i < sizeof http_head_methods / sizeof
	    http_head_methods[0]; i++) {
		if (strcmp(m, http_head_methods[i].name) == 0) {
			h->has_body = http_head_methods[i].body;
			return (HH_MORE);
		}
	}
	return (http_head_bad(h, 501, "method %.*s is not one this server "
	    "knows", (int)(h->tok < 16 ? h->tok : 16), h->name));
}

/* The version just read, at the end of the request line. */
static enum http_head_event
http_head_version(struct http_head *h)
{
	const char	*v = http_head_token(h);

	if (strcmp(v, "HTTP/1.1") == 0 || strcmp(v, "HTTP/1.0") == 0)
		return (HH_MORE);
	if (strlen(v) == 8 && strncmp(v, "HTTP/", 5) == 0 &&
	    v[5] >= '0' && v[5] <= '9' && v[6] == '.' &&
	    v[7] >= '0' && v[7] <= '9')
		return (http_head_bad(h, 505, "%s is not spoken here: "
		    "HTTP/1.1 is", v));
	return (http_head_bad(h, 400, "the request line does not end in "
	    "HTTP/1.1 or HTTP/1.0"));
}

/* The end of a header line whose value was read. */
static enum http_head_event
http_head_field(struct http_head *h)
{
	if (h->value_of == V_TRANSFER_ENCODING)
		return (http_head_bad(h, 411, "Transfer-Encoding is not "
		    "taken: send the body with a Content-Length"));
	if (h->value_of != V_CONTENT_LENGTH)
		return (HH_MORE);
	if (h->digits == 0)
		return (http_head_bad(h, 400, "Content-Length is not a "
		    "number"));
	if (h->have_cl)
		return (http_head_bad(h, 400, "two Content-Length fields"));
	h->have_cl = 1;
	if (h->cl > h->max_body)
		return (http_head_bad(h, 413, "a body of %llu bytes is over "
		    "api.max_body_bytes (%llu)", (unsigned long long)h->cl,
		    (unsigned long long)h->max_body));
	return (HH_MORE);
}

/* An empty line: the head is whole. */
static enum http_head_event
http_head_end(struct http_head *h)
{
	if (h->have_cl && h->cl > 0 && !h->has_body)
		return (http_head_bad(h, 400, "this method takes no body"));
	h->heads++;
	h->body = h->have_cl ? h->cl : 0;
	h->state = h->body > 0 ? S_BODY : S_START;
	return (HH_HEAD);
}

/* The start of a header line, or the head's end. */
static void
http_head_line(struct http_head *h)
{
	h->state = S_NAME;
	h->tok = 0;
	h->value_of = V_OTHER;
}

/* The end of a line: what it ends depends on where it was. */
static enum http_head_event
http_head_eol(struct http_head *h, int was)
{
	enum http_head_event	ev;

	switch (was) {
	case S_VERSION:
		if ((ev = http_head_version(h)) != HH_MORE)
			return (ev);
		break;
	case S_VALUE:
		if ((ev = http_head_field(h)) != HH_MORE)
			return (ev);
		break;
	case S_NAME:
		if (h->tok == 0)
			return (http_head_end(h));
		return (http_head_bad(h, 400, "a header line with no "
		    "colon"));
	default:
		return (http_head_bad(h, 400, "a line ends too early in "
		    "the request line"));
	}
	http_head_line(h);
	return (HH_MORE);
}

/* One byte of a head. */
static enum http_head_event
http_head_byte1(struct http_head *h, unsigned char c)
{
	char	b[8];

	if (++h->head > h->max_head)
		return (http_head_bad(h, 431, "the request head is over "
		    "api.max_header_bytes (%zu)", h->max_head));
	/* The end of a line where one may end: LF, or CR then LF. */
	if ((c == '\r' || c == '\n') && (h->state == S_VERSION ||
	    h->state == S_NAME || h->state == S_VALUE)) {
		if (c == '\n')
			return (http_head_eol(h, h->state));
		h->lf_of = h->state;
		h->state = S_LF;
		return (HH_MORE);
	}
	switch (h->state) {
	case S_START:
		h->state = S_METHOD;
		h->tok = 0;
		h->have_cl = 0;
		h->cl = 0;
		/* FALLTHROUGH */
	case S_METHOD:
		if (c == ' ' && h->tok > 0) {
			enum http_head_event ev = http_head_method(h);

			if (ev == HH_MORE) {
				h->state = S_TARGET;
				h->tok = 0;
			}
			return (ev);
		}
		if (!http_head_tchar(c) || h->tok >= 16)
			return (http_head_bad(h, 400, "the request line does "
			    "not start with a method"));
		http_head_keep(h, c);
		return (HH_MORE);
	case S_TARGET:
		if (c == ' ' && h->tok > 0) {
			h->state = S_VERSION;
			h->tok = 0;
			return (HH_MORE);
		}
		if (h->tok == 0 && c != '/' && c != '*')
			return (http_head_bad(h, 400, "the request target is "
			    "not a path"));
		if ((h->tok == 1 && h->name[0] == '*') ||
		    (h->tok == 1 && h->name[0] == '/' && c == '/'))
			return (http_head_bad(h, 400, "the request target is "
			    "not a path"));
		if (c < 0x21 || c > 0x7e)
			return (http_head_bad(h, 400, "a %s in the request "
			    "target", http_head_byte(c, b, sizeof b)));
		if (h->tok < 1)
			h->name[0] = (char)c;
		h->tok++;
		return (HH_MORE);
	case S_VERSION:
		if (c < 0x21 || c > 0x7e || h->tok >= 8)
			return (http_head_bad(h, 400, "the request line does "
			    "not end in HTTP/1.1 or HTTP/1.0"));
		http_head_keep(h, c);
		return (HH_MORE);
	case S_NAME:
		if (c == ':' && h->tok > 0) {
			const char *n = http_head_token(h);

			h->state = S_VALUE;
			h->digits = 0;
			h->cl_end = 0;
			if (strcasecmp(n, "Content-Length") == 0)
				h->value_of = V_CONTENT_LENGTH;
			else if (strcasecmp(n, "Transfer-Encoding") == 0)
				h->value_of = V_TRANSFER_ENCODING;
			else
				h->value_of = V_OTHER;
			return (HH_MORE);
		}
		if ((c == ' ' || c == '\t') && h->tok == 0)
			return (http_head_bad(h, 400, "a folded header line"));
		if (!http_head_tchar(c))
			return (http_head_bad(h, 400, "a %s in a header "
			    "name", http_head_byte(c, b, sizeof b)));
		http_head_keep(h, c);
		return (HH_MORE);
	case S_VALUE:
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return (http_head_bad(h, 400, "a control character "
			    "(%s) in the value of %s", http_head_byte(c, b,
			    sizeof b), *http_head_token(h) != '\0' ?
			    h->name : "a header"));
		if (h->value_of == V_CONTENT_LENGTH) {
			if (c >= '0' && c <= '9') {
				if (h->cl_end || h->digits >= 19)
					return (http_head_bad(h, 400,
					    "Content-Length is not a "
					    "number"));
				h->cl = h->cl * 10 + (uint64_t)(c - '0');
				h->digits++;
			} else if (c == ' ' || c == '\t') {
				if (h->digits > 0)
					h->cl_end = 1;
			} else
				return (http_head_bad(h, 400,
				    "Content-Length is not a number"));
		}
		return (HH_MORE);
	case S_LF:
		if (c != '\n')
			return (http_head_bad(h, 400, "a CR not followed by "
			    "LF"));
		return (http_head_eol(h, h->lf_of));
	}
	return (http_head_bad(h, 400, "a malformed request"));
}

void
http_head_init(struct http_head *h, size_t max_head, uint64_t max_body)
{
	memset(h, 0, sizeof *h);
	h->max_head = max_head;
	h->max_body = max_body;
	h->state = S_START;
}

size_t
http_head_feed(struct http_head *h, const unsigned char *p, size_t n,
    enum http_head_event *ev)
{
	size_t	i;

	*ev = HH_MORE;
	if (n == 0)
		return (0);
	switch (h->state) {
	case S_BAD:
		*ev = HH_BAD;
		return (0);
	case S_BODY:
		i = (uint64_t)n < h->body ? n : (size_t)h->body;
		h->body -= i;
		if (h->body == 0)
			h->state = S_START;
		*ev = HH_BODY;
		return (i);
	case S_START:
		for (i = 0; i < n && (p[i] == '\r' || p[i] == '\n'); i++)
			;
		if (i > 0) {
			*ev = HH_DROP;
			return (i);
		}
		h->head = 0;
		break;
	}
	for (i = 0; i < n; i++) {
		*ev = http_head_byte1(h, p[i]);
		if (*ev == HH_BAD)
			return (i);
		if (*ev == HH_HEAD)
			return (i + 1);
	}
	*ev = HH_MORE;
	return (n);
}
