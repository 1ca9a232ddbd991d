/*
 * runs.c: client runs, their saved files and their reports (the routes
 * are in api_runs.c).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include <event2/event.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "disktest.h"
#include "encode.h"
#include "history.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "pathcap.h"
#include "run.h"
#include "runpath.h"
#include "runs.h"
#include "crypto.h"
#include "sampler.h"
#include "smbsess.h"
#include "smbstatus.h"
#include "state.h"
#include "topology.h"
#include "verdict.h"
#include "zpool.h"

#define RUNS_DIR		"runs"
#define RUNS_MAX_OPEN		64	/* live runs not yet ended */
#define RUNS_READING_AGE	1.0	/* the transfers watch's, at most */
#define RUNS_PATH_MS		500	/* an open run's path is read this often */

/*
 * One run as kept in memory.  Its file, STATE_DIR/runs/ID.json, is
 * {"run": run_json(rec), "report": report, "path_start", "path_seen"}.
 */
struct run {
	struct run_rec	 rec;
	json_t		*report;	/* as saved and sent; NULL while open */
	struct run_judged j;		/* what the report decided */
	json_t		*path_start;	/* a live run's first path snapshot */
	json_t		*path_seen;	/* and what it has seen since */
	size_t		 bytes;		/* of its file */
	int		 smb_polled;	/* smbstatus asked since smbd served it */
};

struct runs {
	struct daemon	*d;
	struct event	*ev_path;	/* follows the open runs' paths */
	char		 dir[4200];
	struct run	*v;
	size_t		 n, cap;
	unsigned long	 next_id;
	struct runs_tally tally[RUNS_TALLY_MAX];	/* verdicts given */
	size_t		 ntally;
	unsigned	 path_ticks;	/* runs_path_cb calls */
};

static size_t	runs_open(const struct runs *);
static size_t	runs_open_clients(const struct runs *);
static void	runs_prune(struct runs *);
static void	runs_join_recorded(struct daemon *, unsigned long);

/* Count one under origin, class and hint (a full table drops the new). */
static void
runs_tally_one(struct runs *rs, const char *origin, const char *cls,
    const char *hint)
{
	struct runs_tally	*t;
	size_t			 i;

	for (i = 0; i < rs->ntally; i++) {
		t = &rs->tally[i];
		if (strcmp(t->origin, origin) == 0 && strcmp(t->cls, cls) ==
		    0 && strcmp(t->hint, hint) == 0) {
			t->n++;
			return;
		}
	}
	if (rs->ntally == RUNS_TALLY_MAX)
		return;
	t = &rs->tally[rs->ntally++];
	snprintf(t->origin, sizeof t->origin, "%s", origin);
	snprintf(t->cls, sizeof t->cls, "%s", cls);
	snprintf(t->hint, sizeof t->hint, "%s", hint);
	t->n = 1;
}

/* Count the verdict of a run and each of its hints. */
static void
runs_tally_report(struct runs *rs, const struct run *r)
{
	const char	*origin = r->rec.noticed ? "auto" : "run";
	const char	*cls = verdict_class_name(r->j.o.cls);
	size_t		 i;

	if (!r->j.judged)
		return;
	runs_tally_one(rs, origin, cls, "");
	for (i = 0; i < r->j.o.nhint; i++)
		runs_tally_one(rs, origin, cls, r->j.o.hint[i]);
}

size_t
runs_tallies(const struct daemon *d, struct runs_tally *out)
{
	if (d->runs == NULL)
		return (0);
	memcpy(out, d->runs->tally, d->runs->ntally * sizeof *out);
	return (d->runs->ntally);
}

/*
 * Take a sample now and return its time, so that a live run's window ends
 * on a sample of its own; now itself when no sample could be taken.
 */
static double
runs_sample(struct daemon *d, double now)
{
	const struct hist_sample	*s;

	if (sampler_now(d) == -1 ||
	    (s = history_last(sampler_history(d))) == NULL || s->t < now)
		return (now);
	return (s->t);
}

/* The run with this id, or NULL. */
static struct run *
runs_find(struct runs *rs, unsigned long id)
{
	size_t	i;

	for (i = 0; i < rs->n; i++)
		if (rs->v[i].rec.id == id)
			return (&rs->v[i]);
	return (NULL);
}

/* A run's document, as its file holds it; NULL on ENOMEM. */
static json_t *
runs_doc(const struct run *r)
{
	return (json_pack("{s:o,s:O?,s:O?,s:O*}", "run", run_json(&r->rec),
	    "report", r->report, "path_start", r->path_start, "path_seen",
	    r->path_seen));
}

