/*
 * t_synth.c: the synthetic data plane's pure parts: the patterns, the
 * request head and the query.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np.h"
#include "synth_parse.h"
#include "synth_pattern.h"
#include "test.h"

/* Known bytes of each pattern, and the period's shape. */
static void
t_patterns(void)
{
	unsigned char		*a, *b;
	enum synth_pattern	 p;
	size_t			 i, zeros = 0;

	T_OK(synth_pattern_parse("random", &p));
	T_EQ_INT(p, SYNTH_PATTERN_RANDOM);
	T_OK(synth_pattern_parse("mixed", &p));
	T_EQ_INT(p, SYNTH_PATTERN_MIXED);
	T_OK(synth_pattern_parse("zero", &p));
	T_EQ_INT(p, SYNTH_PATTERN_ZERO);
	T_TRUE(synth_pattern_parse("Random", &p) == -1);
	T_TRUE(synth_pattern_parse("", &p) == -1);
	T_EQ_STR(synth_pattern_name(SYNTH_PATTERN_MIXED), "mixed");

	a = malloc(SYNTH_PATTERN_PERIOD);
	b = malloc(SYNTH_PATTERN_PERIOD);
	if (a == NULL || b == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	/* SplitMix64 from seed 0: first output 0xe220a8397b1dcdaf. */
	synth_pattern_fill(SYNTH_PATTERN_RANDOM, 0, a, SYNTH_PATTERN_PERIOD);
	T_EQ_INT(a[0], 0xaf);
	T_EQ_INT(a[1], 0xcd);
	T_EQ_INT(a[7], 0xe2);
	/* Second output 0x6e789e6aa1b965f4. */
	T_EQ_INT(a[8], 0xf4);
	T_EQ_INT(a[15], 0x6e);
	synth_pattern_fill(SYNTH_PATTERN_RANDOM, 0, b, SYNTH_PATTERN_PERIOD);
	T_TRUE(memcmp(a, b, SYNTH_PATTERN_PERIOD) == 0);
	synth_pattern_fill(SYNTH_PATTERN_RANDOM, 1, b, SYNTH_PATTERN_PERIOD);
	T_TRUE(memcmp(a, b, SYNTH_PATTERN_PERIOD) != 0);
	for (i = 0; i < SYNTH_PATTERN_PERIOD; i++)
		zeros += a[i] == 0;
	/* About 1/256 zeros, as random bytes have. */
	T_TRUE(zeros > SYNTH_PATTERN_PERIOD / 300 &&
	    zeros < SYNTH_PATTERN_PERIOD / 220);

	synth_pattern_fill(SYNTH_PATTERN_MIXED, 0, b, SYNTH_PATTERN_PERIOD);
	T_TRUE(memcmp(a, b, SYNTH_PATTERN_BLOCK / 2) == 0);
	T_EQ_INT(b[SYNTH_PATTERN_BLOCK / 2], 0);
	T_EQ_INT(b[SYNTH_PATTERN_BLOCK - 1], 0);
	T_TRUE(memcmp(a + SYNTH_PATTERN_BLOCK, b + SYNTH_PATTERN_BLOCK,
	    SYNTH_PATTERN_BLOCK / 2) == 0);
	synth_pattern_fill(SYNTH_PATTERN_ZERO, 7, b, SYNTH_PATTERN_PERIOD);
	T_EQ_INT(b[0], 0);
	T_EQ_INT(b[SYNTH_PATTERN_PERIOD - 1], 0);

	/* Checks at any stream offset, across the period's end. */
	memcpy(b, a + SYNTH_PATTERN_PERIOD - 100, 100);
	memcpy(b + 100, a, 100);
	T_EQ_U64(synth_pattern_check(a, SYNTH_PATTERN_PERIOD, 5ULL * SYNTH_PATTERN_PERIOD - 100, b,
	    200), 200);
	b[150] ^= 0x01;		/* one flipped bit fails */
	T_EQ_U64(synth_pattern_check(a, SYNTH_PATTERN_PERIOD, 5ULL * SYNTH_PATTERN_PERIOD - 100, b,
	    200), 150);
	T_EQ_U64(synth_pattern_check(a, SYNTH_PATTERN_PERIOD, 5ULL * SYNTH_PATTERN_PERIOD - 100, b,
	    150), 150);
	T_EQ_U64(synth_pattern_check(a, SYNTH_PATTERN_PERIOD, 0, a,
	    SYNTH_PATTERN_PERIOD), SYNTH_PATTERN_PERIOD);

	/* The data plane's period is the file period's first bytes. */
	synth_pattern_fill(SYNTH_PATTERN_MIXED, 3, a, SYNTH_PATTERN_PERIOD);
	synth_pattern_fill(SYNTH_PATTERN_MIXED, 3, b, SYNTH_STREAM_PERIOD);
	T_TRUE(memcmp(a, b, SYNTH_STREAM_PERIOD) == 0);
	/* A stream goes round it: byte SYNTH_STREAM_PERIOD is byte 0. */
	memcpy(b + SYNTH_STREAM_PERIOD, b, 64);
	T_EQ_U64(synth_pattern_check(b, SYNTH_STREAM_PERIOD,
	    7ULL * SYNTH_STREAM_PERIOD - 64, b + SYNTH_STREAM_PERIOD - 64, 128),
	    128);
	T_EQ_U64(synth_pattern_check(a, SYNTH_PATTERN_PERIOD,
	    SYNTH_STREAM_PERIOD - 64, b + SYNTH_STREAM_PERIOD - 64, 128) < 128,
	    1);
	/* Laid out again after itself: any read under the end is the stream. */
	synth_pattern_extend(b, SYNTH_STREAM_PERIOD, 3 * SYNTH_STREAM_PERIOD +
	    100);
	T_EQ_U64(synth_pattern_check(b, SYNTH_STREAM_PERIOD, 0, b,
	    4 * SYNTH_STREAM_PERIOD + 100), 4 * SYNTH_STREAM_PERIOD + 100);
	T_EQ_U64(synth_pattern_check(b, SYNTH_STREAM_PERIOD,
	    SYNTH_STREAM_PERIOD - 1, b + SYNTH_STREAM_PERIOD - 1,
	    3 * SYNTH_STREAM_PERIOD), 3 * SYNTH_STREAM_PERIOD);
	free(a);
	free(b);
}

/* Parse a head from a string; -1 with errstr. */
static int
t_head(const char *s, struct synth_req *r, const char **errstr)
{
	return (synth_parse_head(s, strlen(s), r, errstr));
}

/* Request heads, good and bad. */
static void
t_heads(void)
{
	struct synth_req	 r;
	const char		*e = NULL;

	T_OK(t_head("GET /v1/synth?bytes=10 HTTP/1.1\r\nHost: x\r\n"
	    "Authorization:  Bearer abc \r\n\r\n", &r, &e));
	T_EQ_STR(r.method, "GET");
	T_EQ_STR(r.target, "/v1/synth?bytes=10");
	T_EQ_INT(r.http11, 1);
	T_EQ_INT(r.keepalive, 1);
	T_EQ_STR(r.auth, "Bearer abc");
	T_EQ_INT(r.has_length, 0);
	T_OK(t_head("PUT /v1/synth HTTP/1.1\r\ncontent-length: 1048576\r\n"
	    "Expect: 100-Continue\r\nConnection: close\r\n\r\n", &r, &e));
	T_EQ_INT(r.has_length, 1);
	T_EQ_U64(r.length, 1048576);
	T_EQ_INT(r.expect_continue, 1);
	T_EQ_INT(r.keepalive, 0);
	T_OK(t_head("PUT /v1/synth HTTP/1.0\nTransfer-Encoding: chunked\n"
	    "Connection: Keep-Alive\n\n", &r, &e));
	T_EQ_INT(r.http11, 0);
	T_EQ_INT(r.chunked, 1);
	T_EQ_INT(r.keepalive, 1);
	T_OK(t_head("GET / HTTP/1.0\r\n\r\n", &r, &e));
	T_EQ_INT(r.keepalive, 0);

	T_TRUE(t_head("GET /v1/synth HTTP/2.0\r\n\r\n", &r, &e) == -1);
	T_EQ_STR(e, "only HTTP/1.0 and HTTP/1.1 are spoken here");
	T_TRUE(t_head("GET  /v1/synth HTTP/1.1\r\n\r\n", &r, &e) == -1);
	T_TRUE(t_head("GET http://x/v1/synth HTTP/1.1\r\n\r\n", &r, &e) == -1);
	T_EQ_STR(e, "the target is not a path of at most 1023 bytes");
	T_TRUE(t_head("GET /v1/synth\r\n\r\n", &r, &e) == -1);
	T_TRUE(t_head("\r\n\r\n", &r, &e) == -1);
	T_EQ_STR(e, "an empty request line");
	T_TRUE(t_head("GET /v1/synth HTTP/1.1\r\nHost: x\r\n", &r, &e) == -1);
	T_TRUE(t_head("PUT /v1/synth HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
	    &r, &e) == -1);
	T_EQ_STR(e, "Content-Length is not a byte count");
	T_TRUE(t_head("PUT /v1/synth HTTP/1.1\r\nContent-Length: 1\r\n"
	    "Content-Length: 2\r\n\r\n", &r, &e) == -1);
	T_EQ_STR(e, "two different Content-Length headers");
	T_TRUE(t_head("PUT /v1/synth HTTP/1.1\r\nContent-Length: "
	    "99999999999999999999\r\n\r\n", &r, &e) == -1);
	T_TRUE(t_head("GET /v1/synth HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
	    &r, &e) == -1);
	T_EQ_STR(e, "folded header lines are not accepted");
	T_TRUE(t_head("GET /v1/synth HTTP/1.1\r\nNoColon\r\n\r\n", &r,
	    &e) == -1);
	T_TRUE(synth_parse_head("GET /\0 HTTP/1.1\r\n\r\n", 20, &r, &e) == -1);
}

/* Check that query q (GET or PUT) fails with message want. */
static void
t_query_fails(const char *q, int upload, const char *want)
{
	struct synth_params	p;
	char			msg[256] = "";

	T_TRUE(synth_parse_query(q, upload, 1000000, &p, msg,
	    sizeof msg) == -1);
	T_EQ_STR(msg, want);
}

/* Queries: every parameter, and each bad one. */
static void
t_queries(void)
{
	struct synth_params	p;
	char			msg[256];

	T_OK(synth_parse_query("bytes=1000000&pattern=zero&seed=42", 0,
	    1000000, &p, msg, sizeof msg));
	T_EQ_U64(p.bytes, 1000000);
	T_EQ_INT(p.pattern, SYNTH_PATTERN_ZERO);
	T_EQ_U64(p.seed, 42);
	T_OK(synth_parse_query("seconds=2.5", 0, 1, &p, msg, sizeof msg));
	T_NEAR(p.seconds, 2.5, 1e-9);
	T_EQ_INT(p.pattern, SYNTH_PATTERN_RANDOM);
	T_OK(synth_parse_query("bytes=0", 0, 1, &p, msg, sizeof msg));
	T_OK(synth_parse_query(NULL, 1, 1, &p, msg, sizeof msg));
	T_EQ_INT(p.verify, 0);
	T_OK(synth_parse_query("verify=1&pattern=mixed&seed="
	    "18446744073709551615", 1, 1, &p, msg, sizeof msg));
	T_EQ_INT(p.verify, 1);
	T_EQ_U64(p.seed, UINT64_MAX);

	t_query_fails("bytes=-1", 0,
	    "bytes: '-1' is not a byte count (digits only)");
	t_query_fails("bytes=lots", 0,
	    "bytes: 'lots' is not a byte count (digits only)");
	t_query_fails("bytes=1e6", 0,
	    "bytes: '1e6' is not a byte count (digits only)");
	t_query_fails("bytes=", 0, "bytes: '' is not a byte count (digits "
	    "only)");
	t_query_fails("bytes=1000001", 0,
	    "bytes: 1000001 is over synth.max_bytes (1000000)");
	t_query_fails("bytes=99999999999999999999", 0,
	    "bytes: '99999999999999999999' is not a byte count (digits only)");
	t_query_fails("bytes=1&bytes=1", 0, "bytes is given twice");
	t_query_fails("bytes=1&seconds=1", 0,
	    "give bytes=N or seconds=S, not both");
	t_query_fails("pattern=zero", 0,
	    "give bytes=N (a byte count) or seconds=S");
	t_query_fails("", 0, "give bytes=N (a byte count) or seconds=S");
	t_query_fails("seconds=0", 0,
	    "seconds: '0' is not a number of seconds from 0 to 86400");
	t_query_fails("seconds=-3", 0,
	    "seconds: '-3' is not a number of seconds from 0 to 86400");
	t_query_fails("seconds=nan", 0,
	    "seconds: 'nan' is not a number of seconds from 0 to 86400");
	t_query_fails("bytes=1&pattern=ones", 0,
	    "pattern: 'ones' is not one of zero, random, mixed");
	t_query_fails("bytes=1&seed=-1", 0,
	    "seed: '-1' is not a number from 0 to 18446744073709551615");
	t_query_fails("bytes=1&colour=red", 0, "unknown parameter 'colour' "
	    "(GET takes bytes or seconds, pattern, seed)");
	t_query_fails("bytes=1&verify=1", 0, "unknown parameter 'verify' "
	    "(GET takes bytes or seconds, pattern, seed)");
	t_query_fails("bytes=10", 1, "unknown parameter 'bytes' "
	    "(PUT takes pattern, seed, verify)");
	t_query_fails("verify=maybe", 1, "verify: 'maybe' is not 0 or 1");
	t_query_fails("bytes", 0, "'bytes' is not key=value");
}

/* A reader's low-water mark follows its stream's rate. */
static void
t_lowat(void)
{
	/* New, idle, or slower than 2 MB/s: any byte wakes it. */
	T_EQ_INT(synth_lowat(0, 0, UINT64_MAX), 1);
	T_EQ_INT(synth_lowat(1000000, 0, UINT64_MAX), 1);
	T_EQ_INT(synth_lowat(0, 1, UINT64_MAX), 1);
	T_EQ_INT(synth_lowat(2000000, 1, UINT64_MAX), 1);
	/* 2 ms of the rate, as a power of two. */
	T_EQ_INT(synth_lowat(2048000, 1, UINT64_MAX), 4096);
	T_EQ_INT(synth_lowat(125000000, 1, UINT64_MAX), 131072);  /* 1 Gb/s */
	T_EQ_INT(synth_lowat(625000000, 0.5, UINT64_MAX), 512 << 10);
	T_EQ_INT(synth_lowat(UINT64_C(50) << 30, 1, UINT64_MAX),
	    SYNTH_LOWAT_MAX);
	/* Never more than is left to come, and at least a byte. */
	T_EQ_INT(synth_lowat(UINT64_C(50) << 30, 1, 300000), 300000);
	T_EQ_INT(synth_lowat(UINT64_C(50) << 30, 1, 200000), 200000);
	T_EQ_INT(synth_lowat(UINT64_C(50) << 30, 1, 1), 1);
	T_EQ_INT(synth_lowat(UINT64_C(50) << 30, 1, 0), 1);
	T_EQ_INT(synth_lowat(125000000, 1, 131073), 131072);
}

int
main(void)
{
	t_patterns();
	t_lowat();
	t_heads();
	t_queries();
	return (t_done());
}
