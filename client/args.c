/*
 * args.c: nasperf's command line: the global options anywhere on it, each
 * command's own options and usage, and the style of every message.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "args.h"
#include "client.h"

#define ARGS_HOST	"127.0.0.1"
#define ARGS_PORT	9631
#define ARGS_MAXOPTS	64
/*
 * A global long option returns this plus its letter: never a command's.
 * A long option without a short one (--cacert) has a letter no short
 * option string holds.
 */
#define ARGS_LONG	0x200

#define ARGS_G(c)	(ARGS_LONG + (c))
static const struct option args_globals[] = {
	{ "host",	required_argument,	NULL, ARGS_G('H') },
	{ "token-file",	required_argument,	NULL, ARGS_G('t') },
	{ "cacert",	required_argument,	NULL, ARGS_G('C') },
	{ "json",	no_argument,		NULL, ARGS_G('j') },
	{ "timeout",	required_argument,	NULL, ARGS_G('T') },
	{ "version",	no_argument,		NULL, ARGS_G('V') },
	{ "help",	no_argument,		NULL, ARGS_G('h') },
	{ NULL,		0,			NULL, 0 }
};
static const char args_global_short[] = "H:t:jT:Vh";

/* What every command's --help ends with. */
static const char args_global_usage[] =
"\n"
"Global options, before or after the command:\n"
"  -H, --host [https://]HOST[:PORT]\n"
"                        the daemon (default $NASPERF_HOST, else\n"
"                        127.0.0.1:9631); https:// speaks TLS\n"
"  -t, --token-file FILE   the API token (default $NASPERF_TOKEN, else\n"
"                        " NASPERF_TOKEN_FILE ")\n"
"      --cacert FILE     with https://, trust the CAs in FILE (default\n"
"                        $NASPERF_CACERT, else pin the first certificate\n"
"                        seen in the known-hosts file)\n"
"  -j, --json            print JSON instead of tables\n"
"  -T, --timeout SEC     give up after SEC seconds (default 10)\n"
"  -h, --help            print this help and exit\n";

/* The command, for messages, and its options and usage. */
static const char		*args_cur;
static const struct args_cmd	*args_spec;
static char			 args_prog[64] = "nasperf";

/* Name the command in messages, getopt's own included. */
void
args_name(const char *name)
{
	args_cur = name;
	snprintf(args_prog, sizeof args_prog, "nasperf%s%s",
	    name != NULL ? " " : "", name != NULL ? name : "");
}

/* The command being run, or NULL. */
const char *
args_command(void)
{
	return (args_cur);
}

