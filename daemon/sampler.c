/*
 * sampler.c: the fixed-interval snapshot and its history.
 */
#include "config.h"

#include <sys/types.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/event.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "history.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "sampler.h"
#include "snapshot.h"
#include "state.h"

#define SAMPLER_FILE		"history.jsonl"
#define SAMPLER_SAVE_EVERY	300	/* seconds between saves */

struct sampler {
	struct history	*h;
	struct snapshot	*prev, *cur;	/* swapped each tick */
	int		 have_prev;
	int		 gap;		/* the next sample follows a gap */
	struct event	*ev_tick, *ev_save;
	double		 interval;
	int		 fast;		/* a run is open: run_interval_ms */
	double		 planned;	/* monotonic time the next tick is due */
	unsigned long	 ticks;
	double		 jitter_sum, jitter_max;
	double		 cost_sum, cost_max;
	unsigned long	 costs;
	double		 loaded_until;
	int		 warned;	/* ENOMEM logged */
};

/* An empty history of the sizes cfg gives. */
static struct history *
sampler_history_new(const struct cfg *cfg)
{
	return (history_new(cfg->sample_interval_ms / 1000.0,
	    cfg->history_full_s * 1000 / cfg->sample_interval_ms,
	    (double)cfg->history_coarse_step_s,
	    cfg->history_coarse_s / cfg->history_coarse_step_s));
}

/* Take one snapshot and record it. */
static int
sampler_take(struct daemon *d)
{
	struct sampler		*sp = d->sampler;
	struct snapshot_opts	 opts;
	struct snapshot_group	 groups[CFG_MAX_GROUPS];
	const char		*pats[CFG_MAX_GROUPS][CFG_MAX_PATTERNS];
	struct snapshot		*t;
	double			 t0, cost;

	t0 = nptime_mono();
	cfg_snapshot_opts(d->cfg, &opts, groups, pats);
	if (snapshot_take(&d->root, &opts, sp->cur) == -1 ||
	    history_add(sp->h, sp->have_prev ? sp->prev : NULL, sp->cur,
	    sp->gap) == -1) {
		if (!sp->warned)
			log_warn("sampler");
		sp->warned = 1;
		return (-1);
	}
	sp->warned = 0;
	sp->gap = 0;
	t = sp->prev;
	sp->prev = sp->cur;
	sp->cur = t;
	sp->have_prev = 1;
	cost = (nptime_mono() - t0) * 1000.0;
	sp->cost_sum += cost;
	sp->costs++;
	if (cost > sp->cost_max)
		sp->cost_max = cost;
	return (0);
}

/* The timer: measure how late it fired, then sample. */
static void
sampler_tick_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct daemon	*d = arg;
	struct sampler	*sp = d->sampler;
	double		 now, late;

	now = nptime_mono();
	if (sp->ticks > 0) {
		late = fabs(now - sp->planned) * 1000.0;
		sp->jitter_sum += late;
		if (late > sp->jitter_max)
			sp->jitter_max = late;
	}
	sp->ticks++;
	sp->planned = now + sp->interval;
	(void)sampler_take(d);
}

/* Every few minutes: save, so a crash loses little. */
static void
sampler_save_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct daemon	*d = arg;

	if (sampler_save(d) == -1)
		log_warn("sampler: %s/%s", d->state_dir, SAMPLER_FILE);
}

/* Append one JSON value and a newline to a growing buffer. */
static int
sampler_append(char **buf, size_t *len, size_t *cap, json_t *j)
{
	char	*s, *nb;
	size_t	 n, ncap;

	if (j == NULL)
		return (-1);
	s = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	if (s == NULL)
		return (-1);
	n = strlen(s);
	if (*len + n + 2 > *cap) {
		ncap = *cap == 0 ? 65536 : *cap;
		while (*len + n + 2 > ncap)
			ncap *= 2;
		if ((nb = realloc(*buf, ncap)) == NULL) {
			free(s);
			return (-1);
		}
		*buf = nb;
		*cap = ncap;
	}
	memcpy(*buf + *len, s, n);
	(*buf)[*len + n] = '\n';
	*len += n + 1;
	free(s);
	return (0);
}

