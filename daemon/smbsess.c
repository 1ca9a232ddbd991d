/*
 * smbsess.c: smbstatus as a child process, and the sessions it lists.
 *
 * The child (child.c) is killed when it outlives SMBSESS_TIMEOUT or
 * prints more than SMBSESS_MAX_OUTPUT.  The sampler never waits for any
 * of it.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include <jansson.h>

#include "cfg.h"
#include "child.h"
#include "daemon.h"
#include "encode.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "probe.h"
#include "smbsess.h"

#define SMBSESS_SEEN_MAX	1024	/* sessions remembered */

/* A session, and when it was first and last listed. */
struct smbsess_seen {
	struct smbstatus_session s;
	double			 first, last;
};

struct smbsess {
	struct daemon		*d;
	struct event		*ev_tick;	/* the next poll */
	struct child		*child;		/* smbstatus */
	int			 use_json;	/* this child was asked for JSON */
	int			 json_fails;	/* 1 once --json was refused */
	int			 fallback;	/* this child is the text retry */
	int			 pending;	/* a poll asked for while running */

	struct smbstatus	 cur;		/* the last good listing */
	int			 have;
	double			 polled;	/* realtime of it */
	const char		*source;	/* "json" or "text" */
	char			 error[512];	/* the last poll's, "" */
	struct smbsess_seen	*seen;
	size_t			 nseen;
};

static void	smbsess_start(struct smbsess *);

/* Keep the text of a value that is a string or an integer. */
static void
smbsess_text(const json_t *v, char *out, size_t outsz)
{
	if (json_is_string(v))
		probe_strlcpy(out, json_string_value(v), outsz);
	else if (json_is_integer(v))
		snprintf(out, outsz, "%lld", (long long)json_integer_value(v));
	else if (outsz > 0)
		out[0] = '\0';
}

/* Signing or encryption: {"cipher", "degree"}, or the text form. */
static void
smbsess_crypto(const json_t *v, struct smbstatus_crypto *c)
{
	char	buf[64];

	memset(c, 0, sizeof *c);
	if (json_is_string(v)) {
		smbstatus_crypto_parse(json_string_value(v), c);
		return;
	}
	if (!json_is_object(v))
		return;
	smbsess_text(json_object_get(v, "degree"), buf, sizeof buf);
	c->degree = smbstatus_degree_parse(buf);
	if (c->degree != SMBSTATUS_NONE)
		smbsess_text(json_object_get(v, "cipher"), c->cipher,
		    sizeof c->cipher);
}

/* One session object; 0, -1 on ENOMEM. */
static int
smbsess_one(const json_t *o, struct smbstatus *st)
{
	struct smbstatus_session	*s;
	const json_t			*sid;
	char				 buf[SMBSTATUS_ADDR_MAX + 32];

	if (!json_is_object(o)) {
		st->skipped++;
		return (0);
	}
	if ((s = smbstatus_add(st)) == NULL)
		return (errno == ENOMEM ? -1 : 0);
	sid = json_object_get(o, "server_id");
	smbsess_text(json_is_object(sid) ? json_object_get(sid, "pid") :
	    json_object_get(o, "pid"), buf, sizeof buf);
	s->pid = smbstatus_pid(buf);
	smbsess_text(json_object_get(o, "username"), s->user, sizeof s->user);
	smbsess_text(json_object_get(o, "groupname"), s->group,
	    sizeof s->group);
	smbsess_text(json_object_get(o, "remote_machine"), s->machine,
	    sizeof s->machine);
	smbsess_text(json_object_get(o, "session_dialect"), s->dialect,
	    sizeof s->dialect);
	smbsess_crypto(json_object_get(o, "signing"), &s->signing);
	smbsess_crypto(json_object_get(o, "encryption"), &s->encryption);
	smbsess_text(json_object_get(o, "hostname"), buf, sizeof buf);
	if (smbstatus_address(buf, s->address, sizeof s->address) == -1 &&
	    smbstatus_address(s->machine, s->address, sizeof s->address) == -1)
		s->address[0] = '\0';
	return (0);
}

