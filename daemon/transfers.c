/*
 * transfers.c: copies to and from the file services noticed on their own,
 * each made a run of origin "auto".
 */
#include "config.h"

#include <sys/socket.h>

#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "inetdiag.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "runpath.h"
#include "run.h"
#include "runs.h"
#include "transfers.h"

#define XF_TICK_MS	1000	/* the connections are read this often */
#define XF_MAX_CONNS	1024	/* connections followed */
#define XF_MAX_CLIENTS	64	/* clients followed at once */
#define XF_SMBCONF_TICKS 30	/* smb.conf's ports read again this often */
#define XF_ADDR_MAX	64
#define XF_RISING_DIP	1.5	/* seconds below the rate a start may have */
#define XF_MISSED	5	/* readings a connection may be missing from */

enum xf_state { XF_IDLE, XF_RISING, XF_TRANSFER };

/* A connection's counters at the last reading. */
struct xf_conn {
	char		remote[XF_ADDR_MAX];
	unsigned	lport, rport;
	uint64_t	sent, recv;
	unsigned	gen;		/* the reading it was last seen in */
	int		gone;		/* its socket was destroyed */
};

/* A client address and what it moved lately. */
struct xf_client {
	char		addr[XF_ADDR_MAX];
	const char	*service;	/* of its busiest connection */
	enum xf_state	state;
	double		t_first;	/* its first reading at the rate */
	double		t_last;		/* its last reading at the rate */
	double		quiet;		/* seconds below the rate since */
	double		rate;		/* bytes/s at the last reading */
	uint64_t	sent, recv;	/* since t_first */
	uint64_t	dsent, drecv;	/* in this reading */
	uint64_t	psent, precv;	/* in the one before */
	double		pdt;		/* that one's seconds */
	uint64_t	gsent, grecv;	/* this reading's from destroyed sockets */
	uint64_t	pgsent, pgrecv;	/* the one before's */
	double		own_last;	/* when it last had a run of its own */
	long		run;		/* the transfer's run, -1 none */
};

struct transfers {
	struct daemon		*d;
	struct event		*ev;
	struct inetdiag		 diag;
	int			 nl;		/* sock_diag's destroy events, -1 */
	struct event		*ev_nl;
	struct inetdiag		 gone;		/* sockets just destroyed */
	struct xf_conn		*conns;
	size_t			 nconns;
	struct xf_client	 clients[XF_MAX_CLIENTS];
	size_t			 nclients;
	unsigned		 gen;
	double			 last;		/* time of the last reading */
	double			 read_ok;	/* nptime_mono of the last
						   good one, 0 none */
	int			 warned;	/* sock_diag's failure logged */
	struct transfers_total	 totals[TRANSFERS_TOTALS];
	size_t			 ntotals;
	struct transfers_total	 other;		/* the clients after them */
	unsigned long		 count;		/* transfers noticed */
};

/* The client called addr, made when missing (NULL when full). */
static struct xf_client *
xf_client(struct transfers *x, const char *addr)
{
	struct xf_client	*c;
	size_t			 i;

	for (i = 0; i < x->nclients; i++)
		if (strcmp(x->clients[i].addr, addr) == 0)
			return (&x->clients[i]);
	if (x->nclients == XF_MAX_CLIENTS)
		return (NULL);
	c = &x->clients[x->nclients++];
	memset(c, 0, sizeof *c);
	snprintf(c->addr, sizeof c->addr, "%s", addr);
	c->run = -1;
	return (c);
}

/* The protocol a run of service has. */
static const char *
xf_protocol(const char *service)
{
	if (strcmp(service, "smb") == 0)
		return ("smb3");
	if (strcmp(service, "nfs") == 0)
		return ("nfs3");
	if (strcmp(service, "afp") == 0 || strcmp(service, "iscsi") == 0)
		return (service);
	return ("other");
}

/* Whether a client moving data is a read (the server sends). */
static int
xf_read(const struct xf_client *c)
{
	return (c->sent >= c->recv);
}

