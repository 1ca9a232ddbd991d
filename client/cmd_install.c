/*
 * cmd_install.c: nasperf install and nasperf uninstall: put nasperfd on a
 * NAS over SSH, start it the way that box starts its services, and take
 * it away again.
 *
 * Everything on the NAS is done by OpenSSH's ssh, run as a child process
 * with an argument vector, never through a local shell: the user's
 * ~/.ssh/config, keys and agent apply, and -p, -i, -F and -o are passed
 * through.  The first session is a control master that the later ones
 * share, so a password is asked once.  On the NAS short POSIX sh scripts
 * are read from standard input (sh -s): busybox ash on Synology and QNAP,
 * dash or bash elsewhere.  They answer in "np.KEY=VALUE" lines; whatever
 * else a login shell prints is ignored.
 *
 * Install records in PREFIX/.nasperf-install how the daemon was started
 * and every file and directory it created; uninstall follows that record,
 * so it removes no more and no less, and a second uninstall finds nothing.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "client.h"
#include "install_sh.h"
#include "identity.h"

#ifndef NASPERF_STATIC_DIR
#define NASPERF_STATIC_DIR	"/usr/local/lib/nasperf/static"
#endif
#define INSTALL_PREFIX		"/opt/nasperf"
#define INSTALL_LISTEN		"0.0.0.0:9631"
#define INSTALL_MANIFEST	".nasperf-install"
#define INSTALL_MAX_SSHARGS	64	/* -p, -i, -F, -o and their values */
#define INSTALL_OUT_MAX		(4U << 20)	/* what a script may print */
#define INSTALL_FILE_MAX	65536	/* a vendor file, as sent */
#define INSTALL_PATH_MAX	256
#define INSTALL_MAX_FILES	12

/* How nasperfd is started on the NAS, and started again at boot. */
enum install_init {
	INSTALL_INIT_AUTO,
	INSTALL_INIT_SYSTEMD,		/* a unit, where systemd is PID 1 */
	INSTALL_INIT_VENDOR,		/* Synology rc.d, QNAP qpkg.conf */
	INSTALL_INIT_PLAIN		/* a background process, a pid file */
};

enum install_vendor {
	INSTALL_OTHER,
	INSTALL_DEBIAN,
	INSTALL_SYNOLOGY,
	INSTALL_QNAP,
	INSTALL_READYNAS
};

/* A growing buffer: a child's output, a vendor file. */
struct install_buf {
	char	*p;
	size_t	 len, cap;
};

/* What the detection script found on the NAS. */
struct install_remote {
	char			 os[32];	/* uname -s */
	char			 uname[64];	/* uname -m */
	const char		*arch;		/* our name; NULL if unknown */
	long			 uid;
	char			 pid1[64];	/* /proc/1/comm */
	char			 fetch[16];	/* curl, wget or "" */
	unsigned		 markers;	/* INSTALL_M_* */
	enum install_vendor	 vendor;
	struct identity		 id;		/* model, firmware, os */
	int			 installed;	/* a manifest at the prefix */
	int			 busy;		/* the port already answers */
	char			 old_init[32];	/* the manifest's init */
	char			 old_unit[INSTALL_PATH_MAX];
	char			 old_rcd[INSTALL_PATH_MAX];
	char			 old_qpkg[64];
	int			 has_unit, has_rcd, has_qpkg;
	struct install_buf	 f_version, f_synoinfo, f_ulinux, f_osrel;
};

#define INSTALL_M_SYNOINFO	0x01
#define INSTALL_M_DSMVERSION	0x02
#define INSTALL_M_ULINUX	0x04
#define INSTALL_M_GETCFG	0x08
#define INSTALL_M_READYNASD	0x10
#define INSTALL_M_DEBIAN	0x20

/* One install or uninstall. */
struct install {
	struct client		*c;
	const char		*dest;		/* [user@]host */
	const char		*sshargs[INSTALL_MAX_SSHARGS];
	size_t			 nsshargs;
	char			 prefix[INSTALL_PATH_MAX];
	char			 state[INSTALL_PATH_MAX];
	const char		*bindir;
	char			 listen_addr[128];	/* as in the config */
	unsigned		 port;
	int			 wildcard;	/* listens on every address */
	enum install_init	 init_opt;
	const char		*save_token;
	int			 dry_run;
	const char		*detect_root;	/* NASPERF_DETECT_ROOT */
	int			 batch;		/* BatchMode: no terminal */
	int			 mux;		/* sessions share a master */

	char			 tmpdir[64];	/* control socket, scratch */
	int			 master;	/* the control master runs */
	char			 hostname[256];	/* ssh -G hostname */
	char			 sshport[16];	/* ssh -G port */

	struct install_remote	 r;
	const char		*init_name;	/* "systemd", "plain" ... */
	const char		*init_why;
	char			 binary[INSTALL_PATH_MAX + 32];
	off_t			 binsize;
};

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
static int
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
static void
install_buf_free(struct install_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/*
 * A path the scripts and the files they write can carry without quoting:
 * absolute, not "/", letters, digits and . _ + - / only, no "." or ".."
 * component.  0, or -1 with the reason in *why.
 */
static int
install_path_ok(const char *p, const char **why)
{
	const char	*s;

	if (p[0] != '/' || p[1] == '\0') {
		*why = "expected an absolute path other than /";
		return (-1);
	}
	if (strlen(p) >= INSTALL_PATH_MAX - 32) {
		*why = "too long";
		return (-1);
	}
	for (s = p; *s != '\0'; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("._+-/", *s) != NULL)) {
			*why = "only letters, digits and . _ + - / are allowed";
			return (-1);
		}
		if (s[0] == '/' && (s[1] == '/' || (s[1] == '.' && (s[2] ==
		    '/' || s[2] == '\0' || (s[2] == '.' && (s[3] == '/' ||
		    s[3] == '\0')))))) {
			*why = "no empty, . or .. component";
			return (-1);
		}
	}
	if (s[-1] == '/') {
		*why = "no trailing /";
		return (-1);
	}
	return (0);
}

/*
 * Parse --listen ADDR:PORT or [V6]:PORT into the config's form and the
 * port; -1 when malformed.
 */
static int
install_parse_listen(struct install *in, const char *s)
{
	const char	*colon, *a;
	char		*end;
	unsigned long	 port;
	size_t		 alen;

	if ((colon = strrchr(s, ':')) == NULL || colon == s)
		return (-1);
	if (s[0] == '[') {
		if (colon[-1] != ']' || colon - s < 3)
			return (-1);
		a = s + 1;
		alen = (size_t)(colon - s - 2);
	} else {
		if (memchr(s, ':', (size_t)(colon - s)) != NULL)
			return (-1);
		a = s;
		alen = (size_t)(colon - s);
	}
	for (size_t i = 0; i < alen; i++)
		if (strchr("0123456789abcdefABCDEF.:", a[i]) == NULL)
			return (-1);
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || *end != '\0' || errno != 0 ||
	    port == 0 || port > 65535 || strlen(s) >= sizeof in->listen_addr)
		return (-1);
	snprintf(in->listen_addr, sizeof in->listen_addr, "%s", s);
	in->port = (unsigned)port;
	in->wildcard = (alen == 7 && memcmp(a, "0.0.0.0", 7) == 0) ||
	    (alen == 2 && memcmp(a, "::", 2) == 0);
	return (0);
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
static void
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
static void
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
static int
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
static void
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
static void
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


