/*
 * t_http_head.c: the reader in front of evhttp.  Each stream is fed whole,
 * a byte at a time and in odd pieces, and must come out the same: the
 * heads it passes, the body bytes, the blank lines dropped, and what it
 * refuses with which status.
 */
#include "config.h"

#include "http_head.h"
#include "test.h"

#define T_MAX_HEAD	256
#define T_MAX_BODY	1000

/* What a stream came to. */
struct t_out {
	unsigned	heads;
	size_t		head_bytes;	/* bytes passed as heads */
	size_t		body;
	size_t		dropped;
	int		status;		/* 0, or the refusal's */
	char		why[160];
};

/* Feed n bytes of s in pieces of piece bytes (0: whole). */
static void
t_feed(const char *s, size_t n, size_t piece, struct t_out *o)
{
	struct http_head	 h;
	enum http_head_event	 ev;
	size_t			 at = 0, len, took, held = 0;

	memset(o, 0, sizeof *o);
	http_head_init(&h, T_MAX_HEAD, T_MAX_BODY);
	while (at < n) {
		len = piece == 0 || n - at < piece ? n - at : piece;
		while (len > 0) {
			took = http_head_feed(&h, (const unsigned char *)s +
			    at, len, &ev);
			switch (ev) {
			case HH_MORE:
				held += took;
				break;
			case HH_DROP:
				o->dropped += took;
				break;
			case HH_HEAD:
				o->heads++;
				o->head_bytes += held + took;
				held = 0;
				break;
			case HH_BODY:
				o->body += took;
				break;
			case HH_BAD:
				o->status = h.status;
				snprintf(o->why, sizeof o->why, "%s", h.why);
				return;
			}
			at += took;
			len -= took;
		}
	}
}

/* s fed whole, a byte at a time and three at a time agree with want. */
static void
t_stream(const char *what, const char *s, size_t n, unsigned heads,
    size_t body, int status)
{
	static const size_t	 pieces[] = { 0, 1, 3, 7 };
	struct t_out		 o[4];
	size_t			 i;
	int			 same = 1;

	for (i = 0; i < 4; i++)
		t_feed(s, n, pieces[i], &o[i]);
	for (i = 1; i < 4; i++)
		if (o[i].heads != o[0].heads || o[i].body != o[0].body ||
		    o[i].status != o[0].status ||
		    o[i].dropped != o[0].dropped ||
		    strcmp(o[i].why, o[0].why) != 0)
			same = 0;
	t_check(same && o[0].heads == heads && o[0].body == body &&
	    o[0].status == status, what, __FILE__, __LINE__,
	    "heads %u body %zu status %d (%s), the same in pieces: %d; "
	    "want %u, %zu, %d", o[0].heads, o[0].body, o[0].status,
	    o[0].why, same, heads, body, status);
}

#define T_S(what, s, heads, body, status) \
	t_stream(what, s, sizeof s - 1, heads, body, status)

/* The reason given for s. */
static const char *
t_why(const char *s, size_t n)
{
	static struct t_out	o;

	t_feed(s, n, 0, &o);
	return (o.why);
}