/* Free what a run holds. */
static void
runs_clear(struct run *r)
{
	json_decref(r->report);
	json_decref(r->path_start);
	json_decref(r->path_seen);
}

/* Write a run's file atomically. */
static int
runs_save(struct runs *rs, struct run *r)
{
	json_t	*doc;
	char	name[64], *s;
	int	rc;

	snprintf(name, sizeof name, "%lu.json", r->rec.id);
	doc = runs_doc(r);
	s = doc != NULL ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	if (s == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	if ((rc = state_write(rs->dir, name, s, strlen(s), 0600)) == 0)
		r->bytes = strlen(s);
	free(s);
	return (rc);
}

/*
 * Remove the oldest ended runs, files and all, while more than
 * runs.max_count are kept or their files hold more than runs.max_bytes.
 * An open run is never removed.  Pointers into the list do not survive it.
 */
static void
runs_prune(struct runs *rs)
{
	const struct cfg	*cfg = rs->d->cfg;
	char			 path[4300];
	size_t			 i, total = 0, n0 = rs->n;
	unsigned long		 first = 0, last = 0;

	for (i = 0; i < rs->n; i++)
		total += rs->v[i].bytes;
	i = 0;
	while (i < rs->n && (rs->n > cfg->runs_max_count ||
	    total > cfg->runs_max_bytes)) {
		if (!rs->v[i].rec.ended) {
			i++;
			continue;
		}
		snprintf(path, sizeof path, "%s/%lu.json", rs->dir,
		    rs->v[i].rec.id);
		if (unlink(path) == -1 && errno != ENOENT) {
			log_warn("runs: %s", path);
			break;
		}
		if (first == 0)
			first = rs->v[i].rec.id;
		last = rs->v[i].rec.id;
		total -= rs->v[i].bytes;
		runs_clear(&rs->v[i]);
		memmove(&rs->v[i], &rs->v[i + 1], (rs->n - i - 1) *
		    sizeof *rs->v);
		rs->n--;
	}
	if (rs->n < n0)
		log_info("runs: removed %zu of the oldest (runs %lu to %lu): "
		    "%zu runs kept in %zu bytes (runs.max_count %u, "
		    "runs.max_bytes %ju)", n0 - rs->n, first, last, rs->n,
		    total, cfg->runs_max_count, (uintmax_t)cfg->runs_max_bytes);
}

/*
 * Add a copy of run r to the list, which takes its JSON members (r's are
 * to be forgotten); NULL on ENOMEM, r's left to its caller.
 */
static struct run *
runs_add(struct runs *rs, const struct run *r)
{
	struct run	*v;
	size_t		 ncap;

	if (rs->n == rs->cap) {
		ncap = rs->cap == 0 ? 16 : rs->cap * 2;
		if ((v = reallocarray(rs->v, ncap, sizeof *v)) == NULL)
			return (NULL);
		rs->v = v;
		rs->cap = ncap;
	}
	rs->v[rs->n] = *r;
	if (r->rec.id >= rs->next_id)
		rs->next_id = r->rec.id + 1;
	return (&rs->v[rs->n++]);
}

/* Whether name is all digits followed by ".json": a run's file. */
static int
runs_is_file(const char *name, unsigned long *id)
{
	char	*end;

	if (*name < '0' || *name > '9')
		return (0);
	errno = 0;
	*id = strtoul(name, &end, 10);
	return (errno == 0 && strcmp(end, ".json") == 0);
}

/* Sort by id. */
static int
runs_cmp(const void *a, const void *b)
{
	const struct run	*x = a, *y = b;

	return (x->rec.id < y->rec.id ? -1 : x->rec.id > y->rec.id);
}

/* Whether a path snapshot has an SMB connection held by a process. */
static int
runs_smbd_serves(const json_t *snap)
{
	const json_t	*c;
	size_t		 i;

	json_array_foreach(json_object_get(snap, "connections"), i, c)
		if (json_is_integer(json_object_get(c, "pid")) &&
		    json_is_string(json_object_get(c, "service")) &&
		    strcmp(json_string_value(json_object_get(c, "service")),
		    "smb") == 0)
			return (1);
	return (0);
}

/*
 * Every RUNS_PATH_MS: the sampler's pace set by whether a run is open,
 * and the paths of the runs still open merged into what each has seen,
 * so that a connection opened and closed within a run counts when it
 * lived that long.
 * In memory only: after a restart a run's path starts again from its
 * first snapshot, which its file keeps.
 */
static void
runs_path_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct runs	*rs = arg;
	struct run	*r;
	json_t		*snap, *snaps[RUNS_MAX_OPEN];
	const char	*addrs[RUNS_MAX_OPEN];
	const struct inetdiag *reading;
	size_t		 i, k, n = 0, which[RUNS_MAX_OPEN], clients;
	int		 pids[RUNS_MAX_OPEN], synth = 0;
	double		 age;

	/*
	 * A client's run may last a second: the sampler samples faster
	 * while one is open.  A transfer lasts two seconds at least and
	 * ten may go on at once: the usual pace serves them, and their
	 * paths are read every second rather than every half.
	 */
	clients = runs_open_clients(rs);
	sampler_pace(rs->d, clients > 0);
	/* Transfers alone: their paths are read every other tick. */
	if (clients == 0 && rs->path_ticks++ % 2 == 1)
		return;
	/* Every open run's path from one reading of the connections. */
	for (i = 0; i < rs->n && n < RUNS_MAX_OPEN; i++) {
		r = &rs->v[i];
		if (r->rec.ended || r->path_start == NULL)
			continue;
		addrs[n] = r->rec.client_addr[0] != '\0' ?
		    r->rec.client_addr : NULL;
		synth |= strcmp(r->rec.f.protocol, "http") == 0;
		pids[n] = r->rec.f.pid;
		which[n++] = i;
	}
	/*
	 * The transfers watch's reading of the file services' connections
	 * when it is recent and no run is to the data port.
	 */
	reading = rs->d->file_conns;
	age = reading != NULL ? nptime_mono() - rs->d->file_conns_at : 0;
	if (synth || reading == NULL || age >= RUNS_READING_AGE)
		reading = NULL;
	runpath_snaps(rs->d, addrs, pids, n, reading, snaps);
	for (k = 0; k < n; k++) {
		r = &rs->v[which[k]];
		snap = snaps[k];
		if (r->path_seen == NULL &&
		    (r->path_seen = json_deep_copy(r->path_start)) == NULL) {
			json_decref(snap);
			continue;
		}
		if (snap != NULL)
			runpath_merge(r->path_seen, snap);
		/*
		 * smbd serves it now: ask smbstatus at once for its session
		 * (signing, encryption, dialect), so that a run of a second
		 * or two is not left with none.
		 */
		if (!r->smb_polled && runs_smbd_serves(snap)) {
			log_debug("run %lu: smbd serves it: asking smbstatus "
			    "for its session", r->rec.id);
			smbsess_poll_now(rs->d);
			r->smb_polled = 1;
		}
		json_decref(snap);
	}
}