/* One line of the detection script's answer. */
static void
install_detect_cb(void *arg, const char *k, char *v)
{
	struct install_remote	*r = arg;
	struct install_buf	*f = NULL;
	static const struct {
		const char	*name;
		unsigned	 bit;
	} markers[] = {
		{ "synoinfo", INSTALL_M_SYNOINFO },
		{ "dsm-version", INSTALL_M_DSMVERSION },
		{ "ulinux", INSTALL_M_ULINUX },
		{ "getcfg", INSTALL_M_GETCFG },
		{ "readynasd", INSTALL_M_READYNASD },
		{ "debian", INSTALL_M_DEBIAN },
	};
	size_t			 i;

	if (strcmp(k, "os") == 0)
		snprintf(r->os, sizeof r->os, "%s", v);
	else if (strcmp(k, "uname") == 0)
		snprintf(r->uname, sizeof r->uname, "%s", v);
	else if (strcmp(k, "uid") == 0)
		r->uid = strtol(v, NULL, 10);
	else if (strcmp(k, "pid1") == 0)
		snprintf(r->pid1, sizeof r->pid1, "%s", v);
	else if (strcmp(k, "fetch") == 0)
		snprintf(r->fetch, sizeof r->fetch, "%s", v);
	else if (strcmp(k, "busy") == 0)
		r->busy = 1;
	else if (strcmp(k, "marker") == 0) {
		for (i = 0; i < NP_NITEMS(markers); i++)
			if (strcmp(v, markers[i].name) == 0)
				r->markers |= markers[i].bit;
	} else if (strcmp(k, "exists") == 0) {
		if (strcmp(v, "qpkg") == 0)
			r->has_qpkg = 1;
		else if (strstr(v, "systemd") != NULL)
			r->has_unit = 1;
		else
			r->has_rcd = 1;
	} else if (strncmp(k, "m.", 2) == 0) {
		/* The manifest, whose lines are KEY=VALUE themselves. */
		r->installed = 1;
		if (strcmp(k + 2, "init") == 0)
			snprintf(r->old_init, sizeof r->old_init, "%s", v);
		else if (strcmp(k + 2, "unit") == 0)
			snprintf(r->old_unit, sizeof r->old_unit, "%s", v);
		else if (strcmp(k + 2, "rcd") == 0)
			snprintf(r->old_rcd, sizeof r->old_rcd, "%s", v);
		else if (strcmp(k + 2, "qpkg") == 0)
			snprintf(r->old_qpkg, sizeof r->old_qpkg, "%s", v);
	} else if (strcmp(k, "f.version") == 0)
		f = &r->f_version;
	else if (strcmp(k, "f.synoinfo") == 0)
		f = &r->f_synoinfo;
	else if (strcmp(k, "f.ulinux") == 0)
		f = &r->f_ulinux;
	else if (strcmp(k, "f.osrelease") == 0)
		f = &r->f_osrel;
	if (f != NULL && f->len + strlen(v) + 2 <= INSTALL_FILE_MAX &&
	    install_buf_add(f, v, strlen(v)) == 0)
		(void)install_buf_add(f, "\n", 1);
}

/* Our name of an architecture uname -m gives; NULL when we build none. */
static const char *
install_arch(const char *m)
{
	if (strcmp(m, "x86_64") == 0 || strcmp(m, "amd64") == 0)
		return ("x86_64");
	/* armv8l: a 32-bit userland on a 64-bit ARM kernel. */
	if (strcmp(m, "armv7l") == 0 || strcmp(m, "armv7") == 0 ||
	    strcmp(m, "armv8l") == 0 || strcmp(m, "armhf") == 0)
		return ("armhf");
	if (strcmp(m, "aarch64") == 0 || strcmp(m, "arm64") == 0)
		return ("aarch64");
	return (NULL);
}

/*
 * The vendor from its marker files: Synology's synoinfo.conf or
 * etc.defaults/VERSION, QNAP's uLinux.conf or getcfg, ReadyNAS OS's
 * os-release or readynasd, then Debian and anything else.  The identity
 * parsers that nasperfd uses fill in model and firmware.
 */
static void
install_vendor(struct install_remote *r)
{
	const char	*errstr;
	char		 id[64] = "", like[128] = "";
	const char	*p;

	memset(&r->id, 0, sizeof r->id);
	if (r->f_osrel.p != NULL) {
		(void)identity_parse_os_release(r->f_osrel.p, r->f_osrel.len,
		    &r->id, &errstr);
		for (p = r->f_osrel.p; p != NULL; p = strchr(p, '\n')) {
			p += *p == '\n';
			if (strncmp(p, "ID=", 3) == 0)
				sscanf(p + 3, "%63[^\n]", id);
			else if (strncmp(p, "ID_LIKE=", 8) == 0)
				sscanf(p + 8, "%127[^\n]", like);
		}
	}
	if (r->f_version.p != NULL)
		(void)identity_parse_version(r->f_version.p, r->f_version.len,
		    &r->id, &errstr);
	if (r->f_synoinfo.p != NULL)
		(void)identity_parse_synoinfo(r->f_synoinfo.p,
		    r->f_synoinfo.len, &r->id, &errstr);
	if (r->f_ulinux.p != NULL)
		(void)identity_parse_ulinux(r->f_ulinux.p, r->f_ulinux.len,
		    &r->id, &errstr);

	if (r->markers & (INSTALL_M_SYNOINFO | INSTALL_M_DSMVERSION))
		r->vendor = INSTALL_SYNOLOGY;
	else if (r->markers & (INSTALL_M_ULINUX | INSTALL_M_GETCFG))
		r->vendor = INSTALL_QNAP;
	else if ((r->markers & INSTALL_M_READYNASD) ||
	    r->id.vendor == IDENTITY_NETGEAR)
		r->vendor = INSTALL_READYNAS;
	else if ((r->markers & INSTALL_M_DEBIAN) ||
	    strstr(id, "debian") != NULL || strstr(like, "debian") != NULL)
		r->vendor = INSTALL_DEBIAN;
	else
		r->vendor = INSTALL_OTHER;
}

/* The vendor's name, for people ("Synology") or for JSON ("synology"). */
static const char *
install_vendor_name(enum install_vendor v, int json)
{
	switch (v) {
	case INSTALL_SYNOLOGY:
		return (json ? "synology" : "Synology");
	case INSTALL_QNAP:
		return (json ? "qnap" : "QNAP");
	case INSTALL_READYNAS:
		return (json ? "readynas" : "ReadyNAS");
	case INSTALL_DEBIAN:
		return (json ? "debian" : "Debian");
	default:
		return (json ? "other" : "Linux");
	}
}

/* Free what detection kept. */
static void
install_remote_clear(struct install_remote *r)
{
	install_buf_free(&r->f_version);
	install_buf_free(&r->f_synoinfo);
	install_buf_free(&r->f_ulinux);
	install_buf_free(&r->f_osrel);
}

