/*
 * args.h: nasperf's command line.  The global options (-H, -t, -j, -T,
 * --cacert) are taken anywhere on the line, before or after the command
 * and its operands, as GNU tools take theirs; each command has its own options,
 * its own --help, and errors in one style, "nasperf COMMAND: message".
 */
#ifndef ARGS_H
#define ARGS_H

#include <getopt.h>
#include <stdio.h>

#include "np.h"

struct client;

/*
 * A command's part of the command line, for args_getopt(): its name for
 * messages ("run"), its own options as getopt(3) and getopt_long(3) take
 * them (longopts may be NULL), whether its options end at its first
 * operand (run: the rest is the benchmark's), and its --help, less the
 * global options.
 */
struct args_cmd {
	const char		*name;
	const char		*shortopts;
	const struct option	*longopts;
	int			 inorder;
	const char		*usage;
};

/*
 * What args_getopt() returns to stop the command with an exit status: 0
 * after --help, 1 when the token file cannot be read, 2 on a usage error
 * (said, with the usage, on stderr).
 */
#define ARGS_STOP	0x1000
#define ARGS_EXIT(rc)	(ARGS_STOP | (rc))

/*
 * getopt_long(3) over argv (argv[0] the command's name; set optind to 0
 * first) with the command's options and the global ones, which it applies
 * to c itself.  Options and operands may come in any order, but with
 * inorder, and "--" ends the options.  Returns the command's option (its
 * argument in optarg), -1 at the end of the options with c ready to
 * connect (the daemon's address and token settled), or ARGS_EXIT(rc).
 */
int	args_getopt(struct client *c, int argc, char **argv,
	    const struct args_cmd *cmd);
/* The exit status of what args_getopt() returned: rc, or 2. */
int	args_exit(int ch);
/* The leading global options of main, up to the command; as args_getopt. */
int	args_global(struct client *c, int argc, char **argv,
	    const char *usage);

/* Name the command in messages: "mark end" once mark knows its operand. */
void	args_name(const char *name);
/* The command being run, or NULL before one is found. */
const char *args_command(void);
/* Print the usage of the last command args_getopt() saw to fp. */
void	args_usage(FILE *fp);
/* Say a usage error as client_fail() does, then the usage; returns 2. */
int	args_fail(const char *fmt, ...) NP_PRINTF(1, 2);

/* Print "nasperf COMMAND: message" to stderr; returns 1, the failure status. */
int	client_fail(const char *fmt, ...) NP_PRINTF(1, 2);

/*
 * Parse HOST, HOST:PORT, [V6] or [V6]:PORT, each optionally after
 * http:// or https:// (c->tls), into c (the port defaults to 9631); -1
 * when malformed.
 */
int	args_host(struct client *c, const char *s);
/* "HOST:PORT", or "[V6]:PORT" for an IPv6 address, into out. */
void	args_hostport(char *out, size_t outsz, const char *host,
	    unsigned port);

#endif /* ARGS_H */