/* A run's saved document read back (the file's name has its id): 0 or -1. */
static int
runs_read(const json_t *doc, unsigned long id, struct run *r)
{
	json_t	*v;

	memset(r, 0, sizeof *r);
	if (run_load(json_object_get(doc, "run"), &r->rec) == -1)
		return (-1);
	r->rec.id = id;
	if (json_is_object(v = json_object_get(doc, "report"))) {
		r->report = json_incref(v);
		run_judged_load(v, &r->j);
	}
	if (json_is_object(v = json_object_get(doc, "path_start")))
		r->path_start = json_incref(v);
	if (json_is_object(v = json_object_get(doc, "path_seen")))
		r->path_seen = json_incref(v);
	return (0);
}

/* Read the saved runs. */
int
runs_init(struct daemon *d, char **cause)
{
	struct runs	*rs;
	struct run	 run, *r;
	struct dirent	*de;
	struct stat	 st;
	DIR		*dir;
	json_t		*doc;
	json_error_t	 jerr;
	char		 path[4500];
	unsigned long	 id;
	struct timeval	 tv = { 0, RUNS_PATH_MS * 1000 };

	*cause = NULL;
	if ((rs = calloc(1, sizeof *rs)) == NULL)
		goto nomem;
	d->runs = rs;
	rs->d = d;
	rs->next_id = 1;
	if ((rs->ev_path = event_new(d->base, -1, EV_PERSIST, runs_path_cb,
	    rs)) == NULL || event_add(rs->ev_path, &tv) == -1)
		goto nomem;
	snprintf(rs->dir, sizeof rs->dir, "%s/%s", d->state_dir, RUNS_DIR);
	if (mkdir(rs->dir, 0700) == -1 && errno != EEXIST) {
		if (asprintf(cause, "%s: %s", rs->dir, strerror(errno)) == -1)
			*cause = NULL;
		return (-1);
	}
	if ((dir = opendir(rs->dir)) == NULL) {
		if (asprintf(cause, "%s: %s", rs->dir, strerror(errno)) == -1)
			*cause = NULL;
		return (-1);
	}
	while ((de = readdir(dir)) != NULL) {
		snprintf(path, sizeof path, "%s/%s", rs->dir, de->d_name);
		/* A crash between write and rename leaves ".ID.json.XXXXXX". */
		if (de->d_name[0] == '.' && strstr(de->d_name, ".json.") !=
		    NULL) {
			if (unlink(path) == 0)
				log_info("runs: removed %s, left by a crash",
				    path);
			continue;
		}
		if (!runs_is_file(de->d_name, &id))
			continue;
		if ((doc = json_load_file(path, 0, &jerr)) == NULL ||
		    runs_read(doc, id, &run) == -1) {
			log_warnx("runs: %s: %s; skipped", path, doc == NULL ?
			    jerr.text : "not a run");
			json_decref(doc);
			continue;
		}
		json_decref(doc);
		if ((r = runs_add(rs, &run)) == NULL) {
			runs_clear(&run);
			closedir(dir);
			goto nomem;
		}
		if (stat(path, &st) == 0)
			r->bytes = (size_t)st.st_size;
	}
	closedir(dir);
	if (rs->n > 0) {
		qsort(rs->v, rs->n, sizeof *rs->v, runs_cmp);
		log_info("runs: %zu saved runs read back", rs->n);
		runs_prune(rs);
	}
	return (0);
nomem:
	if (asprintf(cause, "runs: out of memory") == -1)
		*cause = NULL;
	return (-1);
}