/* The local /healthz URL the NAS itself asks. */
static void
install_url(const struct install *in, char *out, size_t outsz)
{
	const char	*colon = strrchr(in->listen_addr, ':');
	int		 alen = (int)(colon - in->listen_addr);

	if (in->wildcard)
		snprintf(out, outsz, "http://%s:%u/healthz",
		    in->listen_addr[0] == '[' ? "[::1]" : "127.0.0.1",
		    in->port);
	else
		snprintf(out, outsz, "http://%.*s:%u/healthz", alen,
		    in->listen_addr, in->port);
}

/* Open the scratch directory and run detection, which starts the master. */
static int
install_detect(struct install *in)
{
	struct install_buf	 out = { NULL, 0, 0 };
	char			*s = NULL, url[200];
	size_t			 len = 0;
	FILE			*fp;
	int			 status;

	if ((fp = open_memstream(&s, &len)) == NULL)
		return (client_fail("out of memory"));
	install_shvar(fp, "P", in->prefix);
	install_shvar(fp, "MANIFEST", INSTALL_MANIFEST);
	install_shvar(fp, "R", in->detect_root);
	install_url(in, url, sizeof url);
	install_shvar(fp, "URL", url);
	install_shvar(fp, "DRY", "1");
	fputs(install_common_sh, fp);
	fputs(install_detect_sh, fp);
	if (fclose(fp) != 0) {
		free(s);
		return (client_fail("out of memory"));
	}
	status = install_script(in, s, len, &out);
	free(s);
	if (status == 0)
		in->master = 1;
	else {
		if (status != 255 && status != -1)
			client_fail("%s: the detection script failed with "
			    "status %d", in->dest, status);
		install_buf_free(&out);
		return (1);
	}
	install_lines(&out, install_detect_cb, &in->r);
	install_buf_free(&out);
	if (in->r.uname[0] == '\0')
		return (client_fail("%s: no answer from the NAS's shell "
		    "(does the account have /bin/sh?)", in->dest));
	if (strcmp(in->r.os, "Linux") != 0)
		return (client_fail("%s runs %s, not Linux: nasperfd needs "
		    "Linux", in->dest, in->r.os));
	install_vendor(&in->r);
	in->r.arch = install_arch(in->r.uname);
	return (0);
}

/*
 * Find the static nasperfd for the architecture and check that it is one:
 * an ELF file for that machine.  0, or 1 with a message.
 */
