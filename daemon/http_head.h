/*
 * http_head.h: a strict reader of HTTP/1.x request heads, in front of
 * evhttp.
 *
 * libevent 2.1 answers what its parser refuses (a malformed head, one over
 * the header limit, a body over the body limit) with its own HTML page,
 * before any callback of ours runs, and it cuts a header's value at a NUL.
 * api.c runs every byte a client sends through this reader first and
 * lets evhttp see a request head only once it is whole and passes: the
 * grammar here is narrower than evhttp's, so evhttp never refuses what
 * it is given, and what is refused is answered by the API in JSON.
 *
 * Pure: bytes in, a state out; unit-tested and fuzzed.
 */
#ifndef HTTP_HEAD_H
#define HTTP_HEAD_H

#include <stddef.h>
#include <stdint.h>

/* What http_head_feed() stopped at. */
enum http_head_event {
	HH_MORE,	/* every byte taken is head: the head goes on */
	HH_DROP,	/* the bytes taken are blank lines before a head */
	HH_HEAD,	/* the bytes taken end a whole head that passes */
	HH_BODY,	/* the bytes taken are a body's */
	HH_BAD		/* refused: see status and why */
};

struct http_head {
	size_t		max_head;	/* api.max_header_bytes */
	uint64_t	max_body;	/* api.max_body_bytes */

	int		state;
	int		lf_of;		/* the state a CR ended */
	size_t		head;		/* bytes of this head so far */
	size_t		tok;		/* bytes of the token being read */
	char		name[32];	/* method, version or header name */
	int		value_of;	/* which header's value is read */
	int		digits;		/* of Content-Length's value */
	int		cl_end;		/* spaces after its digits */
	int		has_body;	/* the method may carry a body */
	int		have_cl;
	uint64_t	cl;		/* Content-Length */
	uint64_t	body;		/* body bytes still to come */
	unsigned	heads;		/* whole heads read */

	int		status;		/* once HH_BAD: 400, 411, 413 ... */
	char		why[160];	/* for the client: no header value */
};

void	http_head_init(struct http_head *, size_t max_head,
	    uint64_t max_body);
/*
 * Read bytes from p, at most n, and return how many were taken and what
 * they are in *ev.  It stops at the end of a head and at the end of a
 * body, so that a return covers one kind of bytes only.  Once HH_BAD it
 * takes nothing more.
 */
size_t	http_head_feed(struct http_head *, const unsigned char *p, size_t n,
	    enum http_head_event *ev);

#endif
