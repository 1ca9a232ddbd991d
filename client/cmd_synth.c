/*
 * cmd_synth.c: nasperf synth: memory to memory over the network, against
 * nasperfd's synthetic data plane, as a run with the server's verdict.
 *
 * Each stream is a thread with a blocking socket and a plain HTTP/1.1
 * request: GET /v1/synth to download, PUT /v1/synth to upload.  Bytes go
 * straight between the socket and one period of the pattern; with --verify
 * every byte received is compared with it (downloads here, uploads by the
 * daemon).  When the daemon's data plane speaks TLS (/v1/info's synth.tls),
 * each socket is wrapped in it (tls.h), its certificate pinned or checked
 * as the API's.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <event2/http.h>

#include <jansson.h>

#include "client.h"
#include "nptime.h"
#include "synth_pattern.h"
#include "tls.h"

#define SYNTH_PORT		9632
#define SYNTH_MAX_STREAMS	64
/*
 * One read or write.  1 MiB sends took one loopback upload stream from
 * 39-41 to 47-48 Gb/s against 4 MiB ones (256 KiB: 27), reads as fast.
 */
#define SYNTH_IO		(1U << 20)
#define SYNTH_HEAD_MAX		16384
#define SYNTH_UNBOUNDED		1099511627776ULL /* a timed upload declares */
#define SYNTH_DEFAULT_TIME	10.0		/* seconds */

struct synth_test;

/* One stream and what it learnt. */
struct synth_stream {
	struct synth_test	*t;
	pthread_t		 th;
	uint64_t		 want;		/* bytes; 0 when timed */
	uint64_t		 declare;	/* timed upload's length */
	_Atomic uint64_t	 moved;		/* sent or received so far */
	int			 failed;
	int			 tls_refused;	/* the certificate was */
	char			 err[TLS_WHY_SIZE];
	int			 status;	/* HTTP status of the answer */
	uint64_t		 srv_bytes;	/* upload: what arrived */
	int			 verified;	/* -1 not asked, 0 no, 1 yes */
	uint64_t		 mismatch;	/* first bad byte */
	char			 ifname[32];
	uint64_t		 link_mbps;
	double			 t_end;		/* CLOCK_MONOTONIC */
	_Atomic int		 finished;
};

/* One direction of a test. */
struct synth_test {
	struct client		*c;
	int			 upload;
	unsigned		 port;
	int			 tls;		/* the data plane's synth.tls */
	unsigned		 nstreams;
	uint64_t		 bytes;		/* 0: timed */
	double			 seconds;
	enum synth_pattern	 pattern;
	uint64_t		 seed;
	int			 verify;
	const char		*label;
	unsigned char		*period;
	double			 t0;
	struct synth_stream	 st[SYNTH_MAX_STREAMS];
};

/* Record a stream's failure; the first message wins. */
static NP_PRINTF(2, 3) void
synth_fail(struct synth_stream *st, const char *fmt, ...)
{
	va_list	ap;

	if (st->failed)
		return;
	st->failed = 1;
	va_start(ap, fmt);
	vsnprintf(st->err, sizeof st->err, fmt, ap);
	va_end(ap);
}

/* Connect to the data plane with the client's timeout; -1 on failure. */
static int
synth_connect(struct synth_stream *st)
{
	struct synth_test	*t = st->t;
	struct addrinfo		 hints, *res = NULL, *ai;
	struct timeval		 tv;
	char			 port[16];
	int			 fd = -1, rc, err = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof port, "%u", t->port);
	if ((rc = getaddrinfo(t->c->host, port, &hints, &res)) != 0) {
		synth_fail(st, "%s", gai_strerror(rc));
		return (-1);
	}
	tv.tv_sec = (time_t)t->c->timeout;
	tv.tv_usec = (suseconds_t)((t->c->timeout - floor(t->c->timeout)) *
	    1e6);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype,
		    ai->ai_protocol)) == -1) {
			err = errno;
			continue;
		}
		/* A stalled peer is an error after the timeout, not a hang. */
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1)
		synth_fail(st, "cannot connect: %s%s", strerror(err),
		    err == ECONNREFUSED ?
		    " (is synth.listen on that port? see --port)" : "");
	return (fd);
}