/* Free the list. */
void
runs_shutdown(struct daemon *d)
{
	struct runs	*rs = d->runs;
	size_t		 i;

	if (rs == NULL)
		return;
	if (rs->ev_path != NULL)
		event_free(rs->ev_path);
	for (i = 0; i < rs->n; i++)
		runs_clear(&rs->v[i]);
	free(rs->v);
	free(rs);
	d->runs = NULL;
}

/*
 * Put the wrapped command's own counts (nasperf run's, to its last byte)
 * in a path report and its sentence.
 */
static void
runs_path_command(json_t *path, const struct run_figures *f)
{
	const char	*sum = json_string_value(json_object_get(path,
			    "summary"));
	char		 s[640];

	json_object_set_new(path, "command", run_command_json(f));
	if (sum == NULL)
		return;
	snprintf(s, sizeof s, "%s; the command made the storage read %.1f MB "
	    "and write %.1f MB, by its own count as it ended", sum,
	    (double)f->cmd_read / 1e6, (double)f->cmd_write / 1e6);
	json_object_set_new(path, "summary", json_string(s));
}

/* Who the server is, for the report's header. */
static json_t *
runs_server(void)
{
	char	host[256];

	if (gethostname(host, sizeof host) == -1)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	return (json_pack("{s:o}", "hostname", enc_text_or_null(host)));
}

/* The disk analyzer's baseline of a disk, for the verdict engine. */
static int
runs_baseline(void *arg, const char *disk, double *read_bps, double *write_bps,
    double *when)
{
	double	iops;

	return (disktest_baseline(arg, disk, read_bps, write_bps, &iops,
	    when));
}

/*
 * The fastest ended run from vr's client, protocol and operation, of its
 * size class, whose SMB session had neither signing nor encryption on
 * every packet: what the same transfer does here without them.
 */
static void
runs_plain(const struct runs *rs, struct verdict_run *vr, char *idbuf,
    size_t idsz)
{
	const struct run	*r;
	size_t			 i;

	for (i = 0; i < rs->n; i++) {
		r = &rs->v[i];
		if (!r->j.session || r->j.crypted ||
		    strcmp(r->rec.client_addr, vr->client_addr) != 0 ||
		    strcmp(r->rec.f.protocol, vr->protocol) != 0 ||
		    strcmp(r->rec.f.op, vr->op) != 0 ||
		    !run_same_size(&r->rec, vr))
			continue;
		if (r->j.o.client_rate > vr->plain_rate) {
			vr->plain_rate = r->j.o.client_rate;
			snprintf(idbuf, idsz, "%lu", r->rec.id);
			vr->plain_id = idbuf;
		}
	}
}

