/*
 * authfail.c: failed authentications counted per address, logged, and
 * refused for a while when they come too fast.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "authfail.h"
#include "daemon.h"
#include "log.h"
#include "nptime.h"

struct authfail_slot {
	char		addr[64];
	unsigned	n;		/* failures since first */
	double		first;		/* of the current window, monotonic */
	double		last;		/* the last failure */
	double		until;		/* refused until; 0 not refused */
	double		block;		/* the next refusal's seconds */
	unsigned	quiet;		/* failures not logged since logged */
	double		logged;		/* the last log line */
};

struct authfail {
	struct authfail_slot	v[AUTHFAIL_SLOTS];
};

/* The slot of addr, or NULL; with make, a new one (the quietest reused). */
static struct authfail_slot *
authfail_slot(struct daemon *d, const char *addr, int make)
{
	struct authfail_slot	*s, *old = NULL;
	size_t			 i;

	if (d->authfail == NULL) {
		if (!make || (d->authfail = calloc(1, sizeof *d->authfail)) ==
		    NULL)
			return (NULL);
	}
	for (i = 0; i < AUTHFAIL_SLOTS; i++) {
		s = &d->authfail->v[i];
		if (s->addr[0] != '\0' && strcmp(s->addr, addr) == 0)
			return (s);
		if (old == NULL || (old->addr[0] != '\0' && (s->addr[0] ==
		    '\0' || s->last < old->last)))
			old = s;
	}
	if (!make)
		return (NULL);
	memset(old, 0, sizeof *old);
	snprintf(old->addr, sizeof old->addr, "%s", addr);
	return (old);
}

int
authfail_blocked(struct daemon *d, const char *addr, unsigned *retry)
{
	struct authfail_slot	*s;
	double			 now = nptime_mono();

	*retry = 0;
	if ((s = authfail_slot(d, addr, 0)) == NULL || s->until <= now)
		return (0);
	*retry = (unsigned)ceil(s->until - now);
	return (1);
}

void
authfail_record(struct daemon *d, const char *addr, const char *what)
{
	struct authfail_slot	*s;
	double			 now = nptime_mono();

	if ((s = authfail_slot(d, addr, 1)) == NULL) {
		log_info("%s: authentication failed from %s", what, addr);
		return;
	}
	if (s->n == 0 || now - s->first > AUTHFAIL_WINDOW) {
		s->n = 0;
		s->first = now;
	}
	s->n++;
	s->last = now;
	if (s->logged == 0 || now - s->logged >= AUTHFAIL_LOG_EVERY) {
		log_notice("%s: authentication failed from %s (a missing or "
		    "wrong token)", what, addr);
		if (s->quiet > 0)
			log_notice("%s: %u more failed from %s in the last "
			    "%.0f s", what, s->quiet, addr, now - s->logged);
		s->logged = now;
		s->quiet = 0;
	} else
		s->quiet++;
	if (s->n >= AUTHFAIL_MAX) {
		s->block = s->block == 0 ? 1 : fmin(s->block * 2,
		    AUTHFAIL_BLOCK_MAX);
		s->until = now + s->block;
		s->n = 0;
		log_notice("%s: %s failed to authenticate %u times within "
		    "%.0f s: refused for %.0f s", what, addr, AUTHFAIL_MAX,
		    AUTHFAIL_WINDOW, s->block);
	}
}

void
authfail_ok(struct daemon *d, const char *addr)
{
	struct authfail_slot	*s;

	if ((s = authfail_slot(d, addr, 0)) != NULL)
		memset(s, 0, sizeof *s);
}

void
authfail_free(struct daemon *d)
{
	free(d->authfail);
	d->authfail = NULL;
}