/*
 * What /v1/info says of the daemon's data plane: whether it speaks TLS,
 * and its port unless --port or NASPERF_SYNTH_PORT gave one (SYNTH_PORT
 * from a daemon that does not say).  -1 with the error printed when the
 * port is to come from the daemon and the data plane is off.
 */
static int
synth_ask_info(struct synth_test *t)
{
	json_t	*info, *synth, *p;

	if ((info = client_call(t->c, EVHTTP_REQ_GET, "/v1/info", NULL)) ==
	    NULL)
		return (-1);
	synth = json_object_get(info, "synth");
	t->tls = json_is_true(json_object_get(synth, "tls"));
	p = json_object_get(synth, "port");
	if (t->port == 0 && json_is_integer(p) && json_integer_value(p) > 0 &&
	    json_integer_value(p) < 65536)
		t->port = (unsigned)json_integer_value(p);
	else if (t->port == 0 && json_is_object(synth)) {
		json_decref(info);
		client_fail("%s port %u: the daemon's synthetic data plane is "
		    "off (synth.max_streams is 0, or it could not bind "
		    "synth.listen: its log says which)", t->c->host,
		    t->c->port);
		return (-1);
	} else if (t->port == 0)
		t->port = SYNTH_PORT;
	json_decref(info);
	return (0);
}