/*
 * The path report of a live run (live: the run as kept, with its path's
 * first snapshot and what it has seen since), to now; NULL when none was
 * followed.
 */
static json_t *
runs_make_path(struct daemon *d, const struct run_rec *rec,
    const struct run *live, const struct topology *topo)
{
	json_t	*snap, *seen, *path;

	if (live == NULL || live->path_start == NULL)
		return (rec->retroactive ? runpath_report(NULL, NULL, 0,
		    NULL) : NULL);
	seen = json_deep_copy(live->path_seen != NULL ? live->path_seen :
	    live->path_start);
	snap = runpath_snap(d, rec->client_addr[0] != '\0' ?
	    rec->client_addr : NULL, 1, rec->f.pid);
	if (snap != NULL && seen != NULL)
		runpath_merge(seen, snap);
	runpath_closed_apply(d, seen);
	path = runpath_report(live->path_start, seen, rec->end - rec->start,
	    (rec->f.given & RUN_PROTOCOL) ? rec->f.protocol : NULL);
	runpath_volumes(path, topo, (rec->f.given & RUN_PROTOCOL) ?
	    rec->f.protocol : NULL);
	if (path != NULL && (rec->f.given & RUN_COMMAND))
		runs_path_command(path, &rec->f);
	json_decref(snap);
	json_decref(seen);
	return (path);
}

/*
 * Make the report of run rec, and j what it decided; for a live run (live
 * as kept, its path followed) its path too, to now.  NULL with e filled
 * when the history cannot give one.
 */
static json_t *
runs_make(struct daemon *d, const struct run_rec *rec, const struct run *live,
    struct run_judged *j, struct http_err *e)
{
	struct verdict_run	 vr;
	struct verdict_path	 vp;
	struct smbstatus_session sess;
	struct topology		*topo;
	struct crypto		 cr;
	struct probe_buf	 buf;
	json_t			*rep, *server, *path;
	const struct hist_sample *first;
	const char		*errstr;
	char			*cause = NULL, id[32], plain[32];
	double			 cap, capwhen, clamped;
	int			 pids[VERDICT_PATH_PROCS];
	size_t			 i;

	memset(j, 0, sizeof *j);
	run_view(rec, &vr, id, sizeof id);
	/*
	 * A live run (a long copy) that outlived the history is judged over
	 * what the history still holds, and says so, rather than never
	 * ending.
	 */
	clamped = 0;
	first = history_first(sampler_history(d));
	if (live != NULL && vr.retroactive == 0 && first != NULL &&
	    vr.start < first->t && vr.end > first->t + 1.0) {
		clamped = vr.start;
		vr.start = first->t;
	}
	vr.topo = topo = daemon_topology(d);
	crypto_init(&cr);
	probe_buf_init(&buf);
	if (crypto_read(&d->root, &buf, &cr, &errstr) == 0)
		vr.crypto = &cr;
	probe_buf_free(&buf);
	if (vr.client_addr != NULL && pathcap_get(d, vr.client_addr,
	    vr.op != NULL && strcmp(vr.op, "write") == 0, &cap, &capwhen) == 0) {
		vr.path_capacity = cap;
		vr.path_capacity_time = capwhen;
	}
	vr.baseline = runs_baseline;
	vr.baseline_arg = d;
	/* The path first: the verdict judges what the transfer used. */
	path = runs_make_path(d, rec, live, topo);
	runpath_view(path, &vp);
	vr.path = &vp;
	/*
	 * What the hints need: the session of the smbd that served the run
	 * (by the path's pids, else by the client's address), an earlier
	 * run without signing.
	 */
	for (i = 0; i < vp.nproc; i++)
		pids[i] = vp.proc[i].pid;
	if (vr.client_addr != NULL && (vr.protocol == NULL ||
	    strncmp(vr.protocol, "smb", 3) == 0) && smbsess_find(d,
	    vr.client_addr, pids, vp.nproc, vr.start, vr.end, &sess) == 0)
		vr.session = &sess;
	if (vr.session != NULL) {
		j->session = 1;
		j->crypted = sess.signing.degree == SMBSTATUS_FULL ||
		    sess.encryption.degree == SMBSTATUS_FULL;
		snprintf(j->dialect, sizeof j->dialect, "%s", sess.dialect);
	}
	if (j->crypted && vr.protocol != NULL && vr.op != NULL)
		runs_plain(d->runs, &vr, plain, sizeof plain);
	/* A synth run measures the path's capacity: it is not its own yardstick. */
	if (vp.synth)
		vr.path_capacity = 0;
	server = runs_server();
	rep = verdict_report(sampler_history(d), &vr, d->cfg, server, &j->o,
	    &cause);
	json_decref(server);
	topology_free(topo);
	crypto_clear(&cr);
	if (rep == NULL) {
		if (errno == ERANGE)
			http_fail(e, 410, "window_not_covered", "%s",
			    cause != NULL ? cause : "the history does not "
			    "cover this window");
		else
			http_fail(e, 500, "internal", "report: %s",
			    cause != NULL ? cause : strerror(errno));
		free(cause);
		json_decref(path);
		return (NULL);
	}
	j->judged = 1;
	if (path != NULL)
		json_object_set_new(rep, "path", path);
	if (clamped > 0)
		json_object_set_new(rep, "history_note", json_sprintf("the "
		    "history held only the last %.0f s of this run's %.0f s: "
		    "it is judged over those (sampler.coarse_seconds keeps "
		    "more)", vr.end - vr.start, vr.end - clamped));
	return (rep);
}