/* Write the history: a header line, then one line per sample. */
int
sampler_save(struct daemon *d)
{
	const struct history	*h = d->sampler->h;
	struct hist_window	 w;
	char			*buf = NULL;
	size_t			 len = 0, cap = 0, i;
	int			 rc = -1;

	if (history_window(h, -INFINITY, INFINITY, 0, &w) == -1)
		return (-1);
	if (sampler_append(&buf, &len, &cap, history_header_json(h)) == -1)
		goto out;
	for (i = 0; i < w.n; i++) {
		if (sampler_append(&buf, &len, &cap,
		    history_sample_json(w.s[i])) == -1)
			goto out;
	}
	rc = state_write(d->state_dir, SAMPLER_FILE, buf, len, 0600);
out:
	free(buf);
	history_window_clear(&w);
	if (rc == -1 && errno == 0)
		errno = ENOMEM;
	return (rc);
}

/* Read the saved history back, if there is one; problems are logged. */
static void
sampler_load(struct daemon *d)
{
	struct sampler		*sp = d->sampler;
	char			 path[4200], *line = NULL;
	const char		*errstr = NULL;
	const struct hist_sample *last;
	size_t			 cap = 0, lineno = 0;
	ssize_t			 n;
	json_t			*j;
	json_error_t		 jerr;
	FILE			*f;

	snprintf(path, sizeof path, "%s/%s", d->state_dir, SAMPLER_FILE);
	if ((f = fopen(path, "re")) == NULL) {
		if (errno != ENOENT)
			log_warn("sampler: %s", path);
		return;
	}
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		if ((j = json_loadb(line, (size_t)n, 0, &jerr)) == NULL) {
			errstr = jerr.text;
			break;
		}
		if ((lineno == 1 ? history_load_header(sp->h, j, &errstr) :
		    history_load_sample(sp->h, j, &errstr)) == -1) {
			json_decref(j);
			break;
		}
		json_decref(j);
	}
	free(line);
	fclose(f);
	if (errstr != NULL) {
		/* A damaged file: start afresh rather than from half of it. */
		log_warnx("sampler: %s:%zu: %s; starting a new history", path,
		    lineno, errstr);
		history_free(sp->h);
		sp->h = sampler_history_new(d->cfg);
		return;
	}
	if ((last = history_last(sp->h)) != NULL) {
		sp->loaded_until = last->t;
		sp->gap = 1;
		log_info("sampler: history read back: %zu samples up to %.0f s "
		    "ago", history_count(sp->h, NULL, NULL),
		    difftime(time(NULL), (time_t)last->t));
	}
}

/* The interval in force: the run interval while a run is open. */
static unsigned
sampler_ms(const struct daemon *d)
{
	const struct cfg	*cfg = d->cfg;

	if (d->sampler->fast &&
	    cfg->sample_run_interval_ms < cfg->sample_interval_ms)
		return (cfg->sample_run_interval_ms);
	return (cfg->sample_interval_ms);
}

/* Arm the tick timer at the interval in force. */
static int
sampler_arm(struct daemon *d)
{
	struct sampler	*sp = d->sampler;
	struct timeval	 tv;
	unsigned	 ms = sampler_ms(d);

	sp->interval = ms / 1000.0;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	sp->planned = nptime_mono() + sp->interval;
	return (event_add(sp->ev_tick, &tv));
}

/* Load the saved history and start the timer. */
int
sampler_init(struct daemon *d, char **cause)
{
	const struct cfg	*cfg = d->cfg;
	struct sampler		*sp;
	struct timeval		 save = { SAMPLER_SAVE_EVERY, 0 };

	*cause = NULL;
	if ((sp = calloc(1, sizeof *sp)) == NULL)
		goto nomem;
	d->sampler = sp;
	sp->h = sampler_history_new(cfg);
	if (sp->h == NULL || (sp->prev = snapshot_new()) == NULL ||
	    (sp->cur = snapshot_new()) == NULL)
		goto nomem;
	sampler_load(d);
	if (sp->h == NULL)
		goto nomem;
	sp->ev_tick = event_new(d->base, -1, EV_PERSIST, sampler_tick_cb, d);
	sp->ev_save = event_new(d->base, -1, EV_PERSIST, sampler_save_cb, d);
	if (sp->ev_tick == NULL || sp->ev_save == NULL ||
	    sampler_arm(d) == -1 || event_add(sp->ev_save, &save) == -1) {
		if (asprintf(cause, "sampler: cannot add its timers") == -1)
			*cause = NULL;
		return (-1);
	}
	if (sampler_take(d) == -1)
		goto nomem;
	log_info("sampling every %u ms: %u s at full rate, then every %u s "
	    "for %u s", cfg->sample_interval_ms, cfg->history_full_s,
	    cfg->history_coarse_step_s, cfg->history_coarse_s);
	return (0);
nomem:
	if (asprintf(cause, "sampler: out of memory") == -1)
		*cause = NULL;
	return (-1);
}

