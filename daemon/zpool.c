/*
 * zpool.c: "zpool status -PL" as a child process, and the pools it lists.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
#include "zfs.h"
#include "zpool.h"

struct zpool {
	struct daemon		*d;
	struct event		*ev_tick;	/* the next listing */
	struct child		*child;		/* zpool status */
	struct zfs_status	*cur;		/* the last good listing */
	struct zfs_status	*next;		/* the one being parsed */
	struct zfs_datasets	 ds;		/* zfs get's, after it */
	struct zfs_datasets	 nds;		/* the one being parsed */
	enum {
		ZPOOL_STATUS, ZPOOL_GET, ZPOOL_IOSTAT
	}			 stage;		/* what the child is */
	char			 zfs[4096];	/* zfs, beside zfs.zpool */
	double			 polled;	/* realtime of cur, 0 none */
	char			 error[512];	/* the last listing's, "" */
	struct zfs_viostat	*io;		/* the last good iostat */
	struct zfs_viostat	*nio;		/* the one being parsed */
	double			 io_at;		/* realtime of io's end, 0 */
	int			 soon;		/* a run asked for a listing */
	char			 io_error[256];	/* the last iostat's, "" */
};

static void	zpool_get(struct zpool *);
static void	zpool_iostat(struct zpool *);

/*
 * zpool iostat is gone: keep the vdevs' I/O over its second.  A zpool
 * without -l (before OpenZFS 0.7) fails each time, and says so.
 */
static void
zpool_iostat_done(struct zpool *zp, int status, const char *out, size_t len,
    int overflow)
{
	struct zfs_viostat	*t;
	const char		*errstr = NULL;

	zp->stage = ZPOOL_STATUS;
	if (!child_failure("zpool iostat -vlpy", status, overflow,
	    ZPOOL_MAX_OUTPUT, zp->io_error, sizeof zp->io_error)) {
		if (zp->nio == NULL && (zp->nio = malloc(sizeof *zp->nio)) ==
		    NULL)
			snprintf(zp->io_error, sizeof zp->io_error, "out of "
			    "memory");
		else if (zfs_viostat_parse(out, len, zp->nio, &errstr) == -1)
			snprintf(zp->io_error, sizeof zp->io_error, "zpool "
			    "iostat: %s", errstr != NULL ? errstr :
			    strerror(errno));
		else {
			t = zp->io;
			zp->io = zp->nio;
			zp->nio = t;
			zp->io_at = nptime_real();
			zp->io_error[0] = '\0';
			return;
		}
	}
	log_debug("zfs: %s", zp->io_error);
}

/* zfs get is gone: keep the datasets' properties it listed. */
static void
zpool_get_done(struct zpool *zp, int status, const char *out, size_t len,
    int overflow)
{
	struct zfs_datasets	 t;
	const char		*errstr = NULL;
	char			 why[128];

	if (child_failure("zfs get", status, overflow, ZPOOL_MAX_OUTPUT, why,
	    sizeof why))
		log_debug("zfs: %s", why);
	else if (zfs_datasets_parse(out, len, &zp->nds, &errstr) == -1)
		log_debug("zfs: zfs get: %s", errstr != NULL ? errstr :
		    strerror(errno));
	else {
		/* The last good listing stays until a good one replaces it. */
		t = zp->ds;
		zp->ds = zp->nds;
		zp->nds = t;
	}
	zpool_iostat(zp);
}

