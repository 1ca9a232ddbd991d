/*
 * cmd_watch.c: nasperf watch, the copies the daemon notices, as they
 * happen.
 *
 * Every interval it asks GET /v1/transfers.  On a terminal the screen is
 * drawn again in place: the clients moving data now, each transfer under
 * way with the verdict of what it did so far (its run's report up to
 * now), then the last transfers that ended.  Otherwise it prints one line
 * per event: a transfer under way when the watch began, one that starts,
 * one that ends with its rate and verdict.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/http.h>

#include <jansson.h>

#include "client.h"
#include "nptime.h"
#include "show.h"
#include "table.h"

#define WATCH_SEEN	512	/* transfers remembered for their events */
#define WATCH_RECENT	8	/* ended transfers drawn on a terminal */

/* A transfer seen, and whether it had ended. */
struct watch_seen {
	long	id;
	int	ended;
};

struct watch {
	struct client		*c;
	struct watch_seen	 seen[WATCH_SEEN];
	size_t			 nseen;
	int			 first;		/* no poll before this one */
};

static volatile sig_atomic_t watch_stop;

/* SIGINT: stop after this poll. */
static void
watch_sig(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* The entry of transfer id, made when missing (the oldest reused). */
static struct watch_seen *
watch_find(struct watch *w, long id, int *fresh)
{
	size_t	i;

	*fresh = 0;
	for (i = 0; i < w->nseen; i++)
		if (w->seen[i].id == id)
			return (&w->seen[i]);
	*fresh = 1;
	if (w->nseen == WATCH_SEEN) {
		memmove(w->seen, w->seen + 1, (WATCH_SEEN - 1) *
		    sizeof *w->seen);
		w->nseen--;
	}
	w->seen[w->nseen].id = id;
	w->seen[w->nseen].ended = 0;
	return (&w->seen[w->nseen++]);
}

/* "user@machine", or the client's address when no session told. */
static const char *
watch_who(const json_t *t, char *out, size_t outsz)
{
	if (show_who(t, out, outsz) == NULL)
		snprintf(out, outsz, "%s", show_str(t, "client_addr"));
	return (out);
}

/* One event line: the time, what happened, the transfer. */
static void
watch_line(const char *what, const json_t *t)
{
	const json_t	*v = json_object_get(t, "verdict");
	char		 now[32], who[200];

	printf("%s %s transfer %lld: %s %s %s by %s",
	    nptime_local(now, sizeof now, "%H:%M:%S", nptime_real()), what,
	    json_integer_value(json_object_get(t, "id")),
	    show_str(t, "protocol"), show_str(t, "op"), show_str(t,
	    "client_addr"), watch_who(t, who, sizeof who));
	if (json_is_true(json_object_get(t, "ended"))) {
		printf(": %.1f MB in %.1f s", json_number_value(
		    json_object_get(t, "bytes")) / 1e6, json_number_value(
		    json_object_get(t, "end")) - json_number_value(
		    json_object_get(t, "start")));
		if (json_is_number(json_object_get(t, "client_rate")))
			printf(" = %.1f MB/s", json_number_value(
			    json_object_get(t, "client_rate")) / 1e6);
		if (json_is_object(v))
			printf("; %s: %s", show_str(v, "class"),
			    show_str(v, "resource"));
	}
	printf("\n");
}

/* Without a terminal: a line for each transfer that started or ended. */
static void
watch_events(struct watch *w, const json_t *list)
{
	struct watch_seen	*s;
	const json_t		*t;
	size_t			 i;
	int			 fresh, ended;

	json_array_foreach(json_object_get(list, "transfers"), i, t) {
		ended = json_is_true(json_object_get(t, "ended"));
		s = watch_find(w, (long)json_integer_value(json_object_get(t,
		    "id")), &fresh);
		if (fresh && w->first) {
			/* Before the watch: only one still going is news. */
			if (!ended)
				watch_line("under way:", t);
		} else if (fresh)
			watch_line(ended ? "ended" : "started", t);
		else if (ended && !s->ended)
			watch_line("ended", t);
		s->ended = ended;
	}
	w->first = 0;
	fflush(stdout);
}

/* The verdict so far of open transfer id, as "class: resource". */
static void
watch_live_verdict(struct watch *w, long id, char *out, size_t outsz)
{
	char	 path[96];
	json_t	*rep;

	snprintf(out, outsz, "-");
	snprintf(path, sizeof path, "/v1/transfers/%ld/report", id);
	if (client_request(w->c, EVHTTP_REQ_GET, path, NULL,
	    w->c->timeout) != 0 || w->c->status != 200 ||
	    (rep = client_json(w->c)) == NULL)
		return;
	snprintf(out, outsz, "%s: %s", show_str(json_object_get(rep,
	    "verdict"), "class"), show_str(json_object_get(rep, "verdict"),
	    "resource"));
	json_decref(rep);
}

/* On a terminal: the screen drawn again. */
static void
watch_draw(struct watch *w, const json_t *list, double interval)
{
	struct table	*t;
	const json_t	*x, *a;
	char		 verdict[160], who[200], when[32], id[24];
	size_t		 i, n, from;
	json_int_t	 run;

	printf("\033[H\033[2J");
	printf("nasperf watch: %s:%u, every %g s (Ctrl-C stops)   %s\n\n",
	    w->c->host, w->c->port, interval, nptime_local(when, sizeof when,
	    "%H:%M:%S", nptime_real()));
	printf("UNDER WAY\n");
	a = json_object_get(list, "live");
	if (json_array_size(a) == 0)
		printf("  no client is moving data\n");
	else if ((t = table_new("  l  l  l  r  r  r  l")) != NULL) {
		table_row(t, "CLIENT", "SERVICE", "STATE", "MB/s", "SECONDS",
		    "RUN", "VERDICT SO FAR", NULL);
		json_array_foreach(a, i, x) {
			run = json_integer_value(json_object_get(x, "run"));
			snprintf(verdict, sizeof verdict, "-");
			snprintf(id, sizeof id, "-");
			if (run > 0) {
				watch_live_verdict(w, (long)run, verdict,
				    sizeof verdict);
				snprintf(id, sizeof id, "%lld", run);
			}
			table_add(t, "%s", show_str(x, "client"));
			table_add(t, "%s", show_str(x, "service"));
			table_add(t, "%s", show_str(x, "state"));
			table_add(t, "%.1f", json_number_value(json_object_get(
			    x, "bytes_per_s")) / 1e6);
			table_add(t, "%.0f", json_number_value(json_object_get(
			    x, "seconds")));
			table_row(t, id, verdict, NULL);
		}
		table_done(t, stdout);
	}
	printf("\nENDED\n");
	a = json_object_get(list, "transfers");
	for (n = 0, i = 0; i < json_array_size(a); i++)
		n += json_is_true(json_object_get(json_array_get(a, i),
		    "ended"));
	if (n == 0 || (t = table_new("  r  l  l  l  l  r  r  l")) == NULL) {
		printf("  none yet\n");
		fflush(stdout);
		return;
	}
	table_row(t, "ID", "END", "WHO", "PROTO", "OP", "MB/s", "SECONDS",
	    "VERDICT", NULL);
	from = n > WATCH_RECENT ? n - WATCH_RECENT : 0;
	for (n = 0, i = 0; i < json_array_size(a); i++) {
		x = json_array_get(a, i);
		if (!json_is_true(json_object_get(x, "ended")) || n++ < from)
			continue;
		table_add(t, "%lld", json_integer_value(json_object_get(x,
		    "id")));
		table_add(t, "%s", nptime_local(when, sizeof when, "%H:%M:%S",
		    json_number_value(json_object_get(x, "end"))));
		table_add(t, "%s", watch_who(x, who, sizeof who));
		table_add(t, "%s", show_str(x, "protocol"));
		table_add(t, "%s", show_str(x, "op"));
		table_add(t, "%.1f", json_number_value(json_object_get(x,
		    "client_rate")) / 1e6);
		table_add(t, "%.1f", json_number_value(json_object_get(x,
		    "end")) - json_number_value(json_object_get(x, "start")));
		table_add(t, "%s: %s", show_str(json_object_get(x, "verdict"),
		    "class"), show_str(json_object_get(x, "verdict"),
		    "resource"));
		table_end(t);
	}
	table_done(t, stdout);
	fflush(stdout);
}

static const struct args_cmd watch_args = { "watch", "i:n:", NULL, 0,
"usage: nasperf watch [-i SEC] [-n COUNT]\n"
"The copies the daemon notices, as they happen: on a terminal, the\n"
"clients moving data with each transfer's verdict so far and the last\n"
"that ended; otherwise a line as each starts and ends (with --json, each\n"
"answer of GET /v1/transfers on a line).\n"
"\n"
"Options:\n"
"  -i SEC                ask every SEC seconds (0.5 to 60, default 1)\n"
"  -n COUNT              stop after COUNT asks\n"
};

/* nasperf watch [-i SEC] [-n COUNT]. */
int
cmd_watch(struct client *c, int argc, char **argv)
{
	struct watch	*w;
	json_t		*j;
	double		 interval = 1.0, t0;
	long		 count = 0, k;
	int		 tty = isatty(1), rc;

	if ((rc = client_every(c, argc, argv, &watch_args, &interval,
	    &count)) != -1)
		return (rc);
	rc = 0;
	if ((w = calloc(1, sizeof *w)) == NULL)
		return (client_fail("out of memory"));
	w->c = c;
	w->first = 1;
	signal(SIGINT, watch_sig);
	signal(SIGTERM, watch_sig);
	for (k = 0; !watch_stop && (count == 0 || k < count); k++) {
		t0 = nptime_mono();
		if ((j = client_call(c, EVHTTP_REQ_GET, "/v1/transfers",
		    NULL)) == NULL) {
			rc = 1;
			break;
		}
		if (c->json) {
			client_print_json(j, CLIENT_JSON_LINE);
			fflush(stdout);
		} else if (tty)
			watch_draw(w, j, interval);
		else
			watch_events(w, j);
		json_decref(j);
		while (!watch_stop && (count == 0 || k + 1 < count) &&
		    nptime_mono() - t0 < interval)
			usleep(50000);
	}
	free(w);
	return (rc);
}
