/*
 * authfail.h: failed authentications, per client address, on both
 * listeners.
 *
 * Every request with a missing or wrong token counts against its address.
 * The first failure of an address is logged at notice level, then at most
 * one line per AUTHFAIL_LOG_EVERY seconds with how many failed since.  An
 * address with AUTHFAIL_MAX failures within AUTHFAIL_WINDOW seconds is
 * refused (429, before its token is looked at) for one second, then two,
 * four, and so on up to AUTHFAIL_BLOCK_MAX; a request with the right
 * token from it, once it is no longer refused, forgets its failures.
 * AUTHFAIL_SLOTS addresses are followed; a new one replaces the one
 * quiet the longest.
 */
#ifndef AUTHFAIL_H
#define AUTHFAIL_H

#define AUTHFAIL_SLOTS		64
#define AUTHFAIL_MAX		10	/* failures in the window: refused */
#define AUTHFAIL_WINDOW		60.0	/* seconds */
#define AUTHFAIL_BLOCK_MAX	60.0	/* seconds refused, at most */
#define AUTHFAIL_LOG_EVERY	10.0	/* seconds between log lines */

struct daemon;

/*
 * Whether requests from addr are refused now; the seconds until they are
 * not go to *retry (rounded up).
 */
int	authfail_blocked(struct daemon *, const char *addr, unsigned *retry);
/* A request from addr failed to authenticate on listener what. */
void	authfail_record(struct daemon *, const char *addr, const char *what);
/* A request from addr authenticated: forget its failures. */
void	authfail_ok(struct daemon *, const char *addr);
/* Free what is followed. */
void	authfail_free(struct daemon *);

#endif /* AUTHFAIL_H */
