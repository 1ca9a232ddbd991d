/*
 * cmd_runs.c: nasperf's run commands: run, mark, runs, report, compare,
 * top.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include <jansson.h>

#include "client.h"
#include "importers.h"
#include "nptime.h"
#include "show.h"
#include "table.h"

#define RUN_CAPTURE_MAX	(8 * 1024 * 1024)	/* output kept for parsing */
#define RUN_IMPORT_MAX	(16 * 1024 * 1024)	/* an imported file */
#define RUN_MAX_RESULTS	64
#define RUN_TIME_PROBES	5			/* /v1/time round trips */

/* A growing capture of a command's output. */
struct run_cap {
	char	*buf;
	size_t	 len, cap;
};

/* The figures a run command collects for POST /v1/runs. */
struct run_opts {
	const char	*label, *protocol, *op, *client, *import;
	int		 has_bytes;
	uint64_t	 bytes;
	int		 has_seconds;
	double		 seconds;
	const char	*format, *html;
};

/* Parse a byte count with an optional k/M/G/T (powers of 1024) suffix. */
int
run_parse_bytes(const char *s, uint64_t *out)
{
	char		*end;
	double		 v;
	uint64_t	 mul = 1;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || !(v >= 0))
		return (-1);
	switch (*end) {
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	case 't': case 'T': mul = 1ULL << 40; end++; break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end != '\0' || v * (double)mul > 1e15)
		return (-1);
	*out = (uint64_t)(v * (double)mul);
	return (0);
}

#define RUN_OPT_LABEL	{ "label", required_argument, NULL, 'l' }
#define RUN_OPT_PROTOCOL { "protocol", required_argument, NULL, 'p' }
#define RUN_OPT_OP	{ "op", required_argument, NULL, 'o' }
#define RUN_OPT_BYTES	{ "bytes", required_argument, NULL, 'b' }
#define RUN_OPT_SECONDS	{ "seconds", required_argument, NULL, 's' }
#define RUN_OPT_CLIENT	{ "client", required_argument, NULL, 'c' }
#define RUN_OPT_END	{ NULL, 0, NULL, 0 }

static const struct option run_longopts[] = {
	RUN_OPT_LABEL, RUN_OPT_PROTOCOL, RUN_OPT_OP, RUN_OPT_BYTES,
	RUN_OPT_SECONDS, RUN_OPT_CLIENT,
	{ "import",	required_argument,	NULL, 'i' },
	RUN_OPT_END
};
static const struct args_cmd run_args = {
	"run", "l:p:o:b:s:c:i:", run_longopts, 1,
"usage: nasperf run [--label L] [--protocol P] [--op OP] [--bytes N]\n"
"                   [--seconds S] [--client NAME] -- COMMAND [ARG...]\n"
"       nasperf run --import FILE [--label L] [--protocol P]\n"
"Open a run on the daemon, run the benchmark COMMAND, end the run and\n"
"print the server's verdict.  Without --bytes, the bytes and seconds come\n"
"from the output of dd or fio --output-format=json.  With --import, each\n"
"result of a finished fio JSON file or CrystalDiskMark text export is\n"
"recorded as a run, placed by its timestamps.  Everything after -- is\n"
"the command's, options included.\n"
"\n"
"Options:\n"
"  -l, --label L         a name for the run\n"
"  -p, --protocol P      smb1, smb2, smb3, nfs3, nfs4, afp, iscsi, http,\n"
"                        local or other\n"
"  -o, --op OP           read, write, mixed or list\n"
"  -b, --bytes N         the bytes moved (K, M, G, T: powers of 1024)\n"
"  -s, --seconds S       the benchmark's own time (default: its wall time)\n"
"  -c, --client NAME     the client's name in the report\n"
"  -i, --import FILE     record the results in FILE instead\n"
};

static const struct option mark_longopts[] = {
	RUN_OPT_LABEL, RUN_OPT_PROTOCOL, RUN_OPT_OP, RUN_OPT_BYTES,
	RUN_OPT_SECONDS, RUN_OPT_CLIENT, RUN_OPT_END
};
static const struct args_cmd mark_args = {
	"mark", "l:p:o:b:s:c:", mark_longopts, 0,
"usage: nasperf mark start [--label L] [--protocol P] [--op OP]\n"
"                          [--client NAME]\n"
"       nasperf mark end [--bytes N] [--seconds S]\n"
"Open a run by hand, for a benchmark with a window of its own, and close\n"
"it with its verdict.  One run is marked at a time per daemon.\n"
"\n"
"Options:\n"
"  -l, --label L         a name for the run\n"
"  -p, --protocol P      how the client reached the NAS, as for run\n"
"  -o, --op OP           read, write, mixed or list\n"
"  -c, --client NAME     the client's name in the report\n"
"  -b, --bytes N         at the end: the bytes moved (K, M, G, T)\n"
"  -s, --seconds S       at the end: the benchmark's own time\n"
};

static const struct option report_longopts[] = {
	{ "format",	required_argument,	NULL, 'f' },
	{ "html",	required_argument,	NULL, 'w' },
	RUN_OPT_END
};
static const struct args_cmd report_args = {
	"report", "f:w:", report_longopts, 0,
"usage: nasperf report ID [--format json|yaml|text] [--html FILE]\n"
"A run's report: the verdict with its resource, utilisation, headroom\n"
"and confidence, further observations, and the evidence table.\n"
"\n"
"Options:\n"
"  -f, --format F        json, yaml or text (default text, or json with\n"
"                        --json)\n"
"  -w, --html FILE       write the report as one HTML page with charts\n"
};

