/*
 * fuzz_synth.c: libFuzzer target of the data plane's request reader, the
 * one HTTP parser of nasperfd's own that faces the network.  The input is
 * a request head as synth.c hands it over: the bytes up to the empty
 * line, not NUL-terminated.  What synth_parse_head() takes goes on as
 * synth_dispatch() takes it: the target split at '?', its path looked up
 * in the route table, the method by its name, and the query read for a
 * GET and for a PUT, within the default synth.max_bytes.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "routes.h"
#include "synth_parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t		 max_bytes;
	struct synth_req	 r;
	struct synth_params	 p;
	struct cfg		*c;
	const char		*errstr, *q;
	char			 path[1024], msg[256];
	size_t			 plen;

	if (max_bytes == 0) {
		if ((c = cfg_default()) == NULL)
			abort();
		max_bytes = c->synth_max_bytes;
		cfg_free(c);
	}
	if (synth_parse_head((const char *)data, size, &r, &errstr) == -1)
		return (0);
	q = strchr(r.target, '?');
	plen = q != NULL ? (size_t)(q - r.target) : strlen(r.target);
	snprintf(path, sizeof path, "%.*s", (int)plen, r.target);
	(void)route_find(ROUTE_SYNTH, path);
	(void)route_method(r.method);
	(void)synth_parse_query(q != NULL ? q + 1 : NULL, 0, max_bytes, &p,
	    msg, sizeof msg);
	(void)synth_parse_query(q != NULL ? q + 1 : NULL, 1, max_bytes, &p,
	    msg, sizeof msg);
	return (0);
}