static int
install_binary(struct install *in)
{
	static const struct {
		const char	*arch;
		int		 class;		/* 1: 32-bit, 2: 64-bit */
		unsigned	 machine;
	} elf[] = {
		{ "x86_64", 2, 62 },		/* EM_X86_64 */
		{ "armhf", 1, 40 },		/* EM_ARM */
		{ "aarch64", 2, 183 },		/* EM_AARCH64 */
	};
	unsigned char	 h[20];
	struct stat	 st;
	unsigned	 machine;
	size_t		 i;
	int		 fd;

	if (in->r.arch == NULL)
		return (client_fail("%s: unknown architecture: uname -m says "
		    "'%s'; nasperfd is built for x86_64, armhf (armv7l) and "
		    "aarch64", in->dest, in->r.uname));
	snprintf(in->binary, sizeof in->binary, "%s/%s/nasperfd", in->bindir,
	    in->r.arch);
	if ((fd = open(in->binary, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1) {
		if (fd != -1)
			close(fd);
		return (client_fail("no nasperfd for %s (uname -m: %s): %s: "
		    "%s; build the static daemons with make static, or give "
		    "the directory holding %s/nasperfd with --binaries DIR",
		    in->r.arch, in->r.uname, in->binary, strerror(errno),
		    in->r.arch));
	}
	in->binsize = st.st_size;
	if (read(fd, h, sizeof h) != (ssize_t)sizeof h ||
	    memcmp(h, "\177ELF", 4) != 0) {
		close(fd);
		return (client_fail("%s: not an ELF program", in->binary));
	}
	close(fd);
	machine = (unsigned)h[18] | (unsigned)h[19] << 8;	/* LE */
	for (i = 0; i < NP_NITEMS(elf); i++)
		if (strcmp(elf[i].arch, in->r.arch) == 0 &&
		    (elf[i].class != h[4] || elf[i].machine != machine))
			return (client_fail("%s is not a program for %s "
			    "(ELF class %u, machine %u)", in->binary,
			    in->r.arch, h[4], machine));
	return (0);
}

/* Choose how the daemon is started; 0, or 1 with a message. */
static int
install_choose_init(struct install *in)
{
	struct install_remote	*r = &in->r;
	int			 systemd = strcmp(r->pid1, "systemd") == 0;
	int			 vendor = r->vendor == INSTALL_SYNOLOGY ||
				    r->vendor == INSTALL_QNAP;
	enum install_init	 init = in->init_opt;

	if (init != INSTALL_INIT_PLAIN && init != INSTALL_INIT_AUTO &&
	    r->uid != 0)
		return (client_fail("%s: --init %s needs root on the NAS; "
		    "log in as root (or use --init plain)", in->dest,
		    init == INSTALL_INIT_SYSTEMD ? "systemd" : "vendor"));
	if (init == INSTALL_INIT_SYSTEMD && !systemd)
		return (client_fail("%s: --init systemd: systemd is not PID 1 "
		    "there (PID 1 is %s)", in->dest, r->pid1[0] != '\0' ?
		    r->pid1 : "unknown"));
	if (init == INSTALL_INIT_VENDOR && !vendor)
		return (client_fail("%s: --init vendor: no vendor init known "
		    "for %s (Synology and QNAP have one)", in->dest,
		    install_vendor_name(r->vendor, 0)));
	if (init == INSTALL_INIT_AUTO) {
		if (r->uid != 0) {
			init = INSTALL_INIT_PLAIN;
			in->init_why = "not root on the NAS: not started at "
			    "boot";
		} else if (systemd)
			init = INSTALL_INIT_SYSTEMD;
		else if (vendor)
			init = INSTALL_INIT_VENDOR;
		else {
			init = INSTALL_INIT_PLAIN;
			in->init_why = "no systemd or vendor init there: not "
			    "started at boot";
		}
	}
	if (init == INSTALL_INIT_SYSTEMD)
		in->init_name = "systemd";
	else if (init == INSTALL_INIT_VENDOR)
		in->init_name = r->vendor == INSTALL_SYNOLOGY ?
		    "synology-rc.d" : "qnap-qpkg";
	else
		in->init_name = "plain";

	/* Never take over what another install of nasperfd owns. */
	if (strcmp(in->init_name, "systemd") == 0 && r->has_unit &&
	    strcmp(r->old_unit, "/etc/systemd/system/nasperfd.service") != 0)
		return (client_fail("%s: /etc/systemd/system/nasperfd.service "
		    "exists and is not from an install at %s: remove it first, "
		    "or use --init plain", in->dest, in->prefix));
	if (strcmp(in->init_name, "synology-rc.d") == 0 && r->has_rcd &&
	    r->old_rcd[0] == '\0')
		return (client_fail("%s: /usr/local/etc/rc.d/nasperfd.sh "
		    "exists and is not from an install at %s: remove it first, "
		    "or use --init plain", in->dest, in->prefix));
	if (strcmp(in->init_name, "qnap-qpkg") == 0 && r->has_qpkg &&
	    r->old_qpkg[0] == '\0')
		return (client_fail("%s: a QPKG named nasperfd is installed "
		    "(App Center): remove it first, or use --init plain",
		    in->dest));
	if (r->busy && !r->installed)
		return (client_fail("%s: something already answers %s:%u "
		    "/healthz there (another nasperfd?): choose another "
		    "address or port with --listen", in->dest,
		    in->wildcard ? "*" : in->listen_addr, in->port));
	return (0);
}

/* The files install writes, in the order it writes them. */
struct install_files {
	char	 bin[INSTALL_PATH_MAX + 32], conf[INSTALL_PATH_MAX + 32];
	char	 service[INSTALL_PATH_MAX + 32], unit[64], rcd[64];
	char	 pidf[INSTALL_PATH_MAX + 32], log[INSTALL_PATH_MAX + 32];
	char	 manifest[INSTALL_PATH_MAX + 32];
};

/* Fill the paths of what install writes. */
static void
install_files(const struct install *in, struct install_files *f)
{
	memset(f, 0, sizeof *f);
	snprintf(f->bin, sizeof f->bin, "%s/bin/nasperfd", in->prefix);
	snprintf(f->conf, sizeof f->conf, "%s/etc/nasperfd.yaml", in->prefix);
	snprintf(f->manifest, sizeof f->manifest, "%s/" INSTALL_MANIFEST,
	    in->prefix);
	if (strcmp(in->init_name, "systemd") == 0) {
		snprintf(f->unit, sizeof f->unit,
		    "/etc/systemd/system/nasperfd.service");
		return;
	}
	snprintf(f->service, sizeof f->service, "%s/nasperfd.sh", in->prefix);
	snprintf(f->pidf, sizeof f->pidf, "%s/nasperfd.pid", in->state);
	snprintf(f->log, sizeof f->log, "%s/nasperfd.log", in->state);
	if (strcmp(in->init_name, "synology-rc.d") == 0)
		snprintf(f->rcd, sizeof f->rcd,
		    "/usr/local/etc/rc.d/nasperfd.sh");
}

/* The detected box, in one line. */
static void
install_print_box(const struct install *in)
{
	const struct install_remote	*r = &in->r;

	printf("%s: %s (uname -m %s), vendor %s", in->dest, r->arch,
	    r->uname, install_vendor_name(r->vendor, 0));
	if (r->id.model[0] != '\0')
		printf(" %s", r->id.model);
	if (r->vendor == INSTALL_DEBIAN || r->vendor == INSTALL_OTHER) {
		if (r->id.pretty_name[0] != '\0')
			printf(" (%s)", r->id.pretty_name);
	} else if (r->id.os[0] != '\0')
		printf(", %s %s", r->id.os, r->id.firmware);
	if (r->uid == 0)
		printf(", as root\n");
	else
		printf(", as uid %ld\n", r->uid);
	if (r->vendor == INSTALL_QNAP && strncmp(in->prefix, "/share/", 7) != 0)
		printf("note: QTS keeps / in RAM: %s is gone after a reboot; "
		    "a prefix under /share/ survives it\n", in->prefix);
}

/* How the daemon is started, for people: "start nasperfd <this>". */
static const char *
install_init_text(const char *name)
{
	if (strcmp(name, "systemd") == 0)
		return ("as a systemd unit, enabled at boot");
	if (strcmp(name, "synology-rc.d") == 0)
		return ("with a script in DSM's /usr/local/etc/rc.d, which "
		    "runs it at boot");
	if (strcmp(name, "qnap-qpkg") == 0)
		return ("with a service script that QTS runs at boot "
		    "(qpkg.conf)");
	return ("as a background process with a pid file");
}

/* The plan, for --dry-run: what would be written and run. */
static void
install_print_plan(const struct install *in, const struct install_files *f)
{
	char	url[200];

	install_url(in, url, sizeof url);
	printf("would install nasperfd on %s:\n", in->dest);
	printf("  copy   %s (%.1f MB)\n         to %s\n", in->binary,
	    (double)in->binsize / 1e6, f->bin);
	printf("  write  %s (api.listen %s, state_dir %s)\n", f->conf,
	    in->listen_addr, in->state);
	if (f->service[0] != '\0')
		printf("  write  %s (start, stop, status)\n", f->service);
	if (f->unit[0] != '\0')
		printf("  write  %s\n", f->unit);
	if (f->rcd[0] != '\0')
		printf("  write  %s (DSM runs it at boot)\n", f->rcd);
	if (strcmp(in->init_name, "qnap-qpkg") == 0)
		printf("  add    [nasperfd] to /etc/config/qpkg.conf (QTS "
		    "runs %s at boot)\n", f->service);
	printf("  write  %s (what nasperf uninstall removes)\n", f->manifest);
	if (in->r.installed)
		printf("  stop   the nasperfd installed there before (%s); "
		    "its state and token stay\n", in->r.old_init);
	printf("  start  nasperfd %s%s%s%s\n",
	    install_init_text(in->init_name), in->init_why != NULL ? " (" :
	    "", in->init_why != NULL ? in->init_why : "",
	    in->init_why != NULL ? ")" : "");
	printf("  wait   for %s, then print the token in %s/token\n", url,
	    in->state);
}

/* Write a here-document that creates path with the text, and list it. */
static void
install_heredoc(FILE *fp, const char *path, const char *mode,
    const char *text)
{
	fprintf(fp, "cat >%s <<'NASPERF_EOF' || np_err \"cannot write %s\"\n"
	    "%sNASPERF_EOF\nchmod %s %s\n", path, path, text, mode, path);
}

/* The service script: start, stop, restart, status with a pid file. */
static void
install_service_text(FILE *fp, const struct install *in,
    const struct install_files *f)
{
	fprintf(fp, "#!/bin/sh\n"
	    "# nasperfd.sh start|stop|restart|status: nasperfd as a background\n"
	    "# process with a pid file.  Written by nasperf install, removed by\n"
	    "# nasperf uninstall.\n"
	    "BIN=%s\nCONF=%s\nPIDF=%s\nLOG=%s\n", f->bin, f->conf, f->pidf,
	    f->log);
	fputs(install_service_sh, fp);
	(void)in;
}

/* The install script: files, manifest, start, wait, token. */
static int
install_build(const struct install *in, const struct install_files *f,
    const char *upload, char **out, size_t *outlen)
{
	char	 url[200], size[32], *text = NULL;
	size_t	 tlen = 0;
	FILE	*fp, *tp;

	install_url(in, url, sizeof url);
	snprintf(size, sizeof size, "%lld", (long long)in->binsize);
	if ((fp = open_memstream(out, outlen)) == NULL)
		return (-1);
	install_shvar(fp, "P", in->prefix);
	install_shvar(fp, "MANIFEST", INSTALL_MANIFEST);
	install_shvar(fp, "S", in->state);
	install_shvar(fp, "URL", url);
	install_shvar(fp, "UP", upload);
	install_shvar(fp, "SIZE", size);
	install_shvar(fp, "INIT", in->init_name);
	install_shvar(fp, "DRY", "0");
	fputs(install_common_sh, fp);
	fputs(install_pre_sh, fp);
	/* The manifest first: a failure later still leaves its record. */
	fputs("{\n"
"\techo '# nasperf install: what nasperf uninstall stops and removes'\n"
"\techo version=1\n"
"\techo \"date=$(date -u +%Y-%m-%dT%H:%M:%SZ)\"\n"
"\techo \"init=$INIT\"\n"
"\techo \"state=$S\"\n"
"\techo \"statenew=$STATENEW\"\n", fp);
	if (f->service[0] != '\0')
		fprintf(fp, "\techo service=%s\n", f->service);
	if (f->unit[0] != '\0')
		fprintf(fp, "\techo unit=%s\n", f->unit);
	if (f->rcd[0] != '\0')
		fprintf(fp, "\techo rcd=%s\n", f->rcd);
	if (strcmp(in->init_name, "qnap-qpkg") == 0)
		fputs("\techo qpkg=nasperfd\n", fp);
	fprintf(fp, "\techo file=%s\n\techo file=%s\n", f->bin, f->conf);
	if (f->service[0] != '\0')
		fprintf(fp, "\techo file=%s\n\techo file=%s\n\techo file=%s\n",
		    f->service, f->pidf, f->log);
	if (f->unit[0] != '\0')
		fprintf(fp, "\techo file=%s\n", f->unit);
	if (f->rcd[0] != '\0')
		fprintf(fp, "\techo file=%s\n", f->rcd);
	fputs("\techo \"$DIRS\" | grep '^dir=' || :\n"
"} >\"$M.new\" && mv \"$M.new\" \"$M\" || np_err \"cannot write $M\"\n", fp);
	fprintf(fp, "mv \"$UP\" %s && chmod 755 %s ||\n"
	    "    np_err \"cannot install %s\"\n", f->bin, f->bin, f->bin);

	/* The configuration: only what differs from the defaults. */
	if ((tp = open_memstream(&text, &tlen)) == NULL)
		goto fail;
	fprintf(tp, "# nasperfd.yaml: written by nasperf install; every key "
	    "not given here\n# keeps its default (see nasperfd.yaml(5)).\n"
	    "api:\n  listen: \"%s\"\nstate_dir: \"%s\"\n", in->listen_addr,
	    in->state);
	if (fclose(tp) != 0)
		goto fail;
	install_heredoc(fp, f->conf, "644", text);
	free(text);
	text = NULL;

	if (f->service[0] != '\0') {
		if ((tp = open_memstream(&text, &tlen)) == NULL)
			goto fail;
		install_service_text(tp, in, f);
		if (fclose(tp) != 0)
			goto fail;
		install_heredoc(fp, f->service, "755", text);
		free(text);
		text = NULL;
	}
	if (f->unit[0] != '\0') {
		if ((tp = open_memstream(&text, &tlen)) == NULL)
			goto fail;
		fprintf(tp,
"# nasperfd.service: written by nasperf install, removed by nasperf\n"
"# uninstall.  The directives are those systemd 214 knows, which the\n"
"# NAS firmwares ship at least.\n"
"[Unit]\n"
"Description=NAS performance daemon (installed by nasperf install)\n"
"Documentation=man:nasperfd(8)\n"
"After=network.target\n"
"\n"
"[Service]\n"
"Type=simple\n"
"ExecStart=%s -f -c %s\n"
"ExecReload=/bin/kill -HUP $MAINPID\n"
"Restart=on-failure\n"
"RestartSec=5\n"
"# A usage or configuration error: restarting cannot help.\n"
"RestartPreventExitStatus=2\n"
"# Open files for every connection api.max_connections and\n"
"# synth.max_streams allow, as nasperfd(8) says.\n"
"LimitNOFILE=16384\n"
"LimitCORE=0\n"
"NoNewPrivileges=yes\n"
"PrivateTmp=yes\n"
"ProtectSystem=full\n"
"UMask=0077\n"
"\n"
"[Install]\n"
"WantedBy=multi-user.target\n", f->bin, f->conf);
		if (fclose(tp) != 0)
			goto fail;
		install_heredoc(fp, f->unit, "644", text);
		free(text);
		text = NULL;
	}
	if (f->rcd[0] != '\0') {
		if ((tp = open_memstream(&text, &tlen)) == NULL)
			goto fail;
		fprintf(tp, "#!/bin/sh\n# nasperfd: DSM runs this at boot "
		    "(start) and at shutdown (stop).\n# Written by nasperf "
		    "install, removed by nasperf uninstall.\n"
		    "exec sh %s \"$@\"\n", f->service);
		if (fclose(tp) != 0)
			goto fail;
		fputs("mkdir -p /usr/local/etc/rc.d\n", fp);
		install_heredoc(fp, f->rcd, "755", text);
		free(text);
		text = NULL;
	}

	/* Start, the way the box starts its services. */
	if (strcmp(in->init_name, "systemd") == 0)
		fputs(install_systemd_sh, fp);
	else {
		if (strcmp(in->init_name, "qnap-qpkg") == 0) {
			fputs("Q=/etc/config/qpkg.conf\n", fp);
			fprintf(fp, "for kv in Name=nasperfd "
			    "Display_Name=nasperfd Version=%s Author=nasperf "
			    "Enable=TRUE Shell=%s Install_Path=$P "
			    "Date=$(date +%%Y-%%m-%%d); do\n"
			    "\tsetcfg nasperfd \"${kv%%%%=*}\" \"${kv#*=}\" "
			    "-f \"$Q\" ||\n\t    np_err \"cannot register "
			    "nasperfd in $Q\"\ndone\n", PACKAGE_VERSION,
			    f->service);
		}
		fprintf(fp, "sh %s start 2>&1 | sed 's/^/np.say=/'\n",
		    f->rcd[0] != '\0' ? f->rcd : f->service);
		fprintf(fp, "np_alive() { sh %s status >/dev/null 2>&1; }\n"
		    "np_pid() { cat %s; }\n"
		    "np_log() { tail -n 20 %s 2>/dev/null | "
		    "sed 's/^/np.log=/'; }\n", f->service, f->pidf, f->log);
	}

	/* Ready once it answers /healthz (or, with no curl or wget there,
	 * once it runs and has its token: the client asks from outside). */
	fputs(install_wait_sh, fp);
	if (fclose(fp) != 0) {
		fp = NULL;
		goto fail;
	}
	return (0);
fail:
	free(text);
	if (fp != NULL)
		fclose(fp);
	free(*out);
	*out = NULL;
	return (-1);
}

/* What the install script answered. */
struct install_result {
	int	 json;		/* print nothing but the JSON */
	char	 token[NASPERF_TOKEN_MAX];
	char	 pid[32];
	char	 version[64];
	int	 answered;
	char	 error[512];
	int	 nlog;
};

/* One line of the install or uninstall script's answer. */
static void
install_result_cb(void *arg, const char *k, char *v)
{
	struct install_result	*res = arg;

	if (strcmp(k, "token") == 0)
		snprintf(res->token, sizeof res->token, "%s", v);
	else if (strcmp(k, "pid") == 0)
		snprintf(res->pid, sizeof res->pid, "%s", v);
	else if (strcmp(k, "version") == 0)
		snprintf(res->version, sizeof res->version, "%s", v);
	else if (strcmp(k, "answered") == 0)
		res->answered = 1;
	else if (strcmp(k, "error") == 0)
		snprintf(res->error, sizeof res->error, "%s", v);
	else if (strcmp(k, "log") == 0) {
		if (res->nlog++ == 0)
			client_fail("the daemon's last log lines:");
		fprintf(stderr, "  %s\n", v);
	} else if ((strcmp(k, "say") == 0 || strcmp(k, "stopped") == 0) &&
	    !res->json)
		printf("  %s\n", v);
}

/*
 * GET /healthz at host:port from here, as the next nasperf command will
 * connect.  0 on a 200; else -1 with the reason in why.
 */
static int
install_healthz(const char *host, unsigned port, double timeout, char *why,
    size_t whysz)
{
	struct addrinfo	 hints, *res = NULL, *ai;
	struct pollfd	 pfd;
	char		 sport[16], req[512], buf[64];
	struct timeval	 tv;
	socklen_t	 len;
	ssize_t		 n;
	int		 fd = -1, err = 0, rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	snprintf(sport, sizeof sport, "%u", port);
	if ((rc = getaddrinfo(host, sport, &hints, &res)) != 0) {
		snprintf(why, whysz, "%s", gai_strerror(rc));
		return (-1);
	}
	/* Blocking, with timeouts on connect, send and receive. */
	tv.tv_sec = (time_t)timeout;
	tv.tv_usec = 0;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if ((fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol)) == -1) {
			err = errno;
			continue;
		}
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
		(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		err = errno == EINPROGRESS ? ETIMEDOUT : errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd == -1) {
		snprintf(why, whysz, "%s", strerror(err));
		return (-1);
	}
	snprintf(req, sizeof req, "GET /healthz HTTP/1.0\r\nHost: %s%s%s:%u"
	    "\r\nUser-Agent: nasperf/" PACKAGE_VERSION "\r\n\r\n",
	    strchr(host, ':') != NULL ? "[" : "", host,
	    strchr(host, ':') != NULL ? "]" : "", port);
	len = (socklen_t)strlen(req);
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		snprintf(why, whysz, "%s", strerror(errno));
		close(fd);
		return (-1);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	if ((rc = poll(&pfd, 1, (int)(timeout * 1000))) <= 0 ||
	    (n = recv(fd, buf, sizeof buf - 1, 0)) <= 0) {
		snprintf(why, whysz, "%s", rc == 0 ? "no answer" :
		    "the connection closed without an answer");
		close(fd);
		return (-1);
	}
	close(fd);
	buf[n] = '\0';
	if (strncmp(buf, "HTTP/1.", 7) != 0 || strncmp(buf + 8, " 200", 4) !=
	    0) {
		snprintf(why, whysz, "answered %.*s", (int)strcspn(buf, "\r\n"),
		    buf);
		return (-1);
	}
	return (0);
}

/* Copy the binary to a temporary file on the NAS; its path in up. */
static int
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

/* The ssh options and destination, as the user would type them again. */
static void
install_print_cmd(FILE *fp, const struct install *in, const char *cmd)
{
	size_t	i;

	fprintf(fp, "nasperf %s", cmd);
	for (i = 0; i < in->nsshargs; i++)
		fprintf(fp, " %s", in->sshargs[i]);
	if (strcmp(in->prefix, INSTALL_PREFIX) != 0)
		fprintf(fp, " --prefix %s", in->prefix);
	fprintf(fp, " %s\n", in->dest);
}

/* Save the token for --token-file, readable by the user only. */
static int
install_save_token(const char *path, const char *token)
{
	FILE	*fp;
	int	 fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0600)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		if (fd != -1)
			close(fd);
		return (client_fail("--save-token %s: %s", path,
		    strerror(errno)));
	}
	(void)fchmod(fd, 0600);
	fprintf(fp, "%s\n", token);
	if (fclose(fp) != 0)
		return (client_fail("--save-token %s: %s", path,
		    strerror(errno)));
	return (0);
}

