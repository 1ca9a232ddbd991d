/*
 * transfers.h: every copy noticed on its own.
 *
 * Every second the TCP connections to the file services (the ports of
 * a run's path, the synthetic data port aside) are read with sock_diag,
 * and their bytes each way summed per client address.  A client that
 * moves transfers.min_rate_mbps or more for transfers.min_seconds starts
 * a transfer: a live run of origin "auto", opened as though at the moment
 * the transfer began, which the run machinery follows like any other
 * (its path, its verdict).  It ends after transfers.idle_seconds below
 * that rate, with the bytes the connections moved and the seconds they
 * moved them in.  A client with a run of its own open (nasperf run,
 * bench, mark) is left to it.
 */
#ifndef TRANSFERS_H
#define TRANSFERS_H

#include <jansson.h>

struct daemon;

/* Start watching; -1 with an allocated *cause. */
int	transfers_init(struct daemon *, char **cause);
/* Stop watching and free what is kept; open transfers stay open runs. */
void	transfers_shutdown(struct daemon *);
/*
 * The bytes each client moved over the file services since nasperfd
 * started, as counters that only grow: the first TRANSFERS_TOTALS
 * clients seen have one each, the clients after them share "other".
 */
#define TRANSFERS_TOTALS	32
struct transfers_total {
	char		client[64];
	uint64_t	sent, received;	/* by the server, to the client */
};
/*
 * The clients' totals into v (at most TRANSFERS_TOTALS; how many is
 * returned), the rest's into *other, and the transfers noticed so far and
 * those under way into *count and *active.
 */
struct inetdiag;
size_t	transfers_totals(const struct daemon *, struct transfers_total *v,
	    struct transfers_total *other, unsigned long *count,
	    unsigned *active);

/*
 * The clients moving data now: [{"client", "service", "state" ("rising"
 * or "transfer"), "run", "bytes_per_s", "sent_bytes", "received_bytes",
 * "seconds"}]; NULL on ENOMEM.
 */
json_t	*transfers_live(struct daemon *);

#endif /* TRANSFERS_H */
