/*
 * main.c: nasperfd's start-up, signals and shutdown.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "api.h"
#include "authfail.h"
#include "cfg.h"
#include "daemon.h"
#include "disktest.h"
#include "log.h"
#include "np.h"
#include "pathcap.h"
#include "runs.h"
#include "sampler.h"
#include "state.h"
#include "smbsess.h"
#include "zpool.h"
#include "synth.h"
#include "tls.h"
#include "transfers.h"

#define NASPERFD_CONFIG	SYSCONFDIR "/nasperfd/nasperfd.yaml"

static const char nasperfd_usage[] =
"usage: nasperfd [-df] [-c file] [-l addr:port] [-s statedir] [--root dir]\n"
"       nasperfd [-c file] [-s statedir] --rotate-token[=read|control|all]\n"
"       nasperfd [-c file] [-s statedir] --rotate-certificate | --fingerprint\n"
"\n"
"Samples a NAS's CPU, disk and network counters and serves them, with the\n"
"storage topology, over an HTTP API (default port 9631).\n"
"\n"
"  -c, --config FILE     configuration file (default " NASPERFD_CONFIG
    "\n"
"                        when it exists, else the built-in defaults)\n"
"  -d, --debug           log debug messages\n"
"  -f, --foreground      stay in the foreground and log to stderr\n"
"  -l, --listen ADDR:PORT  listen there instead of api.listen\n"
"                        (IPv6 as [::1]:9631)\n"
"  -s, --state-dir DIR   state directory instead of state_dir; the API\n"
"                        tokens are DIR/token (control: everything) and\n"
"                        DIR/token.read (read-only: GET and HEAD)\n"
"      --root DIR        read proc, sys and etc under DIR (a fixture tree or\n"
"                        a captured box) instead of the live system\n"
"      --rotate-token[=WHICH]  replace the read, the control or (default)\n"
"                        both tokens with new ones and exit; a running\n"
"                        daemon takes them at SIGHUP\n"
"      --rotate-certificate  replace the self-signed TLS certificate of the\n"
"                        state directory (api.tls, synth.tls) and exit; a\n"
"                        running daemon serves it from SIGHUP on\n"
"      --fingerprint     print the SHA-256 fingerprint of the TLS\n"
"                        certificate (what a client pins) and exit\n"
"  -V, --version         print the version and exit\n"
"  -h, --help            print this help and exit\n"
"\n"
"Signals: SIGHUP reloads the configuration (a bad file keeps the running\n"
"one) and the tokens, SIGTERM and SIGINT stop the daemon.  See nasperfd(8).\n";

int
daemon_override(const struct daemon *d, struct cfg *cfg, char **cause)
{
	const char	*errstr;

	*cause = NULL;
	if (d->opt_listen != NULL && cfg_listen_parse(d->opt_listen,
	    cfg->listen_addr, sizeof cfg->listen_addr, &cfg->listen_port,
	    &errstr) == -1) {
		if (asprintf(cause, "-l %s: %s; e.g. 127.0.0.1:9631 or "
		    "[::1]:9631", d->opt_listen, errstr) == -1)
			*cause = NULL;
		return (-1);
	}
	if (d->opt_state != NULL)
		snprintf(cfg->state_dir, sizeof cfg->state_dir, "%s",
		    d->opt_state);
	if (d->opt_root != NULL)
		snprintf(cfg->root, sizeof cfg->root, "%s", d->opt_root);
	if (d->opt_debug)
		cfg->debug = 1;
	return (0);
}

/* Load the configuration the command line names, with its overrides. */
static struct cfg *
daemon_load(const struct daemon *d, char **cause)
{
	struct cfg	*cfg;

	if (d->cfg_path != NULL)
		cfg = cfg_load(d->cfg_path, cause);
	else
		cfg = cfg_default();
	if (cfg == NULL) {
		if (*cause == NULL && asprintf(cause, "out of memory") == -1)
			*cause = NULL;
		return (NULL);
	}
	if (daemon_override(d, cfg, cause) == -1) {
		cfg_free(cfg);
		return (NULL);
	}
	return (cfg);
}

/* Read both tokens, making those missing; -1 with *cause. */
static int
daemon_tokens(struct daemon *d, char **cause)
{
	char	control[sizeof d->token], read[sizeof d->token_read];

	if (state_token(d->state_dir, STATE_TOKEN, control, sizeof control,
	    cause) == -1 || state_token(d->state_dir, STATE_TOKEN_READ, read,
	    sizeof read, cause) == -1)
		return (-1);
	memcpy(d->token, control, sizeof d->token);
	memcpy(d->token_read, read, sizeof d->token_read);
	return (0);
}

