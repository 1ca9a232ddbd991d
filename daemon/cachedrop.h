/*
 * cachedrop.h: write out dirty pages and drop the page cache, so that a
 * benchmark's reads come from the disks (POST /v1/cache/drop, in
 * api_cache.c).
 */
#ifndef CACHEDROP_H
#define CACHEDROP_H

#include "http.h"

struct daemon;

/*
 * Start a drop: sync, then 1 into /proc/sys/vm/drop_caches, in a thread
 * of its own, so the event loop never waits on the disks; cb(arg) gets
 * {dropped, sync_seconds, drop_seconds, cached_before_bytes,
 * cached_after_bytes} or the failure when it is done.  -1 with e filled
 * at once: 403 when nasperfd is not root, 409 on a fixture tree (--root)
 * or while another drop runs.
 */
int	cachedrop_start(struct daemon *, http_done_cb *cb, void *arg,
	    struct http_err *e);

#endif /* CACHEDROP_H */
