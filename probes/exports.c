/*
 * exports.c: /etc/exports, ganesha.conf's EXPORT blocks and the kernel
 * server's thread count.
 */
#include "config.h"

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exports.h"

#define EXPORTS_LINE_MAX	8192
#define GANESHA_PATH		"/etc/ganesha/ganesha.conf"
#define GANESHA_BLOCKS		16

/* Initialise an empty list. */
void
exports_init(struct exports *e)
{
	memset(e, 0, sizeof *e);
}

/* Free a list's entries. */
void
exports_clear(struct exports *e)
{
	if (e == NULL)
		return;
	free(e->v);
	exports_init(e);
}

/* Copy a word at *sp into out, removing quotes and \ooo escapes. */
static int
exports_word(const char **sp, char *out, size_t outsz)
{
	const char	*s = *sp;
	size_t		 n = 0;
	int		 quoted = 0, c;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return (-1);
	for (; *s != '\0'; s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && (*s == ' ' || *s == '\t'))
			break;
		c = (unsigned char)*s;
		if (c == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			c = (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
			s += 3;
		}
		if (n + 1 < outsz)
			out[n++] = (char)c;
	}
	out[n] = '\0';
	*sp = s;
	return (0);
}

/* Work out a client's effective options from its option string. */
static void
exports_effective(struct exports_client *c)
{
	char	 opts[EXPORTS_OPTS_MAX], *save = NULL, *o;

	c->sync = c->wdelay = c->root_squash = 1;
	c->rw = c->all_squash = 0;
	probe_strlcpy(c->sec, "sys", sizeof c->sec);
	probe_strlcpy(opts, c->options, sizeof opts);
	for (o = strtok_r(opts, ",", &save); o != NULL;
	    o = strtok_r(NULL, ",", &save)) {
		if (strcmp(o, "sync") == 0)
			c->sync = 1;
		else if (strcmp(o, "async") == 0)
			c->sync = 0;
		else if (strcmp(o, "wdelay") == 0)
			c->wdelay = 1;
		else if (strcmp(o, "no_wdelay") == 0)
			c->wdelay = 0;
		else if (strcmp(o, "rw") == 0)
			c->rw = 1;
		else if (strcmp(o, "ro") == 0)
			c->rw = 0;
		else if (strcmp(o, "root_squash") == 0)
			c->root_squash = 1;
		else if (strcmp(o, "no_root_squash") == 0)
			c->root_squash = 0;
		else if (strcmp(o, "all_squash") == 0)
			c->all_squash = 1;
		else if (strcmp(o, "no_all_squash") == 0)
			c->all_squash = 0;
		else if (strncmp(o, "sec=", 4) == 0)
			probe_strlcpy(c->sec, o + 4, sizeof c->sec);
	}
}

/* Add a client with defaults defs and its own options own (may be NULL). */
static void
exports_client(struct exports *e, struct exports_entry *x, const char *host,
    size_t hostlen, const char *defs, const char *own, size_t ownlen)
{
	struct exports_client	*c;

	if (x->nclients == EXPORTS_MAX_CLIENTS ||
	    hostlen >= sizeof c->host) {
		e->skipped++;
		return;
	}
	c = &x->clients[x->nclients++];
	memset(c, 0, sizeof *c);
	memcpy(c->host, host, hostlen);
	c->host[hostlen] = '\0';
	snprintf(c->options, sizeof c->options, "%s%s%.*s", defs,
	    defs[0] != '\0' && ownlen > 0 ? "," : "", (int)ownlen,
	    own != NULL ? own : "");
	exports_effective(c);
}

