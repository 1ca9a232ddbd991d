/*
 * cachedrop.c: drop the server's page cache for a benchmark's reads.
 *
 * A read test that follows its write test would otherwise be served from
 * the NAS's memory; a reviewer wants the disks.  sync(2) can take seconds
 * with gigabytes dirty, and dropping a large cache takes a while too, so
 * both run in a thread, and a 20 ms timer on the event loop answers once
 * the thread is done and calls back.  Only the page cache is dropped (1), not dentries
 * and inodes, which a NAS needs for its listings.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/http.h>

#include <jansson.h>

#include "cachedrop.h"
#include "daemon.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "nptime.h"

#define CD_POLL_US	20000

struct cachedrop {
	http_done_cb		*cb;		/* answers the POST */
	void			*cbarg;
	struct event		*timer;
	pthread_t		 th;
	_Atomic int		 done;
	int			 err;		/* errno of the write */
	double			 t0, sync_s, drop_s;
	long long		 before, after;	/* Cached: bytes */
};

static struct cachedrop	*cd_busy;

/* "Cached:" of /proc/meminfo in bytes; -1 when unreadable. */
static long long
cd_cached(void)
{
	FILE		*fp;
	char		 line[256];
	long long	 kb = -1;

	if ((fp = fopen("/proc/meminfo", "re")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, fp) != NULL)
		if (strncmp(line, "Cached:", 7) == 0) {
			kb = strtoll(line + 7, NULL, 10);
			break;
		}
	fclose(fp);
	return (kb < 0 ? -1 : kb * 1024);
}

static void *
cd_thread(void *arg)
{
	struct cachedrop	*cd = arg;
	double			 t;
	int			 fd;

	cd->before = cd_cached();
	sync();
	t = nptime_real();
	cd->sync_s = t - cd->t0;
	if ((fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC)) ==
	    -1 || write(fd, "1", 1) != 1)
		cd->err = errno != 0 ? errno : EIO;
	if (fd != -1)
		close(fd);
	cd->drop_s = nptime_real() - t;
	cd->after = cd_cached();
	atomic_store(&cd->done, 1);
	return (NULL);
}

static void
cd_poll(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct cachedrop	*cd = arg;
	struct timeval		 tv = { 0, CD_POLL_US };
	struct http_err		 e;

	if (!atomic_load(&cd->done)) {
		evtimer_add(cd->timer, &tv);
		return;
	}
	pthread_join(cd->th, NULL);
	if (cd->err != 0) {
		http_fail(&e, HTTP_INTERNAL, "drop_failed",
		    "/proc/sys/vm/drop_caches: %s", strerror(cd->err));
		cd->cb(NULL, &e, cd->cbarg);
	} else
		cd->cb(json_pack("{s:b,s:f,s:f,s:I,s:I}", "dropped", 1,
		    "sync_seconds", cd->sync_s, "drop_seconds", cd->drop_s,
		    "cached_before_bytes", (json_int_t)cd->before,
		    "cached_after_bytes", (json_int_t)cd->after), NULL,
		    cd->cbarg);
	log_debug("page cache dropped: %lld -> %lld bytes in %.3f s",
	    cd->before, cd->after, cd->sync_s + cd->drop_s);
	event_free(cd->timer);
	free(cd);
	cd_busy = NULL;
}

int
cachedrop_start(struct daemon *d, http_done_cb *cb, void *arg,
    struct http_err *e)
{
	struct cachedrop	*cd;
	struct timeval		 tv = { 0, CD_POLL_US };

	if (d->opt_root != NULL)
		return (http_fail(e, 409, "fixture", "nasperfd reads a fixture "
		    "tree (--root): there is no page cache of its own to "
		    "drop"));
	if (!d->is_root)
		return (http_fail(e, 403, "not_root", "nasperfd does not run "
		    "as root, so it cannot drop the page cache"));
	if (cd_busy != NULL)
		return (http_fail(e, 409, "busy", "a drop is already running"));
	if ((cd = calloc(1, sizeof *cd)) == NULL ||
	    (cd->timer = evtimer_new(d->base, cd_poll, cd)) == NULL) {
		free(cd);
		return (http_fail(e, HTTP_INTERNAL, "memory", "out of memory"));
	}
	cd->cb = cb;
	cd->cbarg = arg;
	cd->t0 = nptime_real();
	if (pthread_create(&cd->th, NULL, cd_thread, cd) != 0) {
		event_free(cd->timer);
		free(cd);
		return (http_fail(e, HTTP_INTERNAL, "thread", "cannot start a "
		    "thread"));
	}
	cd_busy = cd;
	evtimer_add(cd->timer, &tv);
	return (0);
}
