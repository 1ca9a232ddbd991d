/*
 * child.c: a command run off the event loop; see child.h.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "child.h"
#include "nptime.h"

extern char	**environ;

#define CHILD_REAP_US	20000	/* between two looks at an exiting child */

struct child {
	struct event_base	*base;
	double			 secs;
	size_t			 max;
	child_done_cb		*done;
	void			*arg;
	struct event		*ev_out;	/* the child's stdout */
	struct event		*ev_reap;	/* waiting for it to exit */
	pid_t			 pid;		/* running, or 0 */
	int			 fd;
	double			 started;	/* monotonic */
	int			 overflow;
	char			*out;
	size_t			 len, cap;
};

static void	child_reap(evutil_socket_t, short, void *);

struct child *
child_new(struct event_base *base, double secs, size_t max,
    child_done_cb *done, void *arg)
{
	struct child	*c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (NULL);
	c->base = base;
	c->secs = secs;
	c->max = max;
	c->done = done;
	c->arg = arg;
	c->fd = -1;
	if ((c->ev_reap = evtimer_new(base, child_reap, c)) == NULL) {
		free(c);
		return (NULL);
	}
	return (c);
}

/* The child is gone with status: hand over what it printed. */
static void
child_finish(struct child *c, int status)
{
	c->pid = 0;
	c->done(c->arg, status, c->out != NULL ? c->out : "", c->len,
	    c->overflow);
}

/* Reap the child without blocking; kill it once it is overdue. */
static void
child_reap(evutil_socket_t fd, short what, void *arg)
{
	struct child	*c = arg;
	struct timeval	 tv = { 0, CHILD_REAP_US };
	int		 status;
	pid_t		 r;

	(void)fd;
	(void)what;
	if (c->pid == 0)
		return;
	r = waitpid(c->pid, &status, WNOHANG);
	if (r == c->pid || (r == -1 && errno == ECHILD)) {
		if (r == -1)
			status = 0x7f00;	/* lost: as if it failed */
		child_finish(c, status);
		return;
	}
	if (nptime_mono() - c->started > c->secs) {
		kill(c->pid, SIGKILL);
		if (waitpid(c->pid, &status, 0) == c->pid) {
			child_finish(c, status);
			return;
		}
	}
	evtimer_add(c->ev_reap, &tv);
}

/* The child's stdout is readable: keep it, up to the limit. */
static void
child_read(evutil_socket_t fd, short what, void *arg)
{
	struct child	*c = arg;
	char		*p;
	ssize_t		 n;
	size_t		 ncap;

	(void)what;
	for (;;) {
		if (c->cap - c->len < 4096) {
			ncap = c->cap == 0 ? 16384 : c->cap * 2;
			if (ncap > c->max + 4096 ||
			    (p = realloc(c->out, ncap)) == NULL) {
				c->overflow = 1;
				kill(c->pid, SIGKILL);
				break;
			}
			c->out = p;
			c->cap = ncap;
		}
		n = read(fd, c->out + c->len, c->cap - c->len - 1);
		if (n > 0) {
			c->len += (size_t)n;
			continue;
		}
		if (n == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		break;		/* EOF or an error */
	}
	event_del(c->ev_out);
	close(c->fd);
	c->fd = -1;
	if (c->out != NULL)
		c->out[c->len] = '\0';
	child_reap(-1, 0, c);
}

int
child_start(struct child *c, const char *path, char *const argv[], char *err,
    size_t errsz)
{
	posix_spawn_file_actions_t	 fa;
	int				 p[2], rc, status;

	if (c->pid != 0) {
		if (errsz > 0)
			err[0] = '\0';
		return (-1);
	}
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) == -1) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		return (-1);
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawn(&c->pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc != 0) {
		close(p[0]);
		c->pid = 0;
		snprintf(err, errsz, "cannot run %.300s: %s", path,
		    strerror(rc));
		return (-1);
	}
	c->fd = p[0];
	c->len = 0;
	c->overflow = 0;
	c->started = nptime_mono();
	if (c->ev_out != NULL)
		event_free(c->ev_out);
	c->ev_out = event_new(c->base, c->fd, EV_READ | EV_PERSIST,
	    child_read, c);
	if (c->ev_out == NULL || event_add(c->ev_out, NULL) == -1) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &status, 0);
		c->pid = 0;
		close(c->fd);
		c->fd = -1;
		snprintf(err, errsz, "cannot watch %.300s: out of memory",
		    path);
		return (-1);
	}
	return (0);
}

int
child_running(const struct child *c)
{
	return (c->pid != 0);
}

double
child_age(const struct child *c)
{
	return (nptime_mono() - c->started);
}

void
child_free(struct child *c)
{
	int	status;

	if (c == NULL)
		return;
	if (c->pid != 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &status, 0);
	}
	if (c->fd != -1)
		close(c->fd);
	if (c->ev_out != NULL)
		event_free(c->ev_out);
	event_free(c->ev_reap);
	free(c->out);
	free(c);
}

int
child_failure(const char *what, int status, int overflow, size_t max,
    char *why, size_t whysz)
{
	if (overflow)
		snprintf(why, whysz, "%s printed more than %zu bytes", what,
		    max);
	else if (WIFSIGNALED(status))
		snprintf(why, whysz, "%s was killed by signal %d%s", what,
		    WTERMSIG(status), WTERMSIG(status) == SIGKILL ?
		    " (it took too long)" : "");
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		snprintf(why, whysz, "%s exited with status %d", what,
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	else
		return (0);
	return (1);
}