/* zpool is gone with status: keep what it listed. */
static void
zpool_done(void *arg, int status, const char *out, size_t len, int overflow)
{
	struct zpool		*zp = arg;
	struct zfs_status	*t;
	const char		*errstr = NULL;

	if (zp->stage == ZPOOL_GET) {
		zpool_get_done(zp, status, out, len, overflow);
		return;
	}
	if (zp->stage == ZPOOL_IOSTAT) {
		zpool_iostat_done(zp, status, out, len, overflow);
		return;
	}
	if (!child_failure("zpool status", status, overflow, ZPOOL_MAX_OUTPUT,
	    zp->error, sizeof zp->error)) {
		if (zp->next == NULL && (zp->next = malloc(sizeof *zp->next)) ==
		    NULL)
			snprintf(zp->error, sizeof zp->error, "out of memory");
		else if (zfs_status_parse(out, len, zp->next, &errstr) == -1)
			snprintf(zp->error, sizeof zp->error, "zpool status: "
			    "%s", errstr != NULL ? errstr : "not understood");
		else {
			t = zp->cur;
			zp->cur = zp->next;
			zp->next = t;
			zp->polled = nptime_real();
			zp->error[0] = '\0';
			log_debug("zfs: %zu pools from zpool status in %.2f s",
			    zp->cur->npools, child_age(zp->child));
			zpool_get(zp);
			return;
		}
	}
	log_debug("zfs: %s", zp->error);
}

/* Then the datasets: their mountpoint, sync, compression, caching. */
static void
zpool_get(struct zpool *zp)
{
	char	*argv[] = { (char *)"zfs", (char *)"get", (char *)"-Hp",
		    (char *)"-o", (char *)"name,property,value", (char *)"-t",
		    (char *)"filesystem", (char *)"mountpoint,sync,compression,"
		    "recordsize,primarycache", NULL };
	char	 err[512];

	zp->stage = ZPOOL_GET;
	if (child_start(zp->child, zp->zfs, argv, err, sizeof err) == -1) {
		zp->stage = ZPOOL_STATUS;
		log_debug("zfs: %s", err);
	}
}

/*
 * Last, each vdev's I/O over one second: operations, bandwidth, and the
 * latencies (-l) that diskstats cannot give, the time an I/O waited in
 * ZFS's own queues among them; exact numbers (-p), bytes and ns.
 */
static void
zpool_iostat(struct zpool *zp)
{
	char	*argv[] = { (char *)"zpool", (char *)"iostat", (char *)"-vlpy",
		    (char *)"1", (char *)"1", NULL };

	zp->stage = ZPOOL_IOSTAT;
	if (child_start(zp->child, zp->d->cfg->zfs_zpool, argv, zp->io_error,
	    sizeof zp->io_error) == -1) {
		zp->stage = ZPOOL_STATUS;
		log_debug("zfs: %s", zp->io_error);
	}
}

/* The timer: list the pools where the module is loaded. */
static void
zpool_tick(evutil_socket_t fd, short what, void *arg)
{
	struct zpool	*zp = arg;
	char		*argv[] = { (char *)"zpool", (char *)"status",
			    (char *)"-PL", NULL };
	struct timeval	 tv;

	(void)fd;
	(void)what;
	zp->soon = 0;
	evtimer_add(zp->ev_tick, nptime_timeval(zp->d->cfg->zfs_status_interval,
	    &tv));
	/* A pool may be imported after boot: look again each time. */
	if (!probe_exists(&zp->d->root, PROBE_PROC, "spl/kstat/zfs")) {
		snprintf(zp->error, sizeof zp->error, "no ZFS module loaded");
		return;
	}
	if (child_start(zp->child, zp->d->cfg->zfs_zpool, argv, zp->error,
	    sizeof zp->error) == -1 && zp->error[0] != '\0')
		log_debug("zfs: %s", zp->error);
}