/* The install's summary, as a JSON object (or NULL). */
static json_t *
install_json(const struct install *in, const struct install_result *res,
    const char *host)
{
	const struct install_remote	*r = &in->r;

	return (json_pack("{s:s, s:b, s:s, s:s?, s:s, s:s?, s:s?, s:s, s:s, "
	    "s:s, s:s, s:s, s:I, s:s?, s:s?, s:b}",
	    "host", in->dest, "dry_run", in->dry_run, "uname", r->uname,
	    "arch", r->arch, "vendor", install_vendor_name(r->vendor, 1),
	    "model", r->id.model[0] != '\0' ? r->id.model : NULL,
	    "firmware", r->id.firmware[0] != '\0' ? r->id.firmware : NULL,
	    "init", in->init_name, "prefix", in->prefix, "state_dir",
	    in->state, "binary", in->binary, "api_host", host,
	    "api_port", (json_int_t)in->port,
	    "token", res != NULL && res->token[0] != '\0' ? res->token : NULL,
	    "pid", res != NULL && res->pid[0] != '\0' ? res->pid : NULL,
	    "answered", res != NULL && res->answered));
}

/*
 * The daemon's host as the next nasperf command names it with -H (an IPv6
 * address in brackets) and as a connection names it (without): the
 * address it listens on, or the host ssh reached when that is all of them.
 */
