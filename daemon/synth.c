/*
 * synth.c: the synthetic data plane: a listener, a small HTTP/1.1 reader
 * for GET and PUT /v1/synth, the streams, their limits, and the measured
 * capacity of each client's network path.
 *
 * The source adds references to one period of the pattern to the socket's
 * output (evbuffer_add_reference), so a byte served costs no work of ours:
 * the kernel copies it from the period into the socket.  sendfile(2) from a
 * memfd of the period was measured against it on loopback (2 vCPUs shared
 * by client and server, one stream of 10 GB to curl): writev of references
 * 16.7-20.2 Gb/s, sendfile 6.5-9.0 Gb/s.  sendfile copies from the page
 * cache per call, and libevent sends one file segment per call, so the
 * references stay.
 *
 * The sink reads an upload straight from the socket, never holding it
 * whole: recv(MSG_TRUNC) has TCP drop the bytes in the kernel with no copy
 * at all, or, when they are to be checked, they are read into one scratch
 * buffer and compared with the period.  On the same loopback that took one
 * upload stream from 4.3 Gb/s (the bufferevent's input, which allocates a
 * chain per read) to 33 Gb/s, 23 Gb/s checked.  It is woken once what the
 * stream brings in a few ms has arrived (synth_lowat, SO_RCVLOWAT), not
 * for each burst: one upload stream went from 41-42 to 50-56 Gb/s.
 *
 * synth.max_rate_mbps is a token bucket of our own for each direction,
 * taken from as a source queues and as a sink reads: libevent's group
 * rate limit came out 25-40 % under its rate on the sink, and would not
 * cover the direct reads.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <event2/util.h>

#include <jansson.h>

#include "authfail.h"
#include "cfg.h"
#include "daemon.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "pathcap.h"
#include "peercap.h"
#include "pidstat.h"
#include "routes.h"
#include "state.h"
#include "synth.h"
#include "synth_parse.h"
#include "synth_pattern.h"
#include "tls.h"

#define SYNTH_QUEUE	(4U << 20)	/* bytes kept queued on a source */
/*
 * On every answer, so that the page (another origin: the API's port) may
 * read them: the bearer token, not the origin, is what admits a request.
 */
#define SYNTH_CORS	"Access-Control-Allow-Origin: *\r\n" \
	"Access-Control-Expose-Headers: X-Nasperf-Interface, " \
	"X-Nasperf-Link-Mbps\r\n"
#define SYNTH_CHUNK	SYNTH_STREAM_PERIOD	/* one reference, at most */
#define SYNTH_IO_MAX	(4U << 20)	/* one read at most */
/*
 * One write at most.  A source's writev of one 1 MiB reference, rather
 * than of four, took one loopback stream from 33-35 to 41-45 Gb/s and the
 * server's CPU from 0.22-0.23 to 0.17-0.19 s per GB (2 vCPUs): the socket
 * lock is held for less, so the ACKs queued behind it are handled sooner.
 * 256 KiB was slower again (29 Gb/s), and so was TCP_NOTSENT_LOWAT.
 * What is left is the kernel's TCP send path: sending straight from the
 * pattern with send(2), eight a readiness and no evbuffer, measured the
 * same (42-43 Gb/s, 0.18 s/GB), and MSG_ZEROCOPY, which loopback copies
 * anyway, slower (24 Gb/s, 0.29 s/GB).  That path's copy was reading a
 * 4 MiB period from memory: a 256 KiB one (SYNTH_STREAM_PERIOD), which
 * stays in the CPU's cache, took the stream level with iperf3's, whose
 * one 1 MiB buffer does; a write is then up to four references.
 */
#define SYNTH_WRITE_MAX	(1U << 20)
#define SYNTH_SPARE	CFG_SYNTH_SPARE	/* connections beyond max_streams */
#define SYNTH_SPARE_BUFS 2		/* unused periods kept for reuse */
#define SYNTH_LINGER	2		/* seconds to wait for a client's FIN */
#define SYNTH_TICK_MS	10		/* rate limit refill interval */
#define SYNTH_BURST_MS	100		/* rate limit bucket, in ms of rate */
#define SYNTH_MIN_GRANT	(64U << 10)	/* smallest grant of a limited rate */

/* One period of a pattern, shared by the streams that use it. */
struct synth_buf {
	enum synth_pattern	 pattern;
	uint64_t		 seed;
	unsigned char		*p;		/* SYNTH_STREAM_PERIOD bytes */
	unsigned		 refs;
	struct synth_buf	*next;
};

/* nasperfd's own CPU at one moment: its loop thread, its cgroup's quota. */
struct synth_cpu {
	double			 loop_s;	/* the loop thread's CPU, s */
	int			 has_thr;	/* under a quota, with cpu.stat */
	uint64_t		 thr_ns;	/* throttled, ns */
	uint64_t		 periods;	/* quota periods elapsed */
	uint64_t		 throttled;	/* of them, throttled */
};

/* Streams from one client in one direction that overlap in time. */
struct synth_sess {
	char			 addr[INET6_ADDRSTRLEN];
	int			 upload;
	unsigned		 active, streams;
	int			 broken;	/* a stream did not finish */
	uint64_t		 bytes;		/* delivered */
	struct timespec		 t0;
	struct synth_cpu	 cpu0;		/* at the first stream */
	struct synth_sess	*next;
};

enum synth_state {
	SYNTH_HEAD,		/* reading a request head */
	SYNTH_SOURCE,		/* streaming a GET's body */
	SYNTH_SINK,		/* reading a PUT's body */
	SYNTH_REPLY,		/* flushing an answer */
	SYNTH_LINGER_WAIT	/* answered and shut down: waiting for EOF */
};

/* One data plane connection. */
struct synth_conn {
	struct synth		*s;
	struct bufferevent	*bev;
	struct sockaddr_storage	 sa;
	char			 peer[INET6_ADDRSTRLEN];
	enum synth_state	 state;
	int			 keepalive;
	int			 tls;		/* synth.tls when accepted */
	int			 eof;		/* the client shut its side */
	int			 upload;
	struct synth_params	 p;
	struct synth_buf	*buf;		/* NULL: no pattern needed */
	struct synth_sess	*sess;		/* holds a stream slot */
	uint64_t		 total;		/* bytes to move */
	uint64_t		 done;		/* queued or read so far */
	uint64_t		 mismatch;	/* first bad byte, or none */
	struct timespec		 t0;
	char			 ifname[IF_NAMESIZE];
	uint64_t		 link_mbps;	/* 0: unknown */
	struct event		*ev_sink;	/* reads an upload directly */
	int			 lowat;		/* its socket's SO_RCVLOWAT */
	int			 throttled;	/* waits for the rate limit */
	struct timespec		 head_since;	/* waiting for a head since */
	struct synth_conn	*next;
};

