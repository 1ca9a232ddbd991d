/*
 * nasperf: the command-line client of nasperfd.
 *
 * Talks HTTP to the daemon with libevent's client, prints readable tables
 * on a terminal or the daemon's JSON with --json.  Exit status: 0 success,
 * 1 a failed operation, 2 a usage error.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <jansson.h>

#include "client.h"
#include "jsonnum.h"
#include "np.h"
#include "show.h"
#include "tls.h"

static const char nasperf_usage[] =
"usage: nasperf [-H [https://]host[:port]] [--token-file file]\n"
"               [--cacert file] [--json] [--timeout sec] command [args]\n"
"\n"
"Commands:\n"
"  help [COMMAND]        this help, or a command's own (as COMMAND --help)\n"
"  info                  the daemon, the NAS's identity, CPU and memory\n"
"  topology              disks, partitions, RAID arrays, volumes and NICs\n"
"  counters [-i SEC]     one counter snapshot; with -i, rates over SEC\n"
"                        seconds (0.1 to 60), like iostat -x\n"
"  run [--label L] [--protocol P] [--op OP] [--bytes N] [--seconds S]\n"
"      [--client NAME] -- COMMAND...\n"
"                        run a benchmark command as a run and print the\n"
"                        server's verdict; bytes and seconds come from dd\n"
"                        and fio (--output-format=json) output\n"
"  run --import FILE     a finished fio JSON result or CrystalDiskMark\n"
"                        text export, placed by its timestamps\n"
"  mark start|end [--label L] [--protocol P] [--op OP] [--client NAME]\n"
"      [--bytes N] [--seconds S]\n"
"                        open and close a run by hand (GUI benchmarks)\n"
"  runs                  the runs the daemon keeps, with their verdicts\n"
"  transfers [CLIENT]    the copies the daemon noticed on its own (any SMB,\n"
"                        NFS, AFP or iSCSI client), with their verdicts;\n"
"                        with CLIENT, that address's only\n"
"  watch [-i SEC] [-n N]\n"
"                        those copies as they happen: on a terminal, the\n"
"                        clients moving data with the verdict so far and\n"
"                        the last ended; else a line as each starts and ends\n"
"  report ID [--format json|yaml|text] [--html FILE]\n"
"                        a run's report\n"
"  compare ID...         runs side by side\n"
"  top [-i SEC] [-n N]   the server live, with the verdict of the last\n"
"                        seconds; Ctrl-C stops\n"
"  synth [--download | --upload | --both] [--streams N]\n"
"        [--bytes N | --time S] [--verify] [--pattern zero|random|mixed]\n"
"        [--seed N] [--port P] [--label L]\n"
"                        memory to memory over the network against the\n"
"                        daemon's synthetic data (port 9632, or\n"
"                        $NASPERF_SYNTH_PORT), as a run with its verdict\n"
"  disktest [-f] [-k full|seq|random] [-s SIZE] [-b BLOCK] [-q DEPTH]\n"
"           [-S SECONDS] [-z ZONE] [TARGET...]\n"
"                        the disk analyzer: each disk's zones, IOPS and\n"
"                        latency, all disks at once, each volume's write\n"
"                        and read beside what its disks lead to expect;\n"
"                        --show ID, --cancel ID\n"
"  bench [--quick] [--scale F] [--tests LIST] [--repeat N] [--keep]\n"
"        [--no-drop-cache] [--label L] [--min-protocol P]\n"
"        [--max-protocol P] [--signing off|if_required|required]\n"
"        [--encrypt off|desired|required] [--credentials FILE]\n"
"        [--nfs-version 3|4] TARGET\n"
"                        the file-protocol test matrix (sequential at\n"
"                        1 MiB and 1 KiB, large, medium and small files,\n"
"                        listings, best of N), each test a run with its\n"
"                        verdict; TARGET is a directory (a mounted\n"
"                        share), smb://[user@]host[:port]/share/path or\n"
"                        nfs://host/export/path\n"
"  diagnose [--budget S] [--force] [--html FILE] [--protocols LIST]\n"
"        [--min-protocol P] [--max-protocol P] [--signing S] [--encrypt E]\n"
"        [--credentials FILE] [--nfs-version 3|4] TARGET...\n"
"                        one answer: the network and the volume measured\n"
"                        where their ceilings are unknown, the matrix, and\n"
"                        one page of ceilings, verdicts, causes and what\n"
"                        to try next\n"
"  install [-n] [-p PORT] [-i FILE] [-F FILE] [-o OPTION] [--prefix DIR]\n"
"      [--state-dir DIR] [--binaries DIR] [--listen ADDR:PORT]\n"
"      [--init auto|systemd|vendor|plain] [--save-token FILE] [USER@]HOST\n"
"                        over ssh: copy the static nasperfd for the NAS's\n"
"                        architecture, start it as the box starts its\n"
"                        services, wait for it, print its token; -n only\n"
"                        says what it would do\n"
"  uninstall [-n] [-p PORT] [-i FILE] [-F FILE] [-o OPTION] [--prefix DIR]\n"
"      [USER@]HOST       stop it and remove every file install wrote\n"
"\n"
"Options, anywhere on the line (in run, what follows -- is the command's):\n"
"  -H, --host [https://]HOST[:PORT]\n"
"                        the daemon (default $NASPERF_HOST, else\n"
"                        127.0.0.1:9631; IPv6 as [::1]:9631); https://\n"
"                        speaks TLS to a daemon with api.tls on\n"
"  -t, --token-file FILE   read the API token from FILE; without it, the\n"
"                        token is $NASPERF_TOKEN's value, else read from\n"
"                        " NASPERF_TOKEN_FILE "\n"
"      --cacert FILE     with https://, verify the daemon's certificate\n"
"                        and name against the CAs in FILE (default\n"
"                        $NASPERF_CACERT); without it, the certificate\n"
"                        seen first is pinned in the known-hosts file\n"
"                        ($NASPERF_KNOWN_HOSTS, else\n"
"                        ~/.config/nasperf/known_hosts)\n"
"  -j, --json            print the daemon's JSON instead of tables\n"
"  -T, --timeout SEC     give up after SEC seconds (default 10)\n"
"  -V, --version         print the version and exit\n"
"  -h, --help            print this help and exit\n"
"\n"
"Exit status: 0 success, 1 failed operation, 2 usage error.  See nasperf(1).\n";


/*
 * Connect once ourselves to host port, with a timeout, to tell "refused"
 * from "no route" from "timed out" in plain words: libevent's client
 * reports all as one.  0, or an errno value; a name that does not resolve
 * is -1 with gai_strerror's words in *gai.
 */