static void
install_api_host(const struct install *in, char *h, size_t hsz, char *conn,
    size_t connsz)
{
	const char	*colon = strrchr(in->listen_addr, ':');
	const char	*a = in->listen_addr;
	int		 alen = (int)(colon - a);

	if (in->wildcard) {
		a = in->hostname;
		alen = (int)strlen(a);
	} else if (a[0] == '[') {
		a++;
		alen -= 2;
	}
	snprintf(conn, connsz, "%.*s", alen, a);
	snprintf(h, hsz, strchr(conn, ':') != NULL ? "[%s]" : "%s", conn);
}

/*
 * The options install and uninstall share: ssh's -p, -i, -F and -o, and
 * --prefix.  Returns 1 when ch was one of them, -1 on a bad value.
 */
static int
install_common_opt(struct install *in, int ch, const char *arg)
{
	const char	*why;

	switch (ch) {
	case 'p':
	case 'i':
	case 'F':
	case 'o':
		if (in->nsshargs + 2 > INSTALL_MAX_SSHARGS) {
			client_fail("too many ssh options");
			return (-1);
		}
		in->sshargs[in->nsshargs++] = ch == 'p' ? "-p" : ch == 'i' ?
		    "-i" : ch == 'F' ? "-F" : "-o";
		in->sshargs[in->nsshargs++] = arg;
		return (1);
	case 'P':
		if (install_path_ok(arg, &why) == -1) {
			client_fail("--prefix %s: %s", arg, why);
			return (-1);
		}
		snprintf(in->prefix, sizeof in->prefix, "%s", arg);
		return (1);
	}
	return (0);
}