/* Count the runs still open. */
static size_t
runs_open(const struct runs *rs)
{
	size_t	i, n = 0;

	for (i = 0; i < rs->n; i++)
		if (!rs->v[i].rec.ended)
			n++;
	return (n);
}

/* Count the runs opened by clients (not transfers) still open. */
static size_t
runs_open_clients(const struct runs *rs)
{
	size_t	i, n = 0;

	for (i = 0; i < rs->n; i++)
		if (!rs->v[i].rec.ended && !rs->v[i].rec.noticed)
			n++;
	return (n);
}

/* {"id", "run", "report"}, what creating a run answers; NULL on ENOMEM. */
static json_t *
runs_created(const struct run *r)
{
	return (json_pack("{s:I,s:o,s:O?}", "id", (json_int_t)r->rec.id,
	    "run", run_json(&r->rec), "report", r->report));
}

/*
 * Open or record a run (runs_create), noticed (a transfer) or not: the
 * run, which the list keeps until runs_prune, or NULL with e.
 */
static struct run *
runs_new(struct daemon *d, const struct run_figures *f, const char *peer,
    int noticed, int *opened, struct http_err *e)
{
	struct runs	*rs = d->runs;
	struct run	 run, *r;
	char		 msg[256];
	double		 now = nptime_real();
	int		 recorded;

	recorded = (f->given & (RUN_START | RUN_END)) != 0;
	*opened = !recorded;
	memset(&run, 0, sizeof run);
	run.rec.id = rs->next_id;
	run.rec.noticed = noticed;
	if (peer != NULL)
		snprintf(run.rec.client_addr, sizeof run.rec.client_addr, "%s",
		    peer);
	if (run_admit(&run.rec, f, 1, peer, msg, sizeof msg) == -1) {
		http_fail(e, 400, "bad_request", "%s", msg);
		return (NULL);
	}
	run_apply(&run.rec, f);
	if (recorded && run_place(&run.rec, f, now, msg, sizeof msg) == -1) {
		http_fail(e, 400, "bad_request", "%s", msg);
		return (NULL);
	}
	if (!recorded) {
		if (runs_open(rs) >= RUNS_MAX_OPEN) {
			http_fail(e, 409, "too_many_open", "%d runs are open; "
			    "end some first", RUNS_MAX_OPEN);
			return (NULL);
		}
		/* The client's SMB session, to tie the run to its smbd. */
		smbsess_poll_now(d);
		/* ZFS's vdevs over a second of it. */
		zpool_poll_soon(d);
		/* A sample now: the window starts exactly there. */
		run.rec.start = runs_sample(d, now);
		/* Its connections and processes now, to compare at the end. */
		runpath_refresh(d);
		run.path_start = runpath_snap(d, peer, 1, run.rec.f.pid);
	} else if ((run.report = runs_make(d, &run.rec, NULL, &run.j, e)) ==
	    NULL)
		return (NULL);		/* nothing saved */
	if ((r = runs_add(rs, &run)) == NULL) {
		runs_clear(&run);
		http_fail(e, 500, "internal", "out of memory");
		return (NULL);
	}
	if (runs_save(rs, r) == -1) {
		http_fail(e, 500, "not_saved", "%s/%lu.json: %s",
		    rs->dir, r->rec.id, strerror(errno));
		runs_clear(r);
		rs->n--;
		return (NULL);
	}
	log_info("run %lu %s from %s", r->rec.id, recorded ? "recorded" :
	    "opened", peer != NULL ? peer : "");
	runs_tally_report(rs, r);
	if (recorded)
		runs_join_recorded(d, r->rec.id);
	return (r);
}