/* Parse smbstatus's JSON. */
int
smbsess_parse_json(const char *buf, size_t len, struct smbstatus *st,
    const char **errstr)
{
	json_t		*root, *sess, *v;
	json_error_t	 jerr;
	const char	*key;
	size_t		 i;
	int		 rc = -1;

	smbstatus_reset(st);
	if (len > SMBSESS_MAX_OUTPUT) {
		*errstr = "the JSON is too large";
		errno = EINVAL;
		return (-1);
	}
	if ((root = json_loadb(buf, len, 0, &jerr)) == NULL) {
		*errstr = "malformed JSON";
		errno = EINVAL;
		return (-1);
	}
	if (!json_is_object(root)) {
		*errstr = "not a JSON object";
		errno = EINVAL;
		goto out;
	}
	smbsess_text(json_object_get(root, "version"), st->version,
	    sizeof st->version);
	sess = json_object_get(root, "sessions");
	if (json_is_object(sess)) {
		json_object_foreach(sess, key, v)
			if (smbsess_one(v, st) == -1)
				goto nomem;
	} else if (json_is_array(sess)) {
		json_array_foreach(sess, i, v)
			if (smbsess_one(v, st) == -1)
				goto nomem;
	} else {
		*errstr = "no \"sessions\" in the JSON";
		errno = EINVAL;
		goto out;
	}
	rc = 0;
	goto out;
nomem:
	smbstatus_reset(st);
	*errstr = "out of memory";
	errno = ENOMEM;
out:
	json_decref(root);
	return (rc);
}

/* Remember the sessions of a good listing, and forget old ones. */
static void
smbsess_remember(struct smbsess *ss, double now)
{
	const struct smbstatus_session	*s;
	struct smbsess_seen		*e;
	size_t				 i, j, k;

	for (i = 0; i < ss->cur.n; i++) {
		s = &ss->cur.v[i];
		if (s->pid == 0 || s->address[0] == '\0')
			continue;
		for (j = 0; j < ss->nseen; j++)
			if (ss->seen[j].s.pid == s->pid &&
			    strcmp(ss->seen[j].s.address, s->address) == 0)
				break;
		if (j == ss->nseen) {
			if (ss->nseen == SMBSESS_SEEN_MAX)
				continue;
			ss->seen[ss->nseen++].first = now;
		}
		e = &ss->seen[j];
		e->s = *s;
		e->last = now;
	}
	for (j = k = 0; j < ss->nseen; j++)
		if (ss->seen[j].last >= now - SMBSESS_KEEP)
			ss->seen[k++] = ss->seen[j];
	ss->nseen = k;
}

/* The next poll, in seconds from now. */
static void
smbsess_schedule(struct smbsess *ss, double secs)
{
	struct timeval	tv;

	if (ss->ev_tick != NULL)
		evtimer_add(ss->ev_tick, nptime_timeval(secs, &tv));
}

/* The child is gone with status: judge what it printed. */
static void
smbsess_done(void *arg, int status, const char *out, size_t len,
    int overflow)
{
	struct smbsess	*ss = arg;
	const char	*errstr = NULL;
	int		 rc, ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;

	if (overflow)
		snprintf(ss->error, sizeof ss->error, "smbstatus printed more "
		    "than %u bytes", SMBSESS_MAX_OUTPUT);
	else if (!ok && ss->use_json && !ss->json_fails) {
		/* Older smbstatus: no --json.  The text table, at once. */
		ss->json_fails = 1;
		ss->fallback = 1;
		log_info("smbstatus --json is not available; reading its "
		    "text table");
		smbsess_start(ss);
		return;
	} else if (!ok) {
		/* The text failed too: --json was not the trouble. */
		if (ss->fallback)
			ss->json_fails = 0;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			snprintf(ss->error, sizeof ss->error, "cannot run %.300s",
			    ss->d->cfg->samba_smbstatus);
		else
			(void)child_failure("smbstatus", status, 0, 0,
			    ss->error, sizeof ss->error);
	} else {
		rc = ss->use_json ? smbsess_parse_json(out, len, &ss->cur,
		    &errstr) : smbstatus_parse_text(out, len, &ss->cur,
		    &errstr);
		if (rc == 0) {
			ss->have = 1;
			ss->source = ss->use_json ? "json" : "text";
			ss->polled = nptime_real();
			ss->error[0] = '\0';
			smbsess_remember(ss, ss->polled);
			log_debug("sessions: %zu from smbstatus%s in %.2f s",
			    ss->cur.n, ss->use_json ? " --json" : "",
			    child_age(ss->child));
		} else
			snprintf(ss->error, sizeof ss->error, "smbstatus%s: %s",
			    ss->use_json ? " --json" : "", errstr);
	}
	ss->fallback = 0;
	if (ss->error[0] != '\0')
		log_debug("sessions: %s", ss->error);
	if (ss->pending) {
		ss->pending = 0;
		smbsess_start(ss);
	}
}

/* Start smbstatus; on failure the error is kept and the poll skipped. */
static void
smbsess_start(struct smbsess *ss)
{
	const struct cfg	*cfg = ss->d->cfg;
	char			*argv[8];
	int			 n = 0;

	if (child_running(ss->child)) {
		ss->pending = 1;
		return;
	}
	ss->use_json = !ss->json_fails;
	argv[n++] = (char *)"smbstatus";
	argv[n++] = (char *)"-b";
	if (ss->use_json)
		argv[n++] = (char *)"--json";
	argv[n++] = (char *)"-s";
	argv[n++] = (char *)cfg->samba_config;
	argv[n] = NULL;
	if (child_start(ss->child, cfg->samba_smbstatus, argv, ss->error,
	    sizeof ss->error) == -1)
		log_debug("sessions: %s", ss->error);
}

