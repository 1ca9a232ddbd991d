/*
 * resolv_numeric.c: numeric-only getaddrinfo(3) and friends, for the
 * static nasperfd (configure --enable-numeric-resolver).
 *
 * nasperfd never looks a name up: it binds and compares the numeric
 * addresses of its configuration and its peers.  libevent still calls
 * getaddrinfo, getnameinfo and getservbyname, and in a static glibc those
 * drag in the name service switch, dlopen and IDNA: about a fifth of the
 * binary, and code that would load the build machine's NSS modules on a
 * NAS.  These replacements take numeric hosts and ports only and answer
 * anything else with EAI_NONAME, as AI_NUMERICHOST would.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/types.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A port from a numeric service, or -1. */
static int
rn_port(const char *serv)
{
	char	*end;
	long	 v;

	if (serv == NULL || *serv == '\0')
		return (0);
	errno = 0;
	v = strtol(serv, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0 || v > 65535)
		return (-1);
	return ((int)v);
}

/* One result for family af, address a (NULL: the wildcard or loopback). */
static struct addrinfo *
rn_one(int af, const void *a, int port, const struct addrinfo *hints)
{
	struct addrinfo		*ai;
	struct sockaddr_in	*s4;
	struct sockaddr_in6	*s6;
	size_t			 len = af == AF_INET ? sizeof *s4 : sizeof *s6;
	int			 passive = hints != NULL &&
				    (hints->ai_flags & AI_PASSIVE);

	if ((ai = calloc(1, sizeof *ai + len)) == NULL)
		return (NULL);
	ai->ai_family = af;
	ai->ai_socktype = hints != NULL ? hints->ai_socktype : 0;
	ai->ai_protocol = hints != NULL ? hints->ai_protocol : 0;
	ai->ai_addrlen = (socklen_t)len;
	ai->ai_addr = (struct sockaddr *)(ai + 1);
	if (af == AF_INET) {
		s4 = (struct sockaddr_in *)ai->ai_addr;
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		if (a != NULL)
			memcpy(&s4->sin_addr, a, sizeof s4->sin_addr);
		else
			s4->sin_addr.s_addr = htonl(passive ? INADDR_ANY :
			    INADDR_LOOPBACK);
	} else {
		s6 = (struct sockaddr_in6 *)ai->ai_addr;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		if (a != NULL)
			memcpy(&s6->sin6_addr, a, sizeof s6->sin6_addr);
		else
			s6->sin6_addr = passive ? in6addr_any :
			    in6addr_loopback;
	}
	return (ai);
}

int
getaddrinfo(const char *node, const char *service,
    const struct addrinfo *hints, struct addrinfo **res)
{
	struct in6_addr	 a6;
	struct in_addr	 a4;
	int		 af = hints != NULL ? hints->ai_family : AF_UNSPEC;
	int		 port;

	*res = NULL;
	if ((port = rn_port(service)) == -1)
		return (EAI_SERVICE);
	if (node == NULL) {
		*res = rn_one(af == AF_INET6 ? AF_INET6 : AF_INET, NULL, port,
		    hints);
		return (*res != NULL ? 0 : EAI_MEMORY);
	}
	if (af != AF_INET6 && inet_pton(AF_INET, node, &a4) == 1)
		*res = rn_one(AF_INET, &a4, port, hints);
	else if (af != AF_INET && inet_pton(AF_INET6, node, &a6) == 1)
		*res = rn_one(AF_INET6, &a6, port, hints);
	else
		return (EAI_NONAME);
	return (*res != NULL ? 0 : EAI_MEMORY);
}

void
freeaddrinfo(struct addrinfo *ai)
{
	struct addrinfo	*next;

	for (; ai != NULL; ai = next) {
		next = ai->ai_next;
		free(ai);
	}
}

const char *
gai_strerror(int code)
{
	switch (code) {
	case EAI_NONAME:
		return ("not a numeric address (this nasperfd resolves no "
		    "names)");
	case EAI_SERVICE:
		return ("not a numeric port");
	case EAI_MEMORY:
		return ("out of memory");
	default:
		return ("address error");
	}
}

int
getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host,
    socklen_t hostlen, char *serv, socklen_t servlen, int flags)
{
	const struct sockaddr_in	*s4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6	*s6 = (const struct sockaddr_in6 *)sa;
	unsigned			 port;

	(void)flags;
	if (sa->sa_family == AF_INET && salen >= sizeof *s4) {
		if (host != NULL && inet_ntop(AF_INET, &s4->sin_addr, host,
		    hostlen) == NULL)
			return (EAI_OVERFLOW);
		port = ntohs(s4->sin_port);
	} else if (sa->sa_family == AF_INET6 && salen >= sizeof *s6) {
		if (host != NULL && inet_ntop(AF_INET6, &s6->sin6_addr, host,
		    hostlen) == NULL)
			return (EAI_OVERFLOW);
		port = ntohs(s6->sin6_port);
	} else
		return (EAI_FAMILY);
	if (serv != NULL && servlen > 0 &&
	    snprintf(serv, servlen, "%u", port) >= (int)servlen)
		return (EAI_OVERFLOW);
	return (0);
}

struct servent *
getservbyname(const char *name, const char *proto)
{
	(void)name;
	(void)proto;
	return (NULL);
}

struct protoent *
getprotobynumber(int proto)
{
	(void)proto;
	return (NULL);
}
