/*
 * synth_parse.c: a small HTTP/1.1 request-head reader for the data plane's
 * GET, HEAD and PUT /v1/synth, and the parameters of their queries.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "np.h"
#include "synth_parse.h"
#include "synth_pattern.h"

/* A decimal unsigned number, digits only; -1 on anything else. */
static int
synth_u64(const char *s, uint64_t *out)
{
	uint64_t	v = 0;

	if (*s == '\0')
		return (-1);
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return (-1);
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return (-1);
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return (0);
}

/* One header line "Name: value" into r. */
static int
synth_header(struct synth_req *r, char *line, const char **errstr)
{
	char		*colon, *v, *end, *tok, *last;
	uint64_t	 n;

	if (*line == ' ' || *line == '\t') {
		*errstr = "folded header lines are not accepted";
		return (-1);
	}
	if ((colon = strchr(line, ':')) == NULL || colon == line) {
		*errstr = "a header line without a name";
		return (-1);
	}
	*colon = '\0';
	if (strpbrk(line, " \t") != NULL) {
		*errstr = "white space in a header name";
		return (-1);
	}
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	end = v + strlen(v);
	while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (strcasecmp(line, "Content-Length") == 0) {
		if (synth_u64(v, &n) == -1 || n > INT64_MAX) {
			*errstr = "Content-Length is not a byte count";
			return (-1);
		}
		if (r->has_length && r->length != n) {
			*errstr = "two different Content-Length headers";
			return (-1);
		}
		r->has_length = 1;
		r->length = n;
	} else if (strcasecmp(line, "Transfer-Encoding") == 0)
		r->chunked = 1;
	else if (strcasecmp(line, "Expect") == 0)
		r->expect_continue = strcasecmp(v, "100-continue") == 0;
	else if (strcasecmp(line, "Authorization") == 0) {
		if (strlen(v) >= sizeof r->auth)
			r->auth[0] = '\0';	/* too long to be our token */
		else
			memcpy(r->auth, v, strlen(v) + 1);
	} else if (strcasecmp(line, "Connection") == 0) {
		for (tok = strtok_r(v, ", \t", &last); tok != NULL;
		    tok = strtok_r(NULL, ", \t", &last)) {
			if (strcasecmp(tok, "close") == 0)
				r->keepalive = 0;
			else if (strcasecmp(tok, "keep-alive") == 0)
				r->keepalive = 1;
		}
	}
	return (0);
}

int
synth_parse_head(const char *buf, size_t len, struct synth_req *r,
    const char **errstr)
{
	char	*copy, *line, *next, *sp1, *sp2, *version;
	int	 rc = -1, first = 1;

	memset(r, 0, sizeof *r);
	*errstr = "out of memory";
	if (memchr(buf, '\0', len) != NULL) {
		*errstr = "a NUL byte in the request head";
		return (-1);
	}
	if ((copy = malloc(len + 1)) == NULL)
		return (-1);
	memcpy(copy, buf, len);
	copy[len] = '\0';
	*errstr = "the request head does not end with an empty line";
	for (line = copy; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) == NULL)
			goto out;
		*next++ = '\0';
		if (next - line >= 2 && next[-2] == '\r')
			next[-2] = '\0';
		if (*line == '\0') {
			if (first) {
				*errstr = "an empty request line";
				goto out;
			}
			rc = 0;
			goto out;
		}
		if (!first) {
			if (synth_header(r, line, errstr) == -1)
				goto out;
			continue;
		}
		first = 0;
		if ((sp1 = strchr(line, ' ')) == NULL ||
		    (sp2 = strchr(sp1 + 1, ' ')) == NULL ||
		    strchr(sp2 + 1, ' ') != NULL) {
			*errstr =
			    "the request line is not METHOD TARGET VERSION";
			goto out;
		}
		*sp1 = *sp2 = '\0';
		version = sp2 + 1;
		if (strcmp(version, "HTTP/1.1") == 0)
			r->http11 = r->keepalive = 1;
		else if (strcmp(version, "HTTP/1.0") != 0) {
			*errstr = "only HTTP/1.0 and HTTP/1.1 are spoken here";
			goto out;
		}
		if (*line == '\0' || strlen(line) >= sizeof r->method) {
			*errstr = "a method that is empty or too long";
			goto out;
		}
		memcpy(r->method, line, strlen(line) + 1);
		if (sp1[1] != '/' || strlen(sp1 + 1) >= sizeof r->target) {
			*errstr = "the target is not a path of at most 1023 "
			    "bytes";
			goto out;
		}
		memcpy(r->target, sp1 + 1, strlen(sp1 + 1) + 1);
	}
out:
	free(copy);
	return (rc);
}

