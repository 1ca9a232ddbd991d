/*
 * client.h: what the commands of nasperf share: the daemon's address and
 * token, and one HTTP request at a time to it.
 */
#ifndef CLIENT_H
#define CLIENT_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "args.h"
#include "np.h"

#define NASPERF_TOKEN_FILE	"/var/lib/nasperfd/token"
#define NASPERF_TOKEN_MAX	256

struct evbuffer;
struct event_base;

/* Where to connect and how. */
/*
 * How --json prints an answer: indented, or one line for what repeats;
 * reals to 15 significant digits (2.31, not 2.3100000000000001).
 */
#define CLIENT_JSON	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | \
			    JSON_REAL_PRECISION(15))
#define CLIENT_JSON_LINE	(JSON_COMPACT | JSON_REAL_PRECISION(15))

struct client {
	char		 host[256];	/* bare: no scheme, no brackets */
	unsigned	 port;
	int		 tls;		/* https:// */
	const char	*cacert;	/* --cacert, $NASPERF_CACERT; borrowed */
	char		 token[NASPERF_TOKEN_MAX];
	const char	*token_file;	/* -t, borrowed from argv */
	int		 json;
	double		 timeout;	/* seconds */
	int		 probed;	/* the address was reached once */

	/* The answer of the last request made. */
	int		 status;	/* HTTP status, 0 when none came */
	int		 failed;	/* transport error */
	int		 timedout;
	struct evbuffer	*body;
	struct event_base *base;
};

/*
 * The progress line of a command that takes more than a second
 * (progress.c): on a terminal (stderr, and not --json), fmt drawn over
 * the line before; NULL clears it.  Elsewhere nothing: the output stays
 * plain lines.  Every error message clears it first.
 */
void	client_progress(const struct client *, const char *fmt, ...)
	    NP_PRINTF(2, 3);
/* Clear the progress line, if one is drawn. */
void	client_progress_clear(void);
/* Whether a progress line is drawn now. */
int	client_progress_shown(void);
/*
 * Print j to stdout as flags say (CLIENT_JSON, CLIENT_JSON_LINE) and a
 * newline, its reals rounded to what they mean (jsonnum.h).
 */
void	client_print_json(const json_t *j, size_t flags);
/*
 * Send method (EVHTTP_REQ_*) path with an optional JSON body; the answer
 * goes to c->status and c->body.  0 when an answer came, else 1 with a
 * message printed.
 */
int	client_request(struct client *, int method, const char *path,
	    const json_t *body, double timeout);
/*
 * GET path from a daemon at host port other than c's, over plain HTTP and
 * quietly: 0 on a 200, else -1 with why ("Connection refused", "answered
 * 503", "no answer").  nasperf install asks /healthz with it.
 */
int	client_check(const char *host, unsigned port, const char *path,
	    double timeout, char *why, size_t whysz);
/* c->body as JSON; NULL with a message printed. */
json_t	*client_json(struct client *);
/* Explain a non-2xx answer (j may be NULL); returns 1. */
int	client_status_error(struct client *, json_t *j);
/*
 * Make a request and return its JSON answer when the status is 2xx; NULL
 * with the error printed otherwise.
 */
json_t	*client_call(struct client *, int method, const char *path,
	    const json_t *body);

/*
 * The options of a command that asks again and again (top, watch):
 * -i SECONDS between asks (0.5 to 60) and -n COUNT asks, into *interval
 * and *count (left alone when not given); no operand.  -1 when the
 * command goes on, else its exit status (0 after --help).
 */
int	client_every(struct client *, int argc, char **argv,
	    const struct args_cmd *, double *interval, long *count);

/* The run commands (cmd_runs.c): each returns the exit status. */
int	cmd_run(struct client *, int argc, char **argv);
int	cmd_mark(struct client *, int argc, char **argv);
int	cmd_runs(struct client *, int argc, char **argv);
int	cmd_transfers(struct client *, int argc, char **argv);
int	cmd_report(struct client *, int argc, char **argv);
int	cmd_compare(struct client *, int argc, char **argv);
int	cmd_top(struct client *, int argc, char **argv);
/* nasperf watch (cmd_watch.c): the transfers the daemon notices, live. */
int	cmd_watch(struct client *, int argc, char **argv);
/* Parse a byte count with an optional k/M/G/T suffix (powers of 1024). */
int	run_parse_bytes(const char *, uint64_t *out);
/* Print run id's report: the daemon's text, or rep as JSON with --json. */
int	run_print_report(struct client *, long id, const json_t *rep);

/* nasperf synth (cmd_synth.c): the network without the disks. */
int	cmd_synth(struct client *, int argc, char **argv);
/* nasperf disktest (cmd_disktest.c): the disk analyzer. */
int	cmd_disktest(struct client *, int argc, char **argv);
/* nasperf install and uninstall (cmd_install.c): nasperfd on a NAS over ssh. */
int	cmd_install(struct client *, int argc, char **argv);
int	cmd_uninstall(struct client *, int argc, char **argv);
/* nasperf bench (cmd_bench.c): the file-protocol test matrix. */
int	cmd_bench(struct client *, int argc, char **argv);
/* nasperf diagnose (cmd_diagnose.c): the ceilings and the matrix at once. */
int	cmd_diagnose(struct client *, int argc, char **argv);
/*
 * A test's rate of its answer: "12.3 MB/s", "450 files/s" or its status
 * (diag_html.c).
 */
void	diag_rate(char *out, size_t outsz, const json_t *test);
/* Its answer doc as an HTML page on f (diag_html.c); -1 on a write error. */
int	diag_html(FILE *f, const json_t *doc);

#endif /* CLIENT_H */
