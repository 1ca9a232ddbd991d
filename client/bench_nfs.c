/*
 * bench_nfs.c: nasperf bench on nfs://host/export/path through libnfs, a
 * user-space NFS client: no mount, no kernel client, no root needed.
 *
 * NFSv3 mounts by the export's path through MOUNT; NFSv4
 * (nfs://host/pseudo/path?version=4 or --nfs-version 4) by its pseudo
 * path.  A path below the export is found by mounting the longest prefix
 * the server accepts.  libnfs 4.0 reads over NFSv4 but cannot write (its
 * header calls v4 "not yet functional"): over v4 the write tests are not
 * run, and the client says so.  libnfs keeps no data cache unless asked
 * (readahead and pagecache are off by default), so reads go to the
 * server; writes are committed (COMMIT) before a file counts as written.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifdef HAVE_LIBNFS
#include <fcntl.h>
#include <sys/time.h>
#include <sys/types.h>

#include <nfsc/libnfs.h>

#define NFS_PORT	2049

struct nfs {
	struct nfs_context	*ctx;
	char			 sub[1024];	/* below the export, "" or /a/b */
	int			 version;
};

static int
nfs_fail(struct bench_fs *fs, const char *what, const char *path, int rc)
{
	struct nfs	*n = fs->priv;
	const char	*msg = nfs_get_error(n->ctx);

	if (rc == -EROFS || rc == -EACCES || rc == -EPERM)
		return (bench_err(fs, "%s %s: %s (the export is read-only or "
		    "squashes this user)", what, path, strerror(-rc)));
	return (bench_err(fs, "%s %s: %s", what, path, msg != NULL &&
	    *msg != '\0' ? msg : strerror(rc < 0 ? -rc : EIO)));
}

static int
nfs_path(struct bench_fs *fs, const char *rel, char *out, size_t outsz)
{
	struct nfs	*n = fs->priv;

	if ((size_t)snprintf(out, outsz, "%s/%s", n->sub, rel) >= outsz)
		return (bench_err(fs, "%s/%s: path too long", n->sub, rel));
	return (0);
}

static void *
nfsb_open(struct bench_fs *fs, const char *rel, int wr)
{
	struct nfs	*n = fs->priv;
	struct nfsfh	*fh = NULL;
	char		 p[2048];
	int		 rc;

	if (nfs_path(fs, rel, p, sizeof p) == -1)
		return (NULL);
	rc = wr ? nfs_create(n->ctx, p, O_WRONLY | O_TRUNC, 0644, &fh) :
	    nfs_open(n->ctx, p, O_RDONLY, &fh);
	if (rc < 0) {
		nfs_fail(fs, "open", p, rc);
		return (NULL);
	}
	return (fh);
}