/* The data plane. */
struct synth {
	struct daemon		*d;
	struct evconnlistener	*lev;
	char			 listen[80];	/* synth.listen as bound */
	double			 rate;		/* bytes/s each way; 0: none */
	double			 tokens[2];	/* [upload]: bytes allowed */
	struct timespec		 refilled[2];
	struct event		*ev_tick;	/* wakes throttled streams */
	struct event		*ev_sweep;	/* closes overdue heads */
	time_t			 refused_at;	/* last api.allow log line */
	unsigned		 refused_quiet;	/* refusals not logged since */
	struct peercap		*peercap;	/* connections per address */
	struct synth_conn	*conns;
	unsigned		 nconns, nstreams;
	struct synth_buf	*bufs;
	struct synth_sess	*sess;
	unsigned char		*scratch;	/* SYNTH_IO_MAX bytes */
};

static void	synth_read_cb(struct bufferevent *, void *);
static void	synth_write_cb(struct bufferevent *, void *);
static void	synth_event_cb(struct bufferevent *, short, void *);
static void	synth_head(struct synth_conn *);

/* Seconds from a to b. */
static double
synth_elapsed(const struct timespec *a, const struct timespec *b)
{
	return ((double)(b->tv_sec - a->tv_sec) +
	    (double)(b->tv_nsec - a->tv_nsec) / 1e9);
}

/* Seconds since t on CLOCK_MONOTONIC. */
static double
synth_since(const struct timespec *t)
{
	struct timespec	now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (synth_elapsed(t, &now));
}

/* A period of pattern and seed, shared; NULL on ENOMEM. */
static struct synth_buf *
synth_buf_get(struct synth *s, enum synth_pattern pattern, uint64_t seed)
{
	struct synth_buf	*b;

	for (b = s->bufs; b != NULL; b = b->next) {
		if (b->pattern == pattern && (pattern == SYNTH_PATTERN_ZERO ||
		    b->seed == seed)) {
			b->refs++;
			return (b);
		}
	}
	if ((b = calloc(1, sizeof *b)) == NULL)
		return (NULL);
	/* calloc'd zeros stay the kernel's zero page: no memory used. */
	if ((b->p = calloc(1, SYNTH_STREAM_PERIOD)) == NULL) {
		free(b);
		return (NULL);
	}
	if (pattern != SYNTH_PATTERN_ZERO)
		synth_pattern_fill(pattern, seed, b->p, SYNTH_STREAM_PERIOD);
	b->pattern = pattern;
	b->seed = seed;
	b->refs = 1;
	b->next = s->bufs;
	s->bufs = b;
	return (b);
}

/* Release a period; the oldest unused ones beyond SYNTH_SPARE_BUFS go. */
static void
synth_buf_put(struct synth *s, struct synth_buf *b)
{
	struct synth_buf	**pp, *x;
	unsigned		  unused = 0;

	if (b == NULL)
		return;
	if (b->refs > 0)
		b->refs--;
	for (pp = &s->bufs; (x = *pp) != NULL;) {
		if (x->refs == 0 && ++unused > SYNTH_SPARE_BUFS) {
			*pp = x->next;
			free(x->p);
			free(x);
			continue;
		}
		pp = &x->next;
	}
}

/* Set a connection's timeouts: read and write, 0 for none. */
static void
synth_timeouts(struct synth_conn *c, unsigned rd, unsigned wr)
{
	struct timeval	r = { (time_t)rd, 0 }, w = { (time_t)wr, 0 };

	bufferevent_set_timeouts(c->bev, rd > 0 ? &r : NULL, wr > 0 ? &w :
	    NULL);
}

/*
 * Queue an answer: status line, headers (extra: complete lines or NULL),
 * and a body; the connection stays open after it when keepalive.
 */
static void
synth_reply(struct synth_conn *c, int status, const char *reason,
    const char *extra, const char *type, const char *body, size_t len,
    int keepalive)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);

	c->keepalive = keepalive && c->keepalive;
	evbuffer_add_printf(out, "HTTP/1.1 %d %s\r\nServer: nasperfd/%s\r\n"
	    "Content-Type: %s\r\nContent-Length: %zu\r\nConnection: %s\r\n"
	    "Cache-Control: no-store\r\n" SYNTH_CORS "%s\r\n", status, reason,
	    PACKAGE_VERSION, type, len, c->keepalive ? "keep-alive" : "close",
	    extra != NULL ? extra : "");
	evbuffer_add(out, body, len);
	c->state = SYNTH_REPLY;
	bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
	synth_timeouts(c, 0, c->s->d->cfg->synth_idle_timeout);
}

/* Answer with a JSON value (stolen) and the status given. */
static void
synth_reply_json(struct synth_conn *c, int status, const char *reason,
    const char *extra, json_t *j, int keepalive)
{
	static const char	 oom[] = "{\"error\":{\"code\":\"internal\","
	    "\"message\":\"out of memory\"}}\n";
	char			*js = NULL, *body = NULL;

	if (j == NULL || (js = json_dumps(j, JSON_COMPACT)) == NULL ||
	    asprintf(&body, "%s\n", js) == -1) {
		synth_reply(c, 500, "Internal Server Error", NULL,
		    "application/json", oom, sizeof oom - 1, 0);
		body = NULL;
	} else
		synth_reply(c, status, reason, extra, "application/json", body,
		    strlen(body), keepalive);
	json_decref(j);
	free(js);
	free(body);
}

/* Answer {"error":{"code","message"}} and close afterwards. */
static NP_PRINTF(6, 7) void
synth_error(struct synth_conn *c, int status, const char *reason,
    const char *extra, const char *code, const char *fmt, ...)
{
	va_list	ap;
	char	msg[512];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	log_debug("synth: %s: %d %s", c->peer, status, msg);
	synth_reply_json(c, status, reason, extra, json_pack(
	    "{s:{s:s,s:s}}", "error", "code", code, "message", msg), 0);
}

/* The interface the client came in on, and its speed. */
static void
synth_iface(struct synth_conn *c)
{
	struct sockaddr_storage	 la;
	socklen_t		 len = sizeof la;
	struct ifaddrs		*ifa = NULL, *i;
	const struct sockaddr_in6 *l6 = (struct sockaddr_in6 *)&la;
	const struct sockaddr_in *l4 = (struct sockaddr_in *)&la;
	struct in_addr		 v4;
	char			 rel[64];
	int64_t			 speed;
	int			 fam;

	c->ifname[0] = '\0';
	c->link_mbps = 0;
	if (getsockname(bufferevent_getfd(c->bev), (struct sockaddr *)&la,
	    &len) == -1 || getifaddrs(&ifa) == -1)
		return;
	fam = la.ss_family;
	if (fam == AF_INET)
		v4 = l4->sin_addr;
	else if (IN6_IS_ADDR_V4MAPPED(&l6->sin6_addr)) {
		memcpy(&v4, &l6->sin6_addr.s6_addr[12], 4);
		fam = AF_INET;
	}
	for (i = ifa; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL || i->ifa_addr->sa_family != fam)
			continue;
		if (fam == AF_INET ? memcmp(&((struct sockaddr_in *)
		    i->ifa_addr)->sin_addr, &v4, sizeof v4) == 0 :
		    memcmp(&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
		    &l6->sin6_addr, sizeof l6->sin6_addr) == 0) {
			snprintf(c->ifname, sizeof c->ifname, "%s",
			    i->ifa_name);
			break;
		}
	}
	freeifaddrs(ifa);
	if (c->ifname[0] == '\0')
		return;
	if ((c->link_mbps = cfg_nic_speed(c->s->d->cfg, c->ifname)) != 0)
		return;
	snprintf(rel, sizeof rel, "class/net/%s/speed", c->ifname);
	if (probe_attr_i64(&c->s->d->root, PROBE_SYS, rel, &speed) == 0 &&
	    speed > 0)
		c->link_mbps = (uint64_t)speed;
}