/* A boolean query value. */
static int
synth_bool(const char *s, int *v)
{
	if (strcmp(s, "1") == 0 || strcasecmp(s, "true") == 0 ||
	    strcasecmp(s, "yes") == 0)
		*v = 1;
	else if (strcmp(s, "0") == 0 || strcasecmp(s, "false") == 0 ||
	    strcasecmp(s, "no") == 0)
		*v = 0;
	else
		return (-1);
	return (0);
}

/* Parse one key=value of the query into p; -1 with msg. */
static int
synth_param(const char *k, const char *v, int upload, uint64_t max_bytes,
    struct synth_params *p, char *msg, size_t msgsz)
{
	char	*end;

	if (strcmp(k, "bytes") == 0 && !upload) {
		if (synth_u64(v, &p->bytes) == -1) {
			snprintf(msg, msgsz, "bytes: '%.64s' is not a byte "
			    "count (digits only)", v);
			return (-1);
		}
		if (p->bytes > max_bytes) {
			snprintf(msg, msgsz, "bytes: %ju is over "
			    "synth.max_bytes (%ju)", (uintmax_t)p->bytes,
			    (uintmax_t)max_bytes);
			return (-1);
		}
		p->has_bytes = 1;
	} else if (strcmp(k, "seconds") == 0 && !upload) {
		errno = 0;
		p->seconds = strtod(v, &end);
		if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 ||
		    !(p->seconds > 0 && p->seconds <= SYNTH_MAX_SECONDS)) {
			snprintf(msg, msgsz, "seconds: '%.64s' is not a number "
			    "of seconds from 0 to %.0f", v, SYNTH_MAX_SECONDS);
			return (-1);
		}
	} else if (strcmp(k, "pattern") == 0) {
		if (synth_pattern_parse(v, &p->pattern) == -1) {
			snprintf(msg, msgsz, "pattern: '%.64s' is not one of "
			    "zero, random, mixed", v);
			return (-1);
		}
		p->has_pattern = 1;
	} else if (strcmp(k, "seed") == 0) {
		if (synth_u64(v, &p->seed) == -1) {
			snprintf(msg, msgsz, "seed: '%.64s' is not a number "
			    "from 0 to 18446744073709551615", v);
			return (-1);
		}
	} else if (strcmp(k, "verify") == 0 && upload) {
		if (synth_bool(v, &p->verify) == -1) {
			snprintf(msg, msgsz, "verify: '%.64s' is not 0 or 1",
			    v);
			return (-1);
		}
	} else {
		snprintf(msg, msgsz, "unknown parameter '%.64s' (%s)", k,
		    upload ? "PUT takes pattern, seed, verify" :
		    "GET takes bytes or seconds, pattern, seed");
		return (-1);
	}
	return (0);
}

int
synth_parse_query(const char *query, int upload, uint64_t max_bytes,
    struct synth_params *p, char *msg, size_t msgsz)
{
	static const char *const keys[] = { "bytes", "seconds", "pattern",
	    "seed", "verify" };
	char		*copy = NULL, *kv, *last, *eq;
	unsigned	 seen = 0;
	size_t		 i;
	int		 rc = -1;

	memset(p, 0, sizeof *p);
	p->pattern = SYNTH_PATTERN_RANDOM;
	if (query != NULL && *query != '\0' &&
	    (copy = strdup(query)) == NULL) {
		snprintf(msg, msgsz, "out of memory");
		return (-1);
	}
	for (kv = copy != NULL ? strtok_r(copy, "&", &last) : NULL;
	    kv != NULL; kv = strtok_r(NULL, "&", &last)) {
		if ((eq = strchr(kv, '=')) == NULL) {
			snprintf(msg, msgsz, "'%.64s' is not key=value", kv);
			goto out;
		}
		*eq = '\0';
		for (i = 0; i < NP_NITEMS(keys); i++) {
			if (strcmp(kv, keys[i]) != 0)
				continue;
			if (seen & (1U << i)) {
				snprintf(msg, msgsz, "%s is given twice", kv);
				goto out;
			}
			seen |= 1U << i;
		}
		if (synth_param(kv, eq + 1, upload, max_bytes, p, msg,
		    msgsz) == -1)
			goto out;
	}
	if (!upload && p->has_bytes && p->seconds > 0) {
		snprintf(msg, msgsz, "give bytes=N or seconds=S, not both");
		goto out;
	}
	if (!upload && !p->has_bytes && !(p->seconds > 0)) {
		snprintf(msg, msgsz,
		    "give bytes=N (a byte count) or seconds=S");
		goto out;
	}
	rc = 0;
out:
	free(copy);
	return (rc);
}