/* One logical line: a path and its clients. */
static int
exports_line(struct exports *e, const char *line)
{
	struct exports_entry	*x, *nv;
	const char		*s = line, *p;
	char			 tok[EXPORTS_PATH_MAX], defs[EXPORTS_OPTS_MAX];
	size_t			 ncap, hl;
	int			 seen = 0;

	if (exports_word(&s, tok, sizeof tok) == -1)
		return (0);
	if (tok[0] != '/') {
		e->skipped++;
		return (0);
	}
	if (e->n == EXPORTS_MAX) {
		e->skipped++;
		return (0);
	}
	if (e->n == e->cap) {
		ncap = e->cap == 0 ? 8 : e->cap * 2;
		if ((nv = reallocarray(e->v, ncap, sizeof *nv)) == NULL)
			return (-1);
		e->v = nv;
		e->cap = ncap;
	}
	x = &e->v[e->n++];
	memset(x, 0, sizeof *x);
	probe_strlcpy(x->path, tok, sizeof x->path);
	defs[0] = '\0';
	while (exports_word(&s, tok, sizeof tok) == 0) {
		if (tok[0] == '-') {
			probe_strlcpy(defs, tok + 1, sizeof defs);
			continue;
		}
		seen = 1;
		if ((p = strchr(tok, '(')) == NULL) {
			exports_client(e, x, tok, strlen(tok), defs, NULL, 0);
			continue;
		}
		hl = (size_t)(p - tok);
		if (strchr(p, ')') == NULL) {
			e->skipped++;
			continue;
		}
		exports_client(e, x, hl == 0 ? "*" : tok, hl == 0 ? 1 : hl,
		    defs, p + 1, strcspn(p + 1, ")"));
	}
	if (!seen)		/* the whole world, with a warning */
		exports_client(e, x, "*", 1, defs, NULL, 0);
	return (0);
}

/* Parse /etc/exports text. */
int
exports_parse(const char *buf, size_t len, struct exports *e,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len;
	char		*line, *h;
	int		 rc = -1, cut;

	e->n = e->skipped = 0;
	if (memchr(buf, '\0', len) != NULL) {
		if (errstr != NULL)
			*errstr = "a NUL byte in the text";
		errno = EINVAL;
		return (-1);
	}
	if ((line = malloc(EXPORTS_LINE_MAX)) == NULL)
		goto nomem;
	while (probe_logical_line(&s, end, line, EXPORTS_LINE_MAX, &cut) ==
	    0) {
		if (cut)
			e->skipped++;
		if ((h = strchr(line, '#')) != NULL)
			*h = '\0';
		if (exports_line(e, line) == -1)
			goto nomem;
	}
	rc = 0;
	free(line);
	return (rc);
nomem:
	free(line);
	if (errstr != NULL)
		*errstr = "out of memory";
	errno = ENOMEM;
	return (-1);
}

/* Read <root>/etc/exports. */
int
exports_read(const struct probe_root *root, struct probe_buf *b,
    struct exports *e, const char **errstr)
{
	if (probe_read(root, PROBE_ETC, "exports", b) == -1) {
		e->n = e->skipped = 0;
		if (errstr != NULL)
			*errstr = "cannot read /etc/exports";
		return (-1);
	}
	return (exports_parse(b->p, b->len, e, errstr));
}

/* Token kinds of ganesha.conf. */
enum ganesha_tok {
	GT_WORD, GT_LBRACE, GT_RBRACE, GT_EQ, GT_SEMI, GT_COMMA
};

/* Where the block parser is between tokens. */
enum ganesha_state {
	GS_IDLE, GS_KEY, GS_VALUES
};

struct ganesha_ctx {
	const struct probe_root		*root;	/* NULL: no includes */
	struct exports_ganesha		*g;
	struct exports_ganesha_export	 defs;	/* EXPORT_DEFAULTS */
	char				 blocks[GANESHA_BLOCKS][32];
	size_t				 nblocks;	/* may exceed
							 * GANESHA_BLOCKS */
	enum ganesha_state		 state;
	char				 key[64];
	char				 values[EXPORTS_PATH_MAX];
	int				 cur;	/* export, -1 none, -2 defs */
};

/* The export a key at the current depth sets, or NULL. */
static struct exports_ganesha_export *
ganesha_target(struct ganesha_ctx *c)
{
	if (c->nblocks != 1)
		return (NULL);
	if (c->cur == -2)
		return (&c->defs);
	if (c->cur >= 0)
		return (&c->g->exports[c->cur]);
	return (NULL);
}

