/*
 * smbstatus.c: smbstatus's session table as text, and the pieces its
 * JSON form shares with it (crypto, addresses, pids).  The JSON form is
 * read with jansson by the daemon (daemon/smbsess.c).
 */
#include "config.h"

#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "smbstatus.h"

#define SMBSTATUS_LINE_MAX	4096
#define SMBSTATUS_TOKENS	48

/* Initialise an empty list. */
void
smbstatus_init(struct smbstatus *st)
{
	memset(st, 0, sizeof *st);
}

/* Free a list's sessions. */
void
smbstatus_clear(struct smbstatus *st)
{
	if (st == NULL)
		return;
	free(st->v);
	smbstatus_init(st);
}

/* Empty st, keeping its allocation. */
void
smbstatus_reset(struct smbstatus *st)
{
	st->n = st->skipped = 0;
	st->version[0] = '\0';
}

/* Append an empty session; NULL on ENOMEM or past the maximum. */
struct smbstatus_session *
smbstatus_add(struct smbstatus *st)
{
	struct smbstatus_session	*nv, *s;
	size_t				 ncap;

	if (st->n == SMBSTATUS_MAX_SESSIONS) {
		st->skipped++;
		errno = 0;
		return (NULL);
	}
	if (st->n == st->cap) {
		ncap = st->cap == 0 ? 16 : st->cap * 2;
		if ((nv = reallocarray(st->v, ncap, sizeof *nv)) == NULL) {
			errno = ENOMEM;
			return (NULL);
		}
		st->v = nv;
		st->cap = ncap;
	}
	s = &st->v[st->n++];
	memset(s, 0, sizeof *s);
	s->cpu_percent = -1;
	s->cpu = -1;
	return (s);
}

/* The name of a degree. */
const char *
smbstatus_degree_name(enum smbstatus_degree d)
{
	switch (d) {
	case SMBSTATUS_NONE:
		return ("none");
	case SMBSTATUS_PARTIAL:
		return ("partial");
	case SMBSTATUS_ANONYMOUS:
		return ("anonymous");
	case SMBSTATUS_FULL:
		return ("full");
	default:
		return ("unknown");
	}
}

/* A degree from its JSON name. */
enum smbstatus_degree
smbstatus_degree_parse(const char *s)
{
	if (strcmp(s, "none") == 0)
		return (SMBSTATUS_NONE);
	if (strcmp(s, "partial") == 0)
		return (SMBSTATUS_PARTIAL);
	if (strcmp(s, "anonymous") == 0)
		return (SMBSTATUS_ANONYMOUS);
	if (strcmp(s, "full") == 0)
		return (SMBSTATUS_FULL);
	return (SMBSTATUS_UNKNOWN);
}

/* Crypto from smbstatus's text: "-", "CIPHER", "partial(CIPHER)". */
void
smbstatus_crypto_parse(const char *s, struct smbstatus_crypto *c)
{
	static const struct {
		const char		*prefix;
		enum smbstatus_degree	 degree;
	} forms[] = {
		{ "partial(", SMBSTATUS_PARTIAL },
		{ "anonymous(", SMBSTATUS_ANONYMOUS }
	};
	size_t	i, n, l;

	memset(c, 0, sizeof *c);
	if (*s == '\0') {
		c->degree = SMBSTATUS_UNKNOWN;
		return;
	}
	if (strcmp(s, "-") == 0) {
		c->degree = SMBSTATUS_NONE;
		return;
	}
	for (i = 0; i < NP_NITEMS(forms); i++) {
		n = strlen(forms[i].prefix);
		l = strlen(s);
		if (strncmp(s, forms[i].prefix, n) == 0 && l > n &&
		    s[l - 1] == ')') {
			c->degree = forms[i].degree;
			if (l - n - 1 < sizeof c->cipher) {
				memcpy(c->cipher, s + n, l - n - 1);
				c->cipher[l - n - 1] = '\0';
			}
			return;
		}
	}
	c->degree = SMBSTATUS_FULL;
	probe_strlcpy(c->cipher, s, sizeof c->cipher);
}