static int
client_connect_once(const char *host, unsigned port, double timeout,
    const char **gai)
{
	struct addrinfo	 hints, *res = NULL, *ai;
	struct pollfd	 pfd;
	char		 sport[16];
	socklen_t	 len;
	int		 fd = -1, err = 0, rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	snprintf(sport, sizeof sport, "%u", port);
	if ((rc = getaddrinfo(host, sport, &hints, &res)) != 0) {
		*gai = gai_strerror(rc);
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1) {
			err = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		if (errno == EINPROGRESS) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			rc = poll(&pfd, 1, (int)(timeout * 1000));
			if (rc == 0) {
				err = ETIMEDOUT;
			} else {
				len = sizeof err;
				if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err,
				    &len) == -1)
					err = errno;
				if (err == 0)
					break;
			}
		} else
			err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd != -1) {
		close(fd);
		return (0);
	}
	return (err != 0 ? err : EHOSTUNREACH);
}

/* client_connect_once() to c's daemon, its failure printed. */
static int
client_probe(struct client *c)
{
	const char	*gai = NULL;
	int		 err;

	if ((err = client_connect_once(c->host, c->port, c->timeout,
	    &gai)) == 0)
		return (0);
	if (err == -1)
		return (client_fail("%s port %u: %s", c->host, c->port, gai));
	if (err == ECONNREFUSED)
		return (client_fail("cannot connect to %s port %u: connection "
		    "refused (is nasperfd running there?)", c->host, c->port));
	if (err == ETIMEDOUT)
		return (client_fail("cannot connect to %s port %u: timed out "
		    "after %.0f s", c->host, c->port, c->timeout));
	return (client_fail("cannot connect to %s port %u: %s", c->host,
	    c->port, strerror(err)));
}

