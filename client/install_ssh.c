/*
 * install_ssh.c: the SSH runner of nasperf install and uninstall.
 *
 * Everything on the NAS is done by OpenSSH's ssh, run as a child process
 * with an argument vector, never through a local shell: the user's
 * ~/.ssh/config, keys and agent apply, and -p, -i, -F and -o are passed
 * through.  The first session is a control master that the later ones
 * share, so a password is asked once.  On the NAS short POSIX sh scripts
 * are read from standard input (sh -s): busybox ash on Synology and QNAP,
 * dash or bash elsewhere.  They answer in "np.KEY=VALUE" lines; whatever
 * else a login shell prints is ignored.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "install.h"

/* Grow b to hold n more bytes (and a NUL); -1 past max. */
static int
install_buf_reserve(struct install_buf *b, size_t n, size_t max)
{
	size_t	 cap;
	char	*p;

	if (b->len + n + 1 <= b->cap)
		return (0);
	if (b->len + n + 1 > max) {
		errno = EFBIG;
		return (-1);
	}
	for (cap = b->cap != 0 ? b->cap : 4096; cap < b->len + n + 1;)
		cap *= 2;
	if (cap > max)
		cap = max;
	if ((p = realloc(b->p, cap)) == NULL)
		return (-1);
	b->p = p;
	b->cap = cap;
	return (0);
}

/* Append n bytes to b, NUL-terminated; -1 past INSTALL_OUT_MAX. */
int
install_buf_add(struct install_buf *b, const char *s, size_t n)
{
	if (install_buf_reserve(b, n, INSTALL_OUT_MAX) == -1)
		return (-1);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return (0);
}

/* Free a buffer's memory; it is empty again. */
void
install_buf_free(struct install_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* Write s to fp as one single-quoted shell word. */
static void
install_shq(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputs("'\\''", fp);
		else
			fputc(*s, fp);
	}
	fputc('\'', fp);
}

/* Write "NAME='value'" and a newline. */
void
install_shvar(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, "%s=", name);
	install_shq(fp, value != NULL ? value : "");
	fputc('\n', fp);
}

/* Append an argument to argv (sized INSTALL_MAX_SSHARGS + 32). */
static void
install_arg(const char **argv, size_t *n, const char *a)
{
	if (*n < INSTALL_MAX_SSHARGS + 30)
		argv[(*n)++] = a;
	argv[*n] = NULL;
}

/* The contents of the file ssh's standard error went to, trimmed. */
static void
install_ssh_stderr(const struct install *in, char *out, size_t outsz)
{
	char	 path[128];
	FILE	*fp;
	size_t	 n;

	out[0] = '\0';
	snprintf(path, sizeof path, "%s/stderr", in->tmpdir);
	if ((fp = fopen(path, "r")) == NULL)
		return;
	n = fread(out, 1, outsz - 1, fp);
	fclose(fp);
	out[n] = '\0';
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r' ||
	    out[n - 1] == ' '))
		out[--n] = '\0';
}

/*
 * Run argv (argv[0] found on PATH) with standard input from infd (-1:
 * /dev/null), standard output into out (NULL: /dev/null) and standard
 * error into tmpdir/stderr.  The exit status, 128 + the signal, or -1
 * when it could not be run (with a message printed).
 */
static int
install_run(const struct install *in, const char *const *argv, int infd,
    struct install_buf *out)
{
	char		 path[128], buf[16384];
	int		 pfd[2] = { -1, -1 }, efd, nfd, status;
	pid_t		 pid;
	ssize_t		 n;

