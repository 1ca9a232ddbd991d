/*
 * t_args.c: nasperf's command line: HOST[:PORT], the global options before
 * and after a command and its operands, a command's own letters over the
 * global ones, run's "--" left alone, --help and bad options.
 */
#include "config.h"

#include <fcntl.h>

#include "test.h"
#include "client.h"

#define T_ARGC(v)	((int)NP_NITEMS(v) - 1)

static const struct option t_runopts[] = {
	{ "op",		required_argument,	NULL, 'o' },
	{ NULL,		0,			NULL, 0 }
};
static const struct option t_benchopts[] = {
	{ "tests",	required_argument,	NULL, 'T' },
	{ NULL,		0,			NULL, 0 }
};
static const struct args_cmd t_counters = { "counters", "i:", NULL, 0,
    "usage: nasperf counters\n" };
static const struct args_cmd t_run = { "run", "o:", t_runopts, 1,
    "usage: nasperf run\n" };
static const struct args_cmd t_synth = { "synth", "t:", NULL, 0,
    "usage: nasperf synth\n" };
static const struct args_cmd t_bench = { "bench", "", t_benchopts, 0,
    "usage: nasperf bench\n" };

/* A fresh client, as main makes it. */
static void
t_client(struct client *c)
{
	memset(c, 0, sizeof *c);
	c->timeout = 10;
}

/* args_getopt() with stdout and stderr sent to /dev/null (--help, errors). */
static int
t_quiet(struct client *c, int argc, char **argv, const struct args_cmd *cmd)
{
	int	 o, e, null, ch;

	fflush(stdout);
	fflush(stderr);
	o = dup(1);
	e = dup(2);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	dup2(null, 2);
	ch = args_getopt(c, argc, argv, cmd);
	fflush(stdout);
	fflush(stderr);
	dup2(o, 1);
	dup2(e, 2);
	close(o);
	close(e);
	close(null);
	return (ch);
}

static void
t_host(void)
{
	struct client	c;

	t_client(&c);
	T_OK(args_host(&c, "nas"));
	T_EQ_STR(c.host, "nas");
	T_EQ_INT(c.port, 9631);
	T_OK(args_host(&c, "nas.example:7117"));
	T_EQ_STR(c.host, "nas.example");
	T_EQ_INT(c.port, 7117);
	T_OK(args_host(&c, "[::1]:9000"));
	T_EQ_STR(c.host, "::1");
	T_EQ_INT(c.port, 9000);
	T_OK(args_host(&c, "[fe80::1]"));
	T_EQ_INT(c.port, 9631);
	T_EQ_INT(args_host(&c, "nas:0"), -1);
	T_EQ_INT(args_host(&c, "nas:65536"), -1);
	T_EQ_INT(args_host(&c, "nas:x"), -1);
	T_EQ_INT(args_host(&c, ":9631"), -1);
	T_EQ_INT(args_host(&c, "[::1]x"), -1);
	T_EQ_INT(args_host(&c, ""), -1);
}

/* nasperf counters --json -i 2 -H h:5: globals after the command. */
static void
t_after(void)
{
	struct client	 c;
	char		*av[] = { "counters", "--json", "-i", "2", "-H",
			    "h.example:5", NULL };

	t_client(&c);
	optind = 0;
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_counters), 'i');
	T_EQ_STR(optarg, "2");
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_counters), -1);
	T_EQ_INT(optind, T_ARGC(av));
	T_EQ_INT(c.json, 1);
	T_EQ_STR(c.host, "h.example");
	T_EQ_INT(c.port, 5);
}

/* nasperf runs 3 -T 5 --host h: after an operand too, which stays. */
static void
t_operand(void)
{
	struct client	 c;
	char		*av[] = { "report", "3", "-T", "5", "--host", "h", NULL };

	t_client(&c);
	optind = 0;
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_counters), -1);
	T_EQ_INT(optind, T_ARGC(av) - 1);
	T_EQ_STR(av[optind], "3");
	T_NEAR(c.timeout, 5, 1e-9);
	T_EQ_STR(c.host, "h");
	T_EQ_INT(c.port, 9631);
}

/* nasperf run --op read -j -- dd -j -H x: the command's are its own. */
static void
t_run_command(void)
{
	struct client	 c;
	char		*av[] = { "run", "--op", "read", "-j", "--", "dd", "-j",
			    "-H", "x", NULL };

	t_client(&c);
	optind = 0;
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_run), 'o');
	T_EQ_STR(optarg, "read");
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_run), -1);
	T_EQ_STR(av[optind], "dd");
	T_EQ_STR(av[optind + 1], "-j");
	T_EQ_STR(av[optind + 2], "-H");
	T_EQ_INT(c.json, 1);
	T_EQ_STR(c.host, "127.0.0.1");
}