/* The request finished, well or not. */
static void
client_done_cb(struct evhttp_request *req, void *arg)
{
	struct client	*c = arg;

	if (req == NULL || evhttp_request_get_response_code(req) == 0)
		c->failed = 1;
	else {
		c->status = evhttp_request_get_response_code(req);
		evbuffer_add_buffer(c->body,
		    evhttp_request_get_input_buffer(req));
	}
	event_base_loopexit(c->base, NULL);
}

/* The request failed: remember whether it was the timeout. */
static void
client_error_cb(enum evhttp_request_error err, void *arg)
{
	struct client	*c = arg;

	c->failed = 1;
	if (err == EVREQ_HTTP_TIMEOUT)
		c->timedout = 1;
}

/*
 * A connection to the daemon, over TLS with c->tls (p its verification);
 * NULL with the error printed.
 */
static struct evhttp_connection *
client_connection(struct client *c, struct tls_peer *p)
{
	struct evhttp_connection	*evcon;
	struct bufferevent		*bev;

	if (!c->tls)
		evcon = evhttp_connection_base_new(c->base, NULL, c->host,
		    (ev_uint16_t)c->port);
	else if ((bev = tls_bufferevent_new(c->base, c, p)) == NULL) {
		client_fail("%s port %u: %s", c->host, c->port, p->why);
		return (NULL);
	} else if ((evcon = evhttp_connection_base_bufferevent_new(c->base,
	    NULL, bev, c->host, (ev_uint16_t)c->port)) == NULL)
		bufferevent_free(bev);
	if (evcon == NULL)
		client_fail("%s port %u: cannot create a connection", c->host,
		    c->port);
	return (evcon);
}

/* Say why no answer came to a request through evcon. */
static void
client_no_answer(struct client *c, struct evhttp_connection *evcon,
    struct tls_peer *p, double timeout)
{
	char	hp[TLS_KEY_SIZE];

	args_hostport(hp, sizeof hp, c->host, c->port);
	if (c->timedout)
		client_fail("%s port %u: no answer within %.0f s", c->host,
		    c->port, timeout);
	else if (c->tls && tls_failed(p,
	    evhttp_connection_get_bufferevent(evcon))) {
		if (p->refused)
			client_fail("%s port %u: %s", c->host, c->port, p->why);
		else
			client_fail("%s port %u: %s (does nasperfd have "
			    "api.tls on? without it, use -H %s)", c->host,
			    c->port, p->why, hp);
	} else if (c->tls)
		client_fail("%s port %u: the connection closed without an "
		    "answer (nasperfd closes connections from addresses "
		    "outside its api.allow)", c->host, c->port);
	else
		client_fail("%s port %u: the connection closed without an "
		    "answer (nasperfd closes connections from addresses "
		    "outside its api.allow; one with api.tls closes plain "
		    "connections too: use -H https://%s)", c->host, c->port,
		    hp);
}

/*
 * Send method path (with an optional JSON body) on evcon to c's daemon and
 * wait for the answer, into c->status and c->body.  0 when the request
 * went out (c->status 0: no answer came), else -1 with what failed in
 * *why.
 */
static int
client_exchange(struct client *c, struct evhttp_connection *evcon, int method,
    const char *path, const json_t *body, double timeout, const char **why)
{
	struct evhttp_request	*req;
	struct evkeyvalq	*h;
	struct timeval		 tv;
	char			 auth[NASPERF_TOKEN_MAX + 16];
	char			 hosthdr[TLS_KEY_SIZE], *js;

	c->status = c->failed = c->timedout = 0;
	*why = "out of memory";
	if (c->base == NULL || c->body == NULL)
		return (-1);
	evbuffer_drain(c->body, evbuffer_get_length(c->body));
	tv.tv_sec = (time_t)timeout;
	tv.tv_usec = (suseconds_t)((timeout - floor(timeout)) * 1e6);
	evhttp_connection_set_timeout_tv(evcon, &tv);
	if ((req = evhttp_request_new(client_done_cb, c)) == NULL)
		return (-1);
	evhttp_request_set_error_cb(req, client_error_cb);
	h = evhttp_request_get_output_headers(req);
	args_hostport(hosthdr, sizeof hosthdr, c->host, c->port);
	evhttp_add_header(h, "Host", hosthdr);
	evhttp_add_header(h, "Accept", "application/json");
	evhttp_add_header(h, "User-Agent", "nasperf/" PACKAGE_VERSION);
	if (c->token[0] != '\0') {
		snprintf(auth, sizeof auth, "Bearer %s", c->token);
		evhttp_add_header(h, "Authorization", auth);
	}
	if (body != NULL) {
		if ((js = json_dumps(body, JSON_COMPACT)) == NULL) {
			evhttp_request_free(req);
			return (-1);
		}
		evhttp_add_header(h, "Content-Type", "application/json");
		evbuffer_add(evhttp_request_get_output_buffer(req), js,
		    strlen(js));
		free(js);
	}
	/* evhttp_make_request() frees req when it fails. */
	if (evhttp_make_request(evcon, req, (enum evhttp_cmd_type)method,
	    path) == -1) {
		*why = "cannot send the request";
		return (-1);
	}
	event_base_dispatch(c->base);
	return (0);
}

