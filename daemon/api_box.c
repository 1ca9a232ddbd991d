/*
 * api_box.c: what the box is and what its counters say: /healthz,
 * /v1/info, /v1/topology, /v1/counters[?interval=], /metrics,
 * /v1/baseline, /v1/samples and /v1/time.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <jansson.h>

#include "api.h"
#include "api_box.h"
#include "baseline.h"
#include "cfg.h"
#include "daemon.h"
#include "disktest.h"
#include "encode.h"
#include "history.h"
#include "http.h"
#include "np.h"
#include "nptime.h"
#include "runs.h"
#include "sampler.h"
#include "smbsess.h"
#include "zpool.h"
#include "snapshot.h"
#include "state.h"
#include "topology.h"
#include "transfers.h"

#define API_MAX_WAITS	16		/* concurrent ?interval= requests */
#define API_MAX_INTERVAL 60.0		/* seconds */
#define API_MIN_INTERVAL 0.1

/*
 * The counters of snapshot s, and what the ZFS pools' vdevs did in the
 * last second zpool iostat measured ("zfs_vdev_io").
 */
static json_t *
api_counters_doc(struct daemon *d, const struct snapshot *s)
{
	json_t	*body = enc_counters(s);

	if (body != NULL && d->zpool != NULL)
		json_object_set_new(body, "zfs_vdev_io", zpool_viostat_json(d));
	return (body);
}

/* A /v1/counters?interval= request waiting for its second snapshot. */
struct api_wait {
	struct daemon		*d;
	struct evhttp_request	*req;
	struct event		*timer;
	struct snapshot		*first;
	double			 interval;
	struct api_wait		*next;
};

/* Take a snapshot of the configured root into a new struct; NULL on ENOMEM. */
static struct snapshot *
api_snapshot(struct daemon *d)
{
	struct snapshot_opts	 opts;
	struct snapshot_group	 groups[CFG_MAX_GROUPS];
	const char		*pats[CFG_MAX_GROUPS][CFG_MAX_PATTERNS];
	struct snapshot		*s;

	if ((s = snapshot_new()) == NULL)
		return (NULL);
	cfg_snapshot_opts(d->cfg, &opts, groups, pats);
	if (snapshot_take(&d->root, &opts, s) == -1) {
		snapshot_free(s);
		return (NULL);
	}
	return (s);
}

void
api_healthz(NP_UNUSED struct daemon *d, struct evhttp_request *req)
{
	http_reply(req, HTTP_OK, json_pack("{s:s}", "status", "ok"));
}

/* Copy key of src into dst, or null when src lacks it. */
static void
api_take(json_t *dst, const char *key, json_t *src, const char *skey)
{
	json_t	*v = src != NULL ? json_object_get(src, skey) : NULL;

	json_object_set(dst, key, v != NULL ? v : json_null());
}

/* {"volumes": [...]}: the volumes a disk test may write in. */
static json_t *
api_dt_volumes(const struct daemon *d)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; a != NULL && i < d->cfg->dt_nvolumes; i++)
		json_array_append_new(a, json_string(d->cfg->dt_volumes[i]));
	return (json_pack("{s:o*}", "volumes", a));
}