/* Sample now. */
int
sampler_now(struct daemon *d)
{
	if (d->sampler == NULL) {
		errno = EINVAL;
		return (-1);
	}
	return (sampler_take(d));
}

/* Sample faster while a run is open; see sampler.h. */
void
sampler_pace(struct daemon *d, int fast)
{
	struct sampler	*sp = d->sampler;

	if (sp == NULL || sp->ev_tick == NULL || sp->fast == (fast != 0))
		return;
	sp->fast = fast != 0;
	if (fabs(sp->interval - sampler_ms(d) / 1000.0) < 1e-9)
		return;
	event_del(sp->ev_tick);
	if (sampler_arm(d) == -1)
		log_warnx("sampler: cannot re-arm the timer");
	log_debug("sampler: every %u ms while %s", sampler_ms(d), sp->fast ?
	    "a run is open" : "no run is open");
}

/* A new interval applies from the next tick. */
void
sampler_reconfigure(struct daemon *d)
{
	struct sampler	*sp = d->sampler;

	if (sp == NULL || sp->ev_tick == NULL ||
	    fabs(sp->interval - sampler_ms(d) / 1000.0) < 1e-9)
		return;
	event_del(sp->ev_tick);
	if (sampler_arm(d) == -1)
		log_warnx("sampler: cannot re-arm the timer");
	if (d->cfg->history_full_s * 1000 / d->cfg->sample_interval_ms !=
	    sp->h->full.cap)
		log_warnx("reload: history sizes take effect at the next "
		    "start");
}

/* Save and stop. */
void
sampler_shutdown(struct daemon *d)
{
	struct sampler	*sp = d->sampler;

	if (sp == NULL)
		return;
	if (sp->ev_tick != NULL)
		event_free(sp->ev_tick);
	if (sp->ev_save != NULL)
		event_free(sp->ev_save);
	if (sp->h != NULL && history_count(sp->h, NULL, NULL) > 0 &&
	    sampler_save(d) == -1)
		log_warn("sampler: %s/%s", d->state_dir, SAMPLER_FILE);
	history_free(sp->h);
	snapshot_free(sp->prev);
	snapshot_free(sp->cur);
	free(sp);
	d->sampler = NULL;
}

/* The history. */
const struct history *
sampler_history(const struct daemon *d)
{
	return (d->sampler != NULL ? d->sampler->h : NULL);
}

/* Timing and memory figures. */
void
sampler_stats(const struct daemon *d, struct sampler_stats *st)
{
	const struct sampler		*sp = d->sampler;
	const struct hist_sample	*s;

	memset(st, 0, sizeof *st);
	if (sp == NULL)
		return;
	st->interval = sp->interval;
	st->ticks = sp->ticks;
	st->jitter_mean_ms = sp->ticks > 1 ?
	    sp->jitter_sum / (double)(sp->ticks - 1) : 0;
	st->jitter_max_ms = sp->jitter_max;
	st->cost_mean_ms = sp->costs > 0 ? sp->cost_sum / (double)sp->costs :
	    0;
	st->cost_max_ms = sp->cost_max;
	st->memory_bytes = history_memory(sp->h) + 2 * sizeof (struct snapshot);
	history_count(sp->h, &st->full, &st->coarse);
	if ((s = history_first(sp->h)) != NULL)
		st->oldest = s->t;
	if ((s = history_last(sp->h)) != NULL)
		st->newest = s->t;
	st->loaded_until = sp->loaded_until;
}
