/*
 * bench_smb.c: nasperf bench on smb://[user@]host[:port]/share/path
 * through libsmbclient, with no mount and no kernel client in the way.
 *
 * The protocol range, signing and encryption are the client's choices,
 * set through a small smb.conf of client options that the context reads
 * (client min/max protocol, client signing, client smb encrypt), so one
 * server can be measured with signing on and off.  libsmbclient keeps no
 * file data cache: every read goes to the server.
 *
 * Credentials come from --credentials FILE (smbclient's -A form) or from
 * NASPERF_SMB_USER / NASPERF_SMB_PASSWORD, never from the command line: a
 * password in the URL is refused.  With neither, the session is a guest's.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench.h"
#include "np.h"

#ifdef HAVE_SMBCLIENT
#include <fcntl.h>
#include <sys/stat.h>

#include <libsmbclient.h>

struct smb {
	SMBCCTX	*ctx;
	char	 base[1024];	/* smb://host:port/share/path, no user */
	char	 user[256], pass[256], domain[256];
	char	 conf[64];	/* the client options file */
};

static int
smb_url(struct bench_fs *fs, const char *rel, char *out, size_t outsz)
{
	struct smb	*s = fs->priv;

	if ((size_t)snprintf(out, outsz, "%s%s%s", s->base,
	    *rel != '\0' ? "/" : "", rel) >= outsz)
		return (bench_err(fs, "%s/%s: URL too long", s->base, rel));
	return (0);
}

/* libsmbclient asks for credentials through this callback. */
static void
smb_auth(SMBCCTX *ctx, NP_UNUSED const char *srv, NP_UNUSED const char *shr,
    char *wg, int wglen, char *un, int unlen, char *pw, int pwlen)
{
	struct smb	*s = smbc_getOptionUserData(ctx);

	if (s->domain[0] != '\0')
		snprintf(wg, (size_t)wglen, "%s", s->domain);
	snprintf(un, (size_t)unlen, "%s", s->user[0] != '\0' ? s->user :
	    "guest");
	snprintf(pw, (size_t)pwlen, "%s", s->pass);
}

/* errno as libsmbclient sets it, in words a NAS user recognises. */
static int
smb_fail(struct bench_fs *fs, const char *what, const char *url, int e)
{
	struct smb	*s = fs->priv;
	const char	*why = strerror(e);

	switch (e) {
	case EACCES:
	case EPERM:
		why = s->user[0] != '\0' ? "access denied: wrong user or "
		    "password, or no permission" : "access denied: the "
		    "share wants a user (--credentials FILE or "
		    "NASPERF_SMB_USER / NASPERF_SMB_PASSWORD)";
		break;
	case ENOENT:
		why = "no such share, directory or file";
		break;
	case ENODEV:
		why = "no such share";
		break;
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
		why = "the server cannot be reached";
		break;
	case ECONNREFUSED:
		why = "connection refused: no SMB server on that port";
		break;
	case EROFS:
		why = "the share is read-only";
		break;
	default:
		break;
	}
	return (bench_err(fs, "%s %s: %s", what, url, why));
}

static void *
smb_open(struct bench_fs *fs, const char *rel, int wr)
{
	struct smb	*s = fs->priv;
	char		 url[2048];
	SMBCFILE	*f;

	if (smb_url(fs, rel, url, sizeof url) == -1)
		return (NULL);
	f = smbc_getFunctionOpen(s->ctx)(s->ctx, url, wr ? O_WRONLY |
	    O_CREAT | O_TRUNC : O_RDONLY, 0644);
	if (f == NULL)
		smb_fail(fs, "open", url, errno);
	return (f);
}