/* nasperfd's own CPU now. */
static void
synth_cpu_now(const struct synth *s, struct synth_cpu *sc)
{
	struct rusage		ru;
	struct pidstat		ps;
	struct probe_buf	b;

	memset(sc, 0, sizeof *sc);
	sc->loop_s = NAN;
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		sc->loop_s = (double)ru.ru_utime.tv_sec +
		    ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		    ru.ru_stime.tv_usec / 1e6;
	probe_buf_init(&b);
	if (pidstat_read(&s->d->root, &b, (int)getpid(), &ps) == 0 &&
	    ps.has_cgroup && ps.cgroup.has_quota && !ps.cgroup.unlimited &&
	    ps.cgroup.has_stat) {
		sc->has_thr = 1;
		sc->thr_ns = ps.cgroup.throttled_ns;
		sc->periods = ps.cgroup.nr_periods;
		sc->throttled = ps.cgroup.nr_throttled;
	}
	probe_buf_free(&b);
}

/*
 * Whether nasperfd's own CPU held a test of secs seconds back: its event
 * loop busy a core's worth, or its cgroup throttled by its quota.  The
 * quota is judged as the verdict judges a process on the path: throttled
 * in verdict.throttled_pct of its quota periods, or, where cpu.stat
 * counts no periods, for that share of the test.  A rate so held is the
 * daemon's, not the path's; why says so.
 */
static int
synth_cpu_bound(const struct synth *s, const struct synth_sess *ss,
    double secs, char *why, size_t whysz)
{
	const struct cfg	*cfg = s->d->cfg;
	const struct synth_cpu	*a = &ss->cpu0;
	struct synth_cpu	 b;
	double			 pct;

	synth_cpu_now(s, &b);
	if (isfinite(b.loop_s) && isfinite(a->loop_s) &&
	    100.0 * (b.loop_s - a->loop_s) / secs >= cfg->v_core_busy_pct) {
		snprintf(why, whysz, "nasperfd's event loop used %.0f %% of a "
		    "core", 100.0 * (b.loop_s - a->loop_s) / secs);
		return (1);
	}
	if (!a->has_thr || !b.has_thr)
		return (0);
	if (b.periods > a->periods && b.throttled >= a->throttled) {
		pct = 100.0 * (double)(b.throttled - a->throttled) /
		    (double)(b.periods - a->periods);
		if (pct < cfg->v_throttled_pct)
			return (0);
		snprintf(why, whysz, "nasperfd's cgroup was throttled by its "
		    "CPU quota in %.0f %% of its quota periods", pct);
		return (1);
	}
	if (b.thr_ns >= a->thr_ns && (pct = (double)(b.thr_ns - a->thr_ns) /
	    1e7 / secs) >= cfg->v_throttled_pct) {
		snprintf(why, whysz, "nasperfd's cgroup was throttled by its "
		    "CPU quota %.0f %% of the test", pct);
		return (1);
	}
	return (0);
}

/* Take a stream slot: join the client's streams in that direction. */
static void
synth_stream_begin(struct synth_conn *c)
{
	struct synth		*s = c->s;
	struct synth_sess	*ss;
	const char		*addr = pathcap_addr_norm(c->peer);

	s->nstreams++;
	for (ss = s->sess; ss != NULL; ss = ss->next) {
		if (ss->upload == c->upload && strcmp(ss->addr, addr) == 0)
			break;
	}
	if (ss == NULL && (ss = calloc(1, sizeof *ss)) != NULL) {
		snprintf(ss->addr, sizeof ss->addr, "%s", addr);
		ss->upload = c->upload;
		clock_gettime(CLOCK_MONOTONIC, &ss->t0);
		synth_cpu_now(s, &ss->cpu0);
		ss->next = s->sess;
		s->sess = ss;
	}
	if (ss != NULL) {
		ss->active++;
		ss->streams++;
	}
	c->sess = ss;
	c->mismatch = UINT64_MAX;
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
}

/*
 * Give the slot back with the bytes the client got (ok) or nothing (a
 * broken stream); the last stream of a test records the path's capacity.
 */
static void
synth_stream_end(struct synth_conn *c, int ok, uint64_t delivered)
{
	struct synth		*s = c->s;
	struct synth_sess	*ss = c->sess, **pp;
	double			 secs;
	char			 why[160];

	if (s->nstreams > 0)
		s->nstreams--;
	c->sess = NULL;
	if (ss == NULL)
		return;
	ss->bytes += delivered;
	if (!ok)
		ss->broken = 1;
	if (--ss->active > 0)
		return;
	secs = synth_since(&ss->t0);
	if (!ss->broken && ss->bytes > 0 && secs >= SYNTH_MIN_SECONDS) {
		if (synth_cpu_bound(s, ss, secs, why, sizeof why))
			log_info("synth: %s %s: %.1f MB/s over %.1f s is not "
			    "kept as the path's capacity: %s", ss->addr,
			    ss->upload ? "upload" : "download",
			    (double)ss->bytes / secs / 1e6, secs, why);
		else
			pathcap_record(s->d, ss->addr, ss->upload, ss->bytes,
			    secs, ss->streams);
	}
	for (pp = &s->sess; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == ss) {
			*pp = ss->next;
			break;
		}
	}
	free(ss);
}

