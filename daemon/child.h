/*
 * child.h: a command run off the event loop, its standard output kept.
 *
 * smbstatus and zpool status are children of nasperfd: the loop never
 * waits for them.  A child's stdout is a non-blocking pipe read by an
 * event (stdin and stderr are /dev/null); once the pipe closes, its exit
 * is reaped without blocking.  A child that outlives its time or prints
 * more than its limit is killed.  One child at a time per struct child.
 */
#ifndef CHILD_H
#define CHILD_H

#include <stddef.h>
#include <sys/types.h>

struct event_base;
struct child;

/*
 * What a child left: its wait status (0x7f00 when it was lost), its
 * output (NUL-terminated, len bytes) and whether it printed more than the
 * limit (then it was killed and the output is cut).  The output is the
 * child's until the next child_start.
 */
typedef void	 child_done_cb(void *arg, int status, const char *out,
		    size_t len, int overflow);

/* A runner of children that last secs at most and print max bytes. */
struct child	*child_new(struct event_base *, double secs, size_t max,
		    child_done_cb *, void *arg);
/*
 * Start path with argv (argv[0] its name).  -1 with err (errsz bytes)
 * saying why when it could not start, or when a child still runs (err
 * then is "").  done is called later, never from child_start.
 */
int		 child_start(struct child *, const char *path,
		    char *const argv[], char *err, size_t errsz);
/*
 * Whether the child called what failed, by its wait status and overflow
 * (with max, the limit it passed): 1 with why ("what printed more than
 * max bytes", "what was killed by signal 9 (it took too long)", "what
 * exited with status 2"), or 0 when it exited 0 within the limit.
 */
int		 child_failure(const char *what, int status, int overflow,
		    size_t max, char *why, size_t whysz);
/* Whether a child runs. */
int		 child_running(const struct child *);
/* Seconds since the last child started (monotonic). */
double		 child_age(const struct child *);
/* Kill a running child, reap it, and free everything; NULL is allowed. */
void		 child_free(struct child *);

#endif /* CHILD_H */
