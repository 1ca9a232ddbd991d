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
#include "jsonget.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "pathcap.h"
#include "runpath.h"
#include "runs.h"
#include "crypto.h"
#include "sampler.h"
#include "smbsess.h"
#include "smbstatus.h"
#include "state.h"
#include "topology.h"
#include "verdict.h"

#define RUNS_DIR		"runs"
#define RUNS_MAX_OPEN		64	/* live runs not yet ended */
#define RUNS_READING_AGE	1.0	/* the transfers watch's, at most */
#define RUNS_MAX_BYTES		1e15	/* 1 PB: no benchmark moves more */
#define RUNS_MAX_OPS		1e13
#define RUNS_MAX_FILES		1e10
#define RUNS_MAX_BLOCK		(1024.0 * 1024 * 1024)
#define RUNS_MAX_SECONDS	(7 * 86400.0)
#define RUNS_MAX_PID		4194304	/* the kernel's pid_max limit */
#define RUNS_PATH_MS		500	/* an open run's path is read this often */
#define RUNS_MAX_OFFSET		(7 * 86400.0)	/* client clock error */
#define RUNS_TEXT_MAX		200

static const char *const runs_protocols[] = {
	"smb1", "smb2", "smb3", "nfs3", "nfs4", "afp", "iscsi", "http",
	"local", "other"
};
static const char *const runs_ops[] = { "read", "write", "mixed", "list" };

/* One run, as kept in memory: its file holds everything else. */
struct run {
	unsigned long	 id;
	json_t		*doc;		/* {"run": {...}, "report": ...} */
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

/* Count the verdict of a run's report and each of its hints. */
static void
runs_tally_report(struct runs *rs, const json_t *run, const json_t *rep)
{
	const json_t	*h;
	const char	*origin, *cls, *kind;
	size_t		 i;

	cls = json_string_value(json_object_get(json_object_get(rep,
	    "verdict"), "class"));
	if (cls == NULL)
		return;
	origin = json_string_value(json_object_get(run, "origin"));
	if (origin == NULL || strcmp(origin, "auto") != 0)
		origin = "run";
	runs_tally_one(rs, origin, cls, "");
	json_array_foreach(json_object_get(rep, "hints"), i, h)
		if ((kind = json_string_value(json_object_get(h, "kind"))) !=
		    NULL)
			runs_tally_one(rs, origin, cls, kind);
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
		if (rs->v[i].id == id)
			return (&rs->v[i]);
	return (NULL);
}

/* Write a run's file atomically. */
static int
runs_save(struct runs *rs, struct run *r)
{
	char	name[64], *s;
	int	rc;

	snprintf(name, sizeof name, "%lu.json", r->id);
	if ((s = json_dumps(r->doc, JSON_COMPACT)) == NULL) {
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
		if (!json_is_true(json_object_get(json_object_get(rs->v[i].doc,
		    "run"), "ended"))) {
			i++;
			continue;
		}
		snprintf(path, sizeof path, "%s/%lu.json", rs->dir,
		    rs->v[i].id);
		if (unlink(path) == -1 && errno != ENOENT) {
			log_warn("runs: %s", path);
			break;
		}
		if (first == 0)
			first = rs->v[i].id;
		last = rs->v[i].id;
		total -= rs->v[i].bytes;
		json_decref(rs->v[i].doc);
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

/* Add a run to the list; it takes doc. */
static struct run *
runs_add(struct runs *rs, unsigned long id, json_t *doc)
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
	memset(&rs->v[rs->n], 0, sizeof rs->v[rs->n]);
	rs->v[rs->n].id = id;
	rs->v[rs->n].doc = doc;
	if (id >= rs->next_id)
		rs->next_id = id + 1;
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

	return (x->id < y->id ? -1 : x->id > y->id);
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
	json_t		*doc, *snap, *seen, *snaps[RUNS_MAX_OPEN];
	const json_t	*run;
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
		doc = rs->v[i].doc;
		run = json_object_get(doc, "run");
		if (json_is_true(json_object_get(run, "ended")) ||
		    json_object_get(doc, "path_start") == NULL)
			continue;
		addrs[n] = json_string_value(json_object_get(run,
		    "client_addr"));
		synth |= jget_str(run, "protocol") != NULL &&
		    strcmp(jget_str(run, "protocol"), "http") == 0;
		pids[n] = (int)json_integer_value(json_object_get(run, "pid"));
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
		i = which[k];
		doc = rs->v[i].doc;
		snap = snaps[k];
		if ((seen = json_object_get(doc, "path_seen")) == NULL) {
			seen = json_deep_copy(json_object_get(doc,
			    "path_start"));
			if (seen == NULL || json_object_set_new(doc,
			    "path_seen", seen) == -1) {
				json_decref(snap);
				continue;
			}
		}
		if (snap != NULL)
			runpath_merge(seen, snap);
		/*
		 * smbd serves it now: ask smbstatus at once for its session
		 * (signing, encryption, dialect), so that a run of a second
		 * or two is not left with none.
		 */
		if (!rs->v[i].smb_polled && runs_smbd_serves(snap)) {
			log_debug("run %lu: smbd serves it: asking smbstatus "
			    "for its session", rs->v[i].id);
			smbsess_poll_now(rs->d);
			rs->v[i].smb_polled = 1;
		}
		json_decref(snap);
	}
}

/* Read the saved runs. */
int
runs_init(struct daemon *d, char **cause)
{
	struct runs	*rs;
	struct run	*r;
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
		    !json_is_object(json_object_get(doc, "run"))) {
			log_warnx("runs: %s: %s; skipped", path, doc == NULL ?
			    jerr.text : "not a run");
			json_decref(doc);
			continue;
		}
		if ((r = runs_add(rs, id, doc)) == NULL) {
			json_decref(doc);
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
		json_decref(rs->v[i].doc);
	free(rs->v);
	free(rs);
	d->runs = NULL;
}

/* Whether s is one of the n words. */
static int
runs_oneof(const char *s, const char *const *words, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(s, words[i]) == 0)
			return (1);
	return (0);
}