/* Close a connection and free what it holds. */
static void
synth_conn_free(struct synth_conn *c)
{
	struct synth		*s = c->s;
	struct synth_conn	**pp;
	struct evbuffer		*out;

	if (c->sess != NULL)
		synth_stream_end(c, 0, 0);
	for (pp = &s->conns; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	if (s->nconns > 0)
		s->nconns--;
	peercap_del(s->peercap, (struct sockaddr *)&c->sa);
	if (c->ev_sink != NULL)
		event_free(c->ev_sink);
	/* The output may still point into the period: empty it first. */
	out = bufferevent_get_output(c->bev);
	evbuffer_drain(out, evbuffer_get_length(out));
	bufferevent_free(c->bev);
	synth_buf_put(s, c->buf);
	free(c);
}

/* After an answer: read the next request, or shut down and linger. */
static void
synth_next(struct synth_conn *c)
{
	struct bufferevent	*bev = c->bev;
	const struct cfg	*cfg = c->s->d->cfg;

	synth_buf_put(c->s, c->buf);
	c->buf = NULL;
	if (c->keepalive && !c->eof) {
		c->state = SYNTH_HEAD;
		clock_gettime(CLOCK_MONOTONIC, &c->head_since);
		bufferevent_setwatermark(bev, EV_READ, 0, 0);
		synth_timeouts(c, cfg->synth_idle_timeout, 0);
		bufferevent_enable(bev, EV_READ);
		if (evbuffer_get_length(bufferevent_get_input(bev)) > 0)
			synth_head(c);
		return;
	}
	if (c->eof) {
		synth_conn_free(c);
		return;
	}
	/*
	 * A close with unread input would send a reset, which can destroy
	 * the answer before the client reads it: shut down our side and
	 * wait a little for the client's.
	 */
	shutdown(bufferevent_getfd(bev), SHUT_WR);
	c->state = SYNTH_LINGER_WAIT;
	bufferevent_setwatermark(bev, EV_READ, 0, 0);
	synth_timeouts(c, SYNTH_LINGER, 0);
	bufferevent_enable(bev, EV_READ);
}

/*
 * Of want bytes, how many the rate limit lets a stream move now (all of
 * them with no limit), never less than SYNTH_MIN_GRANT (or what is wanted)
 * but nothing; a stream given 0 is woken by the tick.  The bucket
 * holds SYNTH_BURST_MS of the rate: a burst stays short, and a tick that
 * comes late on a loaded box (tens of ms under ASan) loses no rate.
 */
static uint64_t
synth_budget(struct synth_conn *c, int up, uint64_t want)
{
	struct synth	*s = c->s;
	struct timespec	 now;
	double		 burst, least;
	uint64_t	 n;

	if (s->rate <= 0)
		return (want);
	clock_gettime(CLOCK_MONOTONIC, &now);
	burst = s->rate * SYNTH_BURST_MS / 1000.0;
	if (burst < 16384)
		burst = 16384;
	s->tokens[up] += s->rate * synth_elapsed(&s->refilled[up], &now);
	if (s->tokens[up] > burst)
		s->tokens[up] = burst;
	s->refilled[up] = now;
	/*
	 * Grant a worthwhile piece or nothing: granting the few bytes that
	 * came in since the last call would wake the stream on every write
	 * or read readiness, a core spent dribbling.
	 */
	least = fmin((double)want, fmin((double)SYNTH_MIN_GRANT, burst));
	n = s->tokens[up] >= least && s->tokens[up] >= 1 ?
	    (uint64_t)s->tokens[up] : 0;
	if (n > want)
		n = want;
	s->tokens[up] -= (double)n;
	if (n == 0) {
		struct timeval	tick = { 0, SYNTH_TICK_MS * 1000 };

		c->throttled = 1;
		if (s->ev_tick != NULL && !event_pending(s->ev_tick,
		    EV_TIMEOUT, NULL))
			event_add(s->ev_tick, &tick);
	}
	return (n);
}

/* Queue more of a source's body, and finish it when all went out. */
static void
synth_source_fill(struct synth_conn *c)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	int		 q = 0;

	if (c->p.seconds > 0 && c->done < c->total &&
	    synth_since(&c->t0) >= c->p.seconds)
		c->total = c->done;
	while (c->done < c->total && evbuffer_get_length(out) < SYNTH_QUEUE) {
		size_t	pos = (size_t)(c->done % SYNTH_STREAM_PERIOD);
		size_t	n = SYNTH_STREAM_PERIOD - pos;

		if (n > SYNTH_CHUNK)
			n = SYNTH_CHUNK;
		if ((uint64_t)n > c->total - c->done)
			n = (size_t)(c->total - c->done);
		if ((n = (size_t)synth_budget(c, 0, n)) == 0)
			return;
		if (evbuffer_add_reference(out, c->buf->p + pos, n, NULL,
		    NULL) == -1)
			break;
		c->done += n;
	}
	if (c->done < c->total)
		return;
	if (evbuffer_get_length(out) > 0) {
		/* Called back once everything is in the kernel. */
		bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
		return;
	}
	/* What the kernel still holds has not reached the client. */
	if (ioctl(bufferevent_getfd(c->bev), TIOCOUTQ, &q) == -1 || q < 0)
		q = 0;
	log_debug("synth: %s: sent %ju bytes in %.3f s", c->peer,
	    (uintmax_t)c->done, synth_since(&c->t0));
	synth_stream_end(c, 1, c->done - ((uint64_t)q < c->done ?
	    (uint64_t)q : c->done));
	synth_next(c);
}

/* Start a GET: the head of the answer, then the body. */
static void
synth_source_start(struct synth_conn *c, int head_only)
{
	struct evbuffer	*out = bufferevent_get_output(c->bev);
	const struct cfg *cfg = c->s->d->cfg;
	char		 len[48], link[48];

	synth_iface(c);
	if (c->p.seconds > 0) {
		c->keepalive = 0;	/* the body ends with the stream */
		len[0] = '\0';
		c->total = cfg->synth_max_bytes;
	} else {
		snprintf(len, sizeof len, "Content-Length: %ju\r\n",
		    (uintmax_t)c->p.bytes);
		c->total = c->p.bytes;
	}
	link[0] = '\0';
	if (c->link_mbps > 0)
		snprintf(link, sizeof link, "X-Nasperf-Link-Mbps: %ju\r\n",
		    (uintmax_t)c->link_mbps);
	evbuffer_add_printf(out, "HTTP/1.1 200 OK\r\nServer: nasperfd/%s\r\n"
	    "Content-Type: application/octet-stream\r\n%s"
	    "Connection: %s\r\nCache-Control: no-store\r\n" SYNTH_CORS
	    "X-Nasperf-Pattern: %s\r\nX-Nasperf-Seed: %ju\r\n"
	    "X-Nasperf-Interface: %s\r\n%s\r\n", PACKAGE_VERSION, len,
	    c->keepalive ? "keep-alive" : "close",
	    synth_pattern_name(c->p.pattern), (uintmax_t)c->p.seed,
	    c->ifname[0] != '\0' ? c->ifname : "-", link);
	if (head_only) {
		c->state = SYNTH_REPLY;
		bufferevent_setwatermark(c->bev, EV_WRITE, 0, 0);
		synth_timeouts(c, 0, cfg->synth_idle_timeout);
		return;
	}
	synth_stream_begin(c);
	c->done = 0;
	c->state = SYNTH_SOURCE;
	/* Read only so far: a client that pipelines waits its turn. */
	bufferevent_setwatermark(c->bev, EV_READ, 0, (size_t)cfg->max_headers);
	bufferevent_setwatermark(c->bev, EV_WRITE, SYNTH_QUEUE / 2, 0);
	synth_timeouts(c, 0, cfg->synth_idle_timeout);
	synth_source_fill(c);
}