void
api_info(struct daemon *d, struct evhttp_request *req)
{
	struct topology	*t = NULL;
	struct snapshot	*s = NULL;
	json_t		*topo = NULL, *ctr = NULL, *body, *limits;
	struct timespec	 now;
	struct sampler_stats st;

	clock_gettime(CLOCK_REALTIME, &now);
	if ((t = topology_new()) != NULL && topology_read(&d->root, t) == 0)
		topo = enc_topology(t);
	if ((s = api_snapshot(d)) != NULL)
		ctr = enc_counters(s);
	limits = json_array();
	if (!d->is_root) {
		json_array_append_new(limits, json_string("not running as "
		    "root: other users' /proc/PID/io and raw block devices "
		    "are not readable, process groups may be incomplete"));
	}
	body = json_pack("{s:s,s:s,s:s,s:b,s:f,s:f,s:o}",
	    "name", PACKAGE_NAME, "version", PACKAGE_VERSION,
	    "root", d->root.path, "running_as_root", d->is_root,
	    "server_time", (double)now.tv_sec + (double)now.tv_nsec / 1e9,
	    "daemon_uptime", nptime_since(&d->started), "limits", limits);
	if (body != NULL) {
		sampler_stats(d, &st);
		json_object_set_new(body, "sampler", json_pack("{s:f,s:I,s:f,"
		    "s:f,s:f,s:f,s:I,s:I,s:I,s:f,s:f}", "interval", st.interval,
		    "ticks", (json_int_t)st.ticks, "jitter_mean_ms",
		    st.jitter_mean_ms, "jitter_max_ms", st.jitter_max_ms,
		    "cost_mean_ms", st.cost_mean_ms, "cost_max_ms",
		    st.cost_max_ms, "memory_bytes", (json_int_t)st.memory_bytes,
		    "samples_full", (json_int_t)st.full, "samples_coarse",
		    (json_int_t)st.coarse, "oldest", st.oldest, "newest",
		    st.newest));
		json_object_set_new(body, "synth", json_pack("{s:o,s:i,s:b}",
		    "port", d->synth_port > 0 ? json_integer(d->synth_port) :
		    json_null(), "max_streams",
		    (int)d->cfg->synth_max_streams, "tls", DAEMON_TLS(d, 1)));
		json_object_set_new(body, "tls", json_pack("{s:b,s:b,s:o}",
		    "api", DAEMON_TLS(d, 0), "synth", DAEMON_TLS(d, 1),
		    "fingerprint",
		    d->tls_ctx != NULL ? json_string(d->tls_fp) :
		    json_null()));
		json_object_set_new(body, "disktest", api_dt_volumes(d));
		json_object_set_new(body, "scope", json_string(
		    http_scope_name(daemon_scope(d, evhttp_find_header(
		    evhttp_request_get_input_headers(req),
		    "Authorization")))));
		json_object_set_new(body, "token_files", json_pack(
		    "{s:s++,s:s++}", "control", d->state_dir, "/",
		    STATE_TOKEN, "read", d->state_dir, "/", STATE_TOKEN_READ));
		api_take(body, "identity", topo, "identity");
		api_take(body, "cpu", topo, "cpu");
		api_take(body, "memory", ctr, "memory");
		api_take(body, "uptime_seconds", json_object_get(ctr,
		    "memory"), "uptime_s");
	}
	json_decref(topo);
	json_decref(ctr);
	snapshot_free(s);
	topology_free(t);
	http_reply(req, HTTP_OK, body);
}

void
api_topology(struct daemon *d, struct evhttp_request *req)
{
	struct topology	*t;
	json_t		*body;

	if ((t = daemon_topology(d)) == NULL) {
		http_error(req, HTTP_INTERNAL, "internal", "topology: %s",
		    strerror(errno));
		return;
	}
	body = enc_topology(t);
	topology_free(t);
	/* The sessions smbstatus listed last, beside smb.conf's settings. */
	json_object_set_new(json_object_get(json_object_get(body,
	    "protocols"), "smb"), "sessions", smbsess_json(d));
	/* The pools zpool status listed last. */
	json_object_set_new(body, "zfs", zpool_json(d));
	http_reply(req, HTTP_OK, body);
}

/* Unlink w from the daemon's list of pending requests and free it. */
static void
api_wait_free(struct api_wait *w)
{
	struct api_wait	**pp;

	for (pp = &w->d->waits; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	w->d->nwaits--;
	if (w->timer != NULL)
		event_free(w->timer);
	snapshot_free(w->first);
	free(w);
}

/* The interval of a ?interval= request has passed: reply with the rates. */
static void
api_wait_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct api_wait	*w = arg;
	struct snapshot	*s;
	json_t		*body;

	if ((s = api_snapshot(w->d)) == NULL) {
		http_error(w->req, HTTP_INTERNAL, "internal", "snapshot: %s",
		    strerror(errno));
		api_wait_free(w);
		return;
	}
	body = api_counters_doc(w->d, s);
	if (body != NULL)
		json_object_set_new(body, "rates", enc_rates(w->first, s));
	snapshot_free(s);
	http_reply(w->req, HTTP_OK, body);
	api_wait_free(w);
}