/* Send a request to the daemon; its answer into c->body and c->status. */
int
client_request(struct client *c, int method, const char *path,
    const json_t *body, double timeout)
{
	struct evhttp_connection	*evcon = NULL;
	struct tls_peer			 peer;
	const char			*why;
	int				 rc = 1;

	if (!c->probed && client_probe(c) != 0)
		return (1);
	c->probed = 1;
	if (c->base == NULL)
		c->base = event_base_new();
	if (c->body == NULL)
		c->body = evbuffer_new();
	if (c->base == NULL || c->body == NULL) {
		client_fail("out of memory");
		goto out;
	}
	if ((evcon = client_connection(c, &peer)) == NULL)
		goto out;
	if (client_exchange(c, evcon, method, path, body, timeout, &why) ==
	    -1) {
		client_fail("%s port %u: %s", c->host, c->port, why);
		goto out;
	}
	tls_notices();
	if (c->status == 0) {
		client_no_answer(c, evcon, &peer, timeout);
		goto out;
	}
	rc = 0;
out:
	if (evcon != NULL)
		evhttp_connection_free(evcon);
	return (rc);
}

int
client_check(const char *host, unsigned port, const char *path,
    double timeout, char *why, size_t whysz)
{
	struct client			 t;
	struct evhttp_connection	*evcon = NULL;
	const char			*gai = NULL, *failed;
	int				 err, rc = -1;

	if ((err = client_connect_once(host, port, timeout, &gai)) != 0) {
		snprintf(why, whysz, "%s", err == -1 ? gai : strerror(err));
		return (-1);
	}
	memset(&t, 0, sizeof t);
	snprintf(t.host, sizeof t.host, "%s", host);
	t.port = port;
	t.base = event_base_new();
	t.body = evbuffer_new();
	if (t.base == NULL || (evcon = evhttp_connection_base_new(t.base,
	    NULL, host, (ev_uint16_t)port)) == NULL)
		snprintf(why, whysz, "out of memory");
	else if (client_exchange(&t, evcon, EVHTTP_REQ_GET, path, NULL,
	    timeout, &failed) == -1)
		snprintf(why, whysz, "%s", failed);
	else if (t.status == 200)
		rc = 0;
	else if (t.status != 0)
		snprintf(why, whysz, "answered %d", t.status);
	else
		snprintf(why, whysz, "%s", t.timedout ? "no answer" :
		    "the connection closed without an answer");
	if (evcon != NULL)
		evhttp_connection_free(evcon);
	if (t.body != NULL)
		evbuffer_free(t.body);
	if (t.base != NULL)
		event_base_free(t.base);
	return (rc);
}

/* Parse c->body as JSON; NULL with a message printed. */
json_t *
client_json(struct client *c)
{
	json_error_t	 jerr;
	json_t		*j;
	size_t		 len = evbuffer_get_length(c->body);
	const char	*p = (const char *)evbuffer_pullup(c->body, -1);

	if ((j = json_loadb(p != NULL ? p : "", len, 0, &jerr)) == NULL)
		client_fail("%s port %u: the answer is not JSON: %s", c->host,
		    c->port, jerr.text);
	return (j);
}

/* Explain a non-200 answer; returns the exit status 1. */
int
client_status_error(struct client *c, json_t *j)
{
	const char	*msg = NULL;
	json_t		*e;

	if (j != NULL && (e = json_object_get(j, "error")) != NULL)
		msg = json_string_value(json_object_get(e, "message"));
	if (c->status == 401)
		return (client_fail("%s port %u: 401 unauthorized: %s; give "
		    "the token with --token-file FILE or NASPERF_TOKEN (on the "
		    "server it is in the state directory, " NASPERF_TOKEN_FILE
		    " by default)", c->host, c->port, msg != NULL ? msg :
		    "token required"));
	return (client_fail("%s port %u: %d: %s", c->host, c->port, c->status,
	    msg != NULL ? msg : "request failed"));
}