/* The answer to an upload: what arrived, how fast, whether it matched. */
static void
synth_sink_done(struct synth_conn *c)
{
	double	 secs = synth_since(&c->t0);
	json_t	*j;

	log_debug("synth: %s: received %ju of %ju bytes in %.3f s", c->peer,
	    (uintmax_t)c->done, (uintmax_t)c->total, secs);
	j = json_pack("{s:I,s:I,s:b,s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
	    "bytes", (json_int_t)c->done, "declared", (json_int_t)c->total,
	    "complete", c->done == c->total, "seconds", secs,
	    "bytes_per_second", secs > 0 ? json_real((double)c->done / secs) :
	    json_null(),
	    "pattern", c->p.has_pattern || c->p.verify ?
	    json_string(synth_pattern_name(c->p.pattern)) : json_null(),
	    "seed", c->p.has_pattern || c->p.verify ?
	    json_integer((json_int_t)c->p.seed) : json_null(),
	    "verified", c->p.verify ? json_boolean(c->mismatch ==
	    UINT64_MAX) : json_null(),
	    "first_mismatch", c->mismatch != UINT64_MAX ?
	    json_integer((json_int_t)c->mismatch) : json_null(),
	    "interface", c->ifname[0] != '\0' ? json_string(c->ifname) :
	    json_null(),
	    "link_mbps", c->link_mbps > 0 ?
	    json_integer((json_int_t)c->link_mbps) : json_null());
	synth_stream_end(c, 1, c->done);
	synth_reply_json(c, 200, "OK", NULL, j, c->done == c->total);
}

/* Swallow what arrived of an upload, checking it when asked. */
static void
synth_sink_read(struct synth_conn *c)
{
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	struct evbuffer_iovec	 v[64];
	size_t			 left, bad, take;
	int			 nv, i;

	while (c->done < c->total && evbuffer_get_length(in) > 0) {
		uint64_t	n = evbuffer_get_length(in);

		if (n > c->total - c->done)
			n = c->total - c->done;
		if (c->p.verify && c->mismatch == UINT64_MAX) {
			nv = evbuffer_peek(in, (ev_ssize_t)n, NULL, v,
			    (int)NP_NITEMS(v));
			if (nv > (int)NP_NITEMS(v))
				nv = (int)NP_NITEMS(v);
			left = (size_t)n;
			n = 0;
			for (i = 0; i < nv && left > 0; i++) {
				take = v[i].iov_len < left ? v[i].iov_len :
				    left;
				bad = synth_pattern_check(c->buf->p,
				    SYNTH_STREAM_PERIOD, c->done + n,
				    v[i].iov_base, take);
				if (bad < take) {
					c->mismatch = c->done + n + bad;
					log_debug("synth: %s: upload differs "
					    "at byte %ju", c->peer,
					    (uintmax_t)c->mismatch);
				}
				n += take;
				left -= take;
				if (c->mismatch != UINT64_MAX)
					break;
			}
		}
		evbuffer_drain(in, (size_t)n);
		c->done += n;
	}
	if (c->done == c->total)
		synth_sink_done(c);
}

/*
 * Have the kernel wake an upload's reader (SO_RCVLOWAT) once SYNTH_LOWAT_MS
 * of its stream has arrived, never for more than is left to come; once the
 * upload is read (no ev_sink), for any byte, so that the next request's
 * head is read as it comes.  A timed upload ends with the client's FIN,
 * which wakes the reader whatever the mark is.
 */
static void
synth_sink_lowat(struct synth_conn *c, evutil_socket_t fd)
{
	int	lw = c->ev_sink == NULL ? 1 : synth_lowat(c->done,
	    synth_since(&c->t0), c->total - c->done);

	if (lw == c->lowat)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &lw, sizeof lw) == -1) {
		log_debug("synth: %s: SO_RCVLOWAT %d: %s", c->peer, lw,
		    strerror(errno));
		return;
	}
	c->lowat = lw;
}

/*
 * One read of an upload: the bytes read, 0 at its end, -1 with errno, which
 * is ENOBUFS when the rate limit has nothing left for it now.
 */
static ssize_t
synth_sink_recv(struct synth_conn *c, evutil_socket_t fd, int flags)
{
	struct synth	*s = c->s;
	size_t		 want, bad;
	ssize_t		 n;
	int		 check = c->p.verify && c->mismatch == UINT64_MAX;

	want = c->total - c->done < SYNTH_IO_MAX ?
	    (size_t)(c->total - c->done) : SYNTH_IO_MAX;
	if ((want = (size_t)synth_budget(c, 1, want)) == 0) {
		errno = ENOBUFS;
		return (-1);
	}
	n = recv(fd, s->scratch, want, flags | (check ? 0 : MSG_TRUNC));
	if (s->rate > 0)	/* give back what did not come */
		s->tokens[1] += (double)(want - (n > 0 ? (size_t)n : 0));
	if (n <= 0)
		return (n);
	if (check && (bad = synth_pattern_check(c->buf->p,
	    SYNTH_STREAM_PERIOD, c->done, s->scratch, (size_t)n)) < (size_t)n)
		c->mismatch = c->done + bad;
	c->done += (uint64_t)n;
	return (n);
}

/*
 * Read an upload straight from the socket: recv(MSG_TRUNC) has TCP discard
 * the bytes in the kernel, with no copy, when they need no check.
 */
static void
synth_sink_cb(evutil_socket_t fd, short what, void *arg)
{
	struct synth_conn	*c = arg;
	struct synth		*s = c->s;
	ssize_t			 n = 0;
	int			 i;

	if (what & EV_TIMEOUT) {
		/* What waited under the low-water mark still counts. */
		while (c->done < c->total && synth_sink_recv(c, fd,
		    MSG_DONTWAIT) > 0)
			;
		log_info("synth: %s: upload made no progress for %u s: closed "
		    "after %ju bytes", c->peer, s->d->cfg->synth_idle_timeout,
		    (uintmax_t)c->done);
		synth_conn_free(c);
		return;
	}
	for (i = 0; i < 4 && c->done < c->total; i++) {
		if ((n = synth_sink_recv(c, fd, 0)) == -1 &&
		    errno == ENOBUFS) {
			event_del(c->ev_sink);	/* the tick adds it back */
			synth_sink_lowat(c, fd);
			return;
		}
		if (n <= 0)
			break;
	}
	if (c->done < c->total && (n > 0 || (n == -1 && (errno == EAGAIN ||
	    errno == EWOULDBLOCK || errno == EINTR)))) {
		synth_sink_lowat(c, fd);
		return;
	}
	event_free(c->ev_sink);
	c->ev_sink = NULL;
	if (c->done < c->total) {
		if (n == -1) {
			log_debug("synth: %s: upload: %s", c->peer,
			    strerror(errno));
			synth_conn_free(c);
			return;
		}
		/* A client that shut its side ends a timed upload. */
		c->eof = 1;
		if (c->done == 0) {
			synth_conn_free(c);
			return;
		}
	}
	synth_sink_lowat(c, fd);	/* back to any byte */
	synth_sink_done(c);
}

