/*
 * smbconf.c: smb.conf with its includes, as Samba 4.17 reads it.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "smbconf.h"

#define SMBCONF_LINE_MAX	4096

#define SMBCONF_SEC_GLOBAL	(-1)
#define SMBCONF_SEC_NONE	(-2)	/* a share past SMBCONF_MAX_SHARES */

struct smbconf_ctx {
	const struct probe_root	*root;	/* NULL: includes are not followed */
	struct smbconf		*sc;
	int			 section;	/* SMBCONF_SEC_*, or a share */
};

static int	smbconf_text(struct smbconf_ctx *, const char *, size_t,
		    int);
static void	smbconf_ports(struct smbconf *, const char *, const char *);

/* Add a note; past SMBCONF_MAX_NOTES the last one says more were dropped. */
static NP_PRINTF(2, 3) void
smbconf_note(struct smbconf *sc, const char *fmt, ...)
{
	va_list	ap;

	if (sc->nnotes == SMBCONF_MAX_NOTES)
		return;
	if (sc->nnotes == SMBCONF_MAX_NOTES - 1) {
		snprintf(sc->notes[sc->nnotes++], SMBCONF_NOTE_MAX,
		    "more notes left out");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(sc->notes[sc->nnotes++], SMBCONF_NOTE_MAX, fmt, ap);
	va_end(ap);
}

/* A parameter name as Samba compares it: no case, spaces or underscores. */
static void
smbconf_norm(const char *s, char *out, size_t outsz)
{
	size_t	n = 0;

	for (; *s != '\0' && n + 1 < outsz; s++) {
		if (*s == ' ' || *s == '\t' || *s == '_')
			continue;
		out[n++] = (char)tolower((unsigned char)*s);
	}
	out[n] = '\0';
}

/* Samba's boolean words; -1 when v is none of them. */
static int
smbconf_bool(const char *v)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t			 i;

	for (i = 0; i < NP_NITEMS(yes); i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return (1);
		if (strcasecmp(v, no[i]) == 0)
			return (0);
	}
	return (-1);
}

/* A word from an enum table: the canonical name for v, or NULL. */
static const char *
smbconf_enum(const char *const (*table)[2], size_t n, const char *v)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcasecmp(v, table[i][0]) == 0)
			return (table[i][1]);
	return (NULL);
}

/* server signing's words (Samba's enum_smb_signing_vals), canonical. */
static const char *
smbconf_signing(const char *v)
{
	static const char *const t[][2] = {
		{ "default", "default" }, { "auto", "auto" },
		{ "if_required", "auto" }, { "yes", "auto" },
		{ "true", "auto" }, { "on", "auto" }, { "1", "auto" },
		{ "enabled", "auto" }, { "desired", "desired" },
		{ "mandatory", "mandatory" }, { "required", "mandatory" },
		{ "force", "mandatory" }, { "forced", "mandatory" },
		{ "enforced", "mandatory" }, { "disabled", "disabled" },
		{ "no", "disabled" }, { "false", "disabled" },
		{ "off", "disabled" }, { "0", "disabled" }
	};

	return (smbconf_enum(t, NP_NITEMS(t), v));
}

/* smb encrypt's words (Samba's enum_smb_encryption_vals), canonical. */
static const char *
smbconf_encrypt(const char *v)
{
	static const char *const t[][2] = {
		{ "default", "default" }, { "off", "off" },
		{ "no", "off" }, { "false", "off" }, { "0", "off" },
		{ "disabled", "off" }, { "if_required", "if_required" },
		{ "auto", "if_required" }, { "yes", "if_required" },
		{ "true", "if_required" }, { "on", "if_required" },
		{ "1", "if_required" }, { "enabled", "if_required" },
		{ "desired", "desired" }, { "required", "required" },
		{ "mandatory", "required" }, { "force", "required" },
		{ "forced", "required" }, { "enforced", "required" }
	};

	return (smbconf_enum(t, NP_NITEMS(t), v));
}

/* A protocol name (SMB2_02, SMB3, NT1 ...) in capitals; -1 if unknown. */
static int
smbconf_protocol(const char *v, char *out, size_t outsz)
{
	static const char *const known[] = { "CORE", "COREPLUS", "LANMAN1",
	    "LANMAN2", "NT1", "SMB2", "SMB2_02", "SMB2_10", "SMB2_22",
	    "SMB2_24", "SMB3", "SMB3_00", "SMB3_02", "SMB3_10", "SMB3_11",
	    "DEFAULT" };
	size_t			 i;

	for (i = 0; i < NP_NITEMS(known); i++)
		if (strcasecmp(v, known[i]) == 0) {
			probe_strlcpy(out, known[i], outsz);
			return (0);
		}
	return (-1);
}