/* -i SECONDS and -n COUNT of top and watch; see client.h. */
int
client_every(struct client *c, int argc, char **argv,
    const struct args_cmd *cmd, double *interval, long *count)
{
	char	*end;
	int	 ch;

	optind = 0;	/* 0: glibc starts afresh, with these flags */
	while ((ch = args_getopt(c, argc, argv, cmd)) != -1) {
		switch (ch) {
		case 'i':
			errno = 0;
			*interval = strtod(optarg, &end);
			if (errno != 0 || *end != '\0' || !(*interval >= 0.5 &&
			    *interval <= 60))
				return (args_fail("-i %s: expected seconds "
				    "from 0.5 to 60", optarg));
			break;
		case 'n':
			*count = strtol(optarg, &end, 10);
			if (*end != '\0' || *count <= 0)
				return (args_fail("-n %s: expected a count",
				    optarg));
			break;
		default:
			return (args_exit(ch));
		}
	}
	if (optind != argc)
		return (args_fail("unexpected argument: %s", argv[optind]));
	return (-1);
}

/* A request whose 2xx JSON answer is returned; NULL with the error shown. */
json_t *
client_call(struct client *c, int method, const char *path, const json_t *body)
{
	json_t	*j;

	if (client_request(c, method, path, body, c->timeout) != 0)
		return (NULL);
	j = client_json(c);
	if (c->status < 200 || c->status > 299) {
		client_status_error(c, j);
		json_decref(j);
		return (NULL);
	}
	return (j);
}

void
client_print_json(const json_t *j, size_t flags)
{
	json_t	*r = jsonnum_round(j);

	json_dumpf(r != NULL ? r : j, stdout, flags);
	fputc('\n', stdout);
	json_decref(r);
}