/* --rotate-token: new tokens in the state directory; the exit status. */
static int
daemon_rotate(struct daemon *d)
{
	static const char *const names[] = { STATE_TOKEN, STATE_TOKEN_READ };
	char		 tok[STATE_TOKEN_LEN + 1], *cause = NULL;
	size_t		 i;
	int		 all = strcmp(d->opt_rotate, "all") == 0;

	for (i = 0; i < NP_NITEMS(names); i++) {
		if (!all && strcmp(d->opt_rotate, i == 0 ? "control" :
		    "read") != 0)
			continue;
		if (state_token_new(d->state_dir, names[i], tok, sizeof tok,
		    &cause) == -1) {
			fprintf(stderr, "nasperfd: %s\n", cause != NULL ?
			    cause : "cannot write the token");
			free(cause);
			return (1);
		}
		printf("new %s token in %s/%s\n", i == 0 ? "control" :
		    "read-only", d->state_dir, names[i]);
	}
	printf("a running nasperfd takes it at SIGHUP (or its next start); "
	    "until then the old one works\n");
	return (0);
}

/*
 * --rotate-certificate: a new self-signed certificate in the state
 * directory; the exit status.  A configured one is the administrator's.
 */
static int
daemon_rotate_cert(struct daemon *d)
{
	char	 fp[TLS_FP_SIZE], *cause = NULL;

	if (d->cfg->tls_cert[0] != '\0') {
		fprintf(stderr, "nasperfd: the certificate is %s "
		    "(api.tls_certificate): replace that file and its key, "
		    "then send SIGHUP\n", d->cfg->tls_cert);
		return (1);
	}
	if (tls_make(d->state_dir, fp, sizeof fp, &cause) == -1) {
		fprintf(stderr, "nasperfd: %s\n", cause != NULL ? cause :
		    "cannot make a certificate");
		free(cause);
		return (1);
	}
	printf("new TLS certificate in %s/" TLS_CERT "\n%s\n", d->state_dir,
	    fp);
	printf("a running nasperfd serves it from SIGHUP (or its next start); "
	    "clients that pinned the old one refuse it until told (see "
	    "nasperf(1), TLS)\n");
	return (0);
}

/* --fingerprint: what a client pins; the exit status. */
static int
daemon_fingerprint(struct daemon *d)
{
	char	 path[4200], key[4200], fp[TLS_FP_SIZE], *cause = NULL;

	tls_paths(d, path, key, sizeof path);
	if (tls_file_fingerprint(path, fp, sizeof fp, &cause) == -1) {
		fprintf(stderr, "nasperfd: %s%s\n", cause != NULL ? cause :
		    path, access(path, F_OK) == -1 ? " (nasperfd makes it at "
		    "its first start with api.tls or synth.tls on)" : "");
		free(cause);
		return (1);
	}
	printf("%s\n", fp);
	return (0);
}

/*
 * Make room for the descriptors cfg may hold open: raise the soft
 * RLIMIT_NOFILE to the hard one when it is lower than that, and say which
 * limit to raise when even the hard one is.  Past the limit accept(2)
 * fails, and a client waits in the listen queue however idle the daemon.
 */
static void
daemon_nofile(const struct cfg *cfg)
{
	struct rlimit	rl;
	rlim_t		need = cfg_nofile(cfg), soft;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		log_warn("getrlimit RLIMIT_NOFILE");
		return;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need &&
	    rl.rlim_cur < rl.rlim_max) {
		soft = rl.rlim_cur;
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
			log_warn("setrlimit RLIMIT_NOFILE %ju", (uintmax_t)
			    rl.rlim_max);
			rl.rlim_cur = soft;
		} else
			log_info("open files: soft limit raised from %ju to "
			    "the hard limit, %ju", (uintmax_t)soft,
			    (uintmax_t)rl.rlim_cur);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need)
		log_warnx("open files: the limit is %ju, but api.max_connections "
		    "%u and synth.max_streams %u may need %ju: raise the hard "
		    "limit (LimitNOFILE= in a systemd unit, ulimit -n in the "
		    "script that starts nasperfd) or lower those keys",
		    (uintmax_t)rl.rlim_cur, cfg->max_connections,
		    cfg->synth_max_streams, (uintmax_t)need);
}