static const struct args_cmd runs_args = { "runs", "", NULL, 0,
"usage: nasperf runs\n"
"The runs the daemon keeps: id, start, label, protocol, operation,\n"
"length, the client's rate and the verdict.\n"
};

static const struct args_cmd transfers_args = { "transfers", "", NULL, 0,
"usage: nasperf transfers [CLIENT]\n"
"The copies the daemon noticed on its own (any SMB, NFS, AFP or iSCSI\n"
"client), with their verdicts, then the clients moving data now; with\n"
"CLIENT (an address), that client's only.\n"
};

static const struct args_cmd compare_args = { "compare", "", NULL, 0,
"usage: nasperf compare ID...\n"
"Up to 16 runs side by side: label, protocol, client rate, window,\n"
"verdict, resource and utilisation.\n"
};

static const struct args_cmd top_args = { "top", "i:n:", NULL, 0,
"usage: nasperf top [-i SEC] [-n COUNT]\n"
"The server live, with the verdict of the last five seconds; Ctrl-C\n"
"stops.\n"
"\n"
"Options:\n"
"  -i SEC                refresh every SEC seconds (0.5 to 60, default 1)\n"
"  -n COUNT              stop after COUNT refreshes\n"
};

/*
 * The options of run, mark and report, as cmd allows them, into o.  -1
 * to go on, with optind at the first operand; else the exit status.
 */
static int
run_options(struct client *c, int argc, char **argv, struct run_opts *o,
    const struct args_cmd *cmd)
{
	char	*end;
	int	 ch;

	memset(o, 0, sizeof *o);
	optind = 0;	/* 0: glibc starts afresh, with these flags */
	while ((ch = args_getopt(c, argc, argv, cmd)) != -1) {
		switch (ch) {
		case 'l':
			o->label = optarg;
			break;
		case 'p':
			o->protocol = optarg;
			break;
		case 'o':
			o->op = optarg;
			break;
		case 'c':
			o->client = optarg;
			break;
		case 'i':
			o->import = optarg;
			break;
		case 'f':
			o->format = optarg;
			break;
		case 'w':
			o->html = optarg;
			break;
		case 'b':
			if (run_parse_bytes(optarg, &o->bytes) == -1)
				return (args_fail("--bytes %s: expected a byte "
				    "count such as 4294967296 or 4G", optarg));
			o->has_bytes = 1;
			break;
		case 's':
			errno = 0;
			o->seconds = strtod(optarg, &end);
			if (errno != 0 || end == optarg || *end != '\0' ||
			    !(o->seconds > 0))
				return (args_fail("--seconds %s: expected a "
				    "positive number", optarg));
			o->has_seconds = 1;
			break;
		default:
			return (args_exit(ch));
		}
	}
	return (-1);
}

/* The body of POST /v1/runs from the options. */
static json_t *
run_body(const struct run_opts *o)
{
	json_t	*b = json_object();

	if (b == NULL)
		return (NULL);
	if (o->label != NULL)
		json_object_set_new(b, "label", json_string(o->label));
	if (o->protocol != NULL)
		json_object_set_new(b, "protocol", json_string(o->protocol));
	if (o->op != NULL)
		json_object_set_new(b, "op", json_string(o->op));
	if (o->client != NULL)
		json_object_set_new(b, "client", json_string(o->client));
	return (b);
}

/*
 * Open a live run; its id, or 0 with the error printed.  pid (0: none)
 * is the benchmark's process when the daemon runs on this box, so that
 * it can follow it.
 */
static long
run_open(struct client *c, const struct run_opts *o, long pid)
{
	json_t	*body, *j;
	long	 id = 0;

	if ((body = run_body(o)) == NULL)
		return (client_fail("out of memory") - 1);
	if (pid > 0)
		json_object_set_new(body, "pid", json_integer(pid));
	if ((j = client_call(c, EVHTTP_REQ_POST, "/v1/runs", body)) != NULL)
		id = (long)json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	json_decref(body);
	return (id);
}

/* Print a report: the daemon's text, or its JSON with --json. */
int
run_print_report(struct client *c, long id, const json_t *rep)
{
	char	path[64];

	if (c->json) {
		client_print_json(rep, CLIENT_JSON);
		return (0);
	}
	snprintf(path, sizeof path, "/v1/runs/%ld/report?format=text", id);
	if (client_request(c, EVHTTP_REQ_GET, path, NULL, c->timeout) != 0)
		return (1);
	if (c->status != 200)
		return (client_status_error(c, client_json(c)));
	fwrite(evbuffer_pullup(c->body, -1), 1, evbuffer_get_length(c->body),
	    stdout);
	return (0);
}

/*
 * End run id with the client's figures, as interrupted when the command
 * was stopped, and print its report.
 */