/* Start section name: [global] or a share, merged with an earlier one. */
static void
smbconf_section(struct smbconf_ctx *c, const char *name)
{
	struct smbconf	*sc = c->sc;
	size_t		 i;

	if (strcasecmp(name, "global") == 0) {
		c->section = SMBCONF_SEC_GLOBAL;
		return;
	}
	for (i = 0; i < sc->nshares; i++)
		if (strcasecmp(sc->shares[i].name, name) == 0) {
			c->section = (int)i;
			return;
		}
	if (sc->nshares == SMBCONF_MAX_SHARES) {
		smbconf_note(sc, "more than %d shares: [%.64s] left out",
		    SMBCONF_MAX_SHARES, name);
		c->section = SMBCONF_SEC_NONE;
		return;
	}
	memset(&sc->shares[sc->nshares], 0, sizeof sc->shares[0]);
	probe_strlcpy(sc->shares[sc->nshares].name, name,
	    sizeof sc->shares[0].name);
	sc->shares[sc->nshares].read_only_set = -1;
	c->section = (int)sc->nshares++;
}

/* Read an included file under the root, in place. */
static void
smbconf_include(struct smbconf_ctx *c, const char *v, int depth)
{
	struct probe_buf	b;
	const char		*rel = v;

	if (strchr(v, '%') != NULL) {
		smbconf_note(c->sc, "include %.100s: depends on the client, "
		    "not read", v);
		return;
	}
	if (strcasecmp(v, "registry") == 0) {
		smbconf_note(c->sc, "include = registry: not read");
		return;
	}
	if (c->root == NULL) {
		smbconf_note(c->sc, "include %.120s: not followed", v);
		return;
	}
	if (depth + 1 >= SMBCONF_MAX_DEPTH) {
		smbconf_note(c->sc, "include %.100s: nested too deep", v);
		return;
	}
	if (strcmp(v, "..") == 0 || strncmp(v, "../", 3) == 0 ||
	    strstr(v, "/../") != NULL) {
		smbconf_note(c->sc, "include %.100s: outside the root", v);
		return;
	}
	while (*rel == '/')
		rel++;
	probe_buf_init(&b);
	if (*rel == '\0' || probe_read(c->root, PROBE_ROOT, rel, &b) == -1) {
		smbconf_note(c->sc, "include %.100s: %s", v,
		    *rel == '\0' ? "no file name" : strerror(errno));
		probe_buf_free(&b);
		return;
	}
	c->sc->nfiles++;
	if (smbconf_text(c, b.p, b.len, depth + 1) == -1)
		smbconf_note(c->sc, "include %.120s: not text", v);
	probe_buf_free(&b);
}