/* Open the run of a transfer noticed now. */
static void
xf_open(struct transfers *x, struct xf_client *c)
{
	struct run_figures	f;

	memset(&f, 0, sizeof f);
	f.given = RUN_LABEL | RUN_PROTOCOL | RUN_OP;
	snprintf(f.label, sizeof f.label, "%s %s from %s", c->service,
	    xf_read(c) ? "read" : "write", c->addr);
	snprintf(f.protocol, sizeof f.protocol, "%s", xf_protocol(c->service));
	snprintf(f.op, sizeof f.op, "%s", xf_read(c) ? "read" : "write");
	c->run = runs_open_auto(x->d, &f, c->addr, c->t_first);
	if (c->run != -1)
		x->count++;
	if (c->run > 0)
		log_info("transfer: %s %s from %s, run %ld", c->service,
		    xf_read(c) ? "read" : "write", c->addr, c->run);
}

/* End a transfer's run with what it moved. */
static void
xf_end(struct transfers *x, struct xf_client *c)
{
	struct http_err		 e;
	struct run_figures	 f;
	json_t			*rep;
	double			 secs = c->t_last - c->t_first;

	if (c->run <= 0)
		return;
	memset(&f, 0, sizeof f);
	f.given = RUN_BYTES | RUN_SECONDS;
	f.bytes = xf_read(c) ? c->sent : c->recv;
	f.client_seconds = secs > 0 ? secs : 0.001;
	/* The window ends with the transfer, not with the quiet after it. */
	if ((rep = runs_end_at(x->d, (unsigned long)c->run, &f, c->t_last,
	    &e)) != NULL) {
		log_info("transfer: run %ld ended: %.1f MB in %.1f s", c->run,
		    (double)f.bytes / 1e6, secs);
		json_decref(rep);
	} else
		log_warn("transfer: run %ld: %s", c->run, e.msg);
	c->run = -1;
}

/* Move a client on by one reading of dt seconds ending at now. */
static void
xf_step(struct transfers *x, struct xf_client *c, double now, double dt)
{
	const struct cfg	*cfg = x->d->cfg;
	double			 min = (double)cfg->xfer_min_rate_mbps * 125000.0;
	double			 avg;
	unsigned long		 own;
	long			 xfer;

	c->rate = (double)(c->dsent + c->drecv) / dt;
	switch (c->state) {
	case XF_IDLE:
		/*
		 * A client with a run of its own open is measured there, and
		 * so is what a reading counts in the second its run ended.
		 */
		if (runs_client_open(x->d, c->addr))
			c->own_last = now;
		if (c->rate < min || now - c->own_last < dt)
			break;
		/*
		 * It began in the reading before, below the rate, unless
		 * that one's bytes were its own run's.  The last bytes of a
		 * connection just destroyed end an earlier copy: they do not
		 * start this one.
		 */
		if (now - c->own_last < dt + c->pdt)
			c->psent = c->precv = c->pgsent = c->pgrecv = 0;
		c->psent -= c->pgsent;
		c->precv -= c->pgrecv;
		c->state = XF_RISING;
		log_debug("transfers: %s: %.2f MB/s: rising", c->addr,
		    c->rate / 1e6);
		c->t_first = now - dt - (c->psent + c->precv > 0 ? c->pdt : 0);
		c->t_last = now;
		c->sent = c->psent + c->dsent - c->gsent;
		c->recv = c->precv + c->drecv - c->grecv;
		c->quiet = 0;
		break;
	case XF_RISING:
		if (runs_client_open(x->d, c->addr))
			c->own_last = now;
		/*
		 * A reading below the rate (a copy's start on a busy client,
		 * a client that read ahead and writes out what it has) does
		 * not lose what came before; a longer quiet does, unless the
		 * start is still at the rate on average (a burst, then a
		 * pause), and up to transfers.idle_seconds.
		 */
		avg = (double)(c->sent + c->recv + c->dsent + c->drecv) /
		    fmax(now - c->t_first, dt);
		if (c->rate < min)
			c->quiet += dt;
		if (c->own_last == now || (c->rate < min &&
		    ((c->quiet > XF_RISING_DIP && avg < min) ||
		    c->quiet >= (double)cfg->xfer_idle_seconds))) {
			log_debug("transfers: %s: %.2f MB/s, %.2f MB/s since it "
			    "rose: %s", c->addr, c->rate / 1e6, avg / 1e6,
			    c->own_last == now ? "a run of its own" : "fell "
			    "quiet before it was a transfer");
			c->state = XF_IDLE;
			break;
		}
		c->sent += c->dsent;
		c->recv += c->drecv;
		if (c->rate < min)
			break;
		c->quiet = 0;
		c->t_last = now;
		if (now - c->t_first >= (double)cfg->xfer_min_seconds) {
			c->state = XF_TRANSFER;
			xf_open(x, c);
		}
		break;
	case XF_TRANSFER:
		c->sent += c->dsent;
		c->recv += c->drecv;
		/*
		 * The client opened a run of its own around this copy: the
		 * transfer ends here, joined to it, which measures the rest.
		 */
		if ((own = runs_client_open(x->d, c->addr)) != 0) {
			c->own_last = now;
			xfer = c->run;
			xf_end(x, c);
			if (xfer > 0)
				runs_join(x->d, (unsigned long)xfer, own);
			c->state = XF_IDLE;
			break;
		}
		if (c->rate >= min) {
			c->t_last = now;
			c->quiet = 0;
			break;
		}
		c->quiet += dt;
		if (c->quiet >= (double)cfg->xfer_idle_seconds) {
			xf_end(x, c);
			c->state = XF_IDLE;
		}
		break;
	}
	c->psent = c->dsent;
	c->precv = c->drecv;
	c->pdt = dt;
	c->pgsent = c->gsent;
	c->pgrecv = c->grecv;
	c->dsent = c->drecv = c->gsent = c->grecv = 0;
}

