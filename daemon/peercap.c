/*
 * peercap.c: the connections open from each client address on one
 * listener, and the refusal of one more past
 * api.max_connections_per_address.
 *
 * An address is followed while it has a connection open, and for a second
 * after its last refusal so that a client that closes everything and
 * starts again cannot log more than a line a second.  Addresses sit in
 * hash chains; a chain is never longer than the connections open, which
 * the listeners already walk on each accept.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "nptime.h"
#include "peercap.h"

#define PEERCAP_BUCKETS		256
#define PEERCAP_LOG_EVERY	1.0	/* seconds between an address's lines */

/* One client address. */
struct peercap_addr {
	int			 family;	/* AF_INET, AF_INET6 */
	uint8_t			 addr[16];	/* AF_INET: the first 4 */
	unsigned		 n;		/* connections open */
	unsigned		 quiet;		/* refusals not logged yet */
	double			 logged;	/* last line, monotonic; 0 none */
	struct peercap_addr	*next;		/* in its chain */
};

struct peercap {
	const char		*what;		/* "api", "synth" */
	struct peercap_addr	*chain[PEERCAP_BUCKETS];
};

/* The key of sa's address: an IPv4 client of a dual-stack socket is IPv4. */
static void
peercap_key(const struct sockaddr *sa, int *family, uint8_t addr[16])
{
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;

	memset(addr, 0, 16);
	*family = sa->sa_family;
	if (sa->sa_family == AF_INET) {
		memcpy(&sin, sa, sizeof sin);
		memcpy(addr, &sin.sin_addr, 4);
	} else if (sa->sa_family == AF_INET6) {
		memcpy(&sin6, sa, sizeof sin6);
		if (IN6_IS_ADDR_V4MAPPED(&sin6.sin6_addr)) {
			*family = AF_INET;
			memcpy(addr, sin6.sin6_addr.s6_addr + 12, 4);
		} else
			memcpy(addr, sin6.sin6_addr.s6_addr, 16);
	}
}

/* The chain of a key (FNV-1a). */
static size_t
peercap_hash(int family, const uint8_t addr[16])
{
	uint32_t	h = 2166136261U;
	size_t		i;

	for (i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 16777619U;
	h = (h ^ (uint32_t)family) * 16777619U;
	return (h % PEERCAP_BUCKETS);
}

/* The entry of sa's address, or NULL; with make, a new one (NULL: ENOMEM). */
static struct peercap_addr *
peercap_find(struct peercap *pc, const struct sockaddr *sa, int make)
{
	struct peercap_addr	*a;
	uint8_t			 addr[16];
	size_t			 h;
	int			 family;

	peercap_key(sa, &family, addr);
	h = peercap_hash(family, addr);
	for (a = pc->chain[h]; a != NULL; a = a->next)
		if (a->family == family && memcmp(a->addr, addr, 16) == 0)
			return (a);
	if (!make || (a = calloc(1, sizeof *a)) == NULL)
		return (NULL);
	a->family = family;
	memcpy(a->addr, addr, 16);
	a->next = pc->chain[h];
	pc->chain[h] = a;
	return (a);
}

/* Forget an entry. */
static void
peercap_drop(struct peercap *pc, struct peercap_addr *a)
{
	struct peercap_addr	**pp;

	for (pp = &pc->chain[peercap_hash(a->family, a->addr)]; *pp != NULL;
	    pp = &(*pp)->next) {
		if (*pp == a) {
			*pp = a->next;
			free(a);
			return;
		}
	}
}

/* An entry's address, for people. */
static const char *
peercap_ntop(const struct peercap_addr *a, char *buf, size_t len)
{
	if (inet_ntop(a->family, a->addr, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
	return (buf);
}

struct peercap *
peercap_new(const char *what)
{
	struct peercap	*pc;

	if ((pc = calloc(1, sizeof *pc)) == NULL)
		return (NULL);
	pc->what = what;
	return (pc);
}

void
peercap_free(struct peercap *pc)
{
	struct peercap_addr	*a;
	size_t			 i;

	if (pc == NULL)
		return;
	for (i = 0; i < PEERCAP_BUCKETS; i++) {
		while ((a = pc->chain[i]) != NULL) {
			pc->chain[i] = a->next;
			free(a);
		}
	}
	free(pc);
}

int
peercap_add(struct peercap *pc, const struct sockaddr *sa, unsigned max)
{
	struct peercap_addr	*a;
	char			 peer[INET6_ADDRSTRLEN];
	double			 now;

	if ((a = peercap_find(pc, sa, 1)) == NULL) {
		log_warnx("%s: out of memory counting a connection: closed",
		    pc->what);
		return (-1);
	}
	if (a->n < max) {
		a->n++;
		return (0);
	}
	now = nptime_mono();
	if (a->logged != 0 && now - a->logged < PEERCAP_LOG_EVERY) {
		a->quiet++;
		return (-1);
	}
	log_notice("%s: %s: %u connections open from this address, the most "
	    "it may hold (api.max_connections_per_address): closed", pc->what,
	    peercap_ntop(a, peer, sizeof peer), a->n);
	a->logged = now;
	return (-1);
}

void
peercap_del(struct peercap *pc, const struct sockaddr *sa)
{
	struct peercap_addr	*a;

	if ((a = peercap_find(pc, sa, 0)) == NULL || a->n == 0)
		return;
	if (--a->n == 0 && a->logged == 0)
		peercap_drop(pc, a);
}

void
peercap_sweep(struct peercap *pc)
{
	struct peercap_addr	*a, *next;
	char			 peer[INET6_ADDRSTRLEN];
	double			 now = nptime_mono();
	size_t			 i;

	for (i = 0; i < PEERCAP_BUCKETS; i++) {
		for (a = pc->chain[i]; a != NULL; a = next) {
			next = a->next;
			if (a->logged == 0 || now - a->logged < PEERCAP_LOG_EVERY)
				continue;
			if (a->quiet > 0) {
				log_notice("%s: %s: %u more connections over "
				    "api.max_connections_per_address closed in "
				    "the last %.0f s", pc->what, peercap_ntop(a,
				    peer, sizeof peer), a->quiet,
				    now - a->logged);
				a->quiet = 0;
				a->logged = now;
			} else if (a->n == 0)
				peercap_drop(pc, a);
		}
	}
}

unsigned
peercap_count(struct peercap *pc, const struct sockaddr *sa)
{
	struct peercap_addr	*a;

	return ((a = peercap_find(pc, sa, 0)) != NULL ? a->n : 0);
}
