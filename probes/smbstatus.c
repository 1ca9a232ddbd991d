/*
 * smbstatus.c: smbstatus's session list, as JSON or as its text table.
 *
 * The JSON reader is a small recursive descent over the RFC 8259 grammar
 * that keeps only the members smbstatus.h names and skips the rest; it
 * never builds a tree, so a busy server's output costs no more memory than
 * its sessions.  Nesting is bounded, so hostile input cannot exhaust the
 * stack.
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

#define SJ_DEPTH_MAX	64
#define SJ_TEXT_MAX	256	/* longest member value kept */
#define SMBSTATUS_LINE_MAX	4096
#define SMBSTATUS_TOKENS	48

/* Where a JSON value sits, which says what to keep from it. */
enum sj_ctx {
	SJ_SKIP,		/* nothing of interest below */
	SJ_ROOT,
	SJ_SESSIONS,		/* "sessions": object or array of sessions */
	SJ_SESSION,
	SJ_SERVER_ID,
	SJ_SIGNING,		/* object {cipher, degree}, or text */
	SJ_ENCRYPTION,
	/* Scalars. */
	SJ_VERSION,
	SJ_PID,
	SJ_USER,
	SJ_GROUP,
	SJ_MACHINE,
	SJ_HOSTNAME,
	SJ_DIALECT,
	SJ_SIGN_CIPHER,
	SJ_SIGN_DEGREE,
	SJ_ENC_CIPHER,
	SJ_ENC_DEGREE
};

struct sj {
	const char		*s, *end;
	struct smbstatus	*st;
	ssize_t			 cur;		/* session being read, -1 */
	int			 have_sessions;
	char			 hostname[SJ_TEXT_MAX];
	int			 nomem;
};

static int	sj_value(struct sj *, enum sj_ctx, int depth);

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
static void
smbstatus_reset(struct smbstatus *st)
{
	st->n = st->skipped = 0;
	st->version[0] = '\0';
}