json_t *
runs_create(struct daemon *d, const struct run_figures *f, const char *peer,
    int *opened, struct http_err *e)
{
	struct run	*r;
	json_t		*out;

	if ((r = runs_new(d, f, peer, 0, opened, e)) == NULL)
		return (NULL);
	if ((out = runs_created(r)) == NULL)
		http_fail(e, 500, "internal", "out of memory");
	runs_prune(d->runs);
	return (out);
}

/* A one-line summary of a run for the list. */
static json_t *
runs_summary(const struct run *r)
{
	const json_t	*rep = r->report, *sess;
	json_t		*o;

	if ((o = run_json(&r->rec)) == NULL)
		return (NULL);
	json_object_set(o, "verdict", rep != NULL ?
	    json_object_get(rep, "verdict") : json_null());
	json_object_set(o, "client_rate", rep != NULL ?
	    json_object_get(rep, "client_rate") : json_null());
	/* Who copied, as smbd knows them: the session's user and machine. */
	if (json_is_object(sess = json_object_get(rep, "session"))) {
		json_object_set(o, "user", json_object_get(sess, "user"));
		json_object_set(o, "machine", json_object_get(sess, "machine"));
	}
	return (o);
}

json_t *
runs_list(struct daemon *d, const char *origin, int open_only)
{
	struct runs		*rs = d->runs;
	const struct run_rec	*rec;
	json_t			*a;
	size_t			 i;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < rs->n; i++) {
		rec = &rs->v[i].rec;
		if (open_only && rec->ended)
			continue;
		if (origin == NULL || (strcmp(origin, "auto") == 0 &&
		    rec->noticed))
			json_array_append_new(a, runs_summary(&rs->v[i]));
	}
	return (json_pack("{s:o}", "runs", a));
}

unsigned long
runs_client_open(struct daemon *d, const char *addr)
{
	struct runs		*rs = d->runs;
	const struct run_rec	*rec;
	size_t			 i;

	for (i = 0; i < rs->n; i++) {
		rec = &rs->v[i].rec;
		if (!rec->ended && !rec->noticed &&
		    strcmp(rec->client_addr, addr) == 0)
			return (rec->id);
	}
	return (0);
}

void
runs_join(struct daemon *d, unsigned long xfer, unsigned long id)
{
	struct run	*t = runs_find(d->runs, xfer), *r = runs_find(d->runs,
			    id);
	size_t		 i;

	if (t == NULL || r == NULL || xfer == id)
		return;
	t->rec.joined = id;
	for (i = 0; i < r->rec.ntransfers; i++)
		if (r->rec.transfers[i] == xfer)
			break;
	if (i == r->rec.ntransfers) {
		if (i == RUN_TRANSFERS_MAX)
			log_warnx("run %lu: %d transfers joined already: "
			    "transfer %lu is not listed", id,
			    RUN_TRANSFERS_MAX, xfer);
		else
			r->rec.transfers[r->rec.ntransfers++] = xfer;
	}
	if (runs_save(d->runs, t) == -1 || runs_save(d->runs, r) == -1)
		log_warn("run %lu joined to %lu: not saved: %s", xfer, id,
		    strerror(errno));
	else
		log_info("transfer %lu is run %lu's copy: joined", xfer, id);
}

/*
 * A run recorded after the fact joins the transfers of its client that
 * its window overlaps: the same copy, noticed on its own.
 */
static void
runs_join_recorded(struct daemon *d, unsigned long id)
{
	struct runs		*rs = d->runs;
	const struct run_rec	*me, *rec;
	const struct run	*r;
	unsigned long		 xs[16];
	size_t			 i, n = 0;

	if ((r = runs_find(rs, id)) == NULL)
		return;
	me = &r->rec;
	if (me->client_addr[0] == '\0')
		return;
	for (i = 0; i < rs->n && n < NP_NITEMS(xs); i++) {
		rec = &rs->v[i].rec;
		if (!rec->noticed || !rec->ended || strcmp(rec->client_addr,
		    me->client_addr) != 0 || rec->start >= me->end ||
		    rec->end <= me->start)
			continue;
		xs[n++] = rec->id;
	}
	for (i = 0; i < n; i++)
		runs_join(d, xs[i], id);
}