/* One "name = value" line in the current section. */
static void
smbconf_param(struct smbconf_ctx *c, const char *name, const char *v,
    int depth)
{
	struct smbconf		*sc = c->sc;
	struct smbconf_share	*sh = NULL;
	const char		*w;
	char			 key[64];
	int			 b;

	smbconf_norm(name, key, sizeof key);
	if (strcmp(key, "include") == 0) {
		smbconf_include(c, v, depth);
		return;
	}
	if (c->section == SMBCONF_SEC_NONE)
		return;
	if (c->section >= 0)
		sh = &sc->shares[c->section];
	if (strcmp(key, "serverminprotocol") == 0 ||
	    strcmp(key, "minprotocol") == 0) {
		if (sh != NULL)
			smbconf_note(sc, "[%.40s] %.40s: global only, ignored",
			    sh->name, name);
		else if (smbconf_protocol(v, sc->server_min_protocol,
		    sizeof sc->server_min_protocol) == 0)
			sc->set |= SMBCONF_SET_MIN;
		else
			smbconf_note(sc, "%.40s = %.40s: unknown protocol",
			    name, v);
	} else if (strcmp(key, "servermaxprotocol") == 0 ||
	    strcmp(key, "maxprotocol") == 0 || strcmp(key, "protocol") == 0) {
		if (sh != NULL)
			smbconf_note(sc, "[%.40s] %.40s: global only, ignored",
			    sh->name, name);
		else if (smbconf_protocol(v, sc->server_max_protocol,
		    sizeof sc->server_max_protocol) == 0)
			sc->set |= SMBCONF_SET_MAX;
		else
			smbconf_note(sc, "%.40s = %.40s: unknown protocol",
			    name, v);
	} else if (strcmp(key, "serversigning") == 0) {
		if (sh != NULL)
			smbconf_note(sc, "[%.40s] %.40s: global only, ignored",
			    sh->name, name);
		else if ((w = smbconf_signing(v)) != NULL) {
			probe_strlcpy(sc->server_signing, w,
			    sizeof sc->server_signing);
			sc->set |= SMBCONF_SET_SIGNING;
		} else
			smbconf_note(sc, "%.40s = %.40s: unknown value", name,
			    v);
	} else if (strcmp(key, "smbencrypt") == 0 ||
	    strcmp(key, "serversmbencrypt") == 0) {
		if ((w = smbconf_encrypt(v)) == NULL)
			smbconf_note(sc, "%.40s = %.40s: unknown value", name,
			    v);
		else if (sh != NULL)
			probe_strlcpy(sh->smb_encrypt_set, w,
			    sizeof sh->smb_encrypt_set);
		else {
			probe_strlcpy(sc->smb_encrypt, w,
			    sizeof sc->smb_encrypt);
			sc->set |= SMBCONF_SET_ENCRYPT;
		}
	} else if (strcmp(key, "smbports") == 0) {
		if (sh == NULL)
			smbconf_ports(sc, name, v);
	} else if (strcmp(key, "serverrole") == 0) {
		if (sh == NULL)
			probe_strlcpy(sc->server_role, v,
			    sizeof sc->server_role);
	} else if (strcmp(key, "readonly") == 0 ||
	    strcmp(key, "writeable") == 0 || strcmp(key, "writable") == 0 ||
	    strcmp(key, "writeok") == 0) {
		if ((b = smbconf_bool(v)) == -1) {
			smbconf_note(sc, "%.40s = %.40s: not a boolean", name,
			    v);
			return;
		}
		if (strcmp(key, "readonly") != 0)
			b = !b;
		if (sh != NULL)
			sh->read_only_set = b;
		else {
			sc->read_only = b;
			sc->set |= SMBCONF_SET_READONLY;
		}
	} else if (strcmp(key, "path") == 0 || strcmp(key, "directory") == 0) {
		if (sh != NULL)
			probe_strlcpy(sh->path, v, sizeof sh->path);
	} else if (strcmp(key, "configfile") == 0)
		smbconf_note(sc, "config file = %.100s: not followed", v);
}

/* Strip blanks at both ends of s, in place. */
static char *
smbconf_trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return (s);
}

/* One logical line (continuations joined). */
static void
smbconf_line(struct smbconf_ctx *c, char *line, int depth)
{
	char	*s = smbconf_trim(line), *e;

	if (*s == '\0' || *s == ';' || *s == '#')
		return;
	if (*s == '[') {
		if ((e = strchr(s, ']')) == NULL) {
			c->sc->skipped++;
			return;
		}
		*e = '\0';
		s = smbconf_trim(s + 1);
		if (*s == '\0') {
			c->sc->skipped++;
			return;
		}
		smbconf_section(c, s);
		return;
	}
	if ((e = strchr(s, '=')) == NULL || e == s) {
		c->sc->skipped++;
		return;
	}
	*e = '\0';
	smbconf_param(c, smbconf_trim(s), smbconf_trim(e + 1), depth);
}

/* Parse one file's text into c; -1 and EINVAL when it holds a NUL. */
static int
smbconf_text(struct smbconf_ctx *c, const char *buf, size_t len, int depth)
{
	const char	*s = buf, *end = buf + len;
	char		*line;
	int		 cut;

	if (memchr(buf, '\0', len) != NULL) {
		errno = EINVAL;
		return (-1);
	}
	if ((line = malloc(SMBCONF_LINE_MAX)) == NULL)
		return (-1);
	while (probe_logical_line(&s, end, line, SMBCONF_LINE_MAX, &cut) == 0) {
		if (cut)
			c->sc->skipped++;
		smbconf_line(c, line, depth);
	}
	free(line);
	return (0);
}

/* Empty sc and set Samba's defaults. */
static void
smbconf_start(struct smbconf *sc)
{
	memset(sc, 0, sizeof *sc);
	sc->read_only = -1;
}

/*
 * "smb ports = 445 139": the TCP ports smbd listens on, separated by
 * spaces or commas.  A word that is no port is noted and the setting
 * left at its default.
 */
