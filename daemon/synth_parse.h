/*
 * synth_parse.h: the data plane's request heads and queries, taken apart.
 * Pure (libc only), so tests and the fuzzer call it directly.
 */
#ifndef SYNTH_PARSE_H
#define SYNTH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "synth_pattern.h"

#define SYNTH_PATH	"/v1/synth"
#define SYNTH_MAX_SECONDS 86400.0	/* longest timed stream */

/* A request head as the data plane reads it. */
struct synth_req {
	char		method[16];
	char		target[1024];	/* origin-form path and query */
	int		http11;		/* HTTP/1.1, else 1.0 */
	int		keepalive;	/* another request may follow */
	int		has_length;
	uint64_t	length;		/* Content-Length */
	int		chunked;	/* a Transfer-Encoding was given */
	int		expect_continue; /* Expect: 100-continue */
	char		auth[256];	/* Authorization, "" when absent */
};

/* What a stream's query asks for. */
struct synth_params {
	int		has_bytes;
	uint64_t	bytes;		/* GET: the body's length */
	double		seconds;	/* GET: a timed stream; 0 when not */
	enum synth_pattern pattern;	/* default random */
	int		has_pattern;
	uint64_t	seed;		/* default 0 */
	int		verify;		/* PUT: check every byte */
};

/*
 * Parse a request head (request line and headers, up to and including the
 * empty line) of len bytes.  Pure: tests call it.  -1 with a static
 * *errstr when malformed.
 */
int	synth_parse_head(const char *buf, size_t len, struct synth_req *,
	    const char **errstr);
/*
 * Parse the query of GET (upload 0) or PUT (upload 1) /v1/synth; query
 * may be NULL.  -1 with a message naming the parameter in msg.
 */
int	synth_parse_query(const char *query, int upload, uint64_t max_bytes,
	    struct synth_params *, char *msg, size_t msgsz);

#endif /* SYNTH_PARSE_H */