/* The connection with these ends, made when missing (NULL when full). */
static struct xf_conn *
xf_conn(struct transfers *x, const struct inetdiag_conn *k, int *fresh)
{
	struct xf_conn	*c;
	size_t		 i;

	*fresh = 0;
	for (i = 0; i < x->nconns; i++) {
		c = &x->conns[i];
		if (c->lport == k->lport && c->rport == k->rport &&
		    strcmp(c->remote, k->remote) == 0)
			return (c);
	}
	if (x->nconns == XF_MAX_CONNS)
		return (NULL);
	c = &x->conns[x->nconns++];
	memset(c, 0, sizeof *c);
	snprintf(c->remote, sizeof c->remote, "%s", k->remote);
	c->lport = k->lport;
	c->rport = k->rport;
	*fresh = 1;
	return (c);
}

/*
 * Add a connection's bytes to its client's total: a counter of its own
 * for the first TRANSFERS_TOTALS clients, "other" for the rest, so that
 * /metrics keeps a bounded number of series that never go down.
 */
static void
xf_total(struct transfers *x, const char *addr, uint64_t sent,
    uint64_t recv)
{
	struct transfers_total	*t = NULL;
	size_t			 i;

	if (sent + recv == 0)
		return;
	for (i = 0; i < x->ntotals && t == NULL; i++)
		if (strcmp(x->totals[i].client, addr) == 0)
			t = &x->totals[i];
	if (t == NULL && x->ntotals < TRANSFERS_TOTALS) {
		t = &x->totals[x->ntotals++];
		snprintf(t->client, sizeof t->client, "%s", addr);
	}
	if (t == NULL)
		t = &x->other;
	t->sent += sent;
	t->received += recv;
}

/*
 * Add one connection's bytes since the last reading to its client; a
 * destroyed socket's are its last.
 */