static ssize_t
smb_read(struct bench_fs *fs, void *f, void *buf, size_t n)
{
	struct smb	*s = fs->priv;
	size_t		 done = 0;
	ssize_t		 r;

	while (done < n) {
		r = smbc_getFunctionRead(s->ctx)(s->ctx, f, (char *)buf + done,
		    n - done);
		if (r < 0)
			return (smb_fail(fs, "read", s->base, errno));
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return ((ssize_t)done);
}

static ssize_t
smb_write(struct bench_fs *fs, void *f, const void *buf, size_t n)
{
	struct smb	*s = fs->priv;
	size_t		 done = 0;
	ssize_t		 r;

	while (done < n) {
		r = smbc_getFunctionWrite(s->ctx)(s->ctx, f,
		    (const char *)buf + done, n - done);
		if (r <= 0)
			return (smb_fail(fs, "write", s->base, r < 0 ? errno :
			    EIO));
		done += (size_t)r;
	}
	return ((ssize_t)done);
}

static int
smb_close(struct bench_fs *fs, void *f)
{
	struct smb	*s = fs->priv;

	if (smbc_getFunctionClose(s->ctx)(s->ctx, f) < 0)
		return (smb_fail(fs, "close", s->base, errno));
	return (0);
}

static int
smb_unlink(struct bench_fs *fs, const char *rel)
{
	struct smb	*s = fs->priv;
	char		 url[2048];

	if (smb_url(fs, rel, url, sizeof url) == -1)
		return (-1);
	if (smbc_getFunctionUnlink(s->ctx)(s->ctx, url) < 0 && errno != ENOENT)
		return (smb_fail(fs, "unlink", url, errno));
	return (0);
}

static int
smb_mkdir(struct bench_fs *fs, const char *rel)
{
	struct smb	*s = fs->priv;
	char		 url[2048];

	if (smb_url(fs, rel, url, sizeof url) == -1)
		return (-1);
	if (smbc_getFunctionMkdir(s->ctx)(s->ctx, url, 0755) < 0 &&
	    errno != EEXIST)
		return (smb_fail(fs, "mkdir", url, errno));
	return (0);
}

static int
smb_rmdir(struct bench_fs *fs, const char *rel)
{
	struct smb	*s = fs->priv;
	char		 url[2048];

	if (smb_url(fs, rel, url, sizeof url) == -1)
		return (-1);
	if (smbc_getFunctionRmdir(s->ctx)(s->ctx, url) < 0 && errno != ENOENT)
		return (smb_fail(fs, "rmdir", url, errno));
	return (0);
}

/*
 * A listing with attributes: readdirplus2 returns each entry's stat from
 * the same directory query (SMB2 FIND with full information), as a file
 * manager's listing does.
 */
static int
smb_list(struct bench_fs *fs, const char *rel, uint64_t *n)
{
	struct smb			*s = fs->priv;
	char				 url[2048];
	SMBCFILE			*d;
	const struct libsmb_file_info	*fi;
	struct stat			 st;

	if (smb_url(fs, rel, url, sizeof url) == -1)
		return (-1);
	if ((d = smbc_getFunctionOpendir(s->ctx)(s->ctx, url)) == NULL)
		return (smb_fail(fs, "opendir", url, errno));
	*n = 0;
	while ((fi = smbc_getFunctionReaddirPlus2(s->ctx)(s->ctx, d,
	    &st)) != NULL) {
		if (strcmp(fi->name, ".") == 0 || strcmp(fi->name, "..") == 0)
			continue;
		(*n)++;
	}
	smbc_getFunctionClosedir(s->ctx)(s->ctx, d);
	return (0);
}

static int
smb_exists(struct bench_fs *fs, const char *rel)
{
	struct smb	*s = fs->priv;
	char		 url[2048];
	struct stat	 st;

	if (smb_url(fs, rel, url, sizeof url) == -1)
		return (-1);
	if (smbc_getFunctionStat(s->ctx)(s->ctx, url, &st) == 0)
		return (1);
	return (errno == ENOENT ? 0 : smb_fail(fs, "stat", url, errno));
}

static void
smb_free(struct bench_fs *fs)
{
	struct smb	*s = fs->priv;

	if (s == NULL)
		return;
	if (s->ctx != NULL)
		smbc_free_context(s->ctx, 1);
	if (s->conf[0] != '\0')
		unlink(s->conf);
	explicit_bzero(s->pass, sizeof s->pass);
	free(s);
	fs->priv = NULL;
}

static const struct bench_ops smb_ops = {
	"smb", smb_open, smb_read, smb_write, smb_close, smb_unlink,
	smb_mkdir, smb_rmdir, smb_list, smb_exists, smb_free
};

/* NT1, SMB2, SMB3 as the user writes them, in smb.conf's spelling. */
static const char *
smb_proto_name(const char *p)
{
	static const char *const names[][2] = {
		{ "nt1", "NT1" }, { "smb1", "NT1" }, { "smb2", "SMB2" },
		{ "smb3", "SMB3" }, { "smb2_02", "SMB2_02" },
		{ "smb2_10", "SMB2_10" }, { "smb3_00", "SMB3_00" },
		{ "smb3_02", "SMB3_02" }, { "smb3_11", "SMB3_11" }
	};
	size_t	i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcasecmp(p, names[i][0]) == 0)
			return (names[i][1]);
	return (NULL);
}

