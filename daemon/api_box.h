/*
 * api_box.h: the routes of what the box is and what its counters say.
 */
#ifndef API_BOX_H
#define API_BOX_H

struct daemon;
struct evhttp_request;

/* GET /healthz: {"status": "ok"}, without a token. */
void	api_healthz(struct daemon *, struct evhttp_request *);
/* GET /v1/info: the box, its topology and counters, the daemon's limits. */
void	api_info(struct daemon *, struct evhttp_request *);
/* GET /v1/topology, with the SMB sessions smbstatus listed last. */
void	api_topology(struct daemon *, struct evhttp_request *);
/* GET /v1/counters[?interval=S]: now, or with the rates over S seconds. */
void	api_counters(struct daemon *, struct evhttp_request *);
/* GET /metrics: the counters in Prometheus's text format. */
void	api_metrics(struct daemon *, struct evhttp_request *);
void	api_baseline(struct daemon *, struct evhttp_request *);
/* GET /v1/samples?from=&to=&step=: the history's counters. */
void	api_samples(struct daemon *, struct evhttp_request *);
/* GET /v1/time: the server's clock, for the client's offset estimate. */
void	api_time(struct daemon *, struct evhttp_request *);
/* Answer the ?interval= requests still waiting: 503, stopping. */
void	api_box_shutdown(struct daemon *);

#endif /* API_BOX_H */