	snprintf(path, sizeof path, "%s/stderr", in->tmpdir);
	if ((efd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1) {
		client_fail("%s: %s", path, strerror(errno));
		return (-1);
	}
	if ((nfd = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1) {
		client_fail("/dev/null: %s", strerror(errno));
		close(efd);
		return (-1);
	}
	if (out != NULL && pipe(pfd) == -1) {
		client_fail("pipe: %s", strerror(errno));
		close(efd);
		close(nfd);
		return (-1);
	}
	fflush(stdout);
	if ((pid = fork()) == -1) {
		client_fail("fork: %s", strerror(errno));
		status = -1;
		goto out;
	}
	if (pid == 0) {
		if (dup2(infd != -1 ? infd : nfd, STDIN_FILENO) == -1 ||
		    dup2(out != NULL ? pfd[1] : nfd, STDOUT_FILENO) == -1 ||
		    dup2(efd, STDERR_FILENO) == -1)
			_exit(127);
		if (pfd[0] != -1)
			close(pfd[0]);
		execvp(argv[0], (char *const *)argv);
		/* As ssh's own failures: status 255 and a line saying why. */
		dprintf(STDERR_FILENO, "nasperf: cannot run %s: %s\n", argv[0],
		    strerror(errno));
		_exit(255);
	}
	if (out != NULL) {
		close(pfd[1]);
		pfd[1] = -1;
		for (;;) {
			n = read(pfd[0], buf, sizeof buf);
			if (n == -1 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			/* Past the cap the rest is drained, not kept. */
			(void)install_buf_add(out, buf, (size_t)n);
		}
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			client_fail("waitpid: %s", strerror(errno));
			status = -1;
			goto out;
		}
	if (WIFEXITED(status))
		status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		status = 128 + WTERMSIG(status);
out:
	if (pfd[0] != -1)
		close(pfd[0]);
	if (pfd[1] != -1)
		close(pfd[1]);
	close(efd);
	close(nfd);
	return (status);
}

/*
 * The ssh command line up to the destination: the user's options, then
 * ours.  With mux, the session goes through the control master (or
 * starts it, when master is 0).
 */
static void
install_ssh_argv(const struct install *in, const char **argv, size_t *n,
    char *ctl, size_t ctlsz, char *cto, size_t ctosz)
{
	size_t	i;

	*n = 0;
	install_arg(argv, n, "ssh");
	for (i = 0; i < in->nsshargs; i++)
		install_arg(argv, n, in->sshargs[i]);
	/* Never a terminal: a binary goes through standard input. */
	install_arg(argv, n, "-T");
	if (in->batch) {
		install_arg(argv, n, "-o");
		install_arg(argv, n, "BatchMode=yes");
	}
	snprintf(cto, ctosz, "ConnectTimeout=%.0f", in->c->timeout < 1 ? 1 :
	    in->c->timeout);
	install_arg(argv, n, "-o");
	install_arg(argv, n, cto);
	if (in->mux) {
		snprintf(ctl, ctlsz, "ControlPath=%s/ctl", in->tmpdir);
		install_arg(argv, n, "-o");
		install_arg(argv, n, ctl);
		install_arg(argv, n, "-o");
		install_arg(argv, n, in->master ? "ControlMaster=no" :
		    "ControlMaster=yes");
		if (!in->master) {
			/* Gone a minute after the last session if we die. */
			install_arg(argv, n, "-o");
			install_arg(argv, n, "ControlPersist=60");
			install_arg(argv, n, "-o");
			install_arg(argv, n, "ServerAliveInterval=15");
		}
	}
	install_arg(argv, n, "--");
	install_arg(argv, n, in->dest);
}

/*
 * ssh failed (status 255): say why in plain words, from what ssh wrote
 * to its standard error.  Returns 1.
 */
static int
install_ssh_error(const struct install *in, int status)
{
	char		 err[2048], *line, *p;
	const char	*host = in->hostname[0] != '\0' ? in->hostname :
			    in->dest;

	install_ssh_stderr(in, err, sizeof err);
	/* The last line is ssh's own verdict; earlier ones are warnings. */
	line = (p = strrchr(err, '\n')) != NULL ? p + 1 : err;
	if (strncmp(line, "ssh: ", 5) == 0)
		line += 5;
	else if (strncmp(line, in->dest, strlen(in->dest)) == 0 &&
	    strncmp(line + strlen(in->dest), ": ", 2) == 0)
		line += strlen(in->dest) + 2;
	if ((p = strchr(line, '\0')) > line && p[-1] == '.')
		p[-1] = '\0';
	if (strncmp(line, "nasperf: cannot run ", 20) == 0)
		return (client_fail("%s (install OpenSSH's client)",
		    line + 9));
	if (strstr(err, "Permission denied") != NULL ||
	    strstr(err, "Too many authentication failures") != NULL)
		return (client_fail("%s: authentication failed (%s): check "
		    "the user and the key (-i FILE), or log in once with ssh "
		    "%s", in->dest, line, in->dest));
	if (strstr(err, "Host key verification failed") != NULL ||
	    strstr(err, "REMOTE HOST IDENTIFICATION HAS CHANGED") != NULL)
		return (client_fail("%s: the host key is unknown or has "
		    "changed: log in once with ssh %s to check and accept it",
		    in->dest, in->dest));
	if (strstr(err, "Could not resolve hostname") != NULL)
		return (client_fail("%s: unknown host: %s", host, line));
	if (strstr(err, "Connection refused") != NULL)
		return (client_fail("%s port %s: connection refused: no SSH "
		    "server listens there (enable SSH on the NAS, or give the "
		    "port with -p)", host, in->sshport[0] != '\0' ?
		    in->sshport : "22"));
	if (strstr(err, "No route to host") != NULL ||
	    strstr(err, "Network is unreachable") != NULL ||
	    strstr(err, "timed out") != NULL ||
	    strstr(err, "Host is down") != NULL)
		return (client_fail("%s is unreachable: %s", host, line));
	if (line[0] == '\0')
		return (client_fail("ssh %s failed with status %d and no "
		    "message", in->dest, status));
	return (client_fail("ssh %s failed: %s", in->dest, line));
}

/* ssh -G: the host name and port the user's configuration resolves to. */
void
install_resolve(struct install *in)
{
	struct install_buf	 out = { NULL, 0, 0 };
	const char		*argv[INSTALL_MAX_SSHARGS + 32];
	char			*line, *save = NULL;
	size_t			 n = 0, i;
	const char		*at;

	install_arg(argv, &n, "ssh");
	for (i = 0; i < in->nsshargs; i++)
		install_arg(argv, &n, in->sshargs[i]);
	install_arg(argv, &n, "-G");
	install_arg(argv, &n, "--");
	install_arg(argv, &n, in->dest);
	if (install_run(in, argv, -1, &out) == 0 && out.p != NULL) {
		for (line = strtok_r(out.p, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "hostname ", 9) == 0)
				snprintf(in->hostname, sizeof in->hostname,
				    "%s", line + 9);
			else if (strncmp(line, "port ", 5) == 0)
				snprintf(in->sshport, sizeof in->sshport,
				    "%s", line + 5);
		}
	}
	install_buf_free(&out);
	/* An ssh without -G (before 6.8): the destination's host part. */
	if (in->hostname[0] == '\0') {
		at = strrchr(in->dest, '@');
		snprintf(in->hostname, sizeof in->hostname, "%s",
		    at != NULL ? at + 1 : in->dest);
	}
}

/*
 * Run a script on the NAS with sh -s; its output in out.  The remote
 * status, or 255 with the reason printed when ssh itself failed, or -1.
 */
int
install_script(struct install *in, const char *script, size_t len,
    struct install_buf *out)
{
	const char	*argv[INSTALL_MAX_SSHARGS + 32];
	char		 path[128], ctl[128], cto[64];
	size_t		 n;
	int		 fd, status;

	snprintf(path, sizeof path, "%s/script", in->tmpdir);
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1) {
		client_fail("%s: %s", path, strerror(errno));
		return (-1);
	}
	if (write(fd, script, len) != (ssize_t)len ||
	    lseek(fd, 0, SEEK_SET) == -1) {
		client_fail("%s: %s", path, strerror(errno));
		close(fd);
		return (-1);
	}
	install_ssh_argv(in, argv, &n, ctl, sizeof ctl, cto, sizeof cto);
	install_arg(argv, &n, "/bin/sh -s");
	status = install_run(in, argv, fd, out);
	close(fd);
	if (status == 255)
		install_ssh_error(in, status);
	return (status);
}

/* Close the control master, if one was started, and the scratch dir. */
void
install_close(struct install *in)
{
	const char	*argv[INSTALL_MAX_SSHARGS + 32];
	char		 path[128], ctl[128];
	size_t		 n = 0, i;

	if (in->tmpdir[0] == '\0')
		return;
	if (in->mux && in->master) {
		install_arg(argv, &n, "ssh");
		for (i = 0; i < in->nsshargs; i++)
			install_arg(argv, &n, in->sshargs[i]);
		snprintf(ctl, sizeof ctl, "ControlPath=%s/ctl", in->tmpdir);
		install_arg(argv, &n, "-o");
		install_arg(argv, &n, ctl);
		install_arg(argv, &n, "-O");
		install_arg(argv, &n, "exit");
		install_arg(argv, &n, "--");
		install_arg(argv, &n, in->dest);
		(void)install_run(in, argv, -1, NULL);
		in->master = 0;
	}
	snprintf(path, sizeof path, "%s/script", in->tmpdir);
	(void)unlink(path);
	snprintf(path, sizeof path, "%s/stderr", in->tmpdir);
	(void)unlink(path);
	snprintf(path, sizeof path, "%s/ctl", in->tmpdir);
	(void)unlink(path);
	(void)rmdir(in->tmpdir);
	in->tmpdir[0] = '\0';
}

/*
 * Call fn for each "np.KEY=VALUE" line of out, with the key (after "np.")
 * and the value; other lines are a login shell's chatter.
 */
void
install_lines(struct install_buf *out, void (*fn)(void *, const char *,
    char *), void *arg)
{
	char	*s, *eol, *eq;

	if (out->p == NULL)
		return;
	for (s = out->p; *s != '\0'; s = eol) {
		if ((eol = strchr(s, '\n')) != NULL)
			*eol++ = '\0';
		else
			eol = s + strlen(s);
		s[strcspn(s, "\r")] = '\0';
		if (strncmp(s, "np.", 3) != 0 ||
		    (eq = strchr(s, '=')) == NULL)
			continue;
		*eq = '\0';
		fn(arg, s + 3, eq + 1);
	}
}

/* Copy the binary to a temporary file on the NAS; its path in up. */
int
install_upload(struct install *in, char *up, size_t upsz)
{
	struct install_buf	 out = { NULL, 0, 0 };
	const char		*argv[INSTALL_MAX_SSHARGS + 32];
	char			 ctl[128], cto[64], *s, *e;
	size_t			 n;
	int			 fd, status;

	if ((fd = open(in->binary, O_RDONLY | O_CLOEXEC)) == -1)
		return (client_fail("%s: %s", in->binary, strerror(errno)));
	install_ssh_argv(in, argv, &n, ctl, sizeof ctl, cto, sizeof cto);
	/* The remote login shell reads this one line: nothing of ours in it. */
	install_arg(argv, &n, "umask 077 && f=$(mktemp /tmp/nasperfd.XXXXXX) "
	    "&& cat >\"$f\" && echo \"np.upload=$f\"");
	status = install_run(in, argv, fd, &out);
	close(fd);
	if (status != 0) {
		install_buf_free(&out);
		if (status == 255 || status == -1)
			return (install_ssh_error(in, status));
		return (client_fail("%s: copying nasperfd failed with status "
		    "%d (is /tmp full, or mktemp missing?)", in->dest,
		    status));
	}
	up[0] = '\0';
	if (out.p != NULL && (s = strstr(out.p, "np.upload=")) != NULL) {
		s += 10;
		if ((e = strchr(s, '\n')) != NULL)
			*e = '\0';
		snprintf(up, upsz, "%s", s);
	}
	install_buf_free(&out);
	if (up[0] != '/')
		return (client_fail("%s: the copy of nasperfd has no name",
		    in->dest));
	return (0);
}