static void
xf_count(struct transfers *x, const struct inetdiag_conn *k, int gone)
{
	struct xf_conn		*c;
	struct xf_client	*cl;
	uint64_t		 ds, dr;
	int			 fresh;

	if (!(k->have & INETDIAG_HAVE_BYTES) ||
	    (c = xf_conn(x, k, &fresh)) == NULL)
		return;
	/*
	 * A connection already open at the first reading has a past that
	 * is not a transfer of now; one opened since, all it moved is.
	 */
	ds = k->bytes_acked >= c->sent ? k->bytes_acked - c->sent :
	    k->bytes_acked;
	dr = k->bytes_received >= c->recv ? k->bytes_received - c->recv :
	    k->bytes_received;
	if (fresh && x->gen == 1)
		ds = dr = 0;
	c->sent = k->bytes_acked;
	c->recv = k->bytes_received;
	c->gen = x->gen;
	c->gone = gone;
	xf_total(x, k->remote, ds, dr);
	if ((cl = xf_client(x, k->remote)) == NULL)
		return;
	if (ds + dr > cl->dsent + cl->drecv || cl->service == NULL)
		cl->service = runpath_service(x->d, k->lport);
	cl->dsent += ds;
	cl->drecv += dr;
	if (gone) {
		cl->gsent += ds;
		cl->grecv += dr;
	}
}

/* One reading: count the bytes, move each client on. */
static void
xf_tick(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct transfers	*x = arg;
	unsigned		 ports[RUNPATH_PORTS_MAX];
	double			 now = nptime_real(), dt;
	size_t			 i, j, nports;

	if (x->d->cfg->xfer_min_rate_mbps == 0)
		return;
	if (x->gen % XF_SMBCONF_TICKS == 0)
		runpath_refresh(x->d);
	x->gen++;
	dt = x->last > 0 ? now - x->last : XF_TICK_MS / 1000.0;
	x->last = now;
	nports = runpath_file_ports(x->d, ports);
	x->read_ok = 0;
	x->d->file_conns = NULL;
	if (inetdiag_read(&x->diag, ports, nports, NULL) == -1) {
		if (!x->warned)
			log_warn("transfers: %s: %s", x->diag.errstr != NULL ?
			    x->diag.errstr : "sock_diag", strerror(errno));
		x->warned = 1;
		return;
	}
	x->read_ok = nptime_mono();
	x->d->file_conns = &x->diag;
	x->d->file_conns_at = x->read_ok;
	for (i = 0; i < x->diag.n; i++)
		xf_count(x, &x->diag.v[i], 0);
	/*
	 * Forget the connections that closed: destroyed, or missing from
	 * XF_MISSED readings in a row.  One missing from a reading or two (a
	 * dump the kernel cut short on a busy box) keeps its counters, lest
	 * its whole past be counted again when it shows once more.
	 */
	for (i = j = 0; i < x->nconns; i++)
		if (!x->conns[i].gone && x->gen - x->conns[i].gen < XF_MISSED)
			x->conns[j++] = x->conns[i];
	x->nconns = j;
	for (i = 0; i < x->nclients; i++)
		xf_step(x, &x->clients[i], now, dt > 0 ? dt : 0.001);
	/* Forget the clients that went quiet (a reading without bytes). */
	for (i = j = 0; i < x->nclients; i++)
		if (x->clients[i].state != XF_IDLE ||
		    x->clients[i].psent + x->clients[i].precv > 0)
			x->clients[j++] = x->clients[i];
	x->nclients = j;
}

size_t
transfers_totals(const struct daemon *d, struct transfers_total *v,
    struct transfers_total *other, unsigned long *count, unsigned *active)
{
	const struct transfers	*x = d->transfers;
	size_t			 i;

	memset(other, 0, sizeof *other);
	snprintf(other->client, sizeof other->client, "other");
	*count = 0;
	*active = 0;
	if (x == NULL)
		return (0);
	for (i = 0; i < x->ntotals; i++)
		v[i] = x->totals[i];
	other->sent = x->other.sent;
	other->received = x->other.received;
	*count = x->count;
	for (i = 0; i < x->nclients; i++)
		*active += x->clients[i].state == XF_TRANSFER;
	return (x->ntotals);
}

/*
 * Sockets destroyed since the last reading, with their last counters
 * (sock_diag's destroy broadcast): a copy's last fraction of a second,
 * which no reading would see once its connection closed.
 */