static int
run_end(struct client *c, long id, const struct importers_result *r,
    const struct rusage *ru, int interrupted)
{
	json_t	*body, *rep;
	char	 path[64];
	int	 rc;

	if ((body = json_object()) == NULL)
		return (client_fail("out of memory"));
	/* The command's own counts, for a run whose process the daemon follows. */
	if (ru != NULL)
		json_object_set_new(body, "command", json_pack("{s:I,s:I,s:f}",
		    "storage_read_bytes", (json_int_t)ru->ru_inblock * 512,
		    "storage_write_bytes", (json_int_t)ru->ru_oublock * 512,
		    "cpu_seconds", (double)ru->ru_utime.tv_sec +
		    (double)ru->ru_utime.tv_usec / 1e6 +
		    (double)ru->ru_stime.tv_sec +
		    (double)ru->ru_stime.tv_usec / 1e6));
	if (r->has_bytes)
		json_object_set_new(body, "bytes", json_integer(
		    (json_int_t)r->bytes));
	if (r->has_seconds && r->seconds > 0)
		json_object_set_new(body, "client_seconds",
		    json_real(r->seconds));
	if (r->has_ops)
		json_object_set_new(body, "ops", json_integer(
		    (json_int_t)r->ops));
	if (r->has_block_size && r->block_size > 0)
		json_object_set_new(body, "block_size", json_integer(
		    (json_int_t)r->block_size));
	if (interrupted)
		json_object_set_new(body, "interrupted", json_true());
	snprintf(path, sizeof path, "/v1/runs/%ld/end", id);
	rep = client_call(c, EVHTTP_REQ_POST, path, body);
	json_decref(body);
	if (rep == NULL)
		return (1);
	rc = run_print_report(c, id, rep);
	json_decref(rep);
	return (rc);
}

/* Append n bytes to a capture, up to its limit. */
static void
run_cap_add(struct run_cap *cap, const char *p, size_t n)
{
	char	*nb;
	size_t	 ncap;

	if (cap->len + n + 1 > RUN_CAPTURE_MAX)
		n = cap->len + 1 < RUN_CAPTURE_MAX ?
		    RUN_CAPTURE_MAX - cap->len - 1 : 0;
	if (n == 0)
		return;
	if (cap->len + n + 1 > cap->cap) {
		ncap = cap->cap == 0 ? 8192 : cap->cap;
		while (cap->len + n + 1 > ncap)
			ncap *= 2;
		if ((nb = realloc(cap->buf, ncap)) == NULL)
			return;
		cap->buf = nb;
		cap->cap = ncap;
	}
	memcpy(cap->buf + cap->len, p, n);
	cap->len += n;
	cap->buf[cap->len] = '\0';
}

/* Write all of buf to fd, ignoring errors (the user's terminal). */
static void
run_echo(int fd, const char *buf, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, buf, n)) <= 0) {
			if (w == -1 && errno == EINTR)
				continue;
			return;
		}
		buf += w;
		n -= (size_t)w;
	}
}

/* A benchmark started and held until its run is open. */
struct run_child {
	pid_t	pid;
	int	go;		/* closing it lets the child exec */
	int	out, err;	/* its stdout and stderr */
	struct rusage ru;	/* at its end: its and its reaped children's */
	int	has_ru;
};

/*
 * Fork the benchmark argv, held before exec until run_command lets it go
 * (a byte on the go pipe; its end closing without one ends the child), so
 * that its pid can open the run.  -1 with errno.
 */