/* Check the destination and set up what both commands need. */
static int
install_setup(struct install *in, int argc, char **argv)
{
	const char	*env;

	if (optind != argc - 1)
		return (args_fail("expected one [USER@]HOST"));
	in->dest = argv[optind];
	if (in->dest[0] == '-' || in->dest[0] == '\0' ||
	    strchr(in->dest, '\n') != NULL)
		return (args_fail("%s: expected [USER@]HOST", in->dest));
	if ((env = getenv("NASPERF_DETECT_ROOT")) != NULL && *env != '\0')
		in->detect_root = env;
	in->batch = !isatty(STDIN_FILENO);
	snprintf(in->tmpdir, sizeof in->tmpdir, "/tmp/nasperf-ssh.XXXXXX");
	if (mkdtemp(in->tmpdir) == NULL) {
		client_fail("mkdtemp %s: %s", in->tmpdir, strerror(errno));
		in->tmpdir[0] = '\0';
		return (1);
	}
	install_resolve(in);
	return (0);
}

static const struct option install_longopts[] = {
	{ "prefix",	required_argument,	NULL, 'P' },
	{ "state-dir",	required_argument,	NULL, 'S' },
	{ "binaries",	required_argument,	NULL, 'B' },
	{ "listen",	required_argument,	NULL, 'l' },
	{ "init",	required_argument,	NULL, 'I' },
	{ "save-token",	required_argument,	NULL, 's' },
	{ "dry-run",	no_argument,		NULL, 'n' },
	{ NULL,		0,			NULL, 0 }
};

static const struct args_cmd install_args = {
	"install", "p:i:F:o:n", install_longopts, 0,
"usage: nasperf install [-n] [-p PORT] [-i FILE] [-F FILE] [-o OPTION]\n"
"                       [--prefix DIR] [--state-dir DIR] [--binaries DIR]\n"
"                       [--listen ADDR:PORT]\n"
"                       [--init auto|systemd|vendor|plain]\n"
"                       [--save-token FILE] [USER@]HOST\n"
"Over ssh: copy the static nasperfd for the NAS's architecture, start it\n"
"as the box starts its services, wait for it and print its token.\n"
"\n"
"Options:\n"
"  -n, --dry-run         detect the NAS and say what would be done\n"
"  -p PORT, -i FILE, -F FILE, -o OPTION\n"
"                        passed to ssh\n"
"      --prefix DIR      where the files go (default /opt/nasperf)\n"
"      --state-dir DIR   the daemon's state (default PREFIX/var)\n"
"      --binaries DIR    the static daemons, DIR/ARCH/nasperfd\n"
"      --listen ADDR:PORT\n"
"                        the daemon's address (default 0.0.0.0:9631)\n"
"      --init INIT       auto, systemd, vendor or plain (default auto)\n"
"      --save-token FILE also write the token to FILE (mode 0600)\n"
};

static const struct option uninstall_longopts[] = {
	{ "prefix",	required_argument,	NULL, 'P' },
	{ "dry-run",	no_argument,		NULL, 'n' },
	{ NULL,		0,			NULL, 0 }
};

static const struct args_cmd uninstall_args = {
	"uninstall", "p:i:F:o:n", uninstall_longopts, 0,
"usage: nasperf uninstall [-n] [-p PORT] [-i FILE] [-F FILE] [-o OPTION]\n"
"                         [--prefix DIR] [USER@]HOST\n"
"Over ssh: stop the daemon install started and remove every file and\n"
"directory it created, its state included.\n"
"\n"
"Options:\n"
"  -n, --dry-run         say what would be removed\n"
"  -p PORT, -i FILE, -F FILE, -o OPTION\n"
"                        passed to ssh\n"
"      --prefix DIR      where install put the files (default\n"
"                        /opt/nasperf)\n"
};

/*
 * nasperf install [options] [USER@]HOST: detect the NAS, copy the static
 * nasperfd for its architecture, write a configuration, start it, wait
 * until it answers, print its token.
 */
int
cmd_install(struct client *c, int argc, char **argv)
{
	struct install		*in;
	struct install_files	 f;
	struct install_result	 res;
	struct install_buf	 out = { NULL, 0, 0 };
	const char		*why;
	char			 up[INSTALL_PATH_MAX], host[300], conn[300];
	char			 why2[256];
	char			*script = NULL;
	size_t			 slen = 0;
	json_t			*j;
	int			 ch, rc = 1, status, r;

	if ((in = calloc(1, sizeof *in)) == NULL)
		return (client_fail("out of memory"));
	memset(&res, 0, sizeof res);
	in->c = c;
	in->mux = 1;
	in->bindir = NASPERF_STATIC_DIR;
	snprintf(in->prefix, sizeof in->prefix, "%s", INSTALL_PREFIX);
	(void)install_parse_listen(in, INSTALL_LISTEN);
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &install_args)) != -1) {
		if ((r = install_common_opt(in, ch, optarg)) == 1)
			continue;
		if (r == -1) {
			rc = 2;
			goto out;
		}
		switch (ch) {
		case 'S':
			if (install_path_ok(optarg, &why) == -1) {
				client_fail("--state-dir %s: %s", optarg, why);
				rc = 2;
				goto out;
			}
			snprintf(in->state, sizeof in->state, "%s", optarg);
			break;
		case 'B':
			in->bindir = optarg;
			break;
		case 'l':
			if (install_parse_listen(in, optarg) == -1) {
				client_fail("--listen %s: expected ADDR:PORT, "
				    "such as 0.0.0.0:9631 or [::]:9631",
				    optarg);
				rc = 2;
				goto out;
			}
			break;
		case 'I':
			if (strcmp(optarg, "auto") == 0)
				in->init_opt = INSTALL_INIT_AUTO;
			else if (strcmp(optarg, "systemd") == 0)
				in->init_opt = INSTALL_INIT_SYSTEMD;
			else if (strcmp(optarg, "vendor") == 0)
				in->init_opt = INSTALL_INIT_VENDOR;
			else if (strcmp(optarg, "plain") == 0)
				in->init_opt = INSTALL_INIT_PLAIN;
			else {
				client_fail("--init %s: expected auto, "
				    "systemd, vendor or plain", optarg);
				rc = 2;
				goto out;
			}
			break;
		case 's':
			in->save_token = optarg;
			break;
		case 'n':
			in->dry_run = 1;
			break;
		default:
			rc = args_exit(ch);
			goto out;
		}
	}
	/* install_path_ok() kept the prefix 32 bytes short of the size. */
	if (in->state[0] == '\0' && snprintf(in->state, sizeof in->state,
	    "%s/var", in->prefix) >= (int)sizeof in->state) {
		client_fail("--prefix %s: too long", in->prefix);
		rc = 2;
		goto out;
	}
	if ((rc = install_setup(in, argc, argv)) != 0)
		goto out;
	rc = 1;
	res.json = c->json;

	if (install_detect(in) != 0 || install_binary(in) != 0 ||
	    install_choose_init(in) != 0)
		goto out;
	install_files(in, &f);
	install_api_host(in, host, sizeof host, conn, sizeof conn);
	if (in->dry_run) {
		if (c->json) {
			j = install_json(in, NULL, host);
			client_print_json(j, CLIENT_JSON);
			json_decref(j);
		} else {
			install_print_box(in);
			install_print_plan(in, &f);
		}
		rc = 0;
		goto out;
	}
	if (!c->json) {
		install_print_box(in);
		printf("copying %s (%.1f MB) to %s/bin\n", in->binary,
		    (double)in->binsize / 1e6, in->prefix);
	}
	if (install_upload(in, up, sizeof up) != 0)
		goto out;
	if (!c->json)
		printf("starting nasperfd %s%s%s%s\n",
		    install_init_text(in->init_name), in->init_why != NULL ?
		    " (" : "", in->init_why != NULL ? in->init_why : "",
		    in->init_why != NULL ? ")" : "");
	if (install_build(in, &f, up, &script, &slen) == -1) {
		client_fail("out of memory");
		goto out;
	}
	status = install_script(in, script, slen, &out);
	if (status == 255 || status == -1)
		goto out;
	install_lines(&out, install_result_cb, &res);
	if (status != 0 || res.token[0] == '\0') {
		if (res.error[0] != '\0')
			client_fail("%s: %s", in->dest, res.error);
		else
			client_fail("%s: the install script failed with "
			    "status %d", in->dest, status);
		fprintf(stderr, "nasperf %s: what it wrote is listed in %s; "
		    "undo with: ", args_command(), f.manifest);
		install_print_cmd(stderr, in, "uninstall");
		goto out;
	}

	/* As the next command will: from here, to the address it names. */
	if (install_healthz(conn, in->port, c->timeout, why2,
	    sizeof why2) == -1) {
		if (!res.answered) {
			client_fail("nasperfd runs on %s but %s port %u does "
			    "not answer from here: %s", in->dest, host,
			    in->port, why2);
			goto out;
		}
		client_fail("warning: nasperfd answers on the NAS but not "
		    "from here at %s port %u: %s (a firewall on the NAS, or "
		    "api.allow?)", host, in->port, why2);
	}
	if (in->save_token != NULL &&
	    install_save_token(in->save_token, res.token) != 0)
		goto out;
	if (c->json) {
		j = install_json(in, &res, host);
		client_print_json(j, CLIENT_JSON);
		json_decref(j);
	} else {
		printf("%s answers at %s:%u (pid %s)\n\n", res.version[0] !=
		    '\0' ? res.version : "nasperfd", host, in->port,
		    res.pid[0] != '\0' ? res.pid : "?");
		printf("token: %s\n", res.token);
		if (in->save_token != NULL)
			printf("next:  nasperf -H %s:%u --token-file %s info\n",
			    host, in->port, in->save_token);
		else
			printf("next:  NASPERF_TOKEN=%s nasperf -H %s:%u "
			    "info\n", res.token, host, in->port);
		printf("undo:  ");
		install_print_cmd(stdout, in, "uninstall");
	}
	rc = 0;