/* Start a PUT once its head has passed every check. */
static void
synth_sink_start(struct synth_conn *c, const struct synth_req *r)
{
	const struct cfg	*cfg = c->s->d->cfg;
	struct timeval		 idle = { (time_t)cfg->synth_idle_timeout, 0 };

	synth_iface(c);
	synth_stream_begin(c);
	c->total = r->length;
	c->done = 0;
	c->lowat = 1;
	c->state = SYNTH_SINK;
	if (r->expect_continue)
		evbuffer_add_printf(bufferevent_get_output(c->bev),
		    "HTTP/1.1 100 Continue\r\n\r\n");
	bufferevent_setwatermark(c->bev, EV_READ, 0, 0);
	synth_timeouts(c, cfg->synth_idle_timeout, cfg->synth_idle_timeout);
	synth_sink_read(c);		/* what came with the head */
	if (c->state != SYNTH_SINK)
		return;
	/* Over TLS the bytes must be deciphered: the bufferevent reads. */
	if (c->tls)
		return;
	if (c->s->scratch == NULL)
		c->s->scratch = malloc(SYNTH_IO_MAX);
	if (c->s->scratch == NULL || (c->ev_sink = event_new(c->s->d->base,
	    bufferevent_getfd(c->bev), EV_READ | EV_PERSIST, synth_sink_cb,
	    c)) == NULL || event_add(c->ev_sink, &idle) == -1) {
		if (c->ev_sink != NULL)
			event_free(c->ev_sink);
		c->ev_sink = NULL;
		return;			/* the bufferevent reads it */
	}
	bufferevent_disable(c->bev, EV_READ);
}

/* Check a request head and start its stream or answer its error. */
static void
synth_dispatch(struct synth_conn *c, const struct synth_req *r)
{
	struct synth		*s = c->s;
	const struct cfg	*cfg = s->d->cfg;
	const struct route	*rt;
	const char		*q;
	char			 path[1024], msg[256], allow[64], hdr[80];
	unsigned		 retry;
	int			 put, head, m, have;
	size_t			 plen;

	c->keepalive = r->keepalive;
	if (!cfg_allowed(cfg, (struct sockaddr *)&c->sa)) {
		synth_error(c, 403, "Forbidden", NULL, "forbidden", "client %s "
		    "is not in api.allow", c->peer);
		return;
	}
	q = strchr(r->target, '?');
	plen = q != NULL ? (size_t)(q - r->target) : strlen(r->target);
	snprintf(path, sizeof path, "%.*s", (int)plen, r->target);
	if ((rt = route_find(ROUTE_SYNTH, path)) == NULL) {
		synth_error(c, 404, "Not Found", NULL, "not_found", "no such "
		    "endpoint: %.200s (this port serves only " SYNTH_PATH ")",
		    path);
		return;
	}
	m = route_method(r->method);
	if (m == EVHTTP_REQ_OPTIONS) {
		/* A browser's preflight: it never carries the token. */
		synth_reply(c, 204, "No Content", "Access-Control-Allow-Methods: "
		    "GET, HEAD, PUT\r\nAccess-Control-Allow-Headers: "
		    "Authorization, Content-Type\r\nAccess-Control-Max-Age: "
		    "600\r\n", "text/plain", "", 0, 1);
		return;
	}
	if ((rt->methods & m) == 0) {
		route_allow(rt->methods, allow, sizeof allow);
		snprintf(hdr, sizeof hdr, "Allow: %s\r\n", allow);
		synth_error(c, 405, "Method Not Allowed", hdr,
		    "method_not_allowed", "%s takes %s", rt->path, allow);
		return;
	}
	head = m == EVHTTP_REQ_HEAD;
	put = m == EVHTTP_REQ_PUT;
	if (route_scope(rt, m) != HTTP_SCOPE_NONE && cfg->auth) {
		if (authfail_blocked(s->d, c->peer, &retry)) {
			snprintf(hdr, sizeof hdr, "Retry-After: %u\r\n", retry);
			synth_error(c, 429, "Too Many Requests", hdr,
			    "too_many_failures", "too many requests from %s "
			    "failed to authenticate: retry in %u s", c->peer,
			    retry);
			return;
		}
		have = http_bearer_scope(r->auth, s->d->token,
		    s->d->token_read);
		if (have == HTTP_SCOPE_NONE) {
			authfail_record(s->d, c->peer, "synth");
			synth_error(c, 401, "Unauthorized",
			    "WWW-Authenticate: Bearer realm=\"nasperfd\"\r\n",
			    "unauthorized", "a valid bearer token is required "
			    "(see %s/token on the server)", s->d->state_dir);
			return;
		}
		authfail_ok(s->d, c->peer);
		if (have < route_scope(rt, m)) {
			synth_error(c, 403, "Forbidden", NULL,
			    "read_only_token", "the data plane needs the "
			    "control token (%s/" STATE_TOKEN " on the server): "
			    "this one only reads", s->d->state_dir);
			return;
		}
	}
	if (synth_parse_query(q != NULL ? q + 1 : NULL, put,
	    cfg->synth_max_bytes, &c->p, msg, sizeof msg) == -1) {
		synth_error(c, 400, "Bad Request", NULL, "bad_request", "%s",
		    msg);
		return;
	}
	c->upload = put;
	if (put && (r->chunked || !r->has_length)) {
		synth_error(c, 411, "Length Required", NULL, "length_required",
		    "an upload gives its size as Content-Length (chunked "
		    "bodies are not taken)");
		return;
	}
	if (!put && (r->chunked || (r->has_length && r->length > 0))) {
		synth_error(c, 400, "Bad Request", NULL, "bad_request",
		    "%s takes no body", r->method);
		return;
	}
	if (put && r->length > cfg->synth_max_bytes) {
		/* max_bytes tells a timed upload what it may declare. */
		snprintf(msg, sizeof msg, "an upload of %ju bytes is over "
		    "synth.max_bytes (%ju)", (uintmax_t)r->length,
		    (uintmax_t)cfg->synth_max_bytes);
		synth_reply_json(c, 413, "Payload Too Large", NULL, json_pack(
		    "{s:{s:s,s:s,s:I}}", "error", "code", "too_large",
		    "message", msg, "max_bytes",
		    (json_int_t)cfg->synth_max_bytes), 0);
		return;
	}
	if (!head && s->nstreams >= cfg->synth_max_streams) {
		synth_error(c, 503, "Service Unavailable", "Retry-After: 1\r\n",
		    "busy", "%u synthetic streams are running, the most "
		    "synth.max_streams allows", s->nstreams);
		return;
	}
	if ((!put || c->p.verify) && (c->buf = synth_buf_get(s,
	    c->p.pattern, c->p.seed)) == NULL) {
		synth_error(c, 503, "Service Unavailable", NULL, "no_memory",
		    "no memory for the pattern");
		return;
	}
	log_debug("synth: %s: %s %s", c->peer, r->method, r->target);
	if (put)
		synth_sink_start(c, r);
	else
		synth_source_start(c, head);
}