int
zpool_init(struct daemon *d, char **cause)
{
	struct zpool	*zp;
	struct timeval	 tv;

	*cause = NULL;
	if ((zp = calloc(1, sizeof *zp)) == NULL) {
		*cause = strdup("zfs: out of memory");
		return (-1);
	}
	zp->d = d;
	d->zpool = zp;
	/* zfs beside zpool: /usr/sbin/zfs for /usr/sbin/zpool. */
	snprintf(zp->zfs, sizeof zp->zfs, "%.*szfs", (int)(strrchr(
	    d->cfg->zfs_zpool, '/') != NULL ? strrchr(d->cfg->zfs_zpool,
	    '/') - d->cfg->zfs_zpool + 1 : 0), d->cfg->zfs_zpool);
	if (d->cfg->zfs_status_interval == 0) {
		snprintf(zp->error, sizeof zp->error, "not listed "
		    "(zfs.status_interval is 0)");
		return (0);
	}
	/* A fixture root is not this host: its pools are not ours. */
	if (!d->root.live) {
		snprintf(zp->error, sizeof zp->error, "not listed under "
		    "--root %.300s", d->root.path);
		return (0);
	}
	zp->ev_tick = evtimer_new(d->base, zpool_tick, zp);
	zp->child = child_new(d->base, ZPOOL_TIMEOUT, ZPOOL_MAX_OUTPUT,
	    zpool_done, zp);
	if (zp->ev_tick == NULL || zp->child == NULL) {
		*cause = strdup("zfs: out of memory");
		return (-1);
	}
	evtimer_add(zp->ev_tick, nptime_timeval(0.5, &tv));
	return (0);
}

void
zpool_shutdown(struct daemon *d)
{
	struct zpool	*zp = d->zpool;

	if (zp == NULL)
		return;
	child_free(zp->child);
	if (zp->ev_tick != NULL)
		event_free(zp->ev_tick);
	free(zp->cur);
	free(zp->next);
	free(zp->io);
	free(zp->nio);
	zfs_datasets_clear(&zp->ds);
	zfs_datasets_clear(&zp->nds);
	free(zp);
	d->zpool = NULL;
}

const struct zfs_status *
zpool_status(const struct daemon *d)
{
	const struct zpool	*zp = d->zpool;

	return (zp != NULL && zp->polled > 0 ? zp->cur : NULL);
}

const struct zfs_datasets *
zpool_datasets(const struct daemon *d)
{
	const struct zpool	*zp = d->zpool;

	return (zp != NULL && zp->ds.n > 0 ? &zp->ds : NULL);
}

json_t *
zpool_json(const struct daemon *d)
{
	const struct zpool	*zp = d->zpool;

	if (zp == NULL)
		return (json_null());
	return (json_pack("{s:b,s:o,s:o,s:o,s:o}", "available", zp->polled > 0,
	    "polled", zp->polled > 0 ? json_real(zp->polled) : json_null(),
	    "error", zp->error[0] != '\0' ? enc_text(zp->error) : json_null(),
	    "pools", zp->polled > 0 ? enc_zfs_pools(zp->cur) : json_null(),
	    "datasets", zp->ds.n > 0 ? enc_zfs_datasets(&zp->ds) :
	    json_null()));
}

void
zpool_poll_soon(struct daemon *d)
{
	struct zpool	*zp = d->zpool;
	struct timeval	 tv;

	if (zp == NULL || zp->ev_tick == NULL || zp->soon ||
	    child_running(zp->child))
		return;
	zp->soon = 1;
	evtimer_add(zp->ev_tick, nptime_timeval(ZPOOL_RUN_DELAY, &tv));
}

const struct zfs_viostat *
zpool_viostat(const struct daemon *d, double *when)
{
	const struct zpool	*zp = d->zpool;

	if (zp == NULL || zp->io_at == 0)
		return (NULL);
	if (when != NULL)
		*when = zp->io_at;
	return (zp->io);
}

json_t *
zpool_viostat_json(const struct daemon *d)
{
	const struct zpool	*zp = d->zpool;
	const char		*err;

	if (zp == NULL)
		return (json_null());
	/* Before its first run, why the pools are not listed either. */
	err = zp->io_error[0] != '\0' ? zp->io_error : zp->io_at == 0 &&
	    zp->error[0] != '\0' ? zp->error : NULL;
	return (json_pack("{s:o,s:i,s:o,s:o}", "polled", zp->io_at > 0 ?
	    json_real(zp->io_at) : json_null(), "seconds", 1, "error",
	    err != NULL ? enc_text(err) : json_null(), "vdevs", zp->io_at > 0 ?
	    enc_zfs_viostat(zp->io) : json_null()));
}