static int
run_spawn(char **argv, struct run_child *ch)
{
	int	po[2], pe[2], pg[2];
	ssize_t	n;
	char	c;

	if (pipe(po) == -1 || pipe(pe) == -1 || pipe(pg) == -1)
		return (-1);
	if ((ch->pid = fork()) == -1)
		return (-1);
	if (ch->pid == 0) {
		signal(SIGINT, SIG_DFL);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		close(pg[1]);
		/* Wait for the run to open; nothing (we died): no benchmark. */
		while ((n = read(pg[0], &c, 1)) == -1 && errno == EINTR)
			;
		if (n != 1)
			_exit(127);
		close(pg[0]);
		execvp(argv[0], argv);
		client_fail("%s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	close(pg[0]);
	ch->go = pg[1];
	ch->out = po[0];
	ch->err = pe[0];
	return (0);
}

/* Whether the daemon is on this box: it can follow a local pid. */
static int
run_local(const struct client *c)
{
	return (strncmp(c->host, "127.", 4) == 0 ||
	    strcmp(c->host, "::1") == 0 || strcmp(c->host, "localhost") == 0);
}

/*
 * Let the held benchmark run with its output shown and captured; the
 * exit status as the shell gives it (128 + signal), or -1 when it could
 * not be started.  On a terminal, a line says how long run id has been
 * going, each second from the first: it is drawn only where the command's
 * own output left the cursor at the start of a line (dd's status=progress
 * keeps its own), and asks the daemon nothing, which would cost the box
 * under test.
 */
static int
run_command(const struct client *c, long id, struct run_child *ch,
    struct run_cap *out, struct run_cap *err)
{
	struct pollfd	 pfd[2];
	struct run_cap	*caps[2] = { out, err };
	char		 buf[65536];
	pid_t		 pid = ch->pid;
	ssize_t		 n;
	double		 t0 = nptime_mono(), next = t0 + 1, now;
	int		 status, open_fds = 2, i, fd, midline = 0, wait;

	/* Let it go. */
	while (write(ch->go, "g", 1) == -1 && errno == EINTR)
		;
	close(ch->go);
	pfd[0].fd = ch->out;
	pfd[1].fd = ch->err;
	pfd[0].events = pfd[1].events = POLLIN;
	while (open_fds > 0) {
		now = nptime_mono();
		if (now >= next) {
			if (!midline)
				client_progress(c, "run %ld: %.0f s so far "
				    "(Ctrl-C stops the command; the run ends "
				    "with it)", id, now - t0);
			next += 1;
		}
		wait = (int)((next - now) * 1000) + 1;
		if (poll(pfd, 2, wait < 1 ? 1 : wait) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			if (pfd[i].fd == -1 || pfd[i].revents == 0)
				continue;
			if ((n = read(pfd[i].fd, buf, sizeof buf)) <= 0) {
				if (n == -1 && errno == EINTR)
					continue;
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open_fds--;
				continue;
			}
			run_cap_add(caps[i], buf, (size_t)n);
			/* With --json stdout is ours: the command's goes to 2. */
			fd = i == 0 && !c->json ? 1 : 2;
			if (isatty(fd)) {
				client_progress_clear();
				midline = buf[n - 1] != '\n';
			}
			run_echo(fd, buf, (size_t)n);
		}
	}
	client_progress_clear();
	/*
	 * wait4 gives what it and every child it reaped made the storage
	 * read and write, to its last byte: the daemon's readings of its
	 * /proc/PID/io stop up to half a second before it exits.
	 */
	while (wait4(pid, &status, 0, &ch->ru) == -1)
		if (errno != EINTR)
			return (-1);
	ch->has_ru = 1;
	if (WIFSIGNALED(status))
		return (128 + WTERMSIG(status));
	return (WEXITSTATUS(status));
}

/* Bytes and seconds from the command's output: fio JSON, else dd. */
static void
run_parse_output(const struct run_cap *out, const struct run_cap *err,
    struct importers_result *r)
{
	const char	*errstr;

	memset(r, 0, sizeof *r);
	if (out->len > 0 && importers_fio_json(out->buf, out->len, r,
	    &errstr) == 0)
		return;
	memset(r, 0, sizeof *r);
	if (err->len > 0 && importers_dd(err->buf, err->len, r, &errstr) == 0)
		return;
	memset(r, 0, sizeof *r);
	if (out->len > 0 && importers_dd(out->buf, out->len, r, &errstr) == 0)
		return;
	memset(r, 0, sizeof *r);
}

/*
 * The client's clock minus the server's, from the round trip of
 * GET /v1/time with the smallest delay (NTP's rule); -1 when unanswered.
 */
static int
run_clock_offset(struct client *c, double *offset, double *rtt)
{
	json_t	*j;
	double	 t0, t1, t2, t3, best = INFINITY, off = 0;
	int	 i;

	for (i = 0; i < RUN_TIME_PROBES; i++) {
		t0 = nptime_real();
		if ((j = client_call(c, EVHTTP_REQ_GET, "/v1/time", NULL)) ==
		    NULL)
			return (-1);
		t3 = nptime_real();
		t1 = json_number_value(json_object_get(j, "receive"));
		t2 = json_number_value(json_object_get(j, "transmit"));
		json_decref(j);
		if ((t3 - t0) - (t2 - t1) < best) {
			best = (t3 - t0) - (t2 - t1);
			off = -((t1 - t0) + (t2 - t3)) / 2;
		}
	}
	*offset = off;
	*rtt = best;
	return (0);
}

/* Read a whole file (at most RUN_IMPORT_MAX); NULL with a message. */
static char *
run_read_file(const char *path, size_t *len)
{
	struct run_cap	 cap;
	char		 buf[65536];
	ssize_t		 n;
	int		 fd;

	memset(&cap, 0, sizeof cap);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		client_fail("%s: %s", path, strerror(errno));
		return (NULL);
	}
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		if (cap.len + (size_t)n >= RUN_IMPORT_MAX) {
			close(fd);
			free(cap.buf);
			client_fail("%s: larger than %d MB", path,
			    RUN_IMPORT_MAX >> 20);
			return (NULL);
		}
		run_cap_add(&cap, buf, (size_t)n);
	}
	close(fd);
	if (n == -1 || cap.buf == NULL) {
		client_fail("%s: %s", path, n == -1 ? strerror(errno) :
		    "empty");
		free(cap.buf);
		return (NULL);
	}
	*len = cap.len;
	return (cap.buf);
}