/* Set key = values in the current EXPORT or EXPORT_DEFAULTS. */
static void
ganesha_assign(struct ganesha_ctx *c)
{
	struct exports_ganesha_export	*x;
	const char			*k = c->key, *v = c->values;
	char				*endp;
	long				 id;

	if ((x = ganesha_target(c)) == NULL)
		return;
	if (strcasecmp(k, "Export_Id") == 0) {
		id = strtol(v, &endp, 10);
		if (*endp == '\0' && id >= 0 && id <= 65535)
			x->export_id = (int)id;
	} else if (strcasecmp(k, "Path") == 0)
		probe_strlcpy(x->path, v, sizeof x->path);
	else if (strcasecmp(k, "Pseudo") == 0)
		probe_strlcpy(x->pseudo, v, sizeof x->pseudo);
	else if (strcasecmp(k, "Access_Type") == 0)
		probe_strlcpy(x->access_type, v, sizeof x->access_type);
	else if (strcasecmp(k, "Protocols") == 0)
		probe_strlcpy(x->protocols, v, sizeof x->protocols);
	else if (strcasecmp(k, "SecType") == 0)
		probe_strlcpy(x->sectype, v, sizeof x->sectype);
	else if (strcasecmp(k, "Squash") == 0)
		probe_strlcpy(x->squash, v, sizeof x->squash);
}

/* Open block name (c->key). */
static void
ganesha_push(struct ganesha_ctx *c)
{
	struct exports_ganesha_export	*x;

	if (c->nblocks == 0) {
		c->cur = -1;
		if (strcasecmp(c->key, "EXPORT_DEFAULTS") == 0)
			c->cur = -2;
		else if (strcasecmp(c->key, "EXPORT") == 0) {
			if (c->g->n == EXPORTS_GANESHA_MAX)
				c->g->skipped++;
			else {
				x = &c->g->exports[c->g->n];
				memset(x, 0, sizeof *x);
				x->export_id = -1;
				c->cur = (int)c->g->n++;
			}
		}
	}
	if (c->nblocks < GANESHA_BLOCKS)
		probe_strlcpy(c->blocks[c->nblocks], c->key,
		    sizeof c->blocks[0]);
	c->nblocks++;
}

/* Close the innermost block. */
static void
ganesha_pop(struct ganesha_ctx *c)
{
	if (c->nblocks == 0) {
		c->g->skipped++;
		return;
	}
	if (--c->nblocks == 0)
		c->cur = -1;
}

/* Feed one token to the block parser. */
static void
ganesha_token(struct ganesha_ctx *c, enum ganesha_tok t, const char *w,
    size_t wl)
{
	size_t	n;

	switch (c->state) {
	case GS_IDLE:
		if (t == GT_WORD) {
			snprintf(c->key, sizeof c->key, "%.*s", (int)wl, w);
			c->state = GS_KEY;
		} else if (t == GT_RBRACE)
			ganesha_pop(c);
		else if (t != GT_SEMI && t != GT_COMMA)
			c->g->skipped++;
		break;
	case GS_KEY:
		c->state = GS_IDLE;
		if (t == GT_LBRACE)
			ganesha_push(c);
		else if (t == GT_EQ) {
			c->values[0] = '\0';
			c->state = GS_VALUES;
		} else {
			c->g->skipped++;
			if (t == GT_WORD)
				ganesha_token(c, t, w, wl);
		}
		break;
	case GS_VALUES:
		if (t == GT_WORD) {
			n = strlen(c->values);
			snprintf(c->values + n, sizeof c->values - n, "%s%.*s",
			    n > 0 ? "," : "", (int)wl, w);
		} else if (t == GT_SEMI || t == GT_RBRACE) {
			ganesha_assign(c);
			c->state = GS_IDLE;
			if (t == GT_RBRACE)
				ganesha_pop(c);
		} else if (t != GT_COMMA) {
			c->g->skipped++;
			c->state = GS_IDLE;
		}
		break;
	}
}

static int	ganesha_text(struct ganesha_ctx *, const char *, size_t, int);