long
runs_open_auto(struct daemon *d, const struct run_figures *f,
    const char *peer, double start)
{
	struct http_err	 e;
	struct run	*r;
	long		 id;
	int		 opened;

	if ((r = runs_new(d, f, peer, 1, &opened, &e)) == NULL) {
		log_warn("transfer from %s: no run: %s", peer, e.msg);
		return (-1);
	}
	id = (long)r->rec.id;
	/* It began before it was noticed. */
	if (start > 0 && start < r->rec.start) {
		r->rec.start = start;
		if (runs_save(d->runs, r) == -1)
			log_warn("run %ld: %s/%ld.json: %s", id, d->runs->dir,
			    id, strerror(errno));
	}
	runs_prune(d->runs);
	return (id);
}

json_t *
runs_get(struct daemon *d, unsigned long id, int noticed)
{
	const struct run	*r = runs_find(d->runs, id);

	if (r == NULL || (noticed && !r->rec.noticed))
		return (NULL);
	return (runs_doc(r));
}

int
runs_check_open(struct daemon *d, unsigned long id, struct http_err *e)
{
	const struct run	*r = runs_find(d->runs, id);

	if (r == NULL)
		return (http_fail(e, 404, "no_such_run", "no run %lu",
		    id));
	if (r->rec.ended)
		return (http_fail(e, 409, "already_ended", "run %lu has "
		    "already ended", r->rec.id));
	return (0);
}

json_t *
runs_end(struct daemon *d, unsigned long id, const struct run_figures *f,
    struct http_err *e)
{
	return (runs_end_at(d, id, f, 0, e));
}

json_t *
runs_end_at(struct daemon *d, unsigned long id, const struct run_figures *f,
    double at, struct http_err *e)
{
	struct run		*r, old;
	struct run_rec		 rec;
	struct run_judged	 j;
	json_t			*rep;
	char			 msg[256];
	double			 now = nptime_real();

	if (runs_check_open(d, id, e) == -1)
		return (NULL);
	r = runs_find(d->runs, id);
	rec = r->rec;
	if (run_admit(&rec, f, 0, NULL, msg, sizeof msg) == -1) {
		http_fail(e, 400, "bad_request", "%s", msg);
		return (NULL);
	}
	run_apply(&rec, f);
	/* Now, or where the caller says the transfer stopped. */
	rec.end = at > rec.start && at < now ? at : runs_sample(d, now);
	rec.ended = 1;
	if ((rep = runs_make(d, &rec, r, &j, e)) == NULL)
		return (NULL);	/* the run stays open and unchanged */
	run_set_dialect(&rec, j.dialect[0] != '\0' ? j.dialect : NULL);
	/* Saved as ended, or left open as it was. */
	old = *r;
	r->rec = rec;
	r->report = json_incref(rep);
	r->j = j;
	r->path_seen = NULL;
	if (runs_save(d->runs, r) == -1) {
		json_decref(r->report);
		*r = old;
		http_fail(e, 500, "not_saved", "run %lu: %s", id,
		    strerror(errno));
		json_decref(rep);
		return (NULL);
	}
	json_decref(old.path_seen);
	log_info("run %lu ended: %s", id, j.o.summary);
	runs_tally_report(d->runs, r);
	runs_prune(d->runs);
	return (rep);
}

json_t *
runs_report(struct daemon *d, unsigned long id, struct http_err *e)
{
	const struct run	*r = runs_find(d->runs, id);
	struct run_rec		 rec;
	struct run_judged	 j;

	if (r == NULL) {
		http_fail(e, 404, "no_such_run", "no run %lu", id);
		return (NULL);
	}
	if (r->report != NULL)
		return (json_incref(r->report));
	/* An open run: the report so far, not saved. */
	rec = r->rec;
	rec.end = runs_sample(d, nptime_real());
	return (runs_make(d, &rec, r, &j, e));
}

json_t *
runs_verdict(struct daemon *d, double secs, struct http_err *e)
{
	struct run_rec		 rec;
	struct run_judged	 j;
	double			 now = nptime_real();

	(void)sampler_now(d);
	memset(&rec, 0, sizeof rec);
	snprintf(rec.f.protocol, sizeof rec.f.protocol, "other");
	rec.f.given = RUN_PROTOCOL;
	rec.start = now - secs;
	rec.end = now;
	rec.ended = 1;
	return (runs_make(d, &rec, NULL, &j, e));
}