/* run --import FILE: each result becomes a recorded run. */
static int
run_import(struct client *c, const struct run_opts *o)
{
	struct importers_result	*r, *res;
	const char		*errstr = NULL;
	json_t			*body, *j;
	char			*text, label[256];
	double			 offset, rtt, start, end;
	size_t			 len, n = 0, i;
	int			 rc = 0;

	if ((text = run_read_file(o->import, &len)) == NULL)
		return (1);
	if ((res = calloc(RUN_MAX_RESULTS, sizeof *res)) == NULL) {
		free(text);
		return (client_fail("out of memory"));
	}
	if (importers_detect(text, len, res, RUN_MAX_RESULTS, &n,
	    &errstr) == -1) {
		rc = client_fail("%s: %s", o->import, errstr != NULL ? errstr :
		    "not a fio JSON result or CrystalDiskMark export");
		goto out;
	}
	if (run_clock_offset(c, &offset, &rtt) == -1) {
		rc = 1;
		goto out;
	}
	if (!c->json)
		printf("clock offset %+.3f s (client minus server, round trip "
		    "%.1f ms)\n", offset, rtt * 1000);
	for (i = 0; i < n; i++) {
		r = &res[i];
		end = r->has_end ? r->end : NAN;
		start = r->has_start ? r->start : r->has_seconds && r->has_end ?
		    r->end - r->seconds : NAN;
		if (!r->has_end && r->has_start && r->has_seconds)
			end = r->start + r->seconds;
		if (!isfinite(start) || !isfinite(end) || !(end > start)) {
			rc = client_fail("%s: result %zu (%s) carries no start "
			    "and end times", o->import, i + 1, r->label);
			continue;
		}
		snprintf(label, sizeof label, "%s%s%s", o->label != NULL ?
		    o->label : "", o->label != NULL && r->label[0] ? ": " : "",
		    r->label);
		body = json_pack("{s:s,s:f,s:f,s:f}", "label", label[0] ?
		    label : r->tool, "start", start, "end", end,
		    "clock_offset", offset);
		if (body == NULL)
			continue;
		json_object_set_new(body, "protocol", json_string(
		    o->protocol != NULL ? o->protocol : "other"));
		if (o->op != NULL || r->op != IMPORTERS_OP_UNKNOWN)
			json_object_set_new(body, "op", json_string(
			    o->op != NULL ? o->op : importers_op_name(r->op)));
		if (r->has_bytes)
			json_object_set_new(body, "bytes", json_integer(
			    (json_int_t)r->bytes));
		if (r->has_seconds && r->seconds > 0)
			json_object_set_new(body, "client_seconds",
			    json_real(r->seconds));
		if (r->has_ops)
			json_object_set_new(body, "ops", json_integer(
			    (json_int_t)r->ops));
		if (r->has_block_size && r->block_size > 0)
			json_object_set_new(body, "block_size", json_integer(
			    (json_int_t)r->block_size));
		j = client_call(c, EVHTTP_REQ_POST, "/v1/runs", body);
		json_decref(body);
		if (j == NULL) {
			rc = 1;
			continue;
		}
		if (c->json) {
			client_print_json(j, CLIENT_JSON);
		} else
			printf("run %lld %s: %s: %s\n",
			    json_integer_value(json_object_get(j, "id")),
			    label[0] ? label : r->tool,
			    json_string_value(json_object_get(json_object_get(
			    json_object_get(j, "report"), "verdict"), "class")),
			    json_string_value(json_object_get(json_object_get(
			    json_object_get(j, "report"), "verdict"),
			    "summary")));
		json_decref(j);
	}
out:
	free(res);
	free(text);
	return (rc);
}

/* nasperf run [options] -- COMMAND..., or run --import FILE. */
int
cmd_run(struct client *c, int argc, char **argv)
{
	struct run_opts		 o;
	struct run_cap		 out, err;
	struct run_child	 ch;
	struct importers_result	 r;
	void			(*oldint)(int);
	double			 t0, wall;
	long			 id;
	int			 status, rc, local, stopped;

	memset(&ch, 0, sizeof ch);
	if ((rc = run_options(c, argc, argv, &o, &run_args)) != -1)
		return (rc);
	if (o.import != NULL) {
		if (optind != argc)
			return (args_fail("--import takes no command"));
		return (run_import(c, &o));
	}
	if (optind >= argc)
		return (args_fail("give the benchmark command after --, e.g. "
		    "nasperf run --op read -- dd if=/mnt/nas/f of=/dev/null "
		    "bs=1M"));
	if (run_spawn(argv + optind, &ch) == -1)
		return (client_fail("%s: %s", argv[optind], strerror(errno)));
	local = run_local(c);
	if ((id = run_open(c, &o, local ? (long)ch.pid : 0)) <= 0) {
		kill(ch.pid, SIGKILL);
		close(ch.go);
		close(ch.out);
		close(ch.err);
		while (waitpid(ch.pid, NULL, 0) == -1 && errno == EINTR)
			;
		return (1);
	}
	if (!c->json)
		fprintf(stderr, "nasperf: run %ld opened\n", id);
	memset(&out, 0, sizeof out);
	memset(&err, 0, sizeof err);
	/* Ctrl-C stops the benchmark, not us: the run must still end. */
	oldint = signal(SIGINT, SIG_IGN);
	t0 = nptime_mono();
	status = run_command(c, id, &ch, &out, &err);
	wall = nptime_mono() - t0;
	signal(SIGINT, oldint);
	run_parse_output(&out, &err, &r);
	if (o.has_bytes) {
		r.has_bytes = 1;
		r.bytes = o.bytes;
	}
	if (o.has_seconds) {
		r.has_seconds = 1;
		r.seconds = o.seconds;
	} else if (!r.has_seconds) {
		r.has_seconds = 1;
		r.seconds = wall;
	}
	free(out.buf);
	free(err.buf);
	/* Ctrl-C or SIGTERM stopped it, or it stopped on one (bench). */
	stopped = status == 128 + SIGINT || status == 128 + SIGTERM;
	if (status == -1)
		client_fail("%s: %s", argv[optind], strerror(errno));
	else if (status != 0)
		client_fail("%s exited with status %d; the run is ended %s",
		    argv[optind], status, stopped ? "as interrupted" :
		    "anyway");
	if (!r.has_bytes && !c->json)
		client_fail("no byte count in the command's output (dd or "
		    "fio --output-format=json): give --bytes for the client's "
		    "rate");
	rc = run_end(c, id, &r, local && ch.has_ru ? &ch.ru : NULL, stopped);
	return (status != 0 ? (status == -1 ? 1 : status) : rc);
}

/* The file that remembers the run "mark start" opened. */
static void
mark_path(const struct client *c, char *out, size_t outsz)
{
	const char	*dir = getenv("XDG_RUNTIME_DIR");

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	snprintf(out, outsz, "%s/nasperf-mark-%u-%s-%u", dir,
	    (unsigned)getuid(), c->host, c->port);
}