/* SIGHUP: build a whole new configuration and swap only a valid one. */
static void
daemon_reload_cb(NP_UNUSED evutil_socket_t sig, NP_UNUSED short what,
    void *arg)
{
	struct daemon	*d = arg;
	struct cfg	*cfg, *old = d->cfg;
	char		*cause = NULL;

	if ((cfg = daemon_load(d, &cause)) == NULL) {
		log_warnx("reload: %s; keeping the running configuration",
		    cause != NULL ? cause : "failed");
		free(cause);
		return;
	}
	if (strcmp(cfg->listen_addr, old->listen_addr) != 0 ||
	    cfg->listen_port != old->listen_port ||
	    strcmp(cfg->state_dir, old->state_dir) != 0 ||
	    strcmp(cfg->root, old->root) != 0)
		log_warnx("reload: api.listen, state_dir and root take effect "
		    "at the next start");
	/* What cannot change while running keeps its running value. */
	memcpy(cfg->listen_addr, old->listen_addr, sizeof cfg->listen_addr);
	cfg->listen_port = old->listen_port;
	memcpy(cfg->state_dir, old->state_dir, sizeof cfg->state_dir);
	memcpy(cfg->root, old->root, sizeof cfg->root);
	d->cfg = cfg;
	cfg_free(old);
	log_setverbose(cfg->debug);
	daemon_nofile(cfg);
	api_reconfigure(d);
	sampler_reconfigure(d);
	synth_reconfigure(d);
	if (tls_init(d, &cause) == -1) {
		log_warnx("reload: %s; keeping the running certificate",
		    cause != NULL ? cause : "TLS failed");
		free(cause);
		cause = NULL;
	}
	if (daemon_tokens(d, &cause) == -1) {
		log_warnx("reload: %s; keeping the running tokens", cause !=
		    NULL ? cause : "tokens failed");
		free(cause);
	}
	log_info("reloaded %s", d->cfg_path != NULL ? d->cfg_path :
	    "the built-in defaults");
}