/* Read a request head when it is complete, and act on it. */
static void
synth_head(struct synth_conn *c)
{
	struct evbuffer		*in = bufferevent_get_input(c->bev);
	struct evbuffer_ptr	 p;
	struct synth_req	 r;
	const struct cfg	*cfg = c->s->d->cfg;
	const char		*errstr;
	size_t			 len, hlen;
	unsigned char		*h;

	len = evbuffer_get_length(in);
	p = evbuffer_search(in, "\r\n\r\n", 4, NULL);
	hlen = p.pos >= 0 ? (size_t)p.pos + 4 : 0;
	p = evbuffer_search(in, "\n\n", 2, NULL);
	if (p.pos >= 0 && (hlen == 0 || (size_t)p.pos + 2 < hlen))
		hlen = (size_t)p.pos + 2;
	if (hlen == 0 || hlen > cfg->max_headers) {
		if (len > cfg->max_headers || hlen > cfg->max_headers)
			synth_error(c, 431, "Request Header Fields Too Large",
			    NULL, "headers_too_large", "the request head is "
			    "over api.max_header_bytes (%ju)",
			    (uintmax_t)cfg->max_headers);
		return;
	}
	if ((h = evbuffer_pullup(in, (ev_ssize_t)hlen)) == NULL) {
		synth_error(c, 500, "Internal Server Error", NULL, "internal",
		    "out of memory");
		return;
	}
	if (synth_parse_head((const char *)h, hlen, &r, &errstr) == -1) {
		evbuffer_drain(in, hlen);
		synth_error(c, 400, "Bad Request", NULL, "bad_request", "%s",
		    errstr);
		return;
	}
	evbuffer_drain(in, hlen);
	synth_dispatch(c, &r);
}

static void
synth_read_cb(struct bufferevent *bev, void *arg)
{
	struct synth_conn	*c = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);

	switch (c->state) {
	case SYNTH_HEAD:
		synth_head(c);
		break;
	case SYNTH_SINK:
		synth_sink_read(c);
		break;
	case SYNTH_LINGER_WAIT:
		evbuffer_drain(in, evbuffer_get_length(in));
		break;
	case SYNTH_SOURCE:
	case SYNTH_REPLY:
		break;		/* the next request waits its turn */
	}
}

static void
synth_write_cb(struct bufferevent *bev, void *arg)
{
	struct synth_conn	*c = arg;

	if (c->state == SYNTH_SOURCE)
		synth_source_fill(c);
	else if (c->state == SYNTH_REPLY &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		synth_next(c);
}

static void
synth_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct synth_conn	*c = arg;
	const char		*st;

	/* A TLS handshake done is no event of ours. */
	if (what == BEV_EVENT_CONNECTED)
		return;
	st = c->state == SYNTH_SOURCE ? "download" : c->state == SYNTH_SINK ?
	    "upload" : NULL;
	if (what & BEV_EVENT_TIMEOUT) {
		if (st != NULL)
			log_info("synth: %s: %s made no progress for %u s: "
			    "closed after %ju bytes", c->peer, st,
			    c->s->d->cfg->synth_idle_timeout,
			    (uintmax_t)c->done);
		synth_conn_free(c);
		return;
	}
	if ((what & BEV_EVENT_EOF) && !(what & BEV_EVENT_ERROR)) {
		c->eof = 1;
		if (c->state == SYNTH_SINK && c->done > 0) {
			/* A client that shut its side ends a timed upload. */
			bufferevent_disable(bev, EV_READ);
			synth_sink_done(c);
			return;
		}
		if (c->state == SYNTH_REPLY)
			return;		/* flush the answer, then close */
	}
	if (st != NULL)
		log_debug("synth: %s: the client went away during a %s after "
		    "%ju bytes", c->peer, st, (uintmax_t)c->done);
	if (c->tls && (what & BEV_EVENT_ERROR))
		tls_log_errors(c->bev, c->peer, "synth");
	synth_conn_free(c);
}

/*
 * Log a peer outside api.allow, at most once a second with the number of
 * others left unsaid, so that a flood of them cannot flood the log.
 */
static void
synth_refused(struct synth *s, const struct sockaddr *sa)
{
	struct timespec	 now;
	char		 peer[INET6_ADDRSTRLEN];
	const void	*ap;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (s->refused_at != 0 && now.tv_sec - s->refused_at < 1) {
		s->refused_quiet++;
		return;
	}
	ap = sa->sa_family == AF_INET6 ?
	    (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr :
	    (const void *)&((const struct sockaddr_in *)sa)->sin_addr;
	if (inet_ntop(sa->sa_family, ap, peer, sizeof peer) == NULL)
		snprintf(peer, sizeof peer, "?");
	if (s->refused_quiet > 0)
		log_info("synth: %s: not in api.allow: closed (and %u more "
		    "since the last such line)", peer, s->refused_quiet);
	else
		log_info("synth: %s: not in api.allow: closed", peer);
	s->refused_at = now.tv_sec;
	s->refused_quiet = 0;
}

/* The connection waiting longest for a request head, or NULL. */
static struct synth_conn *
synth_oldest_head(struct synth *s)
{
	struct synth_conn	*c, *old = NULL;

	for (c = s->conns; c != NULL; c = c->next) {
		if (c->state != SYNTH_HEAD)
			continue;
		/* Seconds from c's to old's: c came first. */
		if (old == NULL || synth_elapsed(&c->head_since,
		    &old->head_since) > 0)
			old = c;
	}
	return (old);
}

/*
 * Every second: close the connections whose request head has not come
 * whole within api.head_timeout of their accept or their last answer,
 * however slowly its bytes trickle in (each byte resets the idle timeout).
 */
static void
synth_sweep_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct synth		*s = arg;
	struct synth_conn	*c, *next;
	double			 limit = (double)s->d->cfg->head_timeout;

	peercap_sweep(s->peercap);
	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		if (c->state == SYNTH_HEAD && synth_since(&c->head_since) >
		    limit) {
			log_debug("synth: %s: no whole request head in %.0f s: "
			    "closed", c->peer, limit);
			synth_conn_free(c);
		}
	}
}