/* Write the client options to a private temp file for the context. */
static int
smb_conf(struct bench_fs *fs, struct smb *s, const struct bench_proto_opts *po)
{
	const char	*minp = NULL, *maxp = NULL;
	FILE		*fp;
	int		 fd;

	if (po->min_protocol != NULL &&
	    (minp = smb_proto_name(po->min_protocol)) == NULL)
		return (bench_err(fs, "--min-protocol %s: not NT1, SMB2 or SMB3",
		    po->min_protocol));
	if (po->max_protocol != NULL &&
	    (maxp = smb_proto_name(po->max_protocol)) == NULL)
		return (bench_err(fs, "--max-protocol %s: not NT1, SMB2 or SMB3",
		    po->max_protocol));
	if (po->signing != NULL && strcmp(po->signing, "off") != 0 &&
	    strcmp(po->signing, "if_required") != 0 &&
	    strcmp(po->signing, "required") != 0)
		return (bench_err(fs, "--signing %s: not off, if_required or "
		    "required", po->signing));
	if (po->encrypt != NULL && strcmp(po->encrypt, "off") != 0 &&
	    strcmp(po->encrypt, "desired") != 0 &&
	    strcmp(po->encrypt, "required") != 0)
		return (bench_err(fs, "--encrypt %s: not off, desired or "
		    "required", po->encrypt));
	snprintf(s->conf, sizeof s->conf, "%s", "/tmp/nasperf-smb.XXXXXX");
	if ((fd = mkstemp(s->conf)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		if (fd != -1)
			close(fd);
		s->conf[0] = '\0';
		return (bench_err(fs, "temp file: %s", strerror(errno)));
	}
	fprintf(fp, "[global]\n");
	if (minp != NULL)
		fprintf(fp, "client min protocol = %s\n", minp);
	if (maxp != NULL)
		fprintf(fp, "client max protocol = %s\n", maxp);
	if (minp != NULL && strcmp(minp, "NT1") == 0)
		fprintf(fp, "client ntlmv2 auth = no\n");
	if (po->signing != NULL)
		fprintf(fp, "client signing = %s\n", strcmp(po->signing,
		    "if_required") == 0 ? "if_required" : po->signing);
	if (po->encrypt != NULL)
		fprintf(fp, "client smb encrypt = %s\n", po->encrypt);
	if (fclose(fp) != 0)
		return (bench_err(fs, "temp file: %s", strerror(errno)));
	return (0);
}

int
bench_smb_open(struct bench_fs *fs, const char *url,
    const struct bench_proto_opts *po)
{
	struct smb	*s;
	const char	*rest, *at, *slash, *maxp;
	const char	*env;
	char		 fuser[256] = "", host[256], err[BENCH_ERR_MAX];
	unsigned	 port;

	if (strncmp(url, "smb://", 6) != 0)
		return (bench_err(fs, "%s: not an smb:// URL", url));
	rest = url + 6;
	slash = strchr(rest, '/');
	at = strchr(rest, '@');
	if (at != NULL && (slash == NULL || at < slash) &&
	    memchr(rest, ':', (size_t)(at - rest)) != NULL)
		return (bench_err(fs, "%s: a password on the command line can "
		    "be read by every user of this machine; put it in "
		    "--credentials FILE or NASPERF_SMB_PASSWORD", url));
	if (slash == NULL || slash[1] == '\0')
		return (bench_err(fs, "%s: no share: smb://[user@]host[:port]"
		    "/share[/path]", url));
	if ((s = calloc(1, sizeof *s)) == NULL)
		return (bench_err(fs, "out of memory"));
	fs->priv = s;
	fs->ops = &smb_ops;
	if (at != NULL && at < slash)
		snprintf(s->user, sizeof s->user, "%.*s", (int)(at - rest),
		    rest);
	snprintf(s->base, sizeof s->base, "smb://%s", at != NULL &&
	    at < slash ? at + 1 : rest);
	while (strlen(s->base) > 6 && s->base[strlen(s->base) - 1] == '/')
		s->base[strlen(s->base) - 1] = '\0';
	if (po->credentials != NULL) {
		if (bench_credentials(po->credentials, fuser, sizeof fuser,
		    s->pass, sizeof s->pass, s->domain, sizeof s->domain,
		    fs->err, sizeof fs->err) == -1)
			return (-1);
		if (s->user[0] == '\0')
			snprintf(s->user, sizeof s->user, "%s", fuser);
	} else {
		if (s->user[0] == '\0' && (env = getenv("NASPERF_SMB_USER")) !=
		    NULL)
			snprintf(s->user, sizeof s->user, "%s", env);
		if ((env = getenv("NASPERF_SMB_PASSWORD")) != NULL)
			snprintf(s->pass, sizeof s->pass, "%s", env);
		if ((env = getenv("NASPERF_SMB_DOMAIN")) != NULL)
			snprintf(s->domain, sizeof s->domain, "%s", env);
	}
	if (smb_conf(fs, s, po) == -1)
		return (-1);
	if (bench_host_port(s->base + 6, host, sizeof host, &port) == -1)
		return (bench_err(fs, "%s: bad host", url));
	if (port != 0 && bench_reach(fs, host, port, po->timeout) == -1)
		return (-1);
	/* Without a port: 445, else NetBIOS's 139; the first error tells. */
	if (port == 0 && bench_reach(fs, host, 445, po->timeout) == -1) {
		snprintf(err, sizeof err, "%s", fs->err);
		if (bench_reach(fs, host, 139, po->timeout) == -1)
			return (bench_err(fs, "%s", err));
	}
	if ((s->ctx = smbc_new_context()) == NULL)
		return (bench_err(fs, "libsmbclient: %s", strerror(errno)));
	smbc_setOptionUserData(s->ctx, s);
	smbc_setFunctionAuthDataWithContext(s->ctx, smb_auth);
	smbc_setOptionUseKerberos(s->ctx, 0);
	smbc_setOptionFallbackAfterKerberos(s->ctx, 1);
	smbc_setOptionNoAutoAnonymousLogin(s->ctx, s->user[0] != '\0');
	smbc_setTimeout(s->ctx, (int)(po->timeout * 1000));
	smbc_setDebug(s->ctx, 0);
	if (po->encrypt != NULL && strcmp(po->encrypt, "required") == 0)
		smbc_setOptionSmbEncryptionLevel(s->ctx,
		    SMBC_ENCRYPTLEVEL_REQUIRE);
	else if (po->encrypt != NULL && strcmp(po->encrypt, "desired") == 0)
		smbc_setOptionSmbEncryptionLevel(s->ctx,
		    SMBC_ENCRYPTLEVEL_REQUEST);
	if (smbc_init_context(s->ctx) == NULL)
		return (bench_err(fs, "libsmbclient: %s", strerror(errno)));
	if (smbc_setConfiguration(s->ctx, s->conf) != 0)
		return (bench_err(fs, "libsmbclient: cannot read its options"));
	fs->can_write = 1;
	fs->align = 64;
	maxp = po->max_protocol != NULL ? smb_proto_name(po->max_protocol) :
	    "SMB3";
	fs->protocol = strcmp(maxp, "NT1") == 0 ? "smb1" :
	    strncmp(maxp, "SMB2", 4) == 0 ? "smb2" : "smb3";
	snprintf(fs->where, sizeof fs->where, "%s%s%s", s->user[0] != '\0' ?
	    s->user : "", s->user[0] != '\0' ? " at " : "", s->base);
	snprintf(fs->cache, sizeof fs->cache, "%s", "client cache: none "
	    "(libsmbclient keeps no file data)");
	snprintf(fs->requests, sizeof fs->requests, "%s", "requests: one in "
	    "flight (libsmbclient waits for each reply; Windows and "
	    "smbclient keep several)");
	/* The share must be there: a clear error now, not at the first file. */
	if (smb_exists(fs, "") != 1)
		return (fs->err[0] != '\0' ? -1 : bench_err(fs, "%s: no such "
		    "%s", s->base, strchr(strchr(s->base + 6, '/') + 1,
		    '/') == NULL ? "share" : "directory"));
	return (0);
}

#else /* !HAVE_SMBCLIENT */

int
bench_smb_open(struct bench_fs *fs, const char *url,
    const struct bench_proto_opts *po)
{
	(void)po;
	return (bench_err(fs, "%s: this nasperf was built without "
	    "libsmbclient (configure --with-smbclient); mount the share and "
	    "give its directory instead", url));
}

#endif /* HAVE_SMBCLIENT */

int
bench_credentials(const char *path, char *user, size_t usz, char *pass,
    size_t psz, char *domain, size_t dsz, char *err, size_t errsz)
{
	FILE	*fp;
	char	 line[1024], *k, *v, *e;
	int	 lineno = 0;

	if ((fp = fopen(path, "re")) == NULL) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return (-1);
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		lineno++;
		line[strcspn(line, "\r\n")] = '\0';
		for (k = line; *k == ' ' || *k == '\t'; k++)
			;
		if (*k == '#' || *k == ';' || *k == '\0')
			continue;
		if ((v = strchr(k, '=')) == NULL) {
			snprintf(err, errsz, "%s:%d: not key = value", path,
			    lineno);
			fclose(fp);
			return (-1);
		}
		for (e = v; e > k && (e[-1] == ' ' || e[-1] == '\t'); e--)
			;
		*e = '\0';
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		if (strcmp(k, "username") == 0 || strcmp(k, "user") == 0)
			snprintf(user, usz, "%s", v);
		else if (strcmp(k, "password") == 0)
			snprintf(pass, psz, "%s", v);
		else if (strcmp(k, "domain") == 0 || strcmp(k,
		    "workgroup") == 0)
			snprintf(domain, dsz, "%s", v);
	}
	explicit_bzero(line, sizeof line);
	fclose(fp);
	return (0);
}