/* SIGTERM, SIGINT: leave the loop; main() tears down. */
static void
daemon_stop_cb(evutil_socket_t sig, NP_UNUSED short what, void *arg)
{
	struct daemon	*d = arg;

	log_info("%s: stopping", strsignal((int)sig));
	event_base_loopexit(d->base, NULL);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config",	required_argument,	NULL, 'c' },
		{ "debug",	no_argument,		NULL, 'd' },
		{ "foreground",	no_argument,		NULL, 'f' },
		{ "listen",	required_argument,	NULL, 'l' },
		{ "state-dir",	required_argument,	NULL, 's' },
		{ "root",	required_argument,	NULL, 'r' },
		{ "rotate-token", optional_argument,	NULL, 'R' },
		{ "rotate-certificate", no_argument,	NULL, 'C' },
		{ "fingerprint", no_argument,		NULL, 'F' },
		{ "version",	no_argument,		NULL, 'V' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL,		0,			NULL, 0 }
	};
	struct daemon	 d;
	struct stat	 st;
	char		*cause = NULL;
	int		 ch, foreground = 0, rc = 1;

	memset(&d, 0, sizeof d);
	d.root.rootfd = d.root.procfd = d.root.sysfd = d.root.etcfd = -1;
	while ((ch = getopt_long(argc, argv, "c:dfl:s:Vh", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'c':
			d.cfg_path = optarg;
			break;
		case 'd':
			d.opt_debug = 1;
			break;
		case 'f':
			foreground = 1;
			break;
		case 'l':
			d.opt_listen = optarg;
			break;
		case 's':
			d.opt_state = optarg;
			break;
		case 'r':
			d.opt_root = optarg;
			break;
		case 'R':
			d.opt_rotate = optarg != NULL ? optarg : "all";
			if (strcmp(d.opt_rotate, "all") != 0 &&
			    strcmp(d.opt_rotate, "read") != 0 &&
			    strcmp(d.opt_rotate, "control") != 0) {
				fprintf(stderr, "nasperfd: --rotate-token=%s: "
				    "expected read, control or all\n",
				    d.opt_rotate);
				return (2);
			}
			break;
		case 'C':
			d.opt_rotate_cert = 1;
			break;
		case 'F':
			d.opt_fingerprint = 1;
			break;
		case 'V':
			printf("nasperfd %s\n", PACKAGE_VERSION);
			return (0);
		case 'h':
			fputs(nasperfd_usage, stdout);
			return (0);
		default:
			fputs(nasperfd_usage, stderr);
			return (2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "nasperfd: unexpected argument: %s\n",
		    argv[optind]);
		fputs(nasperfd_usage, stderr);
		return (2);
	}
	log_init("nasperfd", foreground, d.opt_debug);
	d.is_root = geteuid() == 0;
	clock_gettime(CLOCK_MONOTONIC, &d.started);

	/* An installed default file is used when present; -c must exist. */
	if (d.cfg_path == NULL && stat(NASPERFD_CONFIG, &st) == 0)
		d.cfg_path = NASPERFD_CONFIG;
	if ((d.cfg = daemon_load(&d, &cause)) == NULL) {
		log_warnx("%s", cause != NULL ? cause : "configuration failed");
		free(cause);
		return (2);
	}
	log_setverbose(d.cfg->debug);

	if (d.opt_state != NULL) {
		if (state_open(d.cfg->state_dir, &cause) == -1)
			goto fail;
		snprintf(d.state_dir, sizeof d.state_dir, "%s",
		    d.cfg->state_dir);
	} else if (state_choose(d.cfg->state_dir, d.state_dir,
	    sizeof d.state_dir, &cause) == -1)
		goto fail;
	if (strcmp(d.state_dir, d.cfg->state_dir) != 0)
		log_info("not root and %s is not writable: using %s",
		    d.cfg->state_dir, d.state_dir);
	if (d.opt_rotate != NULL) {
		rc = daemon_rotate(&d);
		goto out;
	}
	if (d.opt_rotate_cert) {
		rc = daemon_rotate_cert(&d);
		goto out;
	}
	if (d.opt_fingerprint) {
		rc = daemon_fingerprint(&d);
		goto out;
	}
	if (daemon_tokens(&d, &cause) == -1 || tls_init(&d, &cause) == -1)
		goto fail;
	if (probe_root_open(&d.root, d.cfg->root) == -1) {
		if (asprintf(&cause, "root %s: %s", d.cfg->root,
		    strerror(errno)) == -1)
			cause = NULL;
		goto fail;
	}
	if (d.root.procfd == -1 && d.root.sysfd == -1)
		log_warnx("root %s: neither proc nor sys exists there; every "
		    "probe will be unavailable", d.cfg->root);
	if (!d.is_root)
		log_info("not running as root: other users' processes and raw "
		    "devices are not readable");

	daemon_nofile(d.cfg);
	signal(SIGPIPE, SIG_IGN);
	if ((d.base = event_base_new()) == NULL) {
		cause = strdup("event_base_new failed");
		goto fail;
	}
	d.ev_hup = evsignal_new(d.base, SIGHUP, daemon_reload_cb, &d);
	d.ev_term = evsignal_new(d.base, SIGTERM, daemon_stop_cb, &d);
	d.ev_int = evsignal_new(d.base, SIGINT, daemon_stop_cb, &d);
	if (d.ev_hup == NULL || d.ev_term == NULL || d.ev_int == NULL ||
	    evsignal_add(d.ev_hup, NULL) == -1 ||
	    evsignal_add(d.ev_term, NULL) == -1 ||
	    evsignal_add(d.ev_int, NULL) == -1) {
		cause = strdup("cannot install signal handlers");
		goto fail;
	}
	if (runs_init(&d, &cause) == -1 || sampler_init(&d, &cause) == -1 ||
	    disktest_init(&d, &cause) == -1 || pathcap_init(&d, &cause) == -1)
		goto fail;
	if (api_init(&d, &cause) == -1 || synth_init(&d, &cause) == -1 ||
	    smbsess_init(&d, &cause) == -1 || zpool_init(&d, &cause) == -1 ||
	    transfers_init(&d, &cause) == -1)
		goto fail;
	log_info("nasperfd %s: root %s, state %s, config %s", PACKAGE_VERSION,
	    d.root.path, d.state_dir, d.cfg_path != NULL ? d.cfg_path :
	    "built-in defaults");

	event_base_dispatch(d.base);
	rc = 0;
	goto out;
fail:
	log_warnx("%s", cause != NULL ? cause : "start-up failed");
	free(cause);
out:
	transfers_shutdown(&d);
	smbsess_shutdown(&d);
	zpool_shutdown(&d);
	disktest_shutdown(&d);
	synth_shutdown(&d);
	api_shutdown(&d);
	tls_shutdown(&d);
	authfail_free(&d);
	free(d.closed);
	pathcap_shutdown(&d);
	sampler_shutdown(&d);
	runs_shutdown(&d);
	if (d.ev_int != NULL)
		event_free(d.ev_int);
	if (d.ev_term != NULL)
		event_free(d.ev_term);
	if (d.ev_hup != NULL)
		event_free(d.ev_hup);
	if (d.base != NULL)
		event_base_free(d.base);
	probe_root_close(&d.root);
	cfg_free(d.cfg);
	return (rc);
}