/* Crypto as smbstatus prints it. */
void
smbstatus_crypto_text(const struct smbstatus_crypto *c, char *out,
    size_t outsz)
{
	switch (c->degree) {
	case SMBSTATUS_NONE:
		snprintf(out, outsz, "-");
		break;
	case SMBSTATUS_PARTIAL:
		snprintf(out, outsz, "partial(%s)", c->cipher);
		break;
	case SMBSTATUS_ANONYMOUS:
		snprintf(out, outsz, "anonymous(%s)", c->cipher);
		break;
	case SMBSTATUS_FULL:
		snprintf(out, outsz, "%s", c->cipher);
		break;
	default:
		snprintf(out, outsz, "%s", "");
		break;
	}
}

/* A bare address in canonical form; -1 if s is not one. */
static int
smbstatus_canon(const char *s, char *out, size_t outsz)
{
	struct in6_addr	a6;
	struct in_addr	a4;
	char		buf[INET6_ADDRSTRLEN];

	if (inet_pton(AF_INET, s, &a4) == 1) {
		if (inet_ntop(AF_INET, &a4, buf, sizeof buf) == NULL)
			return (-1);
	} else if (inet_pton(AF_INET6, s, &a6) == 1) {
		if (IN6_IS_ADDR_V4MAPPED(&a6)) {
			memcpy(&a4, &a6.s6_addr[12], 4);
			if (inet_ntop(AF_INET, &a4, buf, sizeof buf) == NULL)
				return (-1);
		} else if (inet_ntop(AF_INET6, &a6, buf, sizeof buf) == NULL)
			return (-1);
	} else
		return (-1);
	return (probe_strlcpy(out, buf, outsz));
}

/*
 * The address in "ipv4:A:PORT" or "ipv6:A:PORT" (Samba's socket address
 * text, which always ends in the port), "[A]:PORT", "a.b.c.d:PORT" or "A".
 */
int
smbstatus_address(const char *s, char *out, size_t outsz)
{
	char	 buf[SMBSTATUS_ADDR_MAX + 16], *p = buf, *colon;

	if (probe_strlcpy(buf, s, sizeof buf) == -1)
		return (-1);
	if (strncmp(p, "ipv4:", 5) == 0 || strncmp(p, "ipv6:", 5) == 0) {
		p += 5;
		if ((colon = strrchr(p, ':')) != NULL && colon[1] != '\0' &&
		    strspn(colon + 1, "0123456789") == strlen(colon + 1))
			*colon = '\0';
		return (smbstatus_canon(p, out, outsz));
	}
	if (*p == '[') {
		if ((colon = strchr(++p, ']')) == NULL)
			return (-1);
		*colon = '\0';
		return (smbstatus_canon(p, out, outsz));
	}
	if (smbstatus_canon(p, out, outsz) == 0)
		return (0);
	if ((colon = strchr(p, ':')) == NULL || strchr(colon + 1, ':') != NULL)
		return (-1);
	*colon = '\0';
	return (smbstatus_canon(p, out, outsz));
}

/* 1 when a and b are the same address. */
int
smbstatus_same_address(const char *a, const char *b)
{
	char	ca[SMBSTATUS_ADDR_MAX], cb[SMBSTATUS_ADDR_MAX];

	if (smbstatus_address(a, ca, sizeof ca) == -1 ||
	    smbstatus_address(b, cb, sizeof cb) == -1)
		return (0);
	return (strcmp(ca, cb) == 0);
}

/* A pid from "15095" or "0:15095" (vnn:pid); 0 when there is none. */
int
smbstatus_pid(const char *s)
{
	const char	*p = strrchr(s, ':');
	long		 v;
	char		*end;

	p = p != NULL ? p + 1 : s;
	if (!isdigit((unsigned char)*p))
		return (0);
	errno = 0;
	v = strtol(p, &end, 10);
	if (errno != 0 || *end != '\0' || v <= 0 || v > 0x3fffffff)
		return (0);
	return ((int)v);
}

/* Join tokens [from, to) with single spaces into out, truncating. */
static void
smbstatus_join(char *const *tok, size_t from, size_t to, char *out,
    size_t outsz)
{
	size_t	i, n = 0, l;

	out[0] = '\0';
	for (i = from; i < to; i++) {
		if (i > from && n + 1 < outsz)
			out[n++] = ' ';
		l = strlen(tok[i]);
		if (l > outsz - 1 - n)
			l = outsz - 1 - n;
		memcpy(out + n, tok[i], l);
		n += l;
		out[n] = '\0';
	}
}

