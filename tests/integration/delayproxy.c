/*
 * delayproxy.c: a TCP proxy on loopback that holds every chunk for a fixed
 * delay, both ways: a link with a round trip of twice the delay, which the
 * kernel here cannot give (no netem).
 *
 * usage: delayproxy [-d ms] [-t seconds] listen_port connect_port
 *
 * Listens on 127.0.0.1:listen_port (0: any free port), prints the port it
 * listens on as the first line of its output, and forwards each connection
 * to 127.0.0.1:connect_port.  What one side sends the other receives delay
 * milliseconds later (default 20), an end of stream too.  Exits after
 * -t seconds (default 300), or on SIGTERM.  Used by
 * tests/integration/84-verdict-latency.sh.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "np.h"

#define DP_MAX_PAIRS	64
#define DP_CHUNK	65536
#define DP_MAX_QUEUED	256	/* chunks held per direction */

/* A chunk on its way, or the end of the stream when len is 0. */
struct dp_chunk {
	double	 due;		/* monotonic time to send it */
	char	*data;
	size_t	 len, off;
};

/* One direction of a connection: read from "from", written to "to". */
struct dp_dir {
	int		 from, to;
	struct dp_chunk	 q[DP_MAX_QUEUED];
	size_t		 head, n;
	int		 eof_read;	/* from gave its end of stream */
	int		 done;		/* and it reached "to" */
};

/* A client and its connection to the server. */
struct dp_pair {
	int		 used;
	struct dp_dir	 d[2];		/* client to server, server to client */
};

static struct dp_pair	 dp_pairs[DP_MAX_PAIRS];
static volatile sig_atomic_t dp_stop;

/* Now on the monotonic clock, in seconds. */
static double
dp_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* SIGTERM and SIGINT: stop at the next turn of the loop. */
static void
dp_signal(NP_UNUSED int sig)
{
	dp_stop = 1;
}

/* A port number; -1 when bad. */
static int
dp_port(const char *s)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > 65535)
		return (-1);
	return ((int)v);
}

/* Close both sockets of a pair and drop what it still holds. */
static void
dp_close(struct dp_pair *p)
{
	size_t	i, k;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < p->d[k].n; i++)
			free(p->d[k].q[(p->d[k].head + i) % DP_MAX_QUEUED].data);
		p->d[k].n = 0;
	}
	close(p->d[0].from);
	close(p->d[0].to);
	p->used = 0;
}

/* Accept a client and connect it to the server; 0 even when that fails. */
static int
dp_accept(int ls, const struct sockaddr_in *to)
{
	struct dp_pair	*p = NULL;
	int		 c, s, one = 1;
	size_t		 i;

	if ((c = accept(ls, NULL, NULL)) == -1)
		return (errno == EINTR || errno == EAGAIN ? 0 : -1);
	for (i = 0; i < DP_MAX_PAIRS; i++)
		if (!dp_pairs[i].used) {
			p = &dp_pairs[i];
			break;
		}
	if (p == NULL || (s = socket(AF_INET, SOCK_STREAM, 0)) == -1) {
		close(c);
		return (0);
	}
	if (connect(s, (const struct sockaddr *)to, sizeof *to) == -1) {
		close(s);
		close(c);
		return (0);
	}
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
	fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
	memset(p, 0, sizeof *p);
	p->used = 1;
	p->d[0].from = p->d[1].to = c;
	p->d[0].to = p->d[1].from = s;
	return (0);
}

/* Read what has come in on d, to be sent after delay; -1 on an error. */
static int
dp_read(struct dp_dir *d, double delay)
{
	struct dp_chunk	*ch;
	char		*buf;
	ssize_t		 n;

	if (d->n == DP_MAX_QUEUED)
		return (0);
	if ((buf = malloc(DP_CHUNK)) == NULL)
		return (-1);
	if ((n = read(d->from, buf, DP_CHUNK)) == -1) {
		free(buf);
		return (errno == EINTR || errno == EAGAIN ? 0 : -1);
	}
	ch = &d->q[(d->head + d->n) % DP_MAX_QUEUED];
	ch->due = dp_now() + delay;
	ch->len = (size_t)n;
	ch->off = 0;
	ch->data = buf;
	if (n == 0) {
		free(buf);
		ch->data = NULL;
		d->eof_read = 1;
	}
	d->n++;
	return (0);
}