/* nasperf mark start|end. */
int
cmd_mark(struct client *c, int argc, char **argv)
{
	struct run_opts		 o;
	struct importers_result	 r;
	char			 path[512], line[64];
	const char		*what;
	FILE			*f;
	long			 id;
	int			 rc;

	if ((rc = run_options(c, argc, argv, &o, &mark_args)) != -1)
		return (rc);
	if (optind == argc || (strcmp(argv[optind], "start") != 0 &&
	    strcmp(argv[optind], "end") != 0))
		return (args_fail("expected start or end"));
	what = argv[optind];
	if (optind != argc - 1)
		return (args_fail("unexpected argument: %s",
		    argv[optind + 1]));
	args_name(strcmp(what, "start") == 0 ? "mark start" : "mark end");
	mark_path(c, path, sizeof path);
	if (strcmp(what, "start") == 0) {
		/* One marked run at a time: a second would leave it open. */
		if ((f = fopen(path, "r")) != NULL) {
			id = fgets(line, sizeof line, f) != NULL ?
			    strtol(line, NULL, 10) : 0;
			fclose(f);
			return (client_fail("run %ld is still "
			    "marked on %s:%u; end it first with \"nasperf "
			    "mark end\"", id, c->host, c->port));
		}
		if ((id = run_open(c, &o, 0)) <= 0)
			return (1);
		if ((f = fopen(path, "w")) == NULL)
			return (client_fail("%s: %s", path, strerror(errno)));
		fprintf(f, "%ld\n", id);
		if (fclose(f) != 0)
			return (client_fail("%s: %s", path, strerror(errno)));
		printf("run %ld opened: start the benchmark now, then run "
		    "\"nasperf mark end --bytes N\"\n", id);
		return (0);
	}
	if ((f = fopen(path, "r")) == NULL && errno == ENOENT)
		return (client_fail("no run was marked on %s:%u: "
		    "run \"nasperf mark start\" first", c->host, c->port));
	if (f == NULL)
		return (client_fail("%s: %s", path, strerror(errno)));
	id = fgets(line, sizeof line, f) != NULL ? strtol(line, NULL, 10) : 0;
	fclose(f);
	if (id <= 0)
		return (client_fail("%s: damaged; remove it", path));
	memset(&r, 0, sizeof r);
	r.has_bytes = o.has_bytes;
	r.bytes = o.bytes;
	r.has_seconds = o.has_seconds;
	r.seconds = o.seconds;
	rc = run_end(c, id, &r, NULL, 0);
	if (rc == 0 || c->status == 409 || c->status == 404)
		(void)unlink(path);
	return (rc);
}

static int	runs_show(struct client *, int, char **, const char *,
		    const struct args_cmd *);

/* nasperf runs. */
int
cmd_runs(struct client *c, int argc, char **argv)
{
	return (runs_show(c, argc, argv, "/v1/runs", &runs_args));
}

/* nasperf transfers: the copies the daemon noticed on its own. */
int
cmd_transfers(struct client *c, int argc, char **argv)
{
	return (runs_show(c, argc, argv, "/v1/transfers", &transfers_args));
}

/* The table of the runs under key in the answer to path. */
static int
runs_show(struct client *c, int argc, char **argv, const char *path,
    const struct args_cmd *cmd)
{
	const char	*key = cmd->name;
	struct table	*t;
	json_t		*j, *run, *v;
	char		 when[32], rate[32], verdict[200], whom[160];
	char		 query[128];
	size_t		 i;
	double		 secs;
	int		 who, ch;

	optind = 0;
	if ((ch = args_getopt(c, argc, argv, cmd)) != -1)
		return (args_exit(ch));
	/* nasperf transfers CLIENT: that client's only. */
	if (strcmp(key, "transfers") == 0 && optind == argc - 1) {
		if (strspn(argv[optind], "0123456789abcdefABCDEF:.") !=
		    strlen(argv[optind]) || strlen(argv[optind]) >= 46)
			return (args_fail("%s: not an IPv4 or IPv6 address",
			    argv[optind]));
		snprintf(query, sizeof query, "%s?client=%s", path,
		    argv[optind++]);
		path = query;
	}
	if (optind != argc)
		return (args_fail("unexpected argument: %s", argv[optind]));
	if ((j = client_call(c, EVHTTP_REQ_GET, path, NULL)) == NULL)
		return (1);
	if (c->json) {
		client_print_json(j, CLIENT_JSON);
		json_decref(j);
		return (0);
	}
	who = strcmp(key, "transfers") == 0;
	if ((t = table_new(who ? "r  l  l  l  l  l  r  r  l" :
	    "r  l  l  l  l  r  r  l")) == NULL) {
		json_decref(j);
		return (client_fail("out of memory"));
	}
	table_add(t, "ID");
	table_add(t, "START");
	table_add(t, "LABEL");
	table_add(t, "PROTO");
	table_add(t, "OP");
	if (who)
		table_add(t, "WHO");
	table_row(t, "SECONDS", "CLIENT", "VERDICT", NULL);
	json_array_foreach(json_object_get(j, key), i, run) {
		nptime_local(when, sizeof when, "%m-%d %H:%M:%S",
		    json_number_value(json_object_get(run, "start")));
		secs = json_number_value(json_object_get(run, "end")) -
		    json_number_value(json_object_get(run, "start"));
		v = json_object_get(run, "client_rate");
		if (json_is_number(v))
			snprintf(rate, sizeof rate, "%.1f MB/s",
			    json_number_value(v) / 1e6);
		else
			snprintf(rate, sizeof rate, "-");
		v = json_object_get(run, "verdict");
		if (json_is_object(v))
			snprintf(verdict, sizeof verdict, "%s: %s",
			    show_str(v, "class"), show_str(v, "resource"));
		else
			snprintf(verdict, sizeof verdict, "(open)");
		if (json_is_true(json_object_get(run, "interrupted")))
			snprintf(verdict + strlen(verdict), sizeof verdict -
			    strlen(verdict), " (interrupted)");
		/* A copy a client's own run measured: said with it. */
		if (json_is_integer(json_object_get(run, "joined")))
			snprintf(verdict + strlen(verdict), sizeof verdict -
			    strlen(verdict), " (joined to run %lld)",
			    json_integer_value(json_object_get(run, "joined")));
		table_add(t, "%lld", json_integer_value(json_object_get(run,
		    "id")));
		table_add(t, "%s", when);
		table_add(t, "%s", show_str(run, "label"));
		table_add(t, "%s", show_str(run, "protocol"));
		table_add(t, "%s", show_str(run, "op"));
		if (who)
			table_add(t, "%s", show_who(run, whom, sizeof whom) !=
			    NULL ? whom : "-");
		if (json_is_true(json_object_get(run, "ended")))
			table_add(t, "%.1f", secs);
		else
			table_add(t, "-");
		table_row(t, rate, verdict, NULL);
	}
	table_done(t, stdout);
	/* Copies under way that are not runs yet, or are open ones. */
	json_array_foreach(json_object_get(j, "live"), i, v)
		printf("under way: %s from %s, %.1f MB/s for %.0f s%s\n",
		    show_str(v, "service"), show_str(v, "client"), json_number_value(
		    json_object_get(v, "bytes_per_s")) / 1e6, json_number_value(
		    json_object_get(v, "seconds")), strcmp(show_str(v, "state"),
		    "transfer") == 0 ? "" : " (not yet a transfer)");
	json_decref(j);
	return (0);
}

