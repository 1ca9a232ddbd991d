/*
 * peercap.h: the connections open from each client address on one
 * listener, and api.max_connections_per_address.
 *
 * A listener counts a connection from its accept to the close of its
 * socket.  One more from an address that has the most open already is
 * refused: the listener closes it at once.  A refusal is logged at notice
 * level, at most one line a second for each address: the first at once,
 * those that follow within the second in one line of how many.  An IPv4
 * client on a dual-stack socket (::ffff:a.b.c.d) is its IPv4 address.
 */
#ifndef PEERCAP_H
#define PEERCAP_H

struct sockaddr;
struct peercap;

/*
 * A new, empty count for the listener named what ("api", "synth"), which
 * starts its log lines; NULL on ENOMEM.  what is borrowed: a constant.
 */
struct peercap	*peercap_new(const char *what);
/* Free a count and what it follows; NULL is nothing. */
void		 peercap_free(struct peercap *);
/*
 * Count a new connection from sa, or refuse it when max are open from its
 * address already (logged) or on ENOMEM: 0 counted, -1 refused.
 */
int		 peercap_add(struct peercap *, const struct sockaddr *sa,
		    unsigned max);
/* A connection from sa that peercap_add() counted has closed. */
void		 peercap_del(struct peercap *, const struct sockaddr *sa);
/*
 * Once a second: log the refusals not logged yet, and forget the
 * addresses with nothing open and nothing refused in the last second.
 */
void		 peercap_sweep(struct peercap *);
/* Connections open from sa's address. */
unsigned	 peercap_count(struct peercap *, const struct sockaddr *sa);

#endif /* PEERCAP_H */