/* Write all of buf; -1 on error. */
static int
synth_write_all(struct tls_io *io, const void *buf, size_t len)
{
	const char	*p = buf;

	while (len > 0) {
		ssize_t	n = tls_io_send(io, p, len);

		if (n == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/* The value of header name in a head, copied into out; 0 if found. */
static int
synth_header(const char *head, const char *name, char *out, size_t outsz)
{
	const char	*p = head;
	size_t		 nlen = strlen(name), vlen;

	while ((p = strchr(p, '\n')) != NULL) {
		p++;
		if (strncasecmp(p, name, nlen) != 0 || p[nlen] != ':')
			continue;
		p += nlen + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		vlen = strcspn(p, "\r\n");
		if (vlen >= outsz)
			vlen = outsz - 1;
		memcpy(out, p, vlen);
		out[vlen] = '\0';
		return (0);
	}
	return (-1);
}

/*
 * Read an answer's head into buf (NUL-terminated); the bytes read past it
 * are left at buf + *hlen up to *have.  The status, or -1 on error.
 */
static int
synth_read_head(struct synth_stream *st, struct tls_io *io, char *buf,
    size_t bufsz, size_t *hlen, size_t *have)
{
	char	*end;
	int	 status;

	*have = 0;
	for (;;) {
		ssize_t	n;

		if (*have >= SYNTH_HEAD_MAX || *have + 1 >= bufsz) {
			synth_fail(st, "the answer's head is too long");
			return (-1);
		}
		if ((n = tls_io_recv(io, buf + *have, bufsz - *have - 1)) <=
		    0) {
			if (n == -1 && errno == EINTR)
				continue;
			synth_fail(st, "%s before an answer came", n == 0 ?
			    "the connection closed" : tls_io_strerror(io));
			return (-1);
		}
		*have += (size_t)n;
		buf[*have] = '\0';
		if ((end = strstr(buf, "\r\n\r\n")) != NULL)
			break;
	}
	*hlen = (size_t)(end - buf) + 4;
	if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1) {
		synth_fail(st, "the answer is not HTTP");
		return (-1);
	}
	return (status);
}

/* Read the rest of a small JSON answer whose head is in buf. */
static json_t *
synth_read_json(struct synth_stream *st, struct tls_io *io, char *buf,
    size_t bufsz, size_t hlen, size_t have)
{
	json_error_t	 jerr;
	char		 v[32];
	size_t		 len = 0;
	json_t		*j;

	if (synth_header(buf, "Content-Length", v, sizeof v) == 0)
		len = (size_t)strtoull(v, NULL, 10);
	if (len > bufsz - hlen - 1)
		len = bufsz - hlen - 1;
	while (have - hlen < len) {
		ssize_t	n = tls_io_recv(io, buf + have, hlen + len - have);

		if (n <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			break;
		}
		have += (size_t)n;
	}
	if ((j = json_loadb(buf + hlen, have - hlen, 0, &jerr)) == NULL)
		synth_fail(st, "the answer is not JSON: %s", jerr.text);
	return (j);
}

/* A non-200 answer: the daemon's message as the stream's error. */
static void
synth_answer_error(struct synth_stream *st, struct tls_io *io, char *buf,
    size_t bufsz, size_t hlen, size_t have)
{
	const char	*msg = NULL;
	json_t		*j;

	j = synth_read_json(st, io, buf, bufsz, hlen, have);
	msg = json_string_value(json_object_get(json_object_get(j, "error"),
	    "message"));
	/* A timed upload declares what the daemon allows, and tries again. */
	if (st->status == 413 && st->t->upload && st->want == 0 &&
	    st->declare == SYNTH_UNBOUNDED)
		st->declare = (uint64_t)json_integer_value(json_object_get(
		    json_object_get(j, "error"), "max_bytes"));
	st->failed = 0;
	synth_fail(st, "%d: %s", st->status, msg != NULL ? msg :
	    "the daemon refused the stream");
	json_decref(j);
}

/* The request head of a stream. */
static void
synth_request(struct synth_stream *st, char *buf, size_t bufsz)
{
	struct synth_test	*t = st->t;
	struct client		*c = t->c;
	char			 auth[NASPERF_TOKEN_MAX + 32], host[300];

	auth[0] = '\0';
	if (c->token[0] != '\0')
		snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n",
		    c->token);
	args_hostport(host, sizeof host, c->host, t->port);
	if (t->upload)
		snprintf(buf, bufsz, "PUT /v1/synth?pattern=%s&seed=%ju%s "
		    "HTTP/1.1\r\nHost: %s\r\n%sUser-Agent: nasperf/%s\r\n"
		    "Content-Length: %ju\r\nExpect: 100-continue\r\n"
		    "Connection: close\r\n\r\n",
		    synth_pattern_name(t->pattern), (uintmax_t)t->seed,
		    t->verify ? "&verify=1" : "", host, auth, PACKAGE_VERSION,
		    (uintmax_t)(st->want > 0 ? st->want : st->declare));
	else if (st->want > 0)
		snprintf(buf, bufsz, "GET /v1/synth?bytes=%ju&pattern=%s&"
		    "seed=%ju HTTP/1.1\r\nHost: %s\r\n%sUser-Agent: "
		    "nasperf/%s\r\nConnection: close\r\n\r\n",
		    (uintmax_t)st->want, synth_pattern_name(t->pattern),
		    (uintmax_t)t->seed, host, auth, PACKAGE_VERSION);
	else
		snprintf(buf, bufsz, "GET /v1/synth?seconds=%g&pattern=%s&"
		    "seed=%ju HTTP/1.1\r\nHost: %s\r\n%sUser-Agent: "
		    "nasperf/%s\r\nConnection: close\r\n\r\n", t->seconds,
		    synth_pattern_name(t->pattern), (uintmax_t)t->seed, host,
		    auth, PACKAGE_VERSION);
}

/* Take what the answer's head says about the server's interface. */
static void
synth_take_link(struct synth_stream *st, const char *head)
{
	char	v[32];

	if (synth_header(head, "X-Nasperf-Interface", st->ifname,
	    sizeof st->ifname) == -1 || strcmp(st->ifname, "-") == 0)
		st->ifname[0] = '\0';
	if (synth_header(head, "X-Nasperf-Link-Mbps", v, sizeof v) == 0)
		st->link_mbps = strtoull(v, NULL, 10);
}

/*
 * One read of a download over a plain socket, which wakes once the mark for
 * the stream's rate has arrived (synth_lowat).  Bytes that are not to be
 * checked are dropped in the kernel (MSG_TRUNC) with no copy, as the
 * daemon's sink drops an upload's: on loopback the two took one stream
 * from 45-48 to 54-67 Gb/s (iperf3 -R: 44-50), and nasperfd's CPU from
 * 0.162 to 0.131-0.147 s per GB (iperf3: 0.156-0.171).  Either alone did
 * less: the mark 1.02-1.24 of iperf3's, dropping 0.93.
 */
static ssize_t
synth_recv(struct synth_stream *st, struct tls_io *io, char *buf,
    size_t len, uint64_t got, double t0, int *lowat)
{
	int	lw;

	lw = synth_lowat(got, nptime_mono() - t0, st->want > 0 ?
	    st->want - got : UINT64_MAX);
	if (lw != *lowat && setsockopt(io->fd, SOL_SOCKET, SO_RCVLOWAT, &lw,
	    sizeof lw) == 0)
		*lowat = lw;
	return (recv(io->fd, buf, len, st->t->verify ? 0 : MSG_TRUNC));
}

/* Receive a download, checking it against the period when asked. */
static void
synth_download(struct synth_stream *st, struct tls_io *io, char *buf,
    size_t bufsz)
{
	struct synth_test	*t = st->t;
	size_t			 hlen, have, bad, len;
	uint64_t		 got = 0;
	ssize_t			 n;
	double			 t0;
	int			 lowat = 1;

	if ((st->status = synth_read_head(st, io, buf, bufsz, &hlen,
	    &have)) == -1)
		return;
	t0 = nptime_mono();
	if (st->status != 200) {
		synth_answer_error(st, io, buf, bufsz, hlen, have);
		return;
	}
	synth_take_link(st, buf);
	/* Bytes of the body that came with the head. */
	memmove(buf, buf + hlen, have - hlen);
	n = (ssize_t)(have - hlen);
	for (;;) {
		if (n > 0) {
			if (t->verify && st->verified == 1 && (bad =
			    synth_pattern_check(t->period, SYNTH_STREAM_PERIOD,
			    got, (unsigned char *)buf, (size_t)n)) < (size_t)n) {
				st->verified = 0;
				st->mismatch = got + bad;
			}
			got += (uint64_t)n;
			atomic_store_explicit(&st->moved, got,
			    memory_order_relaxed);
		}
		if (st->want > 0 && got >= st->want)
			break;
		len = st->want > 0 && st->want - got < bufsz ?
		    (size_t)(st->want - got) : bufsz;
		n = io->ssl == NULL ? synth_recv(st, io, buf, len, got, t0,
		    &lowat) : tls_io_recv(io, buf, len);
		if (n == 0)
			break;
		if (n == -1) {
			if (errno == EINTR) {
				n = 0;
				continue;
			}
			synth_fail(st, "after %ju bytes: %s", (uintmax_t)got,
			    tls_io_strerror(io));
			return;
		}
	}
	if (st->want > 0 && got != st->want)
		synth_fail(st, "the stream ended after %ju of %ju bytes",
		    (uintmax_t)got, (uintmax_t)st->want);
}

/* Send an upload from the period, then read the daemon's account of it. */
static void
synth_upload(struct synth_stream *st, struct tls_io *io, char *buf,
    size_t bufsz)
{
	struct synth_test	*t = st->t;
	size_t			 hlen, have;
	uint64_t		 sent = 0;
	double			 stop = t->t0 + t->seconds;
	json_t			*j, *v;
	const char		*s;

	/* Expect: 100-continue: a refusal arrives before any body is sent. */
	if ((st->status = synth_read_head(st, io, buf, bufsz, &hlen,
	    &have)) == -1)
		return;
	if (st->status != 100) {
		synth_answer_error(st, io, buf, bufsz, hlen, have);
		return;
	}
	synth_take_link(st, buf);
	for (;;) {
		size_t	pos = (size_t)(sent % SYNTH_STREAM_PERIOD);
		size_t	len = SYNTH_IO;
		ssize_t	n;

		if (st->want > 0 ? sent >= st->want : nptime_mono() >= stop)
			break;
		if (st->want > 0 && st->want - sent < len)
			len = (size_t)(st->want - sent);
		if ((n = tls_io_send(io, t->period + pos, len)) == -1) {
			if (errno == EINTR)
				continue;
			synth_fail(st, "after %ju bytes: %s", (uintmax_t)sent,
			    tls_io_strerror(io));
			return;
		}
		sent += (uint64_t)n;
		atomic_store_explicit(&st->moved, sent, memory_order_relaxed);
	}
	/* A timed upload ends here: the daemon answers a half-close. */
	if (st->want == 0)
		tls_io_shutdown(io);
	if ((st->status = synth_read_head(st, io, buf, bufsz, &hlen,
	    &have)) == -1)
		return;
	if (st->status != 200) {
		synth_answer_error(st, io, buf, bufsz, hlen, have);
		return;
	}
	if ((j = synth_read_json(st, io, buf, bufsz, hlen, have)) == NULL)
		return;
	st->srv_bytes = (uint64_t)json_integer_value(json_object_get(j,
	    "bytes"));
	if ((v = json_object_get(j, "verified")) != NULL && json_is_boolean(v))
		st->verified = json_is_true(v);
	st->mismatch = (uint64_t)json_integer_value(json_object_get(j,
	    "first_mismatch"));
	if ((s = json_string_value(json_object_get(j, "interface"))) != NULL)
		snprintf(st->ifname, sizeof st->ifname, "%s", s);
	st->link_mbps = (uint64_t)json_integer_value(json_object_get(j,
	    "link_mbps"));
	if (st->srv_bytes != sent)
		synth_fail(st, "sent %ju bytes, the daemon received %ju",
		    (uintmax_t)sent, (uintmax_t)st->srv_bytes);
	json_decref(j);
}

/* A stream's thread. */
static void *
synth_stream_run(void *arg)
{
	struct synth_stream	*st = arg;
	struct synth_test	*t = st->t;
	struct tls_io		 io;
	char			*buf;
	int			 try;

	st->verified = st->t->verify ? 1 : -1;
	st->declare = SYNTH_UNBOUNDED;
	if ((buf = malloc(SYNTH_IO + 1)) == NULL) {
		synth_fail(st, "out of memory");
		goto out;
	}
	for (try = 0; try < 2; try++) {
		io.ssl = NULL;
		if ((io.fd = synth_connect(st)) == -1)
			goto out;
		synth_request(st, buf, SYNTH_IO);
		if (t->tls && tls_io_start(&io, t->c, t->port) == -1) {
			st->tls_refused = io.peer.refused;
			synth_fail(st, "%s", io.err);
		} else if (synth_write_all(&io, buf, strlen(buf)) == -1)
			synth_fail(st, "cannot send the request: %s",
			    tls_io_strerror(&io));
		else if (t->upload)
			synth_upload(st, &io, buf, SYNTH_IO + 1);
		else
			synth_download(st, &io, buf, SYNTH_IO + 1);
		tls_io_close(&io);
		if (!st->failed || st->status != 413 || st->declare == 0 ||
		    st->declare == SYNTH_UNBOUNDED)
			break;
		st->failed = 0;
	}
out:
	st->t_end = nptime_mono();
	atomic_store(&st->finished, 1);
	free(buf);
	return (NULL);
}

/* The rate so far, over the line before, on a terminal. */
static void
synth_progress(const struct synth_test *t, uint64_t *last, double *tlast)
{
	uint64_t	sum = 0;
	double		now = nptime_mono(), r;
	unsigned	i;

	for (i = 0; i < t->nstreams; i++)
		sum += atomic_load_explicit(&t->st[i].moved,
		    memory_order_relaxed);
	r = now > *tlast ? (double)(sum - *last) / (now - *tlast) : 0;
	client_progress(t->c, "%s %5.1f s %10.1f MB/s %8.0f Mb/s %10.1f MB",
	    t->upload ? "upload  " : "download", now - t->t0, r / 1e6,
	    r * 8 / 1e6, (double)sum / 1e6);
	*last = sum;
	*tlast = now;
}

/* Run the streams of one direction; the total and the seconds it took. */
static int
synth_streams(struct synth_test *t, uint64_t *total, double *secs)
{
	uint64_t	last = 0;
	double		tlast, end = 0, next;
	unsigned	i, started = 0, refused = 0;
	int		failed = 0, done;

	t->t0 = tlast = nptime_mono();
	for (i = 0; i < t->nstreams; i++) {
		t->st[i].t = t;
		t->st[i].want = t->bytes / t->nstreams + (i == 0 ?
		    t->bytes % t->nstreams : 0);
		if (pthread_create(&t->st[i].th, NULL, synth_stream_run,
		    &t->st[i]) != 0) {
			synth_fail(&t->st[i], "cannot start a thread");
			break;
		}
		started++;
	}
	/* A progress line each second on a terminal, from the start. */
	synth_progress(t, &last, &tlast);
	for (next = t->t0 + 1;;) {
		for (i = 0, done = 1; i < started; i++)
			if (!atomic_load(&t->st[i].finished))
				done = 0;
		if (done)
			break;
		usleep(50000);
		tls_notices();
		if (nptime_mono() >= next) {
			synth_progress(t, &last, &tlast);
			next += 1;
		}
	}
	tls_notices();
	*total = 0;
	for (i = 0; i < started; i++) {
		pthread_join(t->st[i].th, NULL);
		if (t->st[i].t_end > end)
			end = t->st[i].t_end;
		*total += t->upload ? t->st[i].srv_bytes :
		    atomic_load(&t->st[i].moved);
	}
	for (i = 0; i < t->nstreams; i++) {
		if (!t->st[i].failed)
			continue;
		failed = 1;
		/* A refused certificate is said once, not for each stream. */
		if (t->st[i].tls_refused && refused++ > 0)
			continue;
		client_fail("%s port %u: %s stream %u: %s", t->c->host,
		    t->port, t->upload ? "upload" : "download", i + 1,
		    t->st[i].err);
	}
	*secs = end - t->t0;
	return (failed || started < t->nstreams ? -1 : 0);
}

/* The figures of a test as JSON. */
static json_t *
synth_result(const struct synth_test *t, uint64_t total, double secs,
    int verified, const struct synth_stream *st0)
{
	return (json_pack("{s:s,s:i,s:b,s:I,s:f,s:o,s:s,s:I,s:o,s:o,s:o}",
	    "direction", t->upload ? "upload" : "download",
	    "streams", (int)t->nstreams, "tls", t->tls,
	    "bytes", (json_int_t)total,
	    "seconds", secs, "bytes_per_second", secs > 0 ?
	    json_real((double)total / secs) : json_null(),
	    "pattern", synth_pattern_name(t->pattern),
	    "seed", (json_int_t)t->seed,
	    "verified", verified < 0 ? json_null() : json_boolean(verified),
	    "interface", st0->ifname[0] != '\0' ? json_string(st0->ifname) :
	    json_null(),
	    "link_mbps", st0->link_mbps > 0 ?
	    json_integer((json_int_t)st0->link_mbps) : json_null()));
}

/* One direction: open a run, stream, end the run, print the verdict. */
static int
synth_direction(struct synth_test *t, json_t *out)
{
	struct client		*c = t->c;
	const struct synth_stream *st0 = &t->st[0];
	json_t			*body, *j, *rep = NULL;
	char			 path[64], label[256];
	uint64_t		 total;
	double			 secs, r;
	long			 id = 0;
	unsigned		 i;
	int			 verified, rc = 0;

	snprintf(label, sizeof label, "%s%s%s", t->label != NULL ? t->label :
	    "synth", t->label != NULL ? "" : " ", t->label != NULL ? "" :
	    t->upload ? "upload" : "download");
	body = json_pack("{s:s,s:s,s:s}", "label", label, "protocol", "http",
	    "op", t->upload ? "write" : "read");
	if (body == NULL)
		return (client_fail("out of memory"));
	j = client_call(c, EVHTTP_REQ_POST, "/v1/runs", body);
	json_decref(body);
	if (j == NULL)
		return (1);
	id = (long)json_integer_value(json_object_get(j, "id"));
	json_decref(j);

	if (synth_streams(t, &total, &secs) == -1)
		rc = 1;
	verified = t->verify ? 1 : -1;
	for (i = 0; i < t->nstreams && t->verify; i++) {
		if (t->st[i].verified != 1) {
			verified = 0;
			if (t->st[i].verified == 0)
				client_fail("%s port %u: %s stream %u: byte "
				    "%ju differs from the pattern", c->host,
				    t->port, t->upload ? "upload" : "download",
				    i + 1, (uintmax_t)t->st[i].mismatch);
			rc = 1;
		}
	}
	r = secs > 0 ? (double)total / secs : 0;

	client_progress(c, "%s: %.1f MB/s; ending run %ld for its verdict...",
	    t->upload ? "upload" : "download", r / 1e6, id);
	body = json_pack("{s:I,s:f}", "bytes", (json_int_t)total,
	    "client_seconds", secs > 0 ? secs : 1e-6);
	snprintf(path, sizeof path, "/v1/runs/%ld/end", id);
	if (body != NULL)
		rep = client_call(c, EVHTTP_REQ_POST, path, body);
	json_decref(body);
	client_progress_clear();
	if (rep == NULL)
		rc = 1;
	if (c->json) {
		json_t	*res = synth_result(t, total, secs, verified, st0);

		if (res != NULL) {
			json_object_set_new(res, "run", json_integer(id));
			if (rep != NULL)
				json_object_set(res, "report", rep);
			json_object_set_new(out, t->upload ? "upload" :
			    "download", res);
		}
		json_decref(rep);
		return (rc);
	}
	printf("%s: %ju bytes in %.2f s, %u stream%s%s: %.1f MB/s "
	    "(%.0f Mb/s)", t->upload ? "upload" : "download",
	    (uintmax_t)total, secs, t->nstreams, t->nstreams == 1 ? "" : "s",
	    t->tls ? " over TLS" : "", r / 1e6, r * 8 / 1e6);
	if (st0->link_mbps > 0)
		printf("; link %ju Mb/s (%s)", (uintmax_t)st0->link_mbps,
		    st0->ifname);
	else if (st0->ifname[0] != '\0')
		printf("; link speed of %s unknown", st0->ifname);
	printf("\n");
	if (verified == 1)
		printf("verified: every byte matched the %s pattern, seed "
		    "%ju\n", synth_pattern_name(t->pattern),
		    (uintmax_t)t->seed);
	if (rep != NULL) {
		fflush(stdout);
		if (run_print_report(c, id, rep) != 0)
			rc = 1;
		json_decref(rep);
	}
	return (rc);
}

static const struct option synth_longopts[] = {
	{ "upload",	no_argument,		NULL, 'u' },
	{ "download",	no_argument,		NULL, 'd' },
	{ "both",	no_argument,		NULL, 'b' },
	{ "streams",	required_argument,	NULL, 'P' },
	{ "bytes",	required_argument,	NULL, 'n' },
	{ "time",	required_argument,	NULL, 't' },
	{ "verify",	no_argument,		NULL, 'v' },
	{ "pattern",	required_argument,	NULL, 'p' },
	{ "seed",	required_argument,	NULL, 's' },
	{ "port",	required_argument,	NULL, 'o' },
	{ "label",	required_argument,	NULL, 'l' },
	{ NULL,		0,			NULL, 0 }
};

/* -t is --time here, as it always was: the token file is --token-file. */
static const struct args_cmd synth_args = {
	"synth", "udbP:n:t:vp:s:o:l:", synth_longopts, 0,
"usage: nasperf synth [--download | --upload | --both] [--streams N]\n"
"                     [--bytes N | --time S] [--verify]\n"
"                     [--pattern zero|random|mixed] [--seed N] [--port P]\n"
"                     [--label L]\n"
"Memory to memory over the network against the daemon's synthetic data\n"
"plane, each direction a run with its verdict.\n"
"\n"
"Options:\n"
"  -d, --download        read generated bytes (the default)\n"
"  -u, --upload          send bytes to be discarded\n"
"  -b, --both            download, then upload\n"
"  -P, --streams N       parallel TCP streams (1 to 64, default 1)\n"
"  -n, --bytes N         bytes in all (K, M, G, T: powers of 1024)\n"
"  -t, --time S          seconds (0.1 to 86400, default 10)\n"
"  -v, --verify          check every byte against the pattern\n"
"  -p, --pattern P       zero, random (the default) or mixed\n"
"  -s, --seed N          the pattern's seed (default from the clock)\n"
"  -o, --port P          the data plane's port (default\n"
"                        $NASPERF_SYNTH_PORT, else the daemon's)\n"
"  -l, --label L         the runs' label\n"
};

/* nasperf synth [options]. */
int
cmd_synth(struct client *c, int argc, char **argv)
{
	struct synth_test	*t;
	const char		*env;
	char			*end;
	json_t			*out = NULL;
	unsigned long		 ul;
	int			 ch, down = 1, up = 0, rc = 0, has_time = 0;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return (client_fail("out of memory"));
	t->c = c;
	t->nstreams = 1;
	t->seconds = SYNTH_DEFAULT_TIME;
	t->pattern = SYNTH_PATTERN_RANDOM;
	t->seed = ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32)) &
	    INT64_MAX;
	t->port = 0;
	if ((env = getenv("NASPERF_SYNTH_PORT")) != NULL && *env != '\0') {
		ul = strtoul(env, &end, 10);
		if (*end == '\0' && ul > 0 && ul < 65536)
			t->port = (unsigned)ul;
	}
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &synth_args)) != -1) {
		switch (ch) {
		case 'u':
			down = 0;
			up = 1;
			break;
		case 'd':
			down = 1;
			up = 0;
			break;
		case 'b':
			down = up = 1;
			break;
		case 'P':
			ul = strtoul(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end != '\0' ||
			    ul < 1 || ul > SYNTH_MAX_STREAMS) {
				client_fail("--streams %s: expected 1 to %d",
				    optarg, SYNTH_MAX_STREAMS);
				rc = 2;
				goto out;
			}
			t->nstreams = (unsigned)ul;
			break;
		case 'n':
			if (run_parse_bytes(optarg, &t->bytes) == -1 ||
			    t->bytes == 0) {
				client_fail("--bytes %s: expected a byte count "
				    "such as 1000000000 or 4G", optarg);
				rc = 2;
				goto out;
			}
			break;
		case 't':
			errno = 0;
			t->seconds = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    !(t->seconds >= 0.1 && t->seconds <= 86400)) {
				client_fail("--time %s: expected seconds from "
				    "0.1 to 86400", optarg);
				rc = 2;
				goto out;
			}
			has_time = 1;
			break;
		case 'v':
			t->verify = 1;
			break;
		case 'p':
			if (synth_pattern_parse(optarg, &t->pattern) == -1) {
				client_fail("--pattern %s: expected zero, "
				    "random or mixed", optarg);
				rc = 2;
				goto out;
			}
			break;
		case 's':
			errno = 0;
			t->seed = strtoull(optarg, &end, 10);
			if (errno != 0 || *optarg < '0' || *optarg > '9' ||
			    *end != '\0') {
				client_fail("--seed %s: expected a number",
				    optarg);
				rc = 2;
				goto out;
			}
			break;
		case 'o':
			ul = strtoul(optarg, &end, 10);
			if (*end != '\0' || ul < 1 || ul > 65535) {
				client_fail("--port %s: expected 1 to 65535",
				    optarg);
				rc = 2;
				goto out;
			}
			t->port = (unsigned)ul;
			break;
		case 'l':
			t->label = optarg;
			break;
		default:
			rc = args_exit(ch);
			goto out;
		}
	}
	if (optind != argc) {
		rc = args_fail("unexpected argument: %s", argv[optind]);
		goto out;
	}
	if (has_time && t->bytes > 0) {
		rc = args_fail("give --bytes or --time, not both");
		goto out;
	}
	if (t->bytes > 0 && t->bytes < t->nstreams) {
		client_fail("--bytes %ju is less than a byte a stream",
		    (uintmax_t)t->bytes);
		rc = 2;
		goto out;
	}
	/*
	 * The data plane's port (--port, NASPERF_SYNTH_PORT, or the
	 * daemon's) and whether it speaks TLS.
	 */
	if (synth_ask_info(t) == -1) {
		rc = 1;
		goto out;
	}
	/*
	 * The period, then as much of it again as one send takes, so that a
	 * send of SYNTH_IO bytes from any offset in the period is one piece:
	 * 1 MiB sends took one upload stream from 0.82 to 0.90 of iperf3's
	 * best, against sends cut at the period's end.
	 */
	if ((t->period = malloc(SYNTH_STREAM_PERIOD + SYNTH_IO)) == NULL) {
		rc = client_fail("out of memory");
		goto out;
	}
	synth_pattern_fill(t->pattern, t->seed, t->period, SYNTH_STREAM_PERIOD);
	synth_pattern_extend(t->period, SYNTH_STREAM_PERIOD, SYNTH_IO);
	/* A daemon that closes mid-stream is an error, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	if (c->json && (out = json_object()) == NULL) {
		rc = client_fail("out of memory");
		goto out;
	}
	if (down) {
		t->upload = 0;
		rc |= synth_direction(t, out);
	}
	if (up) {
		memset(t->st, 0, sizeof t->st);
		t->upload = 1;
		rc |= synth_direction(t, out);
	}
	if (out != NULL) {
		client_print_json(out, CLIENT_JSON);
	}
out:
	json_decref(out);
	if (t != NULL)
		free(t->period);
	free(t);
	return (rc);
}