/* Parse the interval= query parameter; -1 with a message when malformed. */
static int
api_interval(struct evhttp_request *req, double *out, char *msg, size_t msgsz)
{
	const struct evhttp_uri	*uri = evhttp_request_get_evhttp_uri(req);
	struct evkeyvalq	 q;
	const char		*query, *v;
	char			*end;
	double			 x;
	int			 rc = 0;

	*out = 0;
	if (uri == NULL || (query = evhttp_uri_get_query(uri)) == NULL)
		return (0);
	/* evhttp_parse_query_str() initialises q, and clears it on error. */
	if (evhttp_parse_query_str(query, &q) == -1) {
		snprintf(msg, msgsz, "malformed query string");
		return (-1);
	}
	if ((v = evhttp_find_header(&q, "interval")) != NULL) {
		errno = 0;
		x = strtod(v, &end);
		if (errno != 0 || end == v || *end != '\0' ||
		    !(x >= API_MIN_INTERVAL && x <= API_MAX_INTERVAL)) {
			snprintf(msg, msgsz, "interval: '%.40s' is not a number "
			    "of seconds from %.1f to %.0f", v,
			    API_MIN_INTERVAL, API_MAX_INTERVAL);
			rc = -1;
		} else
			*out = x;
	}
	evhttp_clear_headers(&q);
	return (rc);
}

void
api_counters(struct daemon *d, struct evhttp_request *req)
{
	struct snapshot	*s;
	struct api_wait	*w;
	struct timeval	 tv;
	double		 interval;
	char		 msg[160];

	if (api_interval(req, &interval, msg, sizeof msg) == -1) {
		http_error(req, HTTP_BADREQUEST, "bad_request", "%s", msg);
		return;
	}
	if ((s = api_snapshot(d)) == NULL) {
		http_error(req, HTTP_INTERNAL, "internal", "snapshot: %s",
		    strerror(errno));
		return;
	}
	if (interval == 0) {
		http_reply(req, HTTP_OK, api_counters_doc(d, s));
		snapshot_free(s);
		return;
	}
	/* The second snapshot comes from a timer: the loop never sleeps. */
	if (d->nwaits >= API_MAX_WAITS) {
		snapshot_free(s);
		http_error(req, HTTP_SERVUNAVAIL, "busy", "%u interval requests "
		    "are already waiting; try again", d->nwaits);
		return;
	}
	if ((w = calloc(1, sizeof *w)) == NULL ||
	    (w->timer = evtimer_new(d->base, api_wait_cb, w)) == NULL) {
		free(w);
		snapshot_free(s);
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
		return;
	}
	w->d = d;
	w->req = req;
	w->first = s;
	w->interval = interval;
	w->next = d->waits;
	d->waits = w;
	d->nwaits++;
	evtimer_add(w->timer, nptime_timeval(interval, &tv));
}

/* The disks' and volumes' baselines into v (room for max); how many. */
static size_t
api_baselines(const struct daemon *d, struct metrics_baseline *v,
    size_t max)
{
	const json_t	*b = disktest_baseline_doc(d), *e;
	const char	*name;
	double		 iops;
	size_t		 n = 0;
	int		 vol;

	for (vol = 0; vol < 2; vol++)
		json_object_foreach(json_object_get(b, vol ? "volumes" :
		    "disks"), name, e) {
			(void)e;
			if (n == max)
				return (n);
			snprintf(v[n].name, sizeof v[n].name, "%s", name);
			v[n].volume = vol;
			if (baseline_get(b, name, &v[n].read, &v[n].write,
			    &iops, &v[n].when) == 0)
				n++;
		}
	return (n);
}

/* GET /v1/baseline: the baseline document, {} before any disk test. */
void
api_baseline(struct daemon *d, struct evhttp_request *req)
{
	const json_t	*b = disktest_baseline_doc(d);

	http_reply(req, HTTP_OK, b != NULL ? json_deep_copy(b) :
	    json_object());
}

void
api_metrics(struct daemon *d, struct evhttp_request *req)
{
	struct transfers_total	 totals[TRANSFERS_TOTALS], other;
	struct runs_tally	 tally[RUNS_TALLY_MAX];
	struct metrics_baseline	 bl[64];
	const struct zfs_viostat *io;
	struct snapshot		*s;
	double			 io_at;
	struct evbuffer		*evb;
	unsigned long		 count;
	unsigned		 active;
	size_t			 n, nt, nb;

	if ((s = api_snapshot(d)) == NULL) {
		http_error(req, HTTP_INTERNAL, "internal", "snapshot: %s",
		    strerror(errno));
		return;
	}
	n = transfers_totals(d, totals, &other, &count, &active);
	nt = runs_tallies(d, tally);
	nb = api_baselines(d, bl, NP_NITEMS(bl));
	if ((evb = evbuffer_new()) == NULL || metrics_render(evb, s) == -1 ||
	    metrics_render_clients(evb, totals, n, &other, count, active) ==
	    -1 || metrics_render_verdicts(evb, tally, nt) == -1 ||
	    metrics_render_baseline(evb, bl, nb) == -1 ||
	    ((io = zpool_viostat(d, &io_at)) != NULL &&
	    metrics_render_zfs_vdevs(evb, io, io_at) == -1)) {
		http_error(req, HTTP_INTERNAL, "internal", "metrics: %s",
		    strerror(errno));
		goto out;
	}
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	evhttp_send_reply(req, HTTP_OK, NULL, evb);
out:
	if (evb != NULL)
		evbuffer_free(evb);
	snapshot_free(s);
}