int
main(void)
{
	struct http_head	 h;
	enum http_head_event	 ev;
	struct t_out		 o;
	char			 big[T_MAX_HEAD + 64];
	const char		*w;

	T_S("a GET with headers", "GET /v1/info HTTP/1.1\r\nHost: nas:9631"
	    "\r\nAuthorization: Bearer 0123abcd\r\nAccept: */*\r\n\r\n", 1, 0,
	    0);
	T_S("HTTP/1.0, LF alone", "GET /v1/info?x=1&y=%20 HTTP/1.0\nHost: a"
	    "\n\n", 1, 0, 0);
	T_S("two pipelined, the first with a body", "POST /v1/runs HTTP/1.1"
	    "\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\n\r\n", 2, 5,
	    0);
	T_S("a body of exactly api.max_body_bytes", "PUT /v1/x HTTP/1.1\r\n"
	    "Content-Length:1000\r\n\r\n", 1, 0, 0);
	T_S("OWS around Content-Length's digits", "POST / HTTP/1.1\r\n"
	    "content-length: \t3 \r\n\r\nabc", 1, 3, 0);
	T_S("Content-Length 0 on a GET", "GET / HTTP/1.1\r\nContent-Length: 0"
	    "\r\n\r\n", 1, 0, 0);
	T_S("obs-text in a value", "GET / HTTP/1.1\r\nX-Name: caf\xc3\xa9\r\n"
	    "\r\n", 1, 0, 0);
	T_S("OPTIONS *", "OPTIONS * HTTP/1.1\r\n\r\n", 1, 0, 0);
	T_S("blank lines before a request are dropped", "\r\n\r\nGET / "
	    "HTTP/1.1\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n", 2, 0, 0);
	t_feed("\r\n\nGET / HTTP/1.1\r\n\r\n", 21, 1, &o);
	T_EQ_INT((int)o.dropped, 3);
	T_EQ_INT((int)o.head_bytes, 18);

	T_S("a NUL in a header's value",
	    "GET / HTTP/1.1\r\nAuthorization: Bearer abc\0junk\r\n\r\n", 0, 0,
	    400);
	w = t_why("GET / HTTP/1.1\r\nAuthorization: Bearer abc\0junk\r\n\r\n",
	    46);
	T_TRUE(strstr(w, "0x00") != NULL);
	T_TRUE(strstr(w, "Authorization") != NULL);
	T_TRUE(strstr(w, "abc") == NULL);
	T_S("an escape in a value", "GET / HTTP/1.1\r\nX-L: a\x1b[2J\r\n\r\n",
	    0, 0, 400);
	T_S("DEL in a value", "GET / HTTP/1.1\r\nX-L: a\x7f\r\n\r\n", 0, 0,
	    400);
	T_S("a CR alone in a value", "GET / HTTP/1.1\r\nX-L: a\rb\r\n\r\n",
	    0, 0, 400);
	T_S("a folded line", "GET / HTTP/1.1\r\nX-L: a\r\n b\r\n\r\n", 0, 0,
	    400);
	T_S("a header with no colon", "GET / HTTP/1.1\r\nX-L\r\n\r\n", 0, 0,
	    400);
	T_S("a space before the colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n",
	    0, 0, 400);
	T_S("an empty header name", "GET / HTTP/1.1\r\n: a\r\n\r\n", 0, 0,
	    400);
	T_S("a body over api.max_body_bytes", "POST / HTTP/1.1\r\n"
	    "Content-Length: 1001\r\n\r\n", 0, 0, 413);
	T_S("a body far over it", "POST / HTTP/1.1\r\nContent-Length: "
	    "99999999999999999\r\n\r\n", 0, 0, 413);
	T_S("twenty digits", "POST / HTTP/1.1\r\nContent-Length: "
	    "99999999999999999999\r\n\r\n", 0, 0, 400);
	T_S("two Content-Length fields", "POST / HTTP/1.1\r\nContent-Length: "
	    "1\r\nContent-Length: 1\r\n\r\na", 0, 0, 400);
	T_S("Content-Length not a number", "POST / HTTP/1.1\r\nContent-Length:"
	    " 12a\r\n\r\n", 0, 0, 400);
	T_S("Content-Length with a space inside", "POST / HTTP/1.1\r\n"
	    "Content-Length: 1 2\r\n\r\n", 0, 0, 400);
	T_S("Content-Length empty", "POST / HTTP/1.1\r\nContent-Length:\r\n"
	    "\r\n", 0, 0, 400);
	T_S("a body on a GET", "GET / HTTP/1.1\r\nContent-Length: 4\r\n\r\n"
	    "abcd", 0, 0, 400);
	T_S("chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
	    "0\r\n\r\n", 0, 0, 411);
	T_S("an unknown method", "BREW /pot HTTP/1.1\r\n\r\n", 0, 0, 501);
	T_S("a method in lower case", "get / HTTP/1.1\r\n\r\n", 0, 0, 501);
	T_S("no method", " / HTTP/1.1\r\n\r\n", 0, 0, 400);
	T_S("HTTP/2.0", "GET / HTTP/2.0\r\n\r\n", 0, 0, 505);
	T_S("HTTP/1.1 with more", "GET / HTTP/1.1x\r\n\r\n", 0, 0, 400);
	T_S("no version", "GET /\r\n\r\n", 0, 0, 400);
	T_S("two spaces", "GET  / HTTP/1.1\r\n\r\n", 0, 0, 400);
	T_S("a target in absolute form", "GET http://a/ HTTP/1.1\r\n\r\n", 0,
	    0, 400);
	T_S("a target starting //", "GET //a:b/ HTTP/1.1\r\n\r\n", 0, 0,
	    400);
	T_S("a star and more", "OPTIONS *x HTTP/1.1\r\n\r\n", 0, 0, 400);
	T_S("a NUL in the target", "GET /v1/runs/1\0 HTTP/1.1\r\n\r\n", 0, 0,
	    400);
	T_S("a CR alone in the request line", "GET / HTTP/1.1\rX\n\r\n", 0,
	    0, 400);
	T_S("a good request, then a bad one", "GET / HTTP/1.1\r\n\r\nGET / "
	    "HTTP/1.1\r\nX: \x01\r\n\r\n", 1, 0, 400);

	memset(big, 'a', sizeof big);
	memcpy(big, "GET / HTTP/1.1\r\nX-Big: ", 23);
	memcpy(big + sizeof big - 4, "\r\n\r\n", 4);
	t_stream("a head over api.max_header_bytes", big, sizeof big, 0, 0,
	    431);
	memcpy(big, "GET /", 5);
	memset(big + 5, 'a', sizeof big - 5);
	t_stream("a request line over it, with no end", big, sizeof big, 0, 0,
	    431);

	/* Refused, it takes nothing more. */
	http_head_init(&h, T_MAX_HEAD, T_MAX_BODY);
	(void)http_head_feed(&h, (const unsigned char *)"BREW ", 5, &ev);
	T_EQ_INT(ev, HH_BAD);
	T_EQ_INT((int)http_head_feed(&h, (const unsigned char *)"GET ", 4,
	    &ev), 0);
	T_EQ_INT(ev, HH_BAD);
	T_EQ_INT(h.status, 501);
	T_EQ_INT((int)http_head_feed(&h, (const unsigned char *)"", 0, &ev),
	    0);
	return (t_done());
}
