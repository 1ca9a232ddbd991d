/*
 * api_runs.h: the routes of client runs and the verdict, over runs.h.
 */
#ifndef API_RUNS_H
#define API_RUNS_H

struct daemon;
struct evhttp_request;

/* GET /v1/runs (the list) and POST /v1/runs (open or record a run). */
void	api_runs(struct daemon *, struct evhttp_request *);
/* /v1/runs/ID, /v1/runs/ID/end and /v1/runs/ID/report. */
void	api_runs_item(struct daemon *, struct evhttp_request *);
/*
 * GET /v1/transfers: the runs of origin "auto" (copies noticed on their
 * own) and the clients moving data now.
 */
void	api_transfers(struct daemon *, struct evhttp_request *);
/* /v1/transfers/ID and its report, as /v1/runs/ID. */
void	api_transfers_item(struct daemon *, struct evhttp_request *);
/* GET /v1/verdict?seconds=N: the verdict of the last N seconds. */
void	api_runs_verdict(struct daemon *, struct evhttp_request *);

#endif /* API_RUNS_H */
