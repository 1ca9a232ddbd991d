/*
 * cachedrop.h: POST /v1/cache/drop: write out dirty pages and drop the
 * page cache, so that a benchmark's reads come from the disks.
 */
#ifndef CACHEDROP_H
#define CACHEDROP_H

struct daemon;
struct evhttp_request;

/*
 * The handler.  The work (sync, then 1 into /proc/sys/vm/drop_caches)
 * runs in a thread of its own and the answer is sent when it is done, so
 * the event loop never waits on the disks.  403 when nasperfd is not
 * root, 409 on a fixture tree (--root) or while another drop runs.
 */
void	cachedrop_api(struct daemon *, struct evhttp_request *);

#endif /* CACHEDROP_H */
