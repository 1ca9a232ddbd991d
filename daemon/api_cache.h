/*
 * api_cache.h: POST /v1/cache/drop, over cachedrop.h.
 */
#ifndef API_CACHE_H
#define API_CACHE_H

struct daemon;
struct evhttp_request;

/* POST /v1/cache/drop: answered when the drop is done. */
void	api_cache_drop(struct daemon *, struct evhttp_request *);

#endif /* API_CACHE_H */