/* Read an included file (the rest of a %include line) in place. */
static void
ganesha_include(struct ganesha_ctx *c, const char *s, size_t n, int depth)
{
	struct probe_buf	b;
	char			path[EXPORTS_PATH_MAX], *p = path;
	size_t			len;

	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '"')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '"' || s[n - 1] == '\r'))
		n--;
	if (c->root == NULL || depth + 1 >= EXPORTS_GANESHA_DEPTH ||
	    n == 0 || n >= sizeof path) {
		c->g->skipped++;
		return;
	}
	memcpy(path, s, n);
	path[n] = '\0';
	while (*p == '/')
		p++;
	len = strlen(p);
	probe_buf_init(&b);
	if (len == 0 || strstr(path, "..") != NULL ||
	    probe_read(c->root, PROBE_ROOT, p, &b) == -1)
		c->g->skipped++;
	else {
		c->g->files++;
		if (ganesha_text(c, b.p, b.len, depth + 1) == -1)
			c->g->skipped++;
	}
	probe_buf_free(&b);
}

/* Tokenise one file's text into the block parser. */
static int
ganesha_text(struct ganesha_ctx *c, const char *buf, size_t len, int depth)
{
	const char	*s = buf, *end = buf + len, *w;
	int		 bol = 1;
	char		 q;

	if (memchr(buf, '\0', len) != NULL) {
		errno = EINVAL;
		return (-1);
	}
	while (s < end) {
		if (*s == '\n') {
			bol = 1;
			s++;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (bol && end - s > 8 && strncasecmp(s, "%include", 8) == 0 &&
		    (s[8] == ' ' || s[8] == '\t' || s[8] == '"')) {
			w = s + 8;
			while (s < end && *s != '\n')
				s++;
			ganesha_include(c, w, (size_t)(s - w), depth);
			continue;
		}
		bol = 0;
		switch (*s) {
		case '#':
			while (s < end && *s != '\n')
				s++;
			continue;
		case '{':
			ganesha_token(c, GT_LBRACE, s, 1);
			break;
		case '}':
			ganesha_token(c, GT_RBRACE, s, 1);
			break;
		case '=':
			ganesha_token(c, GT_EQ, s, 1);
			break;
		case ';':
			ganesha_token(c, GT_SEMI, s, 1);
			break;
		case ',':
			ganesha_token(c, GT_COMMA, s, 1);
			break;
		case '"':
		case '\'':
			q = *s++;
			for (w = s; s < end && *s != q && *s != '\n'; s++)
				;
			ganesha_token(c, GT_WORD, w, (size_t)(s - w));
			if (s == end || *s == '\n')
				continue;
			break;
		default:
			for (w = s; s < end && !isspace((unsigned char)*s) &&
			    strchr("{}=;,#\"'", *s) == NULL; s++)
				;
			ganesha_token(c, GT_WORD, w, (size_t)(s - w));
			continue;
		}
		s++;
	}
	return (0);
}

/* Fill what an export leaves out from EXPORT_DEFAULTS, then ganesha's. */
static void
ganesha_finish(struct ganesha_ctx *c)
{
	struct exports_ganesha_export	*x;
	const struct exports_ganesha_export *d = &c->defs;
	size_t				 i;

	if (c->state != GS_IDLE || c->nblocks != 0)
		c->g->skipped++;
	for (i = 0; i < c->g->n; i++) {
		x = &c->g->exports[i];
		if (x->access_type[0] == '\0')
			probe_strlcpy(x->access_type, d->access_type[0] !=
			    '\0' ? d->access_type : "None",
			    sizeof x->access_type);
		if (x->protocols[0] == '\0')
			probe_strlcpy(x->protocols, d->protocols[0] != '\0' ?
			    d->protocols : "3,4", sizeof x->protocols);
		if (x->sectype[0] == '\0')
			probe_strlcpy(x->sectype, d->sectype[0] != '\0' ?
			    d->sectype : "none,sys", sizeof x->sectype);
		if (x->squash[0] == '\0')
			probe_strlcpy(x->squash, d->squash[0] != '\0' ?
			    d->squash : "root_squash", sizeof x->squash);
	}
}

/* Start a parse: g emptied, c pointing at it. */
static void
ganesha_start(struct ganesha_ctx *c, const struct probe_root *root,
    struct exports_ganesha *g)
{
	memset(g, 0, sizeof *g);
	memset(c, 0, sizeof *c);
	c->root = root;
	c->g = g;
	c->cur = -1;
	c->state = GS_IDLE;
	g->files = 1;
}

/* Parse ganesha.conf text without following %include. */
int
exports_ganesha_parse(const char *buf, size_t len, struct exports_ganesha *g,
    const char **errstr)
{
	struct ganesha_ctx	*c;

	if ((c = malloc(sizeof *c)) == NULL) {
		if (errstr != NULL)
			*errstr = "out of memory";
		return (-1);
	}
	ganesha_start(c, NULL, g);
	if (ganesha_text(c, buf, len, 0) == -1) {
		if (errstr != NULL)
			*errstr = "a NUL byte in the text";
		free(c);
		errno = EINVAL;
		return (-1);
	}
	ganesha_finish(c);
	free(c);
	return (0);
}

/* Read ganesha.conf and its %includes under root. */
int
exports_ganesha_read(const struct probe_root *root, const char *path,
    struct exports_ganesha *g, const char **errstr)
{
	struct ganesha_ctx	*c = NULL;
	struct probe_buf	 b;
	const char		*rel;
	int			 rc = -1, oerrno;

	memset(g, 0, sizeof *g);
	if (path == NULL)
		path = GANESHA_PATH;
	for (rel = path; *rel == '/'; rel++)
		;
	probe_buf_init(&b);
	if (probe_read(root, PROBE_ROOT, rel, &b) == -1) {
		if (errstr != NULL)
			*errstr = "cannot read ganesha.conf";
		goto out;
	}
	if ((c = malloc(sizeof *c)) == NULL) {
		if (errstr != NULL)
			*errstr = "out of memory";
		goto out;
	}
	ganesha_start(c, root, g);
	if (ganesha_text(c, b.p, b.len, 0) == -1) {
		if (errstr != NULL)
			*errstr = "a NUL byte in the text";
		goto out;
	}
	ganesha_finish(c);
	rc = 0;
out:
	oerrno = errno;
	free(c);
	probe_buf_free(&b);
	errno = oerrno;
	return (rc);
}

/* Read the kernel server's thread count. */
int
exports_threads_read(const struct probe_root *root, uint64_t *threads)
{
	*threads = 0;
	return (probe_attr_u64(root, PROBE_PROC, "fs/nfsd/threads", threads));
}

/* The prefix length of a dotted mask ("255.255.255.0"), or -1. */
static int
exports_mask_bits(const char *mask)
{
	struct in_addr	m;
	uint32_t	v;
	int		n = 0;

	if (inet_pton(AF_INET, mask, &m) != 1)
		return (-1);
	v = ntohl(m.s_addr);
	while (v & 0x80000000u) {
		n++;
		v <<= 1;
	}
	return (v == 0 ? n : -1);
}

int
exports_client_match(const char *spec, const char *addr)
{
	unsigned char	 a[16], s[16];
	char		 host[EXPORTS_HOST_MAX], *slash, *end;
	int		 af, bits, alen, i;
	long		 l;

	if (strcmp(spec, "*") == 0)
		return (1);
	af = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	alen = af == AF_INET6 ? 16 : 4;
	if (inet_pton(af, addr, a) != 1)
		return (-1);
	if (snprintf(host, sizeof host, "%s", spec) >= (int)sizeof host)
		return (-1);
	bits = alen * 8;
	if ((slash = strchr(host, '/')) != NULL) {
		*slash++ = '\0';
		l = strtol(slash, &end, 10);
		if (*slash != '\0' && *end == '\0' && l >= 0 && l <= alen * 8)
			bits = (int)l;
		else if (af == AF_INET && (bits = exports_mask_bits(slash)) ==
		    -1)
			return (-1);
		else if (af == AF_INET6)
			return (-1);
	}
	if (inet_pton(af, host, s) != 1) {
		/* An address of the other family cannot match. */
		if (inet_pton(af == AF_INET ? AF_INET6 : AF_INET, host, s) == 1)
			return (0);
		return (-1);	/* a name, a wildcard, a netgroup */
	}
	for (i = 0; i < alen && bits > 0; i++, bits -= 8) {
		if (bits >= 8) {
			if (a[i] != s[i])
				return (0);
		} else if ((a[i] ^ s[i]) & (0xff << (8 - bits)))
			return (0);
	}
	return (1);
}