/* A run id operand; -1 with a message when it is not one. */
static long
run_id(const char *s)
{
	char	*end;
	long	 id;

	errno = 0;
	id = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || id <= 0) {
		client_fail("%s: not a run id (see nasperf runs)", s);
		return (-1);
	}
	return (id);
}

/* Write len bytes to path, through a temporary file and rename. */
static int
run_write_file(const char *path, const void *buf, size_t len)
{
	char	 tmp[4096];
	FILE	*f;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((f = fopen(tmp, "w")) == NULL)
		return (client_fail("%s: %s", tmp, strerror(errno)));
	if (fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		(void)unlink(tmp);
		return (client_fail("%s: %s", tmp, strerror(errno)));
	}
	if (rename(tmp, path) == -1) {
		(void)unlink(tmp);
		return (client_fail("%s: %s", path, strerror(errno)));
	}
	return (0);
}

/* nasperf report ID [--format F] [--html FILE]. */
int
cmd_report(struct client *c, int argc, char **argv)
{
	struct run_opts	 o;
	const char	*fmt;
	char		 path[96];
	long		 id;
	json_t		*j;
	int		 rc;

	if ((rc = run_options(c, argc, argv, &o, &report_args)) != -1)
		return (rc);
	if (optind != argc - 1)
		return (optind == argc ? args_fail("expected a run ID") :
		    args_fail("unexpected argument: %s", argv[optind + 1]));
	if ((id = run_id(argv[optind])) == -1)
		return (2);
	fmt = o.html != NULL ? "html" : o.format != NULL ? o.format :
	    c->json ? "json" : "text";
	if (strcmp(fmt, "json") != 0 && strcmp(fmt, "yaml") != 0 &&
	    strcmp(fmt, "text") != 0 && strcmp(fmt, "html") != 0) {
		return (args_fail("--format %s: expected json, yaml or text",
		    fmt));
	}
	snprintf(path, sizeof path, "/v1/runs/%ld/report?format=%s", id, fmt);
	if (client_request(c, EVHTTP_REQ_GET, path, NULL, c->timeout) != 0)
		return (1);
	if (c->status != 200) {
		j = client_json(c);
		rc = client_status_error(c, j);
		json_decref(j);
		return (rc);
	}
	if (o.html != NULL) {
		if (run_write_file(o.html, evbuffer_pullup(c->body, -1),
		    evbuffer_get_length(c->body)) != 0)
			return (1);
		printf("report of run %ld written to %s\n", id, o.html);
		return (0);
	}
	if (strcmp(fmt, "json") == 0) {
		if ((j = client_json(c)) == NULL)
			return (1);
		client_print_json(j, CLIENT_JSON);
		json_decref(j);
		return (0);
	}
	fwrite(evbuffer_pullup(c->body, -1), 1, evbuffer_get_length(c->body),
	    stdout);
	return (0);
}

/* One row of the compare table: a label and a value per run. */
static void
compare_row(struct table *t, const char *name, json_t **reps, size_t n,
    void (*cell)(const json_t *, char *, size_t))
{
	char	buf[320];
	size_t	i;

	table_add(t, "%s", name);
	for (i = 0; i < n; i++) {
		cell(reps[i], buf, sizeof buf);
		table_add(t, "%s", buf);
	}
	table_end(t);
}

static void
cell_label(const json_t *r, char *b, size_t n)
{
	snprintf(b, n, "%s", show_str(json_object_get(r, "run"), "label"));
}

static void
cell_proto(const json_t *r, char *b, size_t n)
{
	snprintf(b, n, "%s %s", show_str(json_object_get(r, "run"), "protocol"),
	    show_str(json_object_get(r, "run"), "op"));
}