/* nasperf run dd -j: without --, run's options end at the command too. */
static void
t_run_inorder(void)
{
	struct client	 c;
	char		*av[] = { "run", "dd", "-j", NULL };

	t_client(&c);
	optind = 0;
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_run), -1);
	T_EQ_INT(optind, 1);
	T_EQ_INT(c.json, 0);
}

/* synth -t 5 is --time; --token-file is still the token file. */
static void
t_own_letter(void)
{
	struct client	 c;
	char		 path[] = "/tmp/t_args.XXXXXX";
	char		*av[] = { "synth", "-t", "5", "--token-file", path,
			    NULL };
	int		 fd;

	if ((fd = mkstemp(path)) == -1 || write(fd, "s3cret\n", 7) != 7) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
	t_client(&c);
	optind = 0;
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_synth), 't');
	T_EQ_STR(optarg, "5");
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_synth), -1);
	T_EQ_STR(c.token, "s3cret");
	unlink(path);
}

/* bench's --tests returns 'T' to it; -T is still the global timeout. */
static void
t_own_long(void)
{
	struct client	 c;
	char		*av[] = { "bench", "-T", "7", "/mnt", "--tests", "seq",
			    NULL };

	t_client(&c);
	optind = 0;
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_bench), 'T');
	T_EQ_STR(optarg, "seq");
	T_NEAR(c.timeout, 7, 1e-9);
	T_EQ_INT(args_getopt(&c, T_ARGC(av), av, &t_bench), -1);
	T_EQ_STR(av[optind], "/mnt");
}

/* --help and -h stop with 0, a bad option or value with 2. */
static void
t_stops(void)
{
	struct client	 c;
	char		*help[] = { "counters", "-i", "1", "--help", NULL };
	char		*h[] = { "run", "-h", "--", "x", NULL };
	char		*bad[] = { "counters", "--bogus", NULL };
	char		*host[] = { "counters", "-H", "nas:0", NULL };
	char		*noarg[] = { "counters", "-i", NULL };
	char		*tok[] = { "counters", "-t", "/nonexistent/t", NULL };
	int		 ch;

	t_client(&c);
	optind = 0;
	ch = args_getopt(&c, T_ARGC(help), help, &t_counters);
	T_EQ_INT(ch, 'i');
	ch = t_quiet(&c, T_ARGC(help), help, &t_counters);
	T_EQ_INT(ch, ARGS_EXIT(0));
	T_EQ_INT(args_exit(ch), 0);
	optind = 0;
	T_EQ_INT(args_exit(t_quiet(&c, T_ARGC(h), h, &t_run)), 0);
	optind = 0;
	T_EQ_INT(args_exit(t_quiet(&c, T_ARGC(bad), bad, &t_counters)), 2);
	optind = 0;
	T_EQ_INT(args_exit(t_quiet(&c, T_ARGC(host), host, &t_counters)), 2);
	optind = 0;
	T_EQ_INT(args_exit(t_quiet(&c, T_ARGC(noarg), noarg, &t_counters)),
	    2);
	optind = 0;
	T_EQ_INT(args_exit(t_quiet(&c, T_ARGC(tok), tok, &t_counters)), 1);
	T_EQ_INT(args_exit('i'), 2);
}

/* main's part: the globals before the command, then the command. */
static void
t_global(void)
{
	struct client	 c;
	char		*av[] = { "nasperf", "-j", "--timeout", "3", "counters",
			    "-i", "1", NULL };

	t_client(&c);
	T_EQ_INT(args_global(&c, T_ARGC(av), av, "usage: nasperf\n"), -1);
	T_EQ_INT(optind, 4);
	T_EQ_STR(av[optind], "counters");
	T_EQ_INT(c.json, 1);
	T_NEAR(c.timeout, 3, 1e-9);
}

int
main(void)
{
	unsetenv("NASPERF_HOST");
	unsetenv("NASPERF_TOKEN");
	unsetenv("POSIXLY_CORRECT");
	t_host();
	t_after();
	t_operand();
	t_run_command();
	t_run_inorder();
	t_own_letter();
	t_own_long();
	t_stops();
	t_global();
	return (t_done());
}