/* Put the wrapped command's counts in a path report and its sentence. */
static void
runs_path_command(json_t *path, json_t *cmd)
{
	const char	*sum = json_string_value(json_object_get(path,
			    "summary"));
	char		 s[640];

	json_object_set(path, "command", cmd);
	if (sum == NULL)
		return;
	snprintf(s, sizeof s, "%s; the command made the storage read %.1f MB "
	    "and write %.1f MB, by its own count as it ended", sum,
	    json_number_value(json_object_get(cmd, "storage_read_bytes")) /
	    1e6, json_number_value(json_object_get(cmd,
	    "storage_write_bytes")) / 1e6);
	json_object_set_new(path, "summary", json_string(s));
}

/*
 * The wrapped command's own counts as it ended ("command": what it and the
 * children it reaped made the storage read and write, and its CPU time,
 * from wait4), kept in the run: the daemon's readings of its process stop
 * up to half a second before it exits.  -1 with msg.
 */
static int
runs_command(const json_t *body, json_t *run, char *msg, size_t msgsz)
{
	static const char *const keys[] = { "storage_read_bytes",
	    "storage_write_bytes", "cpu_seconds" };
	const json_t	*c = json_object_get(body, "command"), *v;
	const char	*key;
	size_t		 i;

	if (c == NULL || json_is_null(c))
		return (0);
	if (!json_is_object(c))
		goto bad;
	json_object_foreach((json_t *)c, key, v)
		if (!runs_oneof(key, keys, NP_NITEMS(keys)))
			goto bad;
	for (i = 0; i < NP_NITEMS(keys); i++) {
		v = json_object_get(c, keys[i]);
		if (v != NULL && (!json_is_number(v) || !(json_number_value(v) >=
		    0) || json_number_value(v) > (i < 2 ? RUNS_MAX_BYTES :
		    RUNS_MAX_SECONDS) || (i < 2 && !json_is_integer(v))))
			goto bad;
	}
	json_object_set_new(run, "command", json_deep_copy(c));
	return (0);
bad:
	snprintf(msg, msgsz, "command: expected an object of "
	    "storage_read_bytes and storage_write_bytes (integers from 0 to "
	    "%.0f) and cpu_seconds (0 to %.0f)", RUNS_MAX_BYTES,
	    RUNS_MAX_SECONDS);
	return (-1);
}

/*
 * Check and copy the client's figures from body into run (a "run" object);
 * -1 with msg when one is wrong.  Keys not given are left as they are.
 */