/* Send the chunks of d that are due; -1 on an error. */
static int
dp_write(struct dp_dir *d, double now)
{
	ssize_t	n;

	while (d->n > 0) {
		struct dp_chunk	*ch = &d->q[d->head];

		if (ch->due > now)
			return (0);
		if (ch->len == 0) {
			shutdown(d->to, SHUT_WR);
			d->done = 1;
		} else {
			n = write(d->to, ch->data + ch->off, ch->len - ch->off);
			if (n == -1)
				return (errno == EINTR || errno == EAGAIN ? 0 :
				    -1);
			ch->off += (size_t)n;
			if (ch->off < ch->len)
				return (0);
		}
		free(ch->data);
		ch->data = NULL;
		d->head = (d->head + 1) % DP_MAX_QUEUED;
		d->n--;
	}
	return (0);
}

/* The events to poll socket fd of pair p for, given the time now. */
static short
dp_events(const struct dp_pair *p, int fd, double now, double *next)
{
	const struct dp_dir	*d;
	short			 ev = 0;
	size_t			 k;

	for (k = 0; k < 2; k++) {
		d = &p->d[k];
		if (d->from == fd && !d->eof_read && d->n < DP_MAX_QUEUED)
			ev |= POLLIN;
		if (d->to != fd || d->n == 0)
			continue;
		if (d->q[d->head].due <= now)
			ev |= POLLOUT;
		else if (d->q[d->head].due < *next)
			*next = d->q[d->head].due;
	}
	return (ev);
}

/* The proxy's loop until the deadline or a signal. */
static int
dp_loop(int ls, const struct sockaddr_in *to, double delay, double end)
{
	struct pollfd	 pf[1 + DP_MAX_PAIRS * 2];
	struct dp_pair	*p;
	struct dp_dir	*d;
	size_t		 i, k;
	double		 now, next;
	int		 timeout;

	while (!dp_stop && (now = dp_now()) < end) {
		next = end;
		pf[0].fd = ls;
		pf[0].events = POLLIN;
		for (i = 0; i < DP_MAX_PAIRS; i++) {
			p = &dp_pairs[i];
			for (k = 0; k < 2; k++) {
				pf[1 + i * 2 + k].fd = -1;
				pf[1 + i * 2 + k].events = 0;
				pf[1 + i * 2 + k].revents = 0;
				if (!p->used)
					continue;
				pf[1 + i * 2 + k].events = dp_events(p,
				    p->d[k].from, now, &next);
				if (pf[1 + i * 2 + k].events != 0)
					pf[1 + i * 2 + k].fd = p->d[k].from;
			}
		}
		timeout = (int)((next - now) * 1000.0) + 1;
		if (poll(pf, 1 + DP_MAX_PAIRS * 2, timeout) == -1) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		now = dp_now();
		for (i = 0; i < DP_MAX_PAIRS; i++) {
			p = &dp_pairs[i];
			for (k = 0; p->used && k < 2; k++) {
				d = &p->d[k];
				if ((pf[1 + i * 2 + k].revents &
				    (POLLIN | POLLHUP | POLLERR)) &&
				    !d->eof_read && dp_read(d, delay) == -1)
					dp_close(p);
			}
			for (k = 0; p->used && k < 2; k++)
				if (dp_write(&p->d[k], now) == -1)
					dp_close(p);
			if (p->used && p->d[0].done && p->d[1].done)
				dp_close(p);
		}
		if ((pf[0].revents & POLLIN) && dp_accept(ls, to) == -1)
			return (-1);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct sockaddr_in	 la, to;
	socklen_t		 len = sizeof la;
	struct sigaction	 sa;
	double			 delay = 0.020, seconds = 300;
	int			 ch, ls, lport, cport, one = 1;

	while ((ch = getopt(argc, argv, "d:t:")) != -1) {
		switch (ch) {
		case 'd':
			delay = atof(optarg) / 1000.0;
			break;
		case 't':
			seconds = atof(optarg);
			break;
		default:
			goto usage;
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || (lport = dp_port(argv[0])) == -1 ||
	    (cport = dp_port(argv[1])) == -1 || delay < 0 || seconds <= 0)
		goto usage;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = dp_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	memset(&la, 0, sizeof la);
	la.sin_family = AF_INET;
	la.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	la.sin_port = htons((uint16_t)lport);
	to = la;
	to.sin_port = htons((uint16_t)cport);
	if ((ls = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == -1 ||
	    bind(ls, (struct sockaddr *)&la, sizeof la) == -1 ||
	    listen(ls, 64) == -1 ||
	    getsockname(ls, (struct sockaddr *)&la, &len) == -1) {
		perror("delayproxy: listen");
		return (1);
	}
	printf("%d\n", ntohs(la.sin_port));
	fflush(stdout);
	if (dp_loop(ls, &to, delay, dp_now() + seconds) == -1) {
		perror("delayproxy");
		return (1);
	}
	return (0);
usage:
	fprintf(stderr, "usage: delayproxy [-d ms] [-t seconds] listen_port "
	    "connect_port\n");
	return (2);
}