static ssize_t
nfsb_read(struct bench_fs *fs, void *f, void *buf, size_t len)
{
	struct nfs	*n = fs->priv;
	size_t		 done = 0;
	int		 r;

	while (done < len) {
#ifdef LIBNFS_API_V2
		r = nfs_read(n->ctx, f, (char *)buf + done, len - done);
#else
		r = nfs_read(n->ctx, f, len - done, (char *)buf + done);
#endif
		if (r < 0)
			return (nfs_fail(fs, "read", "", r));
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return ((ssize_t)done);
}

static ssize_t
nfsb_write(struct bench_fs *fs, void *f, const void *buf, size_t len)
{
	struct nfs	*n = fs->priv;
	size_t		 done = 0;
	int		 r;

	while (done < len) {
#ifdef LIBNFS_API_V2
		r = nfs_write(n->ctx, f, (const char *)buf + done, len - done);
#else
		r = nfs_write(n->ctx, f, len - done,
		    (const char *)buf + done);
#endif
		if (r <= 0)
			return (nfs_fail(fs, "write", "", r < 0 ? r : -EIO));
		done += (size_t)r;
	}
	return ((ssize_t)done);
}

static int
nfsb_close(struct bench_fs *fs, void *f)
{
	struct nfs	*n = fs->priv;
	int		 rc;

	/* COMMIT: unstable writes are not written until the server says. */
	if ((rc = nfs_fsync(n->ctx, f)) < 0) {
		nfs_close(n->ctx, f);
		return (nfs_fail(fs, "commit", "", rc));
	}
	if ((rc = nfs_close(n->ctx, f)) < 0)
		return (nfs_fail(fs, "close", "", rc));
	return (0);
}

static int
nfsb_unlink(struct bench_fs *fs, const char *rel)
{
	struct nfs	*n = fs->priv;
	char		 p[2048];
	int		 rc;

	if (nfs_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if ((rc = nfs_unlink(n->ctx, p)) < 0 && rc != -ENOENT)
		return (nfs_fail(fs, "unlink", p, rc));
	return (0);
}

static int
nfsb_mkdir(struct bench_fs *fs, const char *rel)
{
	struct nfs	*n = fs->priv;
	char		 p[2048];
	int		 rc;

	if (nfs_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if ((rc = nfs_mkdir(n->ctx, p)) < 0 && rc != -EEXIST)
		return (nfs_fail(fs, "mkdir", p, rc));
	return (0);
}

static int
nfsb_rmdir(struct bench_fs *fs, const char *rel)
{
	struct nfs	*n = fs->priv;
	char		 p[2048];
	int		 rc;

	if (nfs_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if ((rc = nfs_rmdir(n->ctx, p)) < 0 && rc != -ENOENT)
		return (nfs_fail(fs, "rmdir", p, rc));
	return (0);
}

/* READDIRPLUS brings every entry's attributes with its name. */
static int
nfsb_list(struct bench_fs *fs, const char *rel, uint64_t *cnt)
{
	struct nfs		*n = fs->priv;
	struct nfsdir		*d;
	struct nfsdirent	*de;
	char			 p[2048];
	int			 rc;

	if (nfs_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if ((rc = nfs_opendir(n->ctx, p, &d)) < 0)
		return (nfs_fail(fs, "opendir", p, rc));
	*cnt = 0;
	while ((de = nfs_readdir(n->ctx, d)) != NULL) {
		if (strcmp(de->name, ".") == 0 || strcmp(de->name, "..") == 0)
			continue;
		(*cnt)++;
	}
	nfs_closedir(n->ctx, d);
	return (0);
}

static int
nfsb_exists(struct bench_fs *fs, const char *rel)
{
	struct nfs		*n = fs->priv;
	struct nfs_stat_64	 st;
	char			 p[2048];
	int			 rc;

	if (nfs_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if ((rc = nfs_stat64(n->ctx, p, &st)) == 0)
		return (1);
	return (rc == -ENOENT ? 0 : nfs_fail(fs, "stat", p, rc));
}

static void
nfsb_free(struct bench_fs *fs)
{
	struct nfs	*n = fs->priv;

	if (n == NULL)
		return;
	if (n->ctx != NULL)
		nfs_destroy_context(n->ctx);
	free(n);
	fs->priv = NULL;
}

static const struct bench_ops nfs_ops = {
	"nfs", nfsb_open, nfsb_read, nfsb_write, nfsb_close, nfsb_unlink,
	nfsb_mkdir, nfsb_rmdir, nfsb_list, nfsb_exists, nfsb_free
};

/* The value of ?key=N in url's query; def when absent. */
static long
nfs_query(const char *url, const char *key, long def)
{
	const char	*q = strchr(url, '?'), *p;
	size_t		 kl = strlen(key);

	for (p = q; p != NULL; p = strpbrk(p + 1, "?&"))
		if (strncmp(p + 1, key, kl) == 0 && p[1 + kl] == '=')
			return (strtol(p + 2 + kl, NULL, 10));
	return (def);
}

int
bench_nfs_open(struct bench_fs *fs, const char *url,
    const struct bench_proto_opts *po)
{
	struct nfs	*n;
	struct nfs_url	*u;
	char		 mnt[1024], host[256];
	char		*slash;
	unsigned	 port;
	int		 rc = -1;

	if (strncmp(url, "nfs://", 6) != 0)
		return (bench_err(fs, "%s: not an nfs:// URL", url));
	if (bench_host_port(url + 6, host, sizeof host, &port) == -1)
		return (bench_err(fs, "%s: bad host", url));
	if ((n = calloc(1, sizeof *n)) == NULL)
		return (bench_err(fs, "out of memory"));
	fs->priv = n;
	fs->ops = &nfs_ops;
	n->version = po->nfs_version != 0 ? po->nfs_version :
	    (int)nfs_query(url, "version", 3);
	if (n->version != 3 && n->version != 4)
		return (bench_err(fs, "NFS version %d: 3 or 4", n->version));
	if (bench_reach(fs, host, (unsigned)nfs_query(url, "nfsport",
	    NFS_PORT), po->timeout) == -1)
		return (-1);
	if ((n->ctx = nfs_init_context()) == NULL)
		return (bench_err(fs, "libnfs: cannot make a context"));
	nfs_set_timeout(n->ctx, (int)(po->timeout * 1000));
	if ((u = nfs_parse_url_dir(n->ctx, url)) == NULL)
		return (bench_err(fs, "%s: %s", url, nfs_get_error(n->ctx)));
	if (po->nfs_version != 0)
		nfs_set_version(n->ctx, po->nfs_version);
	/* Mount the longest prefix of the path that the server exports. */
	snprintf(mnt, sizeof mnt, "%s", u->path != NULL && *u->path != '\0' ?
	    u->path : "/");
	for (;;) {
		if ((rc = nfs_mount(n->ctx, u->server, mnt)) == 0)
			break;
		if ((slash = strrchr(mnt, '/')) == NULL || slash == mnt)
			break;
		*slash = '\0';
	}
	if (rc != 0) {
		bench_err(fs, "%s: mount %s:%s failed: %s", url, u->server,
		    u->path, nfs_get_error(n->ctx));
		nfs_destroy_url(u);
		return (-1);
	}
	snprintf(n->sub, sizeof n->sub, "%s", u->path + strlen(mnt));
	snprintf(fs->where, sizeof fs->where, "%s:%s (NFSv%d, export %s)",
	    u->server, u->path, n->version, mnt);
	nfs_destroy_url(u);
	fs->protocol = n->version == 4 ? "nfs4" : "nfs3";
	fs->align = 64;
	snprintf(fs->cache, sizeof fs->cache, "%s", "client cache: none "
	    "(libnfs without readahead or page cache)");
#ifdef LIBNFS_API_V2
	fs->can_write = 1;
#else
	fs->can_write = n->version == 3;
	if (!fs->can_write)
		snprintf(fs->cant_write, sizeof fs->cant_write, "%s",
		    "libnfs 4.0 cannot write over NFSv4 (its own header calls "
		    "v4 \"not yet functional\"): write over NFSv3 or a mount");
#endif
	if (nfsb_exists(fs, "") != 1)
		return (fs->err[0] != '\0' ? -1 : bench_err(fs, "%s: no such "
		    "directory", url));
	return (0);
}

#else /* !HAVE_LIBNFS */

int
bench_nfs_open(struct bench_fs *fs, const char *url,
    const struct bench_proto_opts *po)
{
	(void)po;
	return (bench_err(fs, "%s: this nasperf was built without libnfs "
	    "(configure --with-libnfs); mount the export and give its "
	    "directory instead", url));
}

#endif /* HAVE_LIBNFS */