static void
xf_gone(evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct transfers	*x = arg;
	unsigned		 ports[RUNPATH_PORTS_MAX];
	unsigned char		 buf[16384];
	ssize_t			 n;
	size_t			 i, nports;
	int			 done;

	nports = runpath_file_ports(x->d, ports);
	while ((n = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		x->gone.n = 0;
		if (inetdiag_parse(&x->gone, buf, (size_t)n, ports, nports,
		    NULL, &done) == -1)
			continue;
		for (i = 0; i < x->gone.n; i++) {
			xf_count(x, &x->gone.v[i], 1);
			runpath_closed_note(x->d, &x->gone.v[i]);
		}
	}
}

/* Subscribe to the destroyed TCP sockets; -1 where the kernel has none. */
static int
xf_destroy_events(struct transfers *x)
{
	struct sockaddr_nl	sa;

	if ((x->nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC |
	    SOCK_NONBLOCK, NETLINK_SOCK_DIAG)) == -1)
		return (-1);
	memset(&sa, 0, sizeof sa);
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = (1U << (SKNLGRP_INET_TCP_DESTROY - 1)) |
	    (1U << (SKNLGRP_INET6_TCP_DESTROY - 1));
	if (bind(x->nl, (struct sockaddr *)&sa, sizeof sa) == -1 ||
	    (x->ev_nl = event_new(x->d->base, x->nl, EV_READ | EV_PERSIST,
	    xf_gone, x)) == NULL || event_add(x->ev_nl, NULL) == -1) {
		log_info("transfers: no sock_diag destroy events (%s): a "
		    "copy's last fraction of a second may be missed",
		    strerror(errno));
		close(x->nl);
		x->nl = -1;
		return (-1);
	}
	return (0);
}

int
transfers_init(struct daemon *d, char **cause)
{
	struct transfers	*x;
	struct timeval		 tv = { 0, XF_TICK_MS * 1000 };

	*cause = NULL;
	if ((x = calloc(1, sizeof *x)) == NULL ||
	    (x->conns = calloc(XF_MAX_CONNS, sizeof *x->conns)) == NULL ||
	    (x->ev = event_new(d->base, -1, EV_PERSIST, xf_tick, x)) ==
	    NULL || event_add(x->ev, &tv) == -1) {
		if (x != NULL) {
			free(x->conns);
			if (x->ev != NULL)
				event_free(x->ev);
		}
		free(x);
		if (asprintf(cause, "transfers: out of memory") == -1)
			*cause = NULL;
		return (-1);
	}
	x->d = d;
	x->nl = -1;
	d->transfers = x;
	(void)xf_destroy_events(x);
	return (0);
}

void
transfers_shutdown(struct daemon *d)
{
	struct transfers	*x = d->transfers;

	if (x == NULL)
		return;
	event_free(x->ev);
	if (x->ev_nl != NULL)
		event_free(x->ev_nl);
	if (x->nl != -1)
		close(x->nl);
	d->file_conns = NULL;
	inetdiag_clear(&x->diag);
	inetdiag_clear(&x->gone);
	free(x->conns);
	free(x);
	d->transfers = NULL;
}

json_t *
transfers_live(struct daemon *d)
{
	const struct transfers	*x = d->transfers;
	const struct xf_client	*c;
	json_t			*a;
	size_t			 i;

	if ((a = json_array()) == NULL || x == NULL)
		return (a);
	for (i = 0; i < x->nclients; i++) {
		c = &x->clients[i];
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:o,s:f,s:I,"
		    "s:I,s:f}", "client", c->addr, "service", c->service !=
		    NULL ? c->service : "other", "state", c->state ==
		    XF_TRANSFER ? "transfer" : "rising", "run", c->run > 0 ?
		    json_integer(c->run) : json_null(), "bytes_per_s", c->rate,
		    "sent_bytes", (json_int_t)c->sent, "received_bytes",
		    (json_int_t)c->recv, "seconds", c->t_last - c->t_first));
	}
	return (a);
}