static int
runs_figures(const json_t *body, json_t *run, char *msg, size_t msgsz)
{
	static const struct {
		const char	*key;
		double		 max;
		int		 integer;
	} nums[] = {
		{ "bytes", RUNS_MAX_BYTES, 1 },
		{ "ops", RUNS_MAX_OPS, 1 },
		{ "files", RUNS_MAX_FILES, 1 },
		{ "block_size", RUNS_MAX_BLOCK, 1 },
		{ "client_seconds", RUNS_MAX_SECONDS, 0 },
	};
	static const char *const texts[] = { "label", "client" };
	static const char *const known[] = {
		"label", "client", "protocol", "op", "bytes", "ops", "files",
		"block_size", "client_seconds", "start", "end", "clock_offset",
		"pid", "command", "interrupted"
	};
	const char	*key, *s;
	json_t		*v;
	double		 x;
	size_t		 i;

	json_object_foreach((json_t *)body, key, v) {
		if (!runs_oneof(key, known, NP_NITEMS(known)) ||
		    ((strcmp(key, "pid") == 0 || strcmp(key, "command") == 0) &&
		    json_object_get(run, "pid") == NULL)) {
			snprintf(msg, msgsz, "unknown key '%.40s'%s", key,
			    strcmp(key, "pid") == 0 ? ": a run names its "
			    "process when it opens" : strcmp(key, "command") ==
			    0 ? ": only a run that named its process has one" :
			    "");
			return (-1);
		}
	}
	if (runs_command(body, run, msg, msgsz) == -1)
		return (-1);
	for (i = 0; i < NP_NITEMS(nums); i++) {
		if ((v = json_object_get(body, nums[i].key)) == NULL ||
		    json_is_null(v))
			continue;
		x = json_number_value(v);
		if (!json_is_number(v) || (nums[i].integer &&
		    !json_is_integer(v)) || !(x >= 0) || x > nums[i].max ||
		    (!nums[i].integer && x <= 0)) {
			snprintf(msg, msgsz, "%s: expected %s from %s to %.0f",
			    nums[i].key, nums[i].integer ? "an integer" :
			    "a number of seconds", nums[i].integer ? "0" :
			    "above 0", nums[i].max);
			return (-1);
		}
		json_object_set(run, nums[i].key, v);
	}
	for (i = 0; i < NP_NITEMS(texts); i++) {
		if ((v = json_object_get(body, texts[i])) == NULL ||
		    json_is_null(v))
			continue;
		if ((s = json_string_value(v)) == NULL ||
		    strlen(s) > RUNS_TEXT_MAX) {
			snprintf(msg, msgsz, "%s: expected a string of at most "
			    "%d bytes", texts[i], RUNS_TEXT_MAX);
			return (-1);
		}
		json_object_set(run, texts[i], v);
	}
	if ((v = json_object_get(body, "protocol")) != NULL &&
	    !json_is_null(v)) {
		if ((s = json_string_value(v)) == NULL ||
		    !runs_oneof(s, runs_protocols, NP_NITEMS(runs_protocols))) {
			snprintf(msg, msgsz, "protocol: expected one of smb1 "
			    "smb2 smb3 nfs3 nfs4 afp iscsi http local other");
			return (-1);
		}
		json_object_set(run, "protocol", v);
	}
	/* The client stopped the benchmark before it finished. */
	if ((v = json_object_get(body, "interrupted")) != NULL &&
	    !json_is_null(v)) {
		if (!json_is_boolean(v)) {
			snprintf(msg, msgsz, "interrupted: expected true or "
			    "false");
			return (-1);
		}
		if (json_is_true(v))
			json_object_set(run, "interrupted", v);
	}
	if ((v = json_object_get(body, "op")) != NULL && !json_is_null(v)) {
		if ((s = json_string_value(v)) == NULL ||
		    !runs_oneof(s, runs_ops, NP_NITEMS(runs_ops))) {
			snprintf(msg, msgsz, "op: expected one of read write "
			    "mixed list");
			return (-1);
		}
		json_object_set(run, "op", v);
	}
	return (0);
}

/*
 * The process a live run names as its own ("pid"): the benchmark that
 * nasperf run started, on this box.  Only a client on this box can name
 * one (its address is loopback), and only as the run opens.  -1 with msg.
 */
static int
runs_pid(const json_t *body, json_t *run, const char *peer, int recorded,
    char *msg, size_t msgsz)
{
	const json_t	*v = json_object_get(body, "pid");

	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > RUNS_MAX_PID) {
		snprintf(msg, msgsz, "pid: expected a process id from 1 to %d",
		    RUNS_MAX_PID);
		return (-1);
	}
	if (recorded || peer == NULL || (strncmp(peer, "127.", 4) != 0 &&
	    strcmp(peer, "::1") != 0 && strncmp(peer, "::ffff:127.", 11) !=
	    0)) {
		snprintf(msg, msgsz, "pid: only a live run from a client on "
		    "this box can name its process");
		return (-1);
	}
	json_object_set_new(run, "pid", json_integer(json_integer_value(v)));
	return (0);
}