/* Append an empty session; NULL on ENOMEM or past the maximum. */
static struct smbstatus_session *
smbstatus_add(struct smbstatus *st)
{
	struct smbstatus_session	*nv, *s;
	size_t				 ncap;

	if (st->n == SMBSTATUS_MAX_SESSIONS) {
		st->skipped++;
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
static enum smbstatus_degree
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
static void
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
static int
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

/* Skip blanks. */
static void
sj_ws(struct sj *j)
{
	while (j->s < j->end && (*j->s == ' ' || *j->s == '\t' ||
	    *j->s == '\n' || *j->s == '\r'))
		j->s++;
}

/* Four hex digits at p, or -1. */
static long
sj_hex4(const char *p, const char *end)
{
	long	v = 0;
	int	i, c;

	if (end - p < 4)
		return (-1);
	for (i = 0; i < 4; i++) {
		c = (unsigned char)p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return (-1);
	}
	return (v);
}

/* Append code point cp as UTF-8 to out (n used of outsz), truncating. */
static void
sj_utf8(char *out, size_t outsz, size_t *n, long cp)
{
	char	u[4];
	size_t	k, i;

	if (cp < 0x80) {
		u[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		k = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		k = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		k = 4;
	}
	if (*n + k >= outsz)
		return;
	for (i = 0; i < k; i++)
		out[(*n)++] = u[i];
}

/* A string at j->s (on its quote) into out, truncated; -1 if malformed. */
static int
sj_string(struct sj *j, char *out, size_t outsz)
{
	size_t	n = 0;
	long	cp, lo;
	int	c;

	if (j->s >= j->end || *j->s != '"')
		return (-1);
	for (j->s++; j->s < j->end; j->s++) {
		c = (unsigned char)*j->s;
		if (c == '"') {
			j->s++;
			if (outsz > 0)
				out[n] = '\0';
			return (0);
		}
		if (c < 0x20)
			return (-1);
		if (c != '\\') {
			if (n + 1 < outsz)
				out[n++] = (char)c;
			continue;
		}
		if (++j->s >= j->end)
			return (-1);
		switch (*j->s) {
		case '"': case '\\': case '/':
			c = *j->s;
			break;
		case 'b': c = '\b'; break;
		case 'f': c = '\f'; break;
		case 'n': c = '\n'; break;
		case 'r': c = '\r'; break;
		case 't': c = '\t'; break;
		case 'u':
			if ((cp = sj_hex4(j->s + 1, j->end)) == -1)
				return (-1);
			j->s += 4;
			if (cp >= 0xd800 && cp <= 0xdbff && j->end - j->s > 6 &&
			    j->s[1] == '\\' && j->s[2] == 'u' &&
			    (lo = sj_hex4(j->s + 3, j->end)) >= 0xdc00 &&
			    lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				j->s += 6;
			} else if (cp >= 0xd800 && cp <= 0xdfff)
				cp = 0xfffd;	/* a lone surrogate */
			if (cp == 0)
				cp = 0xfffd;	/* keep the string a C string */
			sj_utf8(out, outsz, &n, cp);
			continue;
		default:
			return (-1);
		}
		if (n + 1 < outsz)
			out[n++] = (char)c;
	}
	return (-1);
}

/* A number, true, false or null at j->s into out; -1 if malformed. */
static int
sj_literal(struct sj *j, char *out, size_t outsz)
{
	const char	*p = j->s;
	size_t		 n;

	while (j->s < j->end && (isalnum((unsigned char)*j->s) ||
	    *j->s == '-' || *j->s == '+' || *j->s == '.'))
		j->s++;
	n = (size_t)(j->s - p);
	if (n == 0)
		return (-1);
	if (!(n == 4 && memcmp(p, "true", 4) == 0) &&
	    !(n == 5 && memcmp(p, "false", 5) == 0) &&
	    !(n == 4 && memcmp(p, "null", 4) == 0) &&
	    !(*p == '-' || isdigit((unsigned char)*p)))
		return (-1);
	if (outsz > 0) {
		if (n >= outsz)
			n = outsz - 1;
		memcpy(out, p, n);
		out[n] = '\0';
	}
	return (0);
}

/* The context of member key of an object in context ctx. */
static enum sj_ctx
sj_member(enum sj_ctx ctx, const char *key)
{
	static const struct {
		enum sj_ctx	 parent;
		const char	*key;
		enum sj_ctx	 child;
	} map[] = {
		{ SJ_ROOT, "sessions", SJ_SESSIONS },
		{ SJ_ROOT, "version", SJ_VERSION },
		{ SJ_SESSION, "server_id", SJ_SERVER_ID },
		{ SJ_SESSION, "pid", SJ_PID },
		{ SJ_SESSION, "username", SJ_USER },
		{ SJ_SESSION, "groupname", SJ_GROUP },
		{ SJ_SESSION, "remote_machine", SJ_MACHINE },
		{ SJ_SESSION, "hostname", SJ_HOSTNAME },
		{ SJ_SESSION, "session_dialect", SJ_DIALECT },
		{ SJ_SESSION, "signing", SJ_SIGNING },
		{ SJ_SESSION, "encryption", SJ_ENCRYPTION },
		{ SJ_SERVER_ID, "pid", SJ_PID },
		{ SJ_SIGNING, "cipher", SJ_SIGN_CIPHER },
		{ SJ_SIGNING, "degree", SJ_SIGN_DEGREE },
		{ SJ_ENCRYPTION, "cipher", SJ_ENC_CIPHER },
		{ SJ_ENCRYPTION, "degree", SJ_ENC_DEGREE }
	};
	size_t	i;

	if (ctx == SJ_SESSIONS)
		return (SJ_SESSION);
	for (i = 0; i < NP_NITEMS(map); i++)
		if (map[i].parent == ctx && strcmp(map[i].key, key) == 0)
			return (map[i].child);
	return (SJ_SKIP);
}

/* Keep scalar text v met in context ctx. */
static void
sj_keep(struct sj *j, enum sj_ctx ctx, const char *v)
{
	struct smbstatus_session	*s;

	if (ctx == SJ_VERSION) {
		probe_strlcpy(j->st->version, v, sizeof j->st->version);
		return;
	}
	if (j->cur < 0)
		return;
	s = &j->st->v[j->cur];
	switch (ctx) {
	case SJ_PID:
		s->pid = smbstatus_pid(v);
		break;
	case SJ_USER:
		probe_strlcpy(s->user, v, sizeof s->user);
		break;
	case SJ_GROUP:
		probe_strlcpy(s->group, v, sizeof s->group);
		break;
	case SJ_MACHINE:
		probe_strlcpy(s->machine, v, sizeof s->machine);
		break;
	case SJ_HOSTNAME:
		probe_strlcpy(j->hostname, v, sizeof j->hostname);
		break;
	case SJ_DIALECT:
		probe_strlcpy(s->dialect, v, sizeof s->dialect);
		break;
	case SJ_SIGNING:	/* the text form */
		smbstatus_crypto_parse(v, &s->signing);
		break;
	case SJ_ENCRYPTION:
		smbstatus_crypto_parse(v, &s->encryption);
		break;
	case SJ_SIGN_CIPHER:
		probe_strlcpy(s->signing.cipher, v, sizeof s->signing.cipher);
		break;
	case SJ_SIGN_DEGREE:
		s->signing.degree = smbstatus_degree_parse(v);
		break;
	case SJ_ENC_CIPHER:
		probe_strlcpy(s->encryption.cipher, v,
		    sizeof s->encryption.cipher);
		break;
	case SJ_ENC_DEGREE:
		s->encryption.degree = smbstatus_degree_parse(v);
		break;
	default:
		break;
	}
}

/* Finish the session being read: its address, and crypto without cipher. */
static void
sj_session_done(struct sj *j)
{
	struct smbstatus_session	*s = &j->st->v[j->cur];

	if (smbstatus_address(j->hostname, s->address,
	    sizeof s->address) == -1 &&
	    smbstatus_address(s->machine, s->address, sizeof s->address) == -1)
		s->address[0] = '\0';
	if (s->signing.degree == SMBSTATUS_NONE)
		s->signing.cipher[0] = '\0';
	if (s->encryption.degree == SMBSTATUS_NONE)
		s->encryption.cipher[0] = '\0';
	j->cur = -1;
}

/* An object or array in context ctx; its members' contexts follow ctx. */
static int
sj_container(struct sj *j, enum sj_ctx ctx, int depth)
{
	char	key[SJ_TEXT_MAX];
	char	close = *j->s == '{' ? '}' : ']';
	int	obj = close == '}', first = 1;

	j->s++;
	for (;;) {
		sj_ws(j);
		if (j->s >= j->end)
			return (-1);
		if (*j->s == close) {
			j->s++;
			return (0);
		}
		if (!first) {
			if (*j->s != ',')
				return (-1);
			j->s++;
			sj_ws(j);
		}
		first = 0;
		key[0] = '\0';
		if (obj) {
			if (sj_string(j, key, sizeof key) == -1)
				return (-1);
			sj_ws(j);
			if (j->s >= j->end || *j->s != ':')
				return (-1);
			j->s++;
			sj_ws(j);
		}
		if (sj_value(j, obj || ctx == SJ_SESSIONS ?
		    sj_member(ctx, key) : SJ_SKIP, depth + 1) == -1)
			return (-1);
	}
}

/* One value in context ctx. */
static int
sj_value(struct sj *j, enum sj_ctx ctx, int depth)
{
	char	text[SJ_TEXT_MAX];
	int	rc;

	if (depth > SJ_DEPTH_MAX || j->s >= j->end)
		return (-1);
	if (*j->s == '{' || *j->s == '[') {
		if (ctx == SJ_SESSIONS)
			j->have_sessions = 1;
		if (ctx == SJ_SESSION && *j->s == '{') {
			if (smbstatus_add(j->st) == NULL) {
				if (errno == ENOMEM) {
					j->nomem = 1;
					return (-1);
				}
				ctx = SJ_SKIP;	/* past the maximum */
			} else {
				j->cur = (ssize_t)j->st->n - 1;
				j->hostname[0] = '\0';
			}
		}
		if (ctx != SJ_ROOT && ctx != SJ_SESSIONS &&
		    ctx != SJ_SESSION && ctx != SJ_SERVER_ID &&
		    ctx != SJ_SIGNING && ctx != SJ_ENCRYPTION)
			ctx = SJ_SKIP;
		rc = sj_container(j, ctx, depth);
		if (rc == 0 && ctx == SJ_SESSION && j->cur >= 0)
			sj_session_done(j);
		return (rc);
	}
	if (*j->s == '"')
		rc = sj_string(j, text, sizeof text);
	else
		rc = sj_literal(j, text, sizeof text);
	if (rc == 0 && ctx != SJ_SKIP)
		sj_keep(j, ctx, text);
	return (rc);
}

/* Parse smbstatus's JSON. */
int
smbstatus_parse_json(const char *buf, size_t len, struct smbstatus *st,
    const char **errstr)
{
	struct sj	j;

	smbstatus_reset(st);
	memset(&j, 0, sizeof j);
	j.s = buf;
	j.end = buf + len;
	j.st = st;
	j.cur = -1;
	sj_ws(&j);
	if (j.s >= j.end || *j.s != '{') {
		if (errstr != NULL)
			*errstr = "not a JSON object";
		goto bad;
	}
	if (sj_value(&j, SJ_ROOT, 0) == -1) {
		if (j.nomem)
			goto nomem;
		if (errstr != NULL)
			*errstr = "malformed JSON";
		goto bad;
	}
	sj_ws(&j);
	if (j.s != j.end) {
		if (errstr != NULL)
			*errstr = "text after the JSON object";
		goto bad;
	}
	if (!j.have_sessions) {
		if (errstr != NULL)
			*errstr = "no \"sessions\" in the JSON";
		goto bad;
	}
	return (0);
bad:
	smbstatus_reset(st);
	errno = EINVAL;
	return (-1);
nomem:
	smbstatus_reset(st);
	if (errstr != NULL)
		*errstr = "out of memory";
	errno = ENOMEM;
	return (-1);
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