/* Print "nasperf COMMAND: message" to stderr. */
static void
args_vsay(const char *fmt, va_list ap)
{
	client_progress_clear();
	fprintf(stderr, "%s: ", args_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* Print an error in the one style; returns 1. */
int
client_fail(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	args_vsay(fmt, ap);
	va_end(ap);
	return (1);
}

/* A usage error: the message, then the usage; returns 2. */
int
args_fail(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	args_vsay(fmt, ap);
	va_end(ap);
	args_usage(stderr);
	return (2);
}

/* The command's usage, and the global options after a command's own. */
void
args_usage(FILE *fp)
{
	const char	*l, *eol;

	if (args_spec == NULL)
		return;
	fputs(args_spec->usage, fp);
	if (args_spec->name == NULL)
		return;
	/*
	 * A global option whose letter the command takes for its own is
	 * said by its long name only: "synth -t" is synth's --time.
	 */
	for (l = args_global_usage; *l != '\0'; l = eol) {
		eol = strchr(l, '\n') != NULL ? strchr(l, '\n') + 1 :
		    l + strlen(l);
		if (strncmp(l, "  -", 3) == 0 && l[4] == ',' &&
		    strchr(args_spec->shortopts, l[3]) != NULL)
			fprintf(fp, "      %.*s", (int)(eol - l - 6), l + 6);
		else
			fprintf(fp, "%.*s", (int)(eol - l), l);
	}
}

/* The exit status of what args_getopt() returned. */
int
args_exit(int ch)
{
	return ((ch & ARGS_STOP) != 0 ? ch & 0xff : 2);
}

/*
 * Parse [http://|https://]HOST, HOST:PORT, [V6] or [V6]:PORT into c; -1
 * when malformed.
 */
int
args_host(struct client *c, const char *s)
{
	const char	*end, *port = NULL;
	size_t		 len;
	char		*ep;
	unsigned long	 p;
	int		 tls = 0;

	if (strncasecmp(s, "https://", 8) == 0) {
		tls = 1;
		s += 8;
	} else if (strncasecmp(s, "http://", 7) == 0)
		s += 7;
	if (s[0] == '[') {
		if ((end = strchr(s, ']')) == NULL)
			return (-1);
		len = (size_t)(end - s - 1);
		if (end[1] == ':')
			port = end + 2;
		else if (end[1] != '\0')
			return (-1);
		s++;
	} else if ((end = strrchr(s, ':')) != NULL && strchr(s, ':') == end) {
		len = (size_t)(end - s);
		port = end + 1;
	} else
		len = strlen(s);
	if (len == 0 || len >= sizeof c->host)
		return (-1);
	memcpy(c->host, s, len);
	c->host[len] = '\0';
	c->port = ARGS_PORT;
	if (port != NULL) {
		errno = 0;
		p = strtoul(port, &ep, 10);
		if (*port < '0' || *port > '9' || *ep != '\0' || errno != 0 ||
		    p == 0 || p > 65535)
			return (-1);
		c->port = (unsigned)p;
	}
	c->tls = tls;
	return (0);
}

/* "HOST:PORT", or "[V6]:PORT" for an IPv6 address. */
void
args_hostport(char *out, size_t outsz, const char *host, unsigned port)
{
	snprintf(out, outsz, strchr(host, ':') != NULL ? "[%s]:%u" : "%s:%u",
	    host, port);
}

/* Read the first line of a token file into c; -1 with a message printed. */
static int
args_token(struct client *c, const char *path, int quiet)
{
	FILE	*fp;
	size_t	 len;

	if ((fp = fopen(path, "r")) == NULL) {
		if (!quiet)
			client_fail("token file %s: %s", path, strerror(errno));
		return (-1);
	}
	if (fgets(c->token, sizeof c->token, fp) == NULL) {
		fclose(fp);
		c->token[0] = '\0';
		if (!quiet)
			client_fail("token file %s: empty", path);
		return (-1);
	}
	fclose(fp);
	len = strcspn(c->token, "\r\n");
	c->token[len] = '\0';
	return (0);
}

/*
 * The options are all read: settle the daemon's address ($NASPERF_HOST
 * when no -H) and the token (-t, else $NASPERF_TOKEN, else the default
 * file when readable).  -1, or ARGS_EXIT(rc).
 */
static int
args_ready(struct client *c)
{
	const char	*host, *env;

	if (c->host[0] == '\0') {
		host = getenv("NASPERF_HOST");
		if (host == NULL || *host == '\0')
			host = ARGS_HOST;
		if (args_host(c, host) == -1) {
			client_fail("NASPERF_HOST=%s: expected "
			    "[https://]HOST[:PORT]", host);
			return (ARGS_EXIT(2));
		}
	}
	if (c->token_file != NULL) {
		if (args_token(c, c->token_file, 0) == -1)
			return (ARGS_EXIT(1));
	} else if ((env = getenv("NASPERF_TOKEN")) != NULL && *env != '\0')
		snprintf(c->token, sizeof c->token, "%s", env);
	else
		(void)args_token(c, NASPERF_TOKEN_FILE, 1);
	if (c->cacert == NULL && (env = getenv("NASPERF_CACERT")) != NULL &&
	    *env != '\0')
		c->cacert = env;
	return (-1);
}

/* Apply global option ch (its letter); -1 to go on, or ARGS_EXIT(rc). */
static int
args_apply(struct client *c, int ch)
{
	char	*end;

	switch (ch) {
	case 'H':
		if (args_host(c, optarg) == -1) {
			client_fail("-H %s: expected [https://]HOST[:PORT]",
			    optarg);
			return (ARGS_EXIT(2));
		}
		break;
	case 't':
		c->token_file = optarg;
		break;
	case 'C':
		c->cacert = optarg;
		break;
	case 'j':
		c->json = 1;
		break;
	case 'T':
		errno = 0;
		c->timeout = strtod(optarg, &end);
		if (errno != 0 || end == optarg || *end != '\0' ||
		    !(c->timeout > 0 && c->timeout <= 3600)) {
			client_fail("--timeout %s: expected seconds from 0 to "
			    "3600", optarg);
			return (ARGS_EXIT(2));
		}
		break;
	case 'V':
		printf("nasperf %s\n", PACKAGE_VERSION);
		return (ARGS_EXIT(0));
	case 'h':
		args_usage(stdout);
		return (ARGS_EXIT(0));
	}
	return (-1);
}

/*
 * The option string: "+" when options end at an operand, the command's
 * letters, then each global letter the command does not use itself.
 */
static void
args_shortopts(const struct args_cmd *cmd, char *out, size_t outsz)
{
	const char	*g;
	size_t		 n;

	n = (size_t)snprintf(out, outsz, "%s%s", cmd->inorder ? "+" : "",
	    cmd->shortopts);
	for (g = args_global_short; *g != '\0' && n + 3 < outsz; g++) {
		if (*g == ':' || strchr(cmd->shortopts, *g) != NULL)
			continue;
		out[n++] = *g;
		if (g[1] == ':')
			out[n++] = ':';
	}
	out[n] = '\0';
}

/*
 * The long options: the command's, then the global ones whose names it
 * does not use; *ncmd is the number of the command's.
 */
static void
args_longopts(const struct args_cmd *cmd, struct option *out, size_t *ncmd)
{
	const struct option	*o, *g;
	size_t			 n = 0;

	for (o = cmd->longopts; o != NULL && o->name != NULL &&
	    n < ARGS_MAXOPTS - NP_NITEMS(args_globals); o++)
		out[n++] = *o;
	*ncmd = n;
	for (g = args_globals; g->name != NULL; g++) {
		for (o = out; o < out + *ncmd; o++)
			if (strcmp(o->name, g->name) == 0)
				break;
		if (o == out + *ncmd)
			out[n++] = *g;
	}
	memset(&out[n], 0, sizeof out[n]);
}

/* args_getopt(), with or without settling the client at the end. */
static int
args_parse(struct client *c, int argc, char **argv,
    const struct args_cmd *cmd, int ready)
{
	struct option	 longopts[ARGS_MAXOPTS];
	char		 shortopts[128], *argv0 = argv[0];
	size_t		 ncmd;
	int		 ch, li, rc;

	args_spec = cmd;
	args_shortopts(cmd, shortopts, sizeof shortopts);
	args_longopts(cmd, longopts, &ncmd);
	for (;;) {
		li = -1;
		/* getopt's own messages begin "nasperf run: ". */
		argv[0] = args_prog;
		ch = getopt_long(argc, argv, shortopts, longopts, &li);
		argv[0] = argv0;
		if (ch == -1)
			return (ready ? args_ready(c) : -1);
		if (ch == '?' || ch == ':') {
			args_usage(stderr);
			return (ARGS_EXIT(2));
		}
		if (li >= 0 ? (size_t)li < ncmd :
		    strchr(cmd->shortopts, ch) != NULL)
			return (ch);
		if ((rc = args_apply(c, ch & 0xff)) != -1)
			return (rc);
	}
}

/* A command's options and the global ones; see args.h. */
int
args_getopt(struct client *c, int argc, char **argv,
    const struct args_cmd *cmd)
{
	return (args_parse(c, argc, argv, cmd, 1));
}

/* The global options before the command. */
int
args_global(struct client *c, int argc, char **argv, const char *usage)
{
	static struct args_cmd	main_cmd;

	main_cmd.shortopts = "";
	main_cmd.inorder = 1;
	main_cmd.usage = usage;
	optind = 0;
	return (args_parse(c, argc, argv, &main_cmd, 0));
}