/* Tell a client over the connection limit, without reading from it. */
static void
synth_refuse(evutil_socket_t fd)
{
	static const char	msg[] = "HTTP/1.1 503 Service Unavailable\r\n"
	    "Content-Type: application/json\r\nContent-Length: 75\r\n"
	    "Connection: close\r\nRetry-After: 1\r\n\r\n"
	    "{\"error\":{\"code\":\"busy\",\"message\":\"too many connections"
	    "; try again\"}}\n";

	(void)send(fd, msg, sizeof msg - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	evutil_closesocket(fd);
}

static void
synth_accept_cb(NP_UNUSED struct evconnlistener *lev, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct synth		*s = arg;
	const struct cfg	*cfg = s->d->cfg;
	struct synth_conn	*c;
	void			*ap;

	if (!cfg_allowed(cfg, sa)) {
		synth_refused(s, sa);
		evutil_closesocket(fd);
		return;
	}
	/* Before it can make room: one address must not take every slot. */
	if (peercap_add(s->peercap, sa, cfg_synth_per_address(cfg)) == -1) {
		evutil_closesocket(fd);
		return;
	}
	/* At the limit, a connection that has not sent a request goes. */
	if (s->nconns >= cfg->synth_max_streams + SYNTH_SPARE &&
	    (c = synth_oldest_head(s)) != NULL) {
		log_debug("synth: %s: closed to make room (no request yet)",
		    c->peer);
		synth_conn_free(c);
	}
	if (s->nconns >= cfg->synth_max_streams + SYNTH_SPARE ||
	    (c = calloc(1, sizeof *c)) == NULL) {
		peercap_del(s->peercap, sa);
		if (cfg->synth_tls)		/* no plain answer to a TLS client */
			evutil_closesocket(fd);
		else
			synth_refuse(fd);
		return;
	}
	c->s = s;
	memcpy(&c->sa, sa, (size_t)salen < sizeof c->sa ? (size_t)salen :
	    sizeof c->sa);
	ap = sa->sa_family == AF_INET6 ?
	    (void *)&((struct sockaddr_in6 *)sa)->sin6_addr :
	    (void *)&((struct sockaddr_in *)sa)->sin_addr;
	if (inet_ntop(sa->sa_family, ap, c->peer, sizeof c->peer) == NULL)
		snprintf(c->peer, sizeof c->peer, "?");
	c->tls = cfg->synth_tls;
	if ((c->bev = c->tls ? tls_server_bev(s->d, fd, 0) :
	    bufferevent_socket_new(s->d->base, fd, BEV_OPT_CLOSE_ON_FREE)) ==
	    NULL) {
		peercap_del(s->peercap, sa);
		/* A TLS one's socket went with the SSL libevent freed. */
		if (!c->tls)
			evutil_closesocket(fd);
		free(c);
		return;
	}
	/* libevent moves 16 KiB per call by default: far too little here. */
	bufferevent_set_max_single_read(c->bev, SYNTH_IO_MAX);
	bufferevent_set_max_single_write(c->bev, SYNTH_WRITE_MAX);
	bufferevent_setcb(c->bev, synth_read_cb, synth_write_cb,
	    synth_event_cb, c);
	c->state = SYNTH_HEAD;
	clock_gettime(CLOCK_MONOTONIC, &c->head_since);
	synth_timeouts(c, cfg->synth_idle_timeout, 0);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	c->next = s->conns;
	s->conns = c;
	s->nconns++;
}

/* Every SYNTH_TICK_MS while streams are throttled: let them go on. */
static void
synth_tick_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct synth		*s = arg;
	struct synth_conn	*c, *next;
	struct timeval		 idle = { 0, 0 };

	idle.tv_sec = (time_t)s->d->cfg->synth_idle_timeout;
	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		if (!c->throttled)
			continue;
		c->throttled = 0;
		if (c->state == SYNTH_SOURCE)
			synth_source_fill(c);	/* may free c */
		else if (c->state == SYNTH_SINK && c->ev_sink != NULL)
			event_add(c->ev_sink, &idle);
	}
}

/* Take synth.max_rate_mbps from the running configuration. */
static void
synth_rate(struct synth *s)
{
	int	up;

	s->rate = (double)s->d->cfg->synth_max_rate_mbps * 125000.0;
	for (up = 0; up < 2; up++) {
		s->tokens[up] = 0;
		clock_gettime(CLOCK_MONOTONIC, &s->refilled[up]);
	}
}

/* The port the listener is bound to (synth.listen may say 0); 0: none. */
static unsigned
synth_bound_port(const struct synth *s)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof ss;

	if (s->lev == NULL || getsockname(evconnlistener_get_fd(s->lev),
	    (struct sockaddr *)&ss, &len) == -1)
		return (0);
	if (ss.ss_family == AF_INET)
		return (ntohs(((struct sockaddr_in *)&ss)->sin_port));
	if (ss.ss_family == AF_INET6)
		return (ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	return (0);
}

int
synth_init(struct daemon *d, char **cause)
{
	struct timeval		 sweep = { 1, 0 };
	struct synth		*s;
	struct sockaddr_storage	 ss;
	char			 host[64], addr[96];
	const char		*errstr;
	uint16_t		 port;
	int			 sslen = sizeof ss;

	*cause = NULL;
	if ((s = calloc(1, sizeof *s)) == NULL) {
		if (asprintf(cause, "out of memory") == -1)
			*cause = NULL;
		return (-1);
	}
	s->d = d;
	d->synth = s;
	synth_rate(s);
	if ((s->peercap = peercap_new("synth")) == NULL ||
	    (s->ev_tick = evtimer_new(d->base, synth_tick_cb, s)) == NULL ||
	    (s->ev_sweep = event_new(d->base, -1, EV_PERSIST, synth_sweep_cb,
	    s)) == NULL || event_add(s->ev_sweep, &sweep) == -1) {
		if (asprintf(cause, "out of memory") == -1)
			*cause = NULL;
		return (-1);
	}
	if (d->cfg->synth_max_streams == 0) {
		log_info("synth: off (synth.max_streams is 0)");
		return (0);
	}
	if (cfg_endpoint_parse(d->cfg->synth_listen, d->cfg->listen_addr,
	    host, sizeof host, &port, &errstr) == -1) {
		if (asprintf(cause, "synth.listen %s: %s",
		    d->cfg->synth_listen, errstr) == -1)
			*cause = NULL;
		return (-1);
	}
	snprintf(addr, sizeof addr, strchr(host, ':') != NULL ? "[%s]:%u" :
	    "%s:%u", host, port);
	memset(&ss, 0, sizeof ss);
	if (evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss,
	    &sslen) == -1) {
		if (asprintf(cause, "synth.listen %s: not an address", addr) ==
		    -1)
			*cause = NULL;
		return (-1);
	}
	s->lev = evconnlistener_new_bind(d->base, synth_accept_cb, s,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
	    64, (struct sockaddr *)&ss, sslen);
	if (s->lev == NULL) {
		log_warn("synth: cannot listen on %s; running without the "
		    "synthetic data plane", addr);
		return (0);
	}
	snprintf(s->listen, sizeof s->listen, "%s", d->cfg->synth_listen);
	d->synth_port = synth_bound_port(s);
	log_info("synth: listening on %s", addr);
	return (0);
}

void
synth_reconfigure(struct daemon *d)
{
	struct synth	*s = d->synth;

	if (s == NULL)
		return;
	if ((s->lev != NULL && strcmp(s->listen, d->cfg->synth_listen) != 0) ||
	    (s->lev == NULL && d->cfg->synth_max_streams > 0))
		log_warnx("reload: synth.listen, and turning the data plane "
		    "on, take effect at the next start");
	synth_rate(s);
}

void
synth_shutdown(struct daemon *d)
{
	struct synth		*s = d->synth;
	struct synth_buf	*b;

	if (s == NULL)
		return;
	while (s->conns != NULL)
		synth_conn_free(s->conns);
	peercap_free(s->peercap);
	while ((b = s->bufs) != NULL) {
		s->bufs = b->next;
		free(b->p);
		free(b);
	}
	if (s->lev != NULL)
		evconnlistener_free(s->lev);
	if (s->ev_tick != NULL)
		event_free(s->ev_tick);
	if (s->ev_sweep != NULL)
		event_free(s->ev_sweep);
	free(s->scratch);
	free(s);
	d->synth = NULL;
	d->synth_port = 0;
}