/* One row of the session table. */
static int
smbstatus_row(struct smbstatus *st, char *line)
{
	struct smbstatus_session	*s;
	char				*tok[SMBSTATUS_TOKENS], *save = NULL;
	char				 paren[SMBSTATUS_ADDR_MAX + 16];
	size_t				 n = 0, k, rest, l;
	char				*t;

	for (t = strtok_r(line, " \t", &save); t != NULL &&
	    n < SMBSTATUS_TOKENS; t = strtok_r(NULL, " \t", &save))
		tok[n++] = t;
	/* The parenthesised address in the Machine column anchors the row. */
	for (k = 1; k < n; k++)
		if (tok[k][0] == '(')
			break;
	if (n < 3 || k == n || k < 3 || smbstatus_pid(tok[0]) == 0) {
		st->skipped++;
		return (0);
	}
	if ((s = smbstatus_add(st)) == NULL)
		return (errno == ENOMEM ? -1 : 0);
	s->pid = smbstatus_pid(tok[0]);
	/* Username Group Machine: a name with blanks goes to the user. */
	probe_strlcpy(s->machine, tok[k - 1], sizeof s->machine);
	if (k >= 4) {
		smbstatus_join(tok, 1, k - 2, s->user, sizeof s->user);
		probe_strlcpy(s->group, tok[k - 2], sizeof s->group);
	} else
		probe_strlcpy(s->user, tok[1], sizeof s->user);
	l = strlen(tok[k]);
	if (l >= 2 && tok[k][l - 1] == ')' && l - 2 < sizeof paren) {
		memcpy(paren, tok[k] + 1, l - 2);
		paren[l - 2] = '\0';
		if (smbstatus_address(paren, s->address,
		    sizeof s->address) == -1)
			s->address[0] = '\0';
	}
	if (s->address[0] == '\0' && smbstatus_address(s->machine,
	    s->address, sizeof s->address) == -1)
		s->address[0] = '\0';
	/* Protocol Version, Encryption, Signing (Samba 4.4 on). */
	rest = n - k - 1;
	if (rest >= 3) {
		smbstatus_join(tok, k + 1, n - 2, s->dialect,
		    sizeof s->dialect);
		smbstatus_crypto_parse(tok[n - 2], &s->encryption);
		smbstatus_crypto_parse(tok[n - 1], &s->signing);
	} else if (rest > 0)
		probe_strlcpy(s->dialect, tok[k + 1], sizeof s->dialect);
	return (0);
}

/* Parse smbstatus's text table. */
int
smbstatus_parse_text(const char *buf, size_t len, struct smbstatus *st,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len, *nl;
	char		*line;
	size_t		 n;
	int		 state = 0;	/* 0 before the header, 1 dashes, 2 rows */
	int		 rc = -1;

	smbstatus_reset(st);
	if (memchr(buf, '\0', len) != NULL) {
		if (errstr != NULL)
			*errstr = "a NUL byte in the text";
		errno = EINVAL;
		return (-1);
	}
	if ((line = malloc(SMBSTATUS_LINE_MAX)) == NULL)
		goto nomem;
	while (s < end && state < 3) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		n = (size_t)(nl - s);
		if (n >= SMBSTATUS_LINE_MAX)
			n = SMBSTATUS_LINE_MAX - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		s = nl < end ? nl + 1 : end;
		while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' ||
		    line[n - 1] == '\t'))
			line[--n] = '\0';
		if (state == 0) {
			if (strncmp(line, "Samba version ", 14) == 0)
				probe_strlcpy(st->version, line + 14,
				    sizeof st->version);
			else if (strncmp(line, "PID", 3) == 0 &&
			    strstr(line, "Username") != NULL)
				state = 1;
			continue;
		}
		if (state == 1) {
			if (line[0] == '-')
				state = 2;
			continue;
		}
		if (line[0] == '\0') {
			state = 3;	/* the end of the session table */
			continue;
		}
		if (smbstatus_row(st, line) == -1)
			goto nomem;
	}
	free(line);
	if (state == 0) {
		if (errstr != NULL)
			*errstr = "no session table";
		smbstatus_reset(st);
		errno = EINVAL;
		return (-1);
	}
	rc = 0;
	return (rc);
nomem:
	free(line);
	smbstatus_reset(st);
	if (errstr != NULL)
		*errstr = "out of memory";
	errno = ENOMEM;
	return (-1);
}
