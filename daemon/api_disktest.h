/*
 * api_disktest.h: the disk analyzer's routes, over disktest.h.
 */
#ifndef API_DISKTEST_H
#define API_DISKTEST_H

struct daemon;
struct evhttp_request;

/* GET /v1/disktests (the list) and POST /v1/disktests (start one). */
void	api_disktests(struct daemon *, struct evhttp_request *);
/* GET and DELETE /v1/disktests/ID. */
void	api_disktest_item(struct daemon *, struct evhttp_request *);

#endif /* API_DISKTEST_H */