/* Print a JSON value with "-" for null or missing. */
static void
client_print_field(const char *label, json_t *v, const char *unit)
{
	printf("%-16s", label);
	if (json_is_string(v))
		printf("%s", json_string_value(v));
	else if (json_is_integer(v))
		printf("%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		printf("%.1f", json_real_value(v));
	else if (json_is_true(v) || json_is_false(v))
		printf("%s", json_is_true(v) ? "yes" : "no");
	else
		printf("-");
	printf("%s\n", v != NULL && !json_is_null(v) && unit != NULL ?
	    unit : "");
}

/* The first of several keys that the object has, or NULL. */
static json_t *
client_first(json_t *o, const char *a, const char *b)
{
	json_t	*v;

	if (o == NULL)
		return (NULL);
	if ((v = json_object_get(o, a)) != NULL && !json_is_null(v))
		return (v);
	return (b != NULL ? json_object_get(o, b) : NULL);
}

/*
 * The firmware line: "DSM 7.2.1-69057 Update 5"; on a plain Linux server
 * (vendor generic) the firmware is its distribution's version, and the
 * line says os: "Debian GNU/Linux 12".
 */
static void
client_show_os(json_t *id)
{
	const char	*os = json_string_value(json_object_get(id, "os"));
	const char	*fw = json_string_value(json_object_get(id, "firmware"));
	const char	*vendor = json_string_value(json_object_get(id,
	    "vendor"));

	printf("%-16s%s%s%s\n", vendor != NULL && strcmp(vendor, "generic") ==
	    0 ? "os" : "firmware", os != NULL ? os : fw == NULL ? "-" : "",
	    os != NULL && fw != NULL ? " " : "", fw != NULL ? fw : "");
}

/* The info table. */
static void
client_show_info(json_t *j)
{
	json_t		*id = json_object_get(j, "identity");
	json_t		*cpu = json_object_get(j, "cpu");
	json_t		*mem = json_object_get(j, "memory");
	json_t		*lim = json_object_get(j, "limits"), *v;
	size_t		 i;

	client_print_field("daemon", json_object_get(j, "version"), NULL);
	client_print_field("root", json_object_get(j, "root"), NULL);
	client_print_field("as root", json_object_get(j, "running_as_root"),
	    NULL);
	client_print_field("vendor", client_first(id, "vendor", NULL), NULL);
	client_print_field("model", client_first(id, "model", NULL), NULL);
	client_show_os(id);
	client_print_field("kernel", client_first(id, "kernel", "release"),
	    NULL);
	client_print_field("cpu", client_first(cpu, "model", NULL), NULL);
	client_print_field("cpus", client_first(cpu, "logical_cpus", "count"),
	    NULL);
	if ((v = client_first(mem, "total_bytes", NULL)) != NULL &&
	    json_is_integer(v))
		printf("%-16s%.1f GB\n", "memory",
		    (double)json_integer_value(v) / 1e9);
	if ((v = json_object_get(j, "uptime_seconds")) != NULL &&
	    json_is_number(v))
		printf("%-16s%.1f days\n", "uptime", json_number_value(v) /
		    86400);
	json_array_foreach(lim, i, v)
		printf("%-16s%s\n", i == 0 ? "limits" : "",
		    json_string_value(v));
}

static const char info_usage[] =
"usage: nasperf info\n"
"The daemon's version, the NAS's vendor, model, firmware (on a plain\n"
"Linux server, its distribution and version, as os) and kernel, its CPU\n"
"and memory, and what the daemon cannot see.\n";

static const char topology_usage[] =
"usage: nasperf topology\n"
"Disks, partitions, RAID arrays, device-mapper volumes, btrfs profiles,\n"
"filesystems with the stack each is built on, and network interfaces.\n";

static const char counters_usage[] =
"usage: nasperf counters [-i SEC]\n"
"One snapshot of the counters: CPU per core, memory, every disk and NIC,\n"
"the process groups, and on boxes that have them ZFS's ARC, intent log and\n"
"pools and Unraid's array with its parity check.\n"
"\n"
"Options, anywhere on the line (in run, what follows -- is the command's):\n"
"  -i SEC                rates over SEC seconds (0.1 to 60), per disk as\n"
"                        iostat -x prints them, and the ARC's hit ratio\n";

/* GET path and print its answer as JSON or with show; the exit status. */
static int
client_show(struct client *c, const char *path, double wait,
    void (*show)(json_t *))
{
	json_t	*j;
	int	 rc;

	rc = client_request(c, EVHTTP_REQ_GET, path, NULL, wait);
	client_progress_clear();
	if (rc != 0)
		return (rc);
	j = client_json(c);
	if (c->status != 200) {
		rc = client_status_error(c, j);
		json_decref(j);
		return (rc);
	}
	if (j == NULL)
		return (1);
	if (c->json) {
		client_print_json(j, CLIENT_JSON);
	} else
		show(j);
	json_decref(j);
	if (fflush(stdout) == EOF || ferror(stdout))
		return (client_fail("stdout: %s", strerror(errno)));
	return (0);
}

/* Read the options of a command that takes none; -1 to go on. */
static int
client_no_args(struct client *c, int argc, char **argv,
    const struct args_cmd *cmd)
{
	int	ch;

	optind = 0;
	if ((ch = args_getopt(c, argc, argv, cmd)) != -1)
		return (args_exit(ch));
	if (optind != argc)
		return (args_fail("unexpected argument: %s", argv[optind]));
	return (-1);
}

/* The topology table, to stdout. */
static void
client_show_topology(json_t *j)
{
	show_topology(stdout, j);
}

/* The counters tables, to stdout. */
static void
client_show_counters(json_t *j)
{
	show_counters(stdout, j);
}

/* nasperf info. */
static int
cmd_info(struct client *c, int argc, char **argv)
{
	static const struct args_cmd cmd = { "info", "", NULL, 0, info_usage };
	int	rc;

	if ((rc = client_no_args(c, argc, argv, &cmd)) != -1)
		return (rc);
	return (client_show(c, "/v1/info", c->timeout, client_show_info));
}

/* nasperf topology. */
static int
cmd_topology(struct client *c, int argc, char **argv)
{
	static const struct args_cmd cmd = { "topology", "", NULL, 0,
	    topology_usage };
	int	rc;

	if ((rc = client_no_args(c, argc, argv, &cmd)) != -1)
		return (rc);
	return (client_show(c, "/v1/topology", c->timeout,
	    client_show_topology));
}

/* nasperf counters [-i SEC]. */
static int
cmd_counters(struct client *c, int argc, char **argv)
{
	static const struct args_cmd cmd = { "counters", "i:", NULL, 0,
	    counters_usage };
	char	 path[128], *end;
	double	 interval = 0;
	int	 ch;

	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &cmd)) != -1) {
		if (ch != 'i')
			return (args_exit(ch));
		errno = 0;
		interval = strtod(optarg, &end);
		if (errno != 0 || end == optarg || *end != '\0' ||
		    !(interval >= 0.1 && interval <= 60))
			return (args_fail("-i %s: expected seconds from 0.1 "
			    "to 60", optarg));
	}
	if (optind != argc)
		return (args_fail("unexpected argument: %s", argv[optind]));
	if (interval > 0)
		snprintf(path, sizeof path, "/v1/counters?interval=%g",
		    interval);
	else
		snprintf(path, sizeof path, "/v1/counters");
	if (interval >= 1)
		client_progress(c, "rates over %g s...", interval);
	return (client_show(c, path, c->timeout + interval,
	    client_show_counters));
}

