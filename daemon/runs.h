/*
 * runs.h: client runs and their reports.
 *
 * A run is a window on the server's clock plus what the client saw.  It
 * is opened live (POST /v1/runs, then POST /v1/runs/ID/end) or given
 * after the fact with the client's timestamps and its clock offset.  Each
 * run and its report is one file, STATE_DIR/runs/ID.json, written
 * atomically whenever it changes, so a run opened before a restart still
 * ends and reports afterwards.
 */
#ifndef RUNS_H
#define RUNS_H

struct daemon;
struct evhttp_request;

/*
 * Read the saved runs (and remove temporary files a crash left); -1 with
 * an allocated *cause when the directory cannot be used.
 */
int	runs_init(struct daemon *, char **cause);
/* Forget the runs in memory (they are all on disk already). */
void	runs_shutdown(struct daemon *);
/* GET /v1/runs (the list) and POST /v1/runs (open or record a run). */
void	runs_api(struct daemon *, struct evhttp_request *);
/* /v1/runs/ID, /v1/runs/ID/end and /v1/runs/ID/report. */
void	runs_api_item(struct daemon *, struct evhttp_request *,
	    const char *rest);

/* GET /v1/verdict?seconds=N: the verdict of the last N seconds. */
void	runs_api_verdict(struct daemon *, struct evhttp_request *);

#endif /* RUNS_H */