#define API_MAX_SAMPLES	20000	/* in one /v1/samples answer */

/* GET /v1/samples?from=&to=&step=: the history's counters. */
void
api_samples(struct daemon *d, struct evhttp_request *req)
{
	const struct history		*h = sampler_history(d);
	const struct evhttp_uri		*uri = evhttp_request_get_evhttp_uri(req);
	const struct hist_sample	*first;
	struct evkeyvalq		 q;
	struct hist_window		 w;
	const char			*query;
	char				 msg[160];
	double				 now = nptime_real(), from, to, step = 0;
	json_t				*doc;
	int				 bad = 0;

	from = now - 60;
	to = now;
	query = uri != NULL ? evhttp_uri_get_query(uri) : NULL;
	if (query != NULL) {
		if (evhttp_parse_query_str(query, &q) == -1) {
			http_error(req, HTTP_BADREQUEST, "bad_request",
			    "malformed query string");
			return;
		}
		bad = http_query_num(&q, "from", &from, msg, sizeof msg) == -1 ||
		    http_query_num(&q, "to", &to, msg, sizeof msg) == -1 ||
		    http_query_num(&q, "step", &step, msg, sizeof msg) == -1;
		evhttp_clear_headers(&q);
		if (bad) {
			http_error(req, HTTP_BADREQUEST, "bad_request", "%s "
			    "(from and to: Unix seconds, or negative for "
			    "seconds before now; step: seconds)", msg);
			return;
		}
	}
	/* Negative times count back from now. */
	if (from <= 0)
		from += now;
	if (to <= 0)
		to += now;
	if (!(to > from) || step < 0 || step > 86400) {
		http_error(req, HTTP_BADREQUEST, "bad_request", "need from < to "
		    "and a step from 0 to 86400 s");
		return;
	}
	if (h == NULL || (first = history_first(h)) == NULL ||
	    to < first->t) {
		http_error(req, 410, "window_not_covered", "the history no "
		    "longer covers this window (it starts at %.3f)",
		    h != NULL && history_first(h) != NULL ?
		    history_first(h)->t : now);
		return;
	}
	if (history_window(h, from, to, step, &w) == -1) {
		http_error(req, HTTP_INTERNAL, "internal", "out of memory");
		return;
	}
	if (w.n > API_MAX_SAMPLES) {
		http_error(req, HTTP_BADREQUEST, "too_many_samples", "%zu "
		    "samples: ask for at most %d with a larger step", w.n,
		    API_MAX_SAMPLES);
		history_window_clear(&w);
		return;
	}
	doc = history_to_json(h, &w);
	history_window_clear(&w);
	if (doc != NULL) {
		json_object_set_new(doc, "from", json_real(from));
		json_object_set_new(doc, "to", json_real(to));
		json_object_set_new(doc, "covered_from", json_real(first->t));
	}
	http_reply(req, HTTP_OK, doc);
}

/*
 * GET /v1/time: the server's clock when the request arrived and when the
 * answer left, for an NTP-style offset estimate on the client.
 */
void
api_time(NP_UNUSED struct daemon *d, struct evhttp_request *req)
{
	double	rx = nptime_real();

	http_reply(req, HTTP_OK, json_pack("{s:f,s:f,s:f}", "receive", rx,
	    "transmit", nptime_real(), "server_time", rx));
}

void
api_box_shutdown(struct daemon *d)
{
	while (d->waits != NULL) {
		http_error(d->waits->req, HTTP_SERVUNAVAIL, "shutting_down",
		    "nasperfd is stopping");
		api_wait_free(d->waits);
	}
}