/* The polling timer. */
static void
smbsess_tick(evutil_socket_t fd, short what, void *arg)
{
	struct smbsess	*ss = arg;

	(void)fd;
	(void)what;
	smbsess_start(ss);
	smbsess_schedule(ss, ss->d->cfg->samba_sessions_interval);
}

/* Start polling. */
int
smbsess_init(struct daemon *d, char **cause)
{
	struct smbsess	*ss;

	*cause = NULL;
	if ((ss = calloc(1, sizeof *ss)) == NULL ||
	    (ss->seen = calloc(SMBSESS_SEEN_MAX, sizeof *ss->seen)) == NULL) {
		free(ss);
		*cause = strdup("sessions: out of memory");
		return (-1);
	}
	ss->d = d;
	smbstatus_init(&ss->cur);
	d->smbsess = ss;
	/* A fixture root is not this host: its smbd is not ours to list. */
	if (d->cfg->samba_sessions_interval == 0) {
		snprintf(ss->error, sizeof ss->error, "not polled "
		    "(samba.sessions_interval is 0)");
		return (0);
	}
	if (!d->root.live) {
		snprintf(ss->error, sizeof ss->error, "not polled under "
		    "--root %.300s", d->root.path);
		return (0);
	}
	ss->ev_tick = evtimer_new(d->base, smbsess_tick, ss);
	ss->child = child_new(d->base, SMBSESS_TIMEOUT, SMBSESS_MAX_OUTPUT,
	    smbsess_done, ss);
	if (ss->ev_tick == NULL || ss->child == NULL) {
		*cause = strdup("sessions: out of memory");
		return (-1);
	}
	smbsess_schedule(ss, 0.5);
	return (0);
}

/* Stop polling. */
void
smbsess_shutdown(struct daemon *d)
{
	struct smbsess	*ss = d->smbsess;

	if (ss == NULL)
		return;
	child_free(ss->child);
	if (ss->ev_tick != NULL)
		event_free(ss->ev_tick);
	smbstatus_clear(&ss->cur);
	free(ss->seen);
	free(ss);
	d->smbsess = NULL;
}

/* Poll soon. */
void
smbsess_poll_now(struct daemon *d)
{
	struct smbsess	*ss = d->smbsess;

	if (ss != NULL && ss->ev_tick != NULL)
		smbsess_start(ss);
}

/* The session of a client in a window. */
int
smbsess_find(const struct daemon *d, const char *addr, const int *pids,
    size_t npids, double from, double to, struct smbstatus_session *out)
{
	const struct smbsess	*ss = d->smbsess;
	const struct smbsess_seen *e, *best = NULL;
	double			 slack;
	size_t			 i, j;
	int			 ours, best_ours = 0;

	if (ss == NULL || addr == NULL)
		return (-1);
	slack = (double)d->cfg->samba_sessions_interval + 1.0;
	for (i = 0; i < ss->nseen; i++) {
		e = &ss->seen[i];
		if (e->first > to + slack || e->last < from - slack ||
		    !smbstatus_same_address(e->s.address, addr))
			continue;
		for (ours = 0, j = 0; j < npids && !ours; j++)
			ours = e->s.pid > 0 && e->s.pid == pids[j];
		if (best == NULL || ours > best_ours ||
		    (ours == best_ours && e->last > best->last)) {
			best = e;
			best_ours = ours;
		}
	}
	if (best == NULL)
		return (-1);
	*out = best->s;
	return (0);
}

/* The sessions for /v1/topology. */
json_t *
smbsess_json(const struct daemon *d)
{
	const struct smbsess	*ss = d->smbsess;
	json_t			*a;
	size_t			 i;

	if (ss == NULL)
		return (json_null());
	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; ss->have && i < ss->cur.n; i++)
		json_array_append_new(a, enc_smb_session(&ss->cur.v[i]));
	return (json_pack("{s:b,s:o,s:o,s:o,s:o,s:o}",
	    "available", ss->have,
	    "source", ss->have ? json_string(ss->source) : json_null(),
	    "samba_version", ss->have && ss->cur.version[0] ?
	    enc_text(ss->cur.version) : json_null(),
	    "polled", ss->have ? json_real(ss->polled) : json_null(),
	    "error", ss->error[0] ? enc_text(ss->error) : json_null(),
	    "sessions", ss->have ? a : (json_decref(a), json_null())));
}