static const struct {
	const char	*name;
	int		(*fn)(struct client *, int, char **);
} client_cmds[] = {
	{ "info", cmd_info }, { "topology", cmd_topology },
	{ "counters", cmd_counters }, { "run", cmd_run }, { "mark", cmd_mark },
	{ "runs", cmd_runs }, { "transfers", cmd_transfers },
	{ "watch", cmd_watch }, { "report", cmd_report },
	{ "compare", cmd_compare }, { "top", cmd_top }, { "synth", cmd_synth },
	{ "disktest", cmd_disktest }, { "bench", cmd_bench },
	{ "diagnose", cmd_diagnose },
	{ "install", cmd_install }, { "uninstall", cmd_uninstall },
};

/* The command called name, or -1. */
static int
client_find(const char *name)
{
	size_t	i;

	for (i = 0; i < NP_NITEMS(client_cmds); i++)
		if (strcmp(name, client_cmds[i].name) == 0)
			return ((int)i);
	return (-1);
}

static const char help_usage[] =
"usage: nasperf help [COMMAND]\n"
"The commands and the global options, or COMMAND's own usage, as\n"
"nasperf COMMAND --help prints it.\n";

/* nasperf help [COMMAND]: the usage, or the command's own. */
static int
cmd_help(struct client *c, int argc, char **argv)
{
	static const struct args_cmd cmd = { "help", "", NULL, 0,
	    help_usage };
	char	*av[3];
	int	 ch, i;

	optind = 0;
	if ((ch = args_getopt(c, argc, argv, &cmd)) != -1)
		return (args_exit(ch));
	if (optind == argc) {
		fputs(nasperf_usage, stdout);
		return (0);
	}
	if (optind != argc - 1)
		return (args_fail("unexpected argument: %s", argv[optind + 1]));
	if (strcmp(argv[optind], "help") == 0) {
		args_usage(stdout);
		return (0);
	}
	if ((i = client_find(argv[optind])) == -1)
		return (args_fail("unknown command: %s", argv[optind]));
	args_name(client_cmds[i].name);
	av[0] = argv[optind];
	av[1] = (char *)"--help";
	av[2] = NULL;
	return (client_cmds[i].fn(c, 2, av));
}

int
main(int argc, char **argv)
{
	struct client	 c;
	const char	*cmd;
	int		 ch, i, rc;

	memset(&c, 0, sizeof c);
	c.timeout = 10;
	if ((ch = args_global(&c, argc, argv, nasperf_usage)) != -1)
		return (args_exit(ch));
	if (optind >= argc) {
		fputs(nasperf_usage, stderr);
		return (2);
	}
	cmd = argv[optind];
	if (strcmp(cmd, "help") == 0) {
		args_name(cmd);
		return (cmd_help(&c, argc - optind, argv + optind));
	}
	if ((i = client_find(cmd)) == -1) {
		client_fail("unknown command: %s", cmd);
		fputs(nasperf_usage, stderr);
		return (2);
	}
	args_name(cmd);
	rc = client_cmds[i].fn(&c, argc - optind, argv + optind);
	if (c.body != NULL)
		evbuffer_free(c.body);
	if (c.base != NULL)
		event_base_free(c.base);
	return (rc);
}
