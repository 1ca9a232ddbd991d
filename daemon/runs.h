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

#include <jansson.h>

#include "http.h"

struct daemon;
struct run_figures;

/*
 * Read the saved runs (and remove temporary files a crash left); -1 with
 * an allocated *cause when the directory cannot be used.
 */
int	runs_init(struct daemon *, char **cause);
/* Forget the runs in memory (they are all on disk already). */
void	runs_shutdown(struct daemon *);
/*
 * {"runs": [{...the run, verdict, client_rate}...]}, those of origin (NULL:
 * all; "auto": the transfers noticed on their own), only those not yet
 * ended when open_only; NULL on ENOMEM.
 */
json_t	*runs_list(struct daemon *, const char *origin, int open_only);
/*
 * The verdicts given since nasperfd started, for /metrics: one count per
 * origin ("run": opened or recorded by a client; "auto": a transfer
 * noticed on its own), class, and hint kind ("" for the verdict itself).
 */
#define RUNS_TALLY_MAX	96
struct runs_tally {
	char		origin[8];
	char		cls[16];
	char		hint[24];
	unsigned long	n;
};
/* Copy the tallies into out (room for RUNS_TALLY_MAX); how many. */
size_t	runs_tallies(const struct daemon *, struct runs_tally *out);
/* The id of a run opened by a client (not noticed) open for addr, or 0. */
unsigned long runs_client_open(struct daemon *, const char *addr);
/*
 * Transfer xfer (a run of origin "auto") was the copy that client run id
 * measured: the transfer says "joined": id, the run lists it in
 * "transfers", both saved.  A run recorded after the fact joins the
 * transfers its window overlaps by itself.
 */
void	runs_join(struct daemon *, unsigned long xfer, unsigned long id);
/*
 * Open a live run of origin "auto" for a transfer from peer noticed on
 * its own, begun at start (server clock), with figures f: its id, or -1
 * (logged).
 */
long	runs_open_auto(struct daemon *, const struct run_figures *f,
	    const char *peer, double start);
/*
 * Open a live run (f without start and end: *opened 1) or record one
 * after the fact (with them: *opened 0, and its report made at once), with
 * the client's figures f (run_parse's) and its address peer ("" or NULL:
 * unknown), and save it: {id, run, report}, or NULL with e (400 on a
 * figure the run cannot take, 409 with too many open, 410 when the
 * history does not cover a recorded window, 500).
 */
json_t	*runs_create(struct daemon *, const struct run_figures *f,
	    const char *peer, int *opened, struct http_err *e);
/*
 * Run id's document as its file holds it, {"run", "report", "path_start"},
 * only when a transfer if noticed; or NULL.
 */
json_t	*runs_get(struct daemon *, unsigned long id, int noticed);
/* 0 when run id is open; -1 with e: 404 no such run, 409 already ended. */
int	runs_check_open(struct daemon *, unsigned long id, struct http_err *e);
/*
 * End the live run id now, with the client's figures f, make its report
 * and save both: the report, or NULL with e, the run left open.
 */
json_t	*runs_end(struct daemon *, unsigned long id,
	    const struct run_figures *f, struct http_err *e);
/* The same, the run's window ending at at (server clock) when in the past. */
json_t	*runs_end_at(struct daemon *, unsigned long id,
	    const struct run_figures *f, double at, struct http_err *e);
/* Run id's saved report, or an open run's report so far (not saved). */
json_t	*runs_report(struct daemon *, unsigned long id, struct http_err *e);
/* The report of the last secs seconds, saved nowhere. */
json_t	*runs_verdict(struct daemon *, double secs, struct http_err *e);

#endif /* RUNS_H */