static void
smbconf_ports(struct smbconf *sc, const char *name, const char *v)
{
	unsigned	 ports[SMBCONF_MAX_PORTS];
	const char	*all = v;
	size_t		 n = 0;
	unsigned long	 p;
	char		*end;

	while (*v != '\0') {
		if (*v == ' ' || *v == '\t' || *v == ',') {
			v++;
			continue;
		}
		errno = 0;
		p = strtoul(v, &end, 10);
		if (end == v || errno != 0 || p == 0 || p > 65535 ||
		    (*end != '\0' && *end != ' ' && *end != '\t' &&
		    *end != ',')) {
			smbconf_note(sc, "%.40s = %.40s: not a list of ports",
			    name, all);
			return;
		}
		if (n < SMBCONF_MAX_PORTS)
			ports[n++] = (unsigned)p;
		v = end;
	}
	memcpy(sc->ports, ports, n * sizeof ports[0]);
	sc->nports = n;
}

/* Fill in the defaults and each share's effective values. */
static void
smbconf_finish(struct smbconf *sc)
{
	struct smbconf_share	*sh;
	size_t			 i;

	if (sc->nports == 0) {		/* Samba's default */
		sc->ports[sc->nports++] = 445;
		sc->ports[sc->nports++] = 139;
	}
	if (~sc->set & SMBCONF_SET_MIN)
		probe_strlcpy(sc->server_min_protocol, "SMB2_02",
		    sizeof sc->server_min_protocol);
	if (~sc->set & SMBCONF_SET_MAX)
		probe_strlcpy(sc->server_max_protocol, "SMB3",
		    sizeof sc->server_max_protocol);
	if (~sc->set & SMBCONF_SET_SIGNING)
		probe_strlcpy(sc->server_signing, "default",
		    sizeof sc->server_signing);
	if (~sc->set & SMBCONF_SET_ENCRYPT)
		probe_strlcpy(sc->smb_encrypt, "default",
		    sizeof sc->smb_encrypt);
	if (strcmp(sc->server_signing, "default") == 0) {
		if (strcasecmp(sc->server_role, "active directory domain "
		    "controller") == 0 || strcasecmp(sc->server_role,
		    "dc") == 0)
			smbconf_note(sc, "server signing default: mandatory "
			    "on this AD domain controller");
		else
			smbconf_note(sc, "server signing default: offered, "
			    "not required");
	}
	for (i = 0; i < sc->nshares; i++) {
		sh = &sc->shares[i];
		if (sh->read_only_set != -1)
			sh->read_only = sh->read_only_set;
		else
			sh->read_only = sc->read_only != -1 ? sc->read_only : 1;
		probe_strlcpy(sh->smb_encrypt, sh->smb_encrypt_set[0] != '\0' ?
		    sh->smb_encrypt_set : sc->smb_encrypt,
		    sizeof sh->smb_encrypt);
	}
}

/* Parse smb.conf text without following includes. */
int
smbconf_parse(const char *buf, size_t len, struct smbconf *sc,
    const char **errstr)
{
	struct smbconf_ctx	c = { NULL, sc, SMBCONF_SEC_GLOBAL };

	smbconf_start(sc);
	sc->nfiles = 1;
	if (smbconf_text(&c, buf, len, 0) == -1) {
		if (errstr != NULL)
			*errstr = errno == EINVAL ? "a NUL byte in the text" :
			    "out of memory";
		return (-1);
	}
	smbconf_finish(sc);
	return (0);
}

/* Read smb.conf and its includes under root. */
int
smbconf_read(const struct probe_root *root, const char *path,
    struct smbconf *sc, const char **errstr)
{
	struct smbconf_ctx	c = { root, sc, SMBCONF_SEC_GLOBAL };
	struct probe_buf	b;
	const char		*rel;
	int			 rc = -1, oerrno;

	smbconf_start(sc);
	if (path == NULL)
		path = SMBCONF_PATH;
	for (rel = path; *rel == '/'; rel++)
		;
	probe_buf_init(&b);
	if (probe_read(root, PROBE_ROOT, rel, &b) == -1) {
		if (errstr != NULL)
			*errstr = "cannot read smb.conf";
		goto out;
	}
	sc->nfiles = 1;
	if (smbconf_text(&c, b.p, b.len, 0) == -1) {
		if (errstr != NULL)
			*errstr = errno == EINVAL ? "a NUL byte in the text" :
			    "out of memory";
		goto out;
	}
	smbconf_finish(sc);
	rc = 0;
out:
	oerrno = errno;
	probe_buf_free(&b);
	errno = oerrno;
	return (rc);
}

/* Find a share by name, without case as Samba does. */
const struct smbconf_share *
smbconf_find(const struct smbconf *sc, const char *name)
{
	size_t	i;

	for (i = 0; i < sc->nshares; i++)
		if (strcasecmp(sc->shares[i].name, name) == 0)
			return (&sc->shares[i]);
	return (NULL);
}