static void
cell_rate(const json_t *r, char *b, size_t n)
{
	const json_t	*v = json_object_get(r, "client_rate");

	if (json_is_number(v))
		snprintf(b, n, "%.1f MB/s", json_number_value(v) / 1e6);
	else
		snprintf(b, n, "-");
}

static void
cell_secs(const json_t *r, char *b, size_t n)
{
	snprintf(b, n, "%.1f s", json_number_value(json_object_get(
	    json_object_get(r, "window"), "seconds")));
}

static void
cell_class(const json_t *r, char *b, size_t n)
{
	snprintf(b, n, "%s (%s)", show_str(json_object_get(r, "verdict"),
	    "class"), show_str(json_object_get(r, "verdict"), "confidence"));
}

static void
cell_resource(const json_t *r, char *b, size_t n)
{
	snprintf(b, n, "%s", show_str(json_object_get(r, "verdict"),
	    "resource"));
}

static void
cell_util(const json_t *r, char *b, size_t n)
{
	const json_t	*v = json_object_get(json_object_get(r, "verdict"),
	    "utilisation_pct");

	if (json_is_number(v))
		snprintf(b, n, "%.0f %%", json_number_value(v));
	else
		snprintf(b, n, "-");
}

/* nasperf compare ID...: the runs side by side. */
int
cmd_compare(struct client *c, int argc, char **argv)
{
	struct table	*t;
	json_t		*reps[16], *all;
	char		 path[96], layout[3 * 17 + 1];
	size_t		 n = 0, i;
	long		 id;
	int		 ch, rc = 0;

	optind = 0;
	if ((ch = args_getopt(c, argc, argv, &compare_args)) != -1)
		return (args_exit(ch));
	argc -= optind - 1;	/* argv[1...]: the operands */
	argv += optind - 1;
	if (argc < 2 || argc > 17)
		return (args_fail("expected 1 to 16 run IDs"));
	for (i = 1; i < (size_t)argc; i++)
		if (run_id(argv[i]) == -1)
			return (2);
	for (i = 1; i < (size_t)argc; i++) {
		id = run_id(argv[i]);
		snprintf(path, sizeof path, "/v1/runs/%ld/report", id);
		if ((reps[n] = client_call(c, EVHTTP_REQ_GET, path, NULL)) ==
		    NULL) {
			rc = 1;
			goto out;
		}
		n++;
	}
	if (c->json) {
		all = json_array();
		for (i = 0; i < n; i++)
			json_array_append(all, reps[i]);
		client_print_json(all, CLIENT_JSON);
		json_decref(all);
		goto out;
	}
	/* A column per run, two spaces apart. */
	for (layout[0] = '\0', i = 0; i <= n; i++)
		strcat(layout, i == 0 ? "l" : "  l");
	if ((t = table_new(layout)) == NULL) {
		rc = client_fail("out of memory");
		goto out;
	}
	table_add(t, "RUN");
	for (i = 0; i < n; i++)
		table_add(t, "%s", argv[i + 1]);
	table_end(t);
	compare_row(t, "label", reps, n, cell_label);
	compare_row(t, "protocol", reps, n, cell_proto);
	compare_row(t, "client", reps, n, cell_rate);
	compare_row(t, "window", reps, n, cell_secs);
	compare_row(t, "verdict", reps, n, cell_class);
	compare_row(t, "resource", reps, n, cell_resource);
	compare_row(t, "utilisation", reps, n, cell_util);
	table_done(t, stdout);
out:
	for (i = 0; i < n; i++)
		json_decref(reps[i]);
	return (rc);
}

static volatile sig_atomic_t top_stop;

/* SIGINT: leave the top loop after this refresh. */
static void
top_sig(int sig)
{
	(void)sig;
	top_stop = 1;
}

/* nasperf top [-i SEC] [-n COUNT]: the server live. */
int
cmd_top(struct client *c, int argc, char **argv)
{
	json_t		*j, *v;
	char		 path[96];
	double		 interval = 1.0;
	long		 count = 0, k;
	int		 tty = isatty(1), rc;

	if ((rc = client_every(c, argc, argv, &top_args, &interval,
	    &count)) != -1)
		return (rc);
	signal(SIGINT, top_sig);
	for (k = 0; !top_stop && (count == 0 || k < count); k++) {
		snprintf(path, sizeof path, "/v1/counters?interval=%g",
		    interval);
		if (client_request(c, EVHTTP_REQ_GET, path, NULL,
		    c->timeout + interval) != 0)
			return (1);
		if ((j = client_json(c)) == NULL || c->status != 200)
			return (client_status_error(c, j));
		if (tty)
			printf("\033[H\033[2J");
		if (c->json) {
			client_print_json(j, CLIENT_JSON_LINE);
		} else
			show_counters(stdout, j);
		json_decref(j);
		if ((v = client_call(c, EVHTTP_REQ_GET,
		    "/v1/verdict?seconds=5", NULL)) != NULL) {
			if (c->json) {
				client_print_json(v, CLIENT_JSON_LINE);
			} else
				printf("\nlast 5 s: %s: %s\n  %s\n",
				    show_str(json_object_get(v, "verdict"),
				    "class"), show_str(json_object_get(v,
				    "verdict"), "resource"), show_str(
				    json_object_get(v, "verdict"), "summary"));
			json_decref(v);
		}
		fflush(stdout);
	}
	return (0);
}