/* The verdict engine's view of a run object. */
static void
runs_view(const json_t *run, struct verdict_run *vr, char *idbuf, size_t idsz)
{
	memset(vr, 0, sizeof *vr);
	snprintf(idbuf, idsz, "%lld", json_integer_value(json_object_get(run,
	    "id")));
	vr->id = idbuf;
	vr->label = jget_str(run, "label");
	vr->protocol = jget_str(run, "protocol");
	vr->op = jget_str(run, "op");
	vr->client = jget_str(run, "client");
	vr->client_addr = jget_str(run, "client_addr");
	vr->has_bytes = jget_u64(run, "bytes", &vr->bytes);
	vr->has_ops = jget_u64(run, "ops", &vr->ops);
	vr->has_files = jget_u64(run, "files", &vr->files);
	vr->has_block = jget_u64(run, "block_size", &vr->block_size);
	vr->has_seconds = jget_num_to(run, "client_seconds", &vr->seconds);
	vr->start = jget_num(run, "start");
	vr->end = jget_num(run, "end");
	vr->ended = json_is_true(json_object_get(run, "ended"));
	vr->interrupted = json_is_true(json_object_get(run, "interrupted"));
	vr->retroactive = json_is_true(json_object_get(run, "retroactive"));
	vr->has_offset = jget_num_to(run, "clock_offset", &vr->clock_offset);
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

/* Whether report rep's SMB session had signing or encryption on every packet. */
static int
runs_crypted(const json_t *rep)
{
	const json_t	*s = json_object_get(rep, "session");
	const char	*sd, *ed;

	sd = json_string_value(json_object_get(json_object_get(s, "signing"),
	    "degree"));
	ed = json_string_value(json_object_get(json_object_get(s,
	    "encryption"), "degree"));
	return ((sd != NULL && strcmp(sd, "full") == 0) ||
	    (ed != NULL && strcmp(ed, "full") == 0));
}

/*
 * Whether run moved data of vr's size class: requests within a factor of
 * two, and totals within a factor of four, where both say.
 */
static int
runs_same_size(const json_t *run, const struct verdict_run *vr)
{
	uint64_t	v;

	if (vr->has_block && jget_u64(run, "block_size", &v) && v > 0 &&
	    (v > 2 * vr->block_size || 2 * v < vr->block_size))
		return (0);
	if (vr->has_bytes && jget_u64(run, "bytes", &v) && v > 0 &&
	    (v > 4 * vr->bytes || 4 * v < vr->bytes))
		return (0);
	return (1);
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
	const json_t	*run, *rep;
	const char	*a, *p, *o;
	double		 rate;
	size_t		 i;

	for (i = 0; i < rs->n; i++) {
		run = json_object_get(rs->v[i].doc, "run");
		rep = json_object_get(rs->v[i].doc, "report");
		a = jget_str(run, "client_addr");
		p = jget_str(run, "protocol");
		o = jget_str(run, "op");
		if (!json_is_object(json_object_get(rep, "session")) ||
		    runs_crypted(rep) || a == NULL || p == NULL || o == NULL ||
		    strcmp(a, vr->client_addr) != 0 ||
		    strcmp(p, vr->protocol) != 0 || strcmp(o, vr->op) != 0 ||
		    !runs_same_size(run, vr))
			continue;
		rate = json_number_value(json_object_get(rep, "client_rate"));
		if (rate > vr->plain_rate) {
			vr->plain_rate = rate;
			snprintf(idbuf, idsz, "%lu", rs->v[i].id);
			vr->plain_id = idbuf;
		}
	}
}

/*
 * Make the report of a run object; for a live run, whose document doc
 * holds the path's first snapshot and what was seen since, its path too,
 * to now.  NULL with e filled when the history cannot give one.
 */
static json_t *
runs_make(struct daemon *d, const json_t *run, const json_t *doc,
    struct http_err *e)
{
	struct verdict_run	 vr;
	struct verdict_path	 vp;
	struct smbstatus_session sess;
	struct topology		*topo;
	struct crypto		 cr;
	struct probe_buf	 buf;
	json_t			*rep, *server, *snap, *seen, *path = NULL;
	const json_t		*start;
	const struct hist_sample *first;
	const char		*errstr;
	char			*cause = NULL, id[32], plain[32];
	double			 cap, capwhen, clamped;
	int			 pids[VERDICT_PATH_PROCS];
	size_t			 i;

	runs_view(run, &vr, id, sizeof id);
	/*
	 * A live run (a long copy) that outlived the history is judged over
	 * what the history still holds, and says so, rather than never
	 * ending.
	 */
	clamped = 0;
	first = history_first(sampler_history(d));
	if (doc != NULL && vr.retroactive == 0 && first != NULL &&
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
	start = doc != NULL ? json_object_get(doc, "path_start") : NULL;
	if (start != NULL) {
		seen = json_deep_copy(json_object_get(doc, "path_seen") != NULL ?
		    json_object_get(doc, "path_seen") : start);
		if ((snap = runpath_snap(d, vr.client_addr, 1,
		    (int)json_integer_value(json_object_get(run, "pid")))) !=
		    NULL &&
		    seen != NULL)
			runpath_merge(seen, snap);
		runpath_closed_apply(d, seen);
		path = runpath_report(start, seen, vr.end - vr.start);
		runpath_volumes(path, topo, vr.protocol);
		/* The wrapped command's own counts, to its last byte. */
		if (path != NULL && json_is_object(json_object_get(run,
		    "command")))
			runs_path_command(path, json_object_get(run,
			    "command"));
		json_decref(snap);
		json_decref(seen);
	} else if (vr.retroactive)
		path = runpath_report(NULL, NULL, 0);
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
	if (vr.session != NULL && vr.protocol != NULL && vr.op != NULL &&
	    (vr.session->signing.degree == SMBSTATUS_FULL ||
	    vr.session->encryption.degree == SMBSTATUS_FULL))
		runs_plain(d->runs, &vr, plain, sizeof plain);
	/* A synth run measures the path's capacity: it is not its own yardstick. */
	if (vp.synth)
		vr.path_capacity = 0;
	server = runs_server();
	rep = verdict_report(sampler_history(d), &vr, d->cfg, server, &cause);
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
		if (!json_is_true(json_object_get(json_object_get(rs->v[i].doc,
		    "run"), "ended")))
			n++;
	return (n);
}

/* Count the runs opened by clients (not transfers) still open. */
static size_t
runs_open_clients(const struct runs *rs)
{
	const json_t	*run;
	size_t		 i, n = 0;

	for (i = 0; i < rs->n; i++) {
		run = json_object_get(rs->v[i].doc, "run");
		if (!json_is_true(json_object_get(run, "ended")) &&
		    json_object_get(run, "origin") == NULL)
			n++;
	}
	return (n);
}

/* A run object's place on the server clock from client times; -1 with msg. */
static int
runs_place(const json_t *body, json_t *run, double now, char *msg,
    size_t msgsz)
{
	const json_t	*js = json_object_get(body, "start");
	const json_t	*je = json_object_get(body, "end");
	const json_t	*jo = json_object_get(body, "clock_offset");
	double		 s, e, off = 0;

	if (!json_is_number(js) || !json_is_number(je)) {
		snprintf(msg, msgsz, "a recorded run needs both start and end "
		    "(Unix seconds on the client's clock)");
		return (-1);
	}
	if (jo != NULL && !json_is_null(jo)) {
		off = json_number_value(jo);
		if (!json_is_number(jo) || !(fabs(off) <= RUNS_MAX_OFFSET)) {
			snprintf(msg, msgsz, "clock_offset: %.0f s is beyond "
			    "reason (at most %.0f s either way); set the "
			    "client's clock", off, RUNS_MAX_OFFSET);
			return (-1);
		}
	}
	s = json_number_value(js) - off;
	e = json_number_value(je) - off;
	if (!(e > s) || e - s > RUNS_MAX_SECONDS || s < 1e9) {
		snprintf(msg, msgsz, "start and end: end must be after start, "
		    "at most %.0f s later, both Unix seconds", RUNS_MAX_SECONDS);
		return (-1);
	}
	if (e > now + 1.0) {
		snprintf(msg, msgsz, "the window ends %.1f s in the server's "
		    "future: is clock_offset right?", e - now);
		return (-1);
	}
	json_object_set_new(run, "start", json_real(s));
	json_object_set_new(run, "end", json_real(e));
	json_object_set_new(run, "retroactive", json_true());
	json_object_set_new(run, "ended", json_true());
	if (jo != NULL && !json_is_null(jo))
		json_object_set_new(run, "clock_offset", json_real(off));
	return (0);
}

json_t *
runs_create(struct daemon *d, const json_t *body, const char *peer,
    int *opened, struct http_err *e)
{
	struct runs	*rs = d->runs;
	struct run	*r;
	json_t		*run, *doc, *rep = NULL, *out = NULL, *path = NULL;
	char		 msg[256];
	double		 now = nptime_real();
	int		 recorded;

	recorded = json_object_get(body, "start") != NULL ||
	    json_object_get(body, "end") != NULL;
	*opened = !recorded;
	run = json_pack("{s:I,s:o,s:b,s:b}", "id", (json_int_t)rs->next_id,
	    "client_addr", enc_text_or_null(peer), "ended", 0, "retroactive", 0);
	if (run == NULL) {
		http_fail(e, 500, "internal", "out of memory");
		return (NULL);
	}
	if (runs_pid(body, run, peer, recorded, msg, sizeof msg) == -1 ||
	    runs_figures(body, run, msg, sizeof msg) == -1 ||
	    (recorded && runs_place(body, run, now, msg, sizeof msg) == -1)) {
		http_fail(e, 400, "bad_request", "%s", msg);
		goto out;
	}
	if (!recorded) {
		if (runs_open(rs) >= RUNS_MAX_OPEN) {
			http_fail(e, 409, "too_many_open", "%d runs are open; "
			    "end some first", RUNS_MAX_OPEN);
			goto out;
		}
		/* The client's SMB session, to tie the run to its smbd. */
		smbsess_poll_now(d);
		/* A sample now: the window starts exactly there. */
		json_object_set_new(run, "start", json_real(runs_sample(d,
		    now)));
		/* Its connections and processes now, to compare at the end. */
		runpath_refresh(d);
		path = runpath_snap(d, peer, 1, (int)json_integer_value(
		    json_object_get(run, "pid")));
	} else if ((rep = runs_make(d, run, NULL, e)) == NULL)
		goto out;		/* nothing saved */
	doc = json_pack("{s:O,s:O?,s:o?}", "run", run, "report", rep,
	    "path_start", path);
	path = NULL;
	if (doc == NULL || (r = runs_add(rs, rs->next_id, doc)) == NULL) {
		json_decref(doc);
		http_fail(e, 500, "internal", "out of memory");
		goto out;
	}
	if (runs_save(rs, r) == -1) {
		http_fail(e, 500, "not_saved", "%s/%lu.json: %s",
		    rs->dir, r->id, strerror(errno));
		json_decref(r->doc);
		rs->n--;
		goto out;
	}
	log_info("run %lu %s from %s", r->id, recorded ? "recorded" :
	    "opened", peer != NULL ? peer : "");
	if (rep != NULL)
		runs_tally_report(rs, run, rep);
	if (recorded)
		runs_join_recorded(d, r->id);
	if ((out = json_pack("{s:I,s:O,s:O?}", "id", (json_int_t)r->id,
	    "run", run, "report", rep)) == NULL)
		http_fail(e, 500, "internal", "out of memory");
	runs_prune(rs);
out:
	json_decref(path);
	json_decref(rep);
	json_decref(run);
	return (out);
}

/*
 * A transfer noticed on its own was taken for SMB 3 from its port: its
 * session's dialect says which SMB it was ("SMB2_10" smb2, "NT1" smb1).
 */
static void
runs_dialect(json_t *run, const json_t *rep)
{
	const char	*dia, *origin, *proto;

	origin = json_string_value(json_object_get(run, "origin"));
	proto = json_string_value(json_object_get(run, "protocol"));
	dia = json_string_value(json_object_get(json_object_get(rep,
	    "session"), "dialect"));
	if (origin == NULL || strcmp(origin, "auto") != 0 || proto == NULL ||
	    strncmp(proto, "smb", 3) != 0 || dia == NULL)
		return;
	if (strncmp(dia, "SMB3", 4) == 0)
		proto = "smb3";
	else if (strncmp(dia, "SMB2", 4) == 0)
		proto = "smb2";
	else if (strcmp(dia, "NT1") == 0 || strcmp(dia, "LANMAN2") == 0)
		proto = "smb1";
	else
		return;
	json_object_set_new(run, "protocol", json_string(proto));
}

/* A one-line summary of a run for the list. */
static json_t *
runs_summary(const struct run *r)
{
	const json_t	*run = json_object_get(r->doc, "run");
	const json_t	*rep = json_object_get(r->doc, "report");
	json_t		*o;

	if ((o = json_deep_copy(run)) == NULL)
		return (NULL);
	json_object_set(o, "verdict", rep != NULL ?
	    json_object_get(rep, "verdict") : json_null());
	json_object_set(o, "client_rate", rep != NULL ?
	    json_object_get(rep, "client_rate") : json_null());
	/* Who copied, as smbd knows them: the session's user and machine. */
	if (json_is_object(json_object_get(rep, "session"))) {
		json_object_set(o, "user", json_object_get(json_object_get(rep,
		    "session"), "user"));
		json_object_set(o, "machine", json_object_get(json_object_get(
		    rep, "session"), "machine"));
	}
	return (o);
}

json_t *
runs_list(struct daemon *d, const char *origin, int open_only)
{
	struct runs	*rs = d->runs;
	const json_t	*run;
	const char	*o;
	json_t		*a;
	size_t		 i;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < rs->n; i++) {
		run = json_object_get(rs->v[i].doc, "run");
		if (open_only && json_is_true(json_object_get(run, "ended")))
			continue;
		o = jget_str(run, "origin");
		if (origin == NULL || (o != NULL && strcmp(o, origin) == 0))
			json_array_append_new(a, runs_summary(&rs->v[i]));
	}
	return (json_pack("{s:o}", "runs", a));
}

unsigned long
runs_client_open(struct daemon *d, const char *addr)
{
	struct runs	*rs = d->runs;
	const json_t	*run;
	const char	*a;
	size_t		 i;

	for (i = 0; i < rs->n; i++) {
		run = json_object_get(rs->v[i].doc, "run");
		a = jget_str(run, "client_addr");
		if (!json_is_true(json_object_get(run, "ended")) &&
		    json_object_get(run, "origin") == NULL && a != NULL &&
		    strcmp(a, addr) == 0)
			return (rs->v[i].id);
	}
	return (0);
}

void
runs_join(struct daemon *d, unsigned long xfer, unsigned long id)
{
	struct run	*t = runs_find(d->runs, xfer), *r = runs_find(d->runs,
			    id);
	json_t		*run, *a;
	size_t		 i;

	if (t == NULL || r == NULL || xfer == id)
		return;
	json_object_set_new(json_object_get(t->doc, "run"), "joined",
	    json_integer((json_int_t)id));
	run = json_object_get(r->doc, "run");
	if (!json_is_array(a = json_object_get(run, "transfers"))) {
		a = json_array();
		json_object_set_new(run, "transfers", a);
	}
	for (i = 0; i < json_array_size(a); i++)
		if ((unsigned long)json_integer_value(json_array_get(a, i)) ==
		    xfer)
			break;
	if (a != NULL && i == json_array_size(a))
		json_array_append_new(a, json_integer((json_int_t)xfer));
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
	struct runs	*rs = d->runs;
	const json_t	*run, *me;
	const struct run *r;
	const char	*a, *mine;
	unsigned long	 xs[16];
	size_t		 i, n = 0;

	if ((r = runs_find(rs, id)) == NULL)
		return;
	me = json_object_get(r->doc, "run");
	if ((mine = jget_str(me, "client_addr")) == NULL)
		return;
	for (i = 0; i < rs->n && n < NP_NITEMS(xs); i++) {
		run = json_object_get(rs->v[i].doc, "run");
		a = jget_str(run, "client_addr");
		if (jget_str(run, "origin") == NULL || strcmp(jget_str(run,
		    "origin"), "auto") != 0 || a == NULL || strcmp(a, mine) !=
		    0 || !json_is_true(json_object_get(run, "ended")) ||
		    json_number_value(json_object_get(run, "start")) >=
		    json_number_value(json_object_get(me, "end")) ||
		    json_number_value(json_object_get(run, "end")) <=
		    json_number_value(json_object_get(me, "start")))
			continue;
		xs[n++] = rs->v[i].id;
	}
	for (i = 0; i < n; i++)
		runs_join(d, xs[i], id);
}

long
runs_open_auto(struct daemon *d, const json_t *body, const char *peer,
    double start)
{
	struct http_err	 e;
	struct run	*r;
	json_t		*out, *run;
	long		 id;
	int		 opened;

	if ((out = runs_create(d, body, peer, &opened, &e)) == NULL) {
		log_warn("transfer from %s: no run: %s", peer, e.msg);
		return (-1);
	}
	id = (long)json_integer_value(json_object_get(out, "id"));
	json_decref(out);
	if ((r = runs_find(d->runs, (unsigned long)id)) == NULL)
		return (-1);
	/* It began before it was noticed. */
	run = json_object_get(r->doc, "run");
	json_object_set_new(run, "origin", json_string("auto"));
	if (start > 0 && start < json_number_value(json_object_get(run,
	    "start")))
		json_object_set_new(run, "start", json_real(start));
	if (runs_save(d->runs, r) == -1)
		log_warn("run %ld: %s/%ld.json: %s", id, d->runs->dir, id,
		    strerror(errno));
	return (id);
}

const json_t *
runs_get(struct daemon *d, unsigned long id)
{
	const struct run	*r = runs_find(d->runs, id);

	return (r != NULL ? r->doc : NULL);
}

int
runs_check_open(struct daemon *d, unsigned long id, struct http_err *e)
{
	const struct run	*r = runs_find(d->runs, id);

	if (r == NULL)
		return (http_fail(e, 404, "no_such_run", "no run %lu",
		    id));
	if (json_is_true(json_object_get(json_object_get(r->doc, "run"),
	    "ended")))
		return (http_fail(e, 409, "already_ended", "run %lu has "
		    "already ended", r->id));
	return (0);
}

json_t *
runs_end(struct daemon *d, unsigned long id, const json_t *body,
    struct http_err *e)
{
	return (runs_end_at(d, id, body, 0, e));
}

json_t *
runs_end_at(struct daemon *d, unsigned long id, const json_t *body,
    double at, struct http_err *e)
{
	struct run	*r;
	json_t		*run, *rep = NULL, *old;
	char		 msg[256];
	double		 now = nptime_real();

	if (runs_check_open(d, id, e) == -1)
		return (NULL);
	r = runs_find(d->runs, id);
	if (json_object_get(body, "start") != NULL ||
	    json_object_get(body, "end") != NULL) {
		http_fail(e, 400, "bad_request", "a live run "
		    "ends now: start and end are not taken here");
		return (NULL);
	}
	if ((run = json_deep_copy(json_object_get(r->doc, "run"))) == NULL) {
		http_fail(e, 500, "internal", "out of memory");
		return (NULL);
	}
	if (runs_figures(body, run, msg, sizeof msg) == -1) {
		http_fail(e, 400, "bad_request", "%s", msg);
		goto out;
	}
	/* Now, or where the caller says the transfer stopped. */
	if (at > json_number_value(json_object_get(run, "start")) && at < now)
		json_object_set_new(run, "end", json_real(at));
	else
		json_object_set_new(run, "end", json_real(runs_sample(d,
		    now)));
	json_object_set_new(run, "ended", json_true());
	if ((rep = runs_make(d, run, r->doc, e)) == NULL)
		goto out;		/* the run stays open and unchanged */
	runs_dialect(run, rep);
	old = r->doc;
	if ((r->doc = json_pack("{s:O,s:O,s:O?}", "run", run, "report", rep,
	    "path_start", json_object_get(old, "path_start"))) ==
	    NULL || runs_save(d->runs, r) == -1) {
		json_decref(r->doc);
		r->doc = old;
		http_fail(e, 500, "not_saved", "run %lu: %s",
		    r->id, strerror(errno));
		json_decref(rep);
		rep = NULL;
		goto out;
	}
	json_decref(old);
	log_info("run %lu ended: %s", r->id, json_string_value(
	    json_object_get(json_object_get(rep, "verdict"), "summary")));
	runs_tally_report(d->runs, run, rep);
	runs_prune(d->runs);
out:
	json_decref(run);
	return (rep);
}

json_t *
runs_report(struct daemon *d, unsigned long id, struct http_err *e)
{
	const struct run	*r = runs_find(d->runs, id);
	const json_t		*rep;
	json_t			*run, *live;

	if (r == NULL) {
		http_fail(e, 404, "no_such_run", "no run %lu", id);
		return (NULL);
	}
	rep = json_object_get(r->doc, "report");
	if (rep != NULL && !json_is_null(rep))
		return (json_incref((json_t *)rep));
	/* An open run: the report so far, not saved. */
	if ((run = json_deep_copy(json_object_get(r->doc, "run"))) == NULL) {
		http_fail(e, 500, "internal", "out of memory");
		return (NULL);
	}
	json_object_set_new(run, "end", json_real(runs_sample(d,
	    nptime_real())));
	live = runs_make(d, run, r->doc, e);
	json_decref(run);
	return (live);
}

json_t *
runs_verdict(struct daemon *d, double secs, struct http_err *e)
{
	double	 now = nptime_real();
	json_t	*run, *rep;

	(void)sampler_now(d);
	run = json_pack("{s:I,s:s,s:f,s:f,s:b}", "id", (json_int_t)0,
	    "protocol", "other", "start", now - secs, "end", now, "ended", 1);
	if (run == NULL) {
		http_fail(e, 500, "internal", "out of memory");
		return (NULL);
	}
	rep = runs_make(d, run, NULL, e);
	json_decref(run);
	return (rep);
}