out:
	free(script);
	install_buf_free(&out);
	install_close(in);
	install_remote_clear(&in->r);
	free(in);
	return (rc);
}

/* What the uninstall script answered. */
struct uninstall_result {
	int	 json;		/* print nothing but the JSON */
	int	 none;
	int	 dry_run;
	int	 done;
	char	 error[512];
	json_t	*removed, *kept;
};

/* One line of the uninstall script's answer, printed as it is read. */
static void
uninstall_cb(void *arg, const char *k, char *v)
{
	struct uninstall_result	*u = arg;

	if (strcmp(k, "none") == 0)
		u->none = 1;
	else if (strcmp(k, "done") == 0)
		u->done = 1;
	else if (strcmp(k, "error") == 0)
		snprintf(u->error, sizeof u->error, "%s", v);
	else if (strcmp(k, "stopped") == 0 || strcmp(k, "say") == 0) {
		if (!u->json)
			printf("  %s\n", v);
	} else if (strcmp(k, "removed") == 0) {
		if (!u->json)
			printf("  %s %s\n", u->dry_run ? "would remove" :
			    "removed", v);
		json_array_append_new(u->removed, json_string(v));
	} else if (strcmp(k, "kept") == 0) {
		if (!u->json)
			printf("  kept %s\n", v);
		json_array_append_new(u->kept, json_string(v));
	}
}


/*
 * nasperf uninstall [options] [USER@]HOST: stop the daemon an install
 * started, however it was started, and remove every file it wrote.
 */
int
cmd_uninstall(struct client *c, int argc, char **argv)
{
	struct install		*in;
	struct uninstall_result	 u;
	struct install_buf	 out = { NULL, 0, 0 };
	char			*s = NULL;
	size_t			 len = 0;
	FILE			*fp;
	json_t			*j;
	int			 ch, rc = 1, status, r;

	memset(&u, 0, sizeof u);
	if ((in = calloc(1, sizeof *in)) == NULL)
		return (client_fail("out of memory"));
	in->c = c;
	snprintf(in->prefix, sizeof in->prefix, "%s", INSTALL_PREFIX);
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &uninstall_args)) != -1) {
		if ((r = install_common_opt(in, ch, optarg)) == 1)
			continue;
		if (r == -1) {
			rc = 2;
			goto out;
		}
		if (ch == 'n')
			in->dry_run = 1;
		else {
			rc = args_exit(ch);
			goto out;
		}
	}
	if ((rc = install_setup(in, argc, argv)) != 0)
		goto out;
	rc = 1;

	if ((fp = open_memstream(&s, &len)) == NULL) {
		client_fail("out of memory");
		goto out;
	}
	install_shvar(fp, "P", in->prefix);
	install_shvar(fp, "MANIFEST", INSTALL_MANIFEST);
	install_shvar(fp, "DRY", in->dry_run ? "1" : "0");
	fputs(install_common_sh, fp);
	fputs(install_uninstall_sh, fp);
	if (fclose(fp) != 0) {
		client_fail("out of memory");
		goto out;
	}
	u.dry_run = in->dry_run;
	u.json = c->json;
	u.removed = json_array();
	u.kept = json_array();
	if (!c->json)
		printf("%s %s at %s:\n", in->dry_run ? "would uninstall" :
		    "uninstalling", in->dest, in->prefix);
	/* One session: no control master. */
	status = install_script(in, s, len, &out);
	if (status == 255 || status == -1)
		goto out;
	install_lines(&out, uninstall_cb, &u);
	if (status != 0 || (!u.none && !u.done)) {
		client_fail("%s: %s", in->dest, u.error[0] != '\0' ? u.error :
		    "the uninstall script failed");
		goto out;
	}
	if (c->json) {
		j = json_pack("{s:s, s:s, s:b, s:b, s:O, s:O}", "host",
		    in->dest, "prefix", in->prefix, "dry_run", in->dry_run,
		    "installed", !u.none, "removed", u.removed, "kept",
		    u.kept);
		client_print_json(j, CLIENT_JSON);
		json_decref(j);
	} else if (u.none)
		printf("  nothing to do: no nasperf install at %s\n",
		    in->prefix);
	else
		printf("%s nasperfd from %s (%zu paths)\n", in->dry_run ?
		    "would remove" : "removed", in->dest,
		    json_array_size(u.removed));
	rc = 0;
out:
	free(s);
	json_decref(u.removed);
	json_decref(u.kept);
	install_buf_free(&out);
	install_close(in);
	free(in);
	return (rc);
}
