/*
 * bench_local.c: nasperf bench on a directory: a local volume, or a share
 * mounted over SMB, NFS or AFP.
 *
 * Files are opened with O_DIRECT (F_NOCACHE on macOS) so that neither
 * writes nor reads go through this machine's page cache; where the file
 * system refuses it (tmpfs, some FUSE mounts) a written file is flushed
 * with fsync and its cached pages dropped with POSIX_FADV_DONTNEED before
 * it is read, and the report says so.  A mount's protocol and version come
 * from the mount table, so the daemon's runs say smb3 or nfs4 rather than
 * local.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "np.h"

#define LOCAL_ALIGN	4096

struct local {
	char	dir[PATH_MAX];
	int	direct;		/* O_DIRECT accepted */
	int	tried;
};

struct local_file {
	int	fd;
	int	wr;
	int	direct;
};

int
bench_err(struct bench_fs *fs, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(fs->err, sizeof fs->err, fmt, ap);
	va_end(ap);
	return (-1);
}

static int
local_path(struct bench_fs *fs, const char *rel, char *out, size_t outsz)
{
	struct local	*l = fs->priv;

	if ((size_t)snprintf(out, outsz, "%s/%s", l->dir, rel) >= outsz)
		return (bench_err(fs, "%s/%s: path too long", l->dir, rel));
	return (0);
}

static int
local_open_flags(int wr)
{
	return (wr ? O_WRONLY | O_CREAT | O_TRUNC : O_RDONLY);
}

static void *
local_open(struct bench_fs *fs, const char *rel, int wr)
{
	struct local		*l = fs->priv;
	struct local_file	*f;
	char			 p[PATH_MAX];
	int			 fd = -1, direct = 0;

	if (local_path(fs, rel, p, sizeof p) == -1)
		return (NULL);
#ifdef O_DIRECT
	if (!l->tried || l->direct) {
		fd = open(p, local_open_flags(wr) | O_DIRECT | O_CLOEXEC,
		    0644);
		if (fd == -1 && errno == EINVAL && !l->tried) {
			l->tried = 1;
			l->direct = 0;
		} else if (fd != -1) {
			l->tried = l->direct = direct = 1;
		}
	}
#endif
	if (fd == -1 && (fd = open(p, local_open_flags(wr) | O_CLOEXEC,
	    0644)) == -1) {
		bench_err(fs, "%s: %s", p, strerror(errno));
		return (NULL);
	}
#ifdef F_NOCACHE
	if (fcntl(fd, F_NOCACHE, 1) == 0)
		direct = 1;
#endif
	if ((f = calloc(1, sizeof *f)) == NULL) {
		close(fd);
		bench_err(fs, "out of memory");
		return (NULL);
	}
	f->fd = fd;
	f->wr = wr;
	f->direct = direct;
	if (!direct)
		snprintf(fs->cache, sizeof fs->cache, "%s",
		    "page cache: O_DIRECT refused here; files fsync'd and "
		    "their pages dropped (POSIX_FADV_DONTNEED) before reads");
	if (!wr && !direct)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return (f);
}

/*
 * O_DIRECT wants requests aligned to the file system's block: a 1 KiB
 * request on a 4 KiB-block file system fails with EINVAL.  Carry on
 * without it, flushing and dropping the file's pages instead.
 */
static int
local_undirect(struct bench_fs *fs, struct local_file *f)
{
#ifdef O_DIRECT
	int	fl = fcntl(f->fd, F_GETFL);

	if (fl == -1 || fcntl(f->fd, F_SETFL, fl & ~O_DIRECT) == -1)
		return (-1);
	f->direct = 0;
	snprintf(fs->cache, sizeof fs->cache, "%s", "page cache: O_DIRECT "
	    "where requests are aligned; others fsync'd and their pages "
	    "dropped (POSIX_FADV_DONTNEED) before reads");
	if (!f->wr)
		(void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	return (0);
#else
	return (-1);
#endif
}

static ssize_t
local_io(struct bench_fs *fs, struct local_file *f, void *buf, size_t n,
    int wr)
{
	size_t	done = 0;
	ssize_t	r;

	while (done < n) {
		r = wr ? write(f->fd, (char *)buf + done, n - done) :
		    read(f->fd, (char *)buf + done, n - done);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1 && errno == EINVAL && f->direct &&
		    local_undirect(fs, f) == 0)
			continue;
		if (r == -1)
			return (bench_err(fs, "%s: %s", wr ? "write" : "read",
			    strerror(errno)));
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return ((ssize_t)done);
}

static ssize_t
local_read(struct bench_fs *fs, void *f, void *buf, size_t n)
{
	return (local_io(fs, f, buf, n, 0));
}

static ssize_t
local_write(struct bench_fs *fs, void *f, const void *buf, size_t n)
{
	return (local_io(fs, f, (void *)(uintptr_t)buf, n, 1));
}

static int
local_close(struct bench_fs *fs, void *fp)
{
	struct local_file	*f = fp;
	int			 rc = 0;

	if (f->wr && fsync(f->fd) == -1)
		rc = bench_err(fs, "fsync: %s", strerror(errno));
	if (f->wr && !f->direct)
		(void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (close(f->fd) == -1 && rc == 0)
		rc = bench_err(fs, "close: %s", strerror(errno));
	free(f);
	return (rc);
}

static int
local_unlink(struct bench_fs *fs, const char *rel)
{
	char	p[PATH_MAX];

	if (local_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if (unlink(p) == -1 && errno != ENOENT)
		return (bench_err(fs, "%s: %s", p, strerror(errno)));
	return (0);
}

static int
local_mkdir(struct bench_fs *fs, const char *rel)
{
	char	p[PATH_MAX];

	if (local_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if (mkdir(p, 0755) == -1 && errno != EEXIST)
		return (bench_err(fs, "%s: %s", p, strerror(errno)));
	return (0);
}

static int
local_rmdir(struct bench_fs *fs, const char *rel)
{
	char	p[PATH_MAX];

	if (local_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if (rmdir(p) == -1 && errno != ENOENT)
		return (bench_err(fs, "%s: %s", p, strerror(errno)));
	return (0);
}

static int
local_list(struct bench_fs *fs, const char *rel, uint64_t *n)
{
	char		 p[PATH_MAX];
	DIR		*d;
	struct dirent	*de;
	struct stat	 st;
	int		 dfd;

	if (local_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if ((d = opendir(p)) == NULL)
		return (bench_err(fs, "%s: %s", p, strerror(errno)));
	dfd = dirfd(d);
	*n = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
			closedir(d);
			return (bench_err(fs, "%s/%s: %s", p, de->d_name,
			    strerror(errno)));
		}
		(*n)++;
	}
	closedir(d);
	return (0);
}

static int
local_exists(struct bench_fs *fs, const char *rel)
{
	char		p[PATH_MAX];
	struct stat	st;

	if (local_path(fs, rel, p, sizeof p) == -1)
		return (-1);
	if (stat(p, &st) == 0)
		return (1);
	return (errno == ENOENT ? 0 : bench_err(fs, "%s: %s", p,
	    strerror(errno)));
}

static void
local_free(struct bench_fs *fs)
{
	free(fs->priv);
	fs->priv = NULL;
}

static const struct bench_ops local_ops = {
	"local", local_open, local_read, local_write, local_close,
	local_unlink, local_mkdir, local_rmdir, local_list, local_exists,
	local_free
};

/* An option's value in a mount's comma-separated options; 0 when found. */
static int
local_mntopt(const char *opts, const char *key, char *out, size_t outsz)
{
	size_t		 kl = strlen(key);
	const char	*p = opts, *e;

	while (*p != '\0') {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) > kl && strncmp(p, key, kl) == 0 &&
		    p[kl] == '=') {
			snprintf(out, outsz, "%.*s", (int)(e - p - kl - 1),
			    p + kl + 1);
			return (0);
		}
		p = *e == ',' ? e + 1 : e;
	}
	return (-1);
}

/*
 * The protocol of the mount holding dir, from /proc/self/mounts: the
 * longest mount point that prefixes it.  "local" for anything else.
 */
static const char *
local_protocol(const char *dir)
{
	FILE		*fp;
	char		 line[4096], mnt[PATH_MAX], type[64], opts[2048];
	char		 best_type[64] = "", best_opts[2048] = "", vers[32];
	size_t		 best = 0, l;

	if ((fp = fopen("/proc/self/mounts", "re")) == NULL)
		return ("local");
	while (fgets(line, sizeof line, fp) != NULL) {
		if (sscanf(line, "%*s %4095s %63s %2047s", mnt, type,
		    opts) != 3)
			continue;
		l = strlen(mnt);
		if (strncmp(dir, mnt, l) != 0 || (dir[l] != '/' &&
		    dir[l] != '\0' && strcmp(mnt, "/") != 0) || l < best)
			continue;
		best = l;
		snprintf(best_type, sizeof best_type, "%s", type);
		snprintf(best_opts, sizeof best_opts, "%s", opts);
	}
	fclose(fp);
	if (strcmp(best_type, "cifs") == 0 || strcmp(best_type, "smb3") == 0) {
		if (local_mntopt(best_opts, "vers", vers, sizeof vers) == 0 &&
		    vers[0] == '1')
			return ("smb1");
		if (local_mntopt(best_opts, "vers", vers, sizeof vers) == 0 &&
		    vers[0] == '2')
			return ("smb2");
		return ("smb3");
	}
	if (strcmp(best_type, "nfs4") == 0)
		return ("nfs4");
	if (strcmp(best_type, "nfs") == 0)
		return (local_mntopt(best_opts, "vers", vers, sizeof vers) ==
		    0 && vers[0] == '4' ? "nfs4" : "nfs3");
	if (strstr(best_type, "afp") != NULL)
		return ("afp");
	return ("local");
}

int
bench_local_open(struct bench_fs *fs, const char *dir,
    NP_UNUSED const struct bench_proto_opts *po)
{
	struct local	*l;
	struct stat	 st;
	char		 real[PATH_MAX];

	if (stat(dir, &st) == -1)
		return (bench_err(fs, "%s: %s", dir, strerror(errno)));
	if (!S_ISDIR(st.st_mode))
		return (bench_err(fs, "%s: not a directory", dir));
	if (access(dir, W_OK) == -1)
		return (bench_err(fs, "%s: not writable: %s", dir,
		    strerror(errno)));
	if (realpath(dir, real) == NULL)
		return (bench_err(fs, "%s: %s", dir, strerror(errno)));
	if ((l = calloc(1, sizeof *l)) == NULL)
		return (bench_err(fs, "out of memory"));
	snprintf(l->dir, sizeof l->dir, "%s", real);
	fs->ops = &local_ops;
	fs->priv = l;
	fs->protocol = local_protocol(real);
	fs->can_write = 1;
	fs->align = LOCAL_ALIGN;
	snprintf(fs->where, sizeof fs->where, "%s", real);
#ifdef F_NOCACHE
	snprintf(fs->cache, sizeof fs->cache, "page cache: bypassed "
	    "(F_NOCACHE)");
#else
	snprintf(fs->cache, sizeof fs->cache, "page cache: bypassed "
	    "(O_DIRECT)");
#endif
	return (0);
}

int
bench_reach(struct bench_fs *fs, const char *host, unsigned port,
    double timeout)
{
	struct addrinfo	 hints, *res = NULL, *ai;
	struct pollfd	 pfd;
	char		 serv[16];
	int		 fd, e = 0, rc;
	socklen_t	 el = sizeof e;

	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	snprintf(serv, sizeof serv, "%u", port);
	if ((rc = getaddrinfo(host, serv, &hints, &res)) != 0)
		return (bench_err(fs, "%s: %s", host, gai_strerror(rc)));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, ai->ai_protocol);
		if (fd == -1)
			continue;
		e = 0;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == -1) {
			e = errno;
			if (e == EINPROGRESS) {
				pfd.fd = fd;
				pfd.events = POLLOUT;
				if (poll(&pfd, 1, (int)(timeout * 1000)) == 1)
					(void)getsockopt(fd, SOL_SOCKET,
					    SO_ERROR, &e, &el);
				else
					e = ETIMEDOUT;
			}
		}
		close(fd);
		if (e == 0)
			break;
	}
	freeaddrinfo(res);
	if (e == ETIMEDOUT)
		return (bench_err(fs, "%s port %u: no answer in %.0f s (host "
		    "down or unreachable, or a firewall)", host, port,
		    timeout));
	if (e != 0)
		return (bench_err(fs, "%s port %u: %s", host, port,
		    strerror(e)));
	return (0);
}

int
bench_host_port(const char *s, char *host, size_t hostsz, unsigned *port)
{
	const char	*e, *colon;
	char		*end;
	unsigned long	 p;

	*port = 0;
	if (*s == '[') {
		if ((e = strchr(s, ']')) == NULL)
			return (-1);
		snprintf(host, hostsz, "%.*s", (int)(e - s - 1), s + 1);
		colon = e[1] == ':' ? e + 1 : NULL;
	} else {
		e = s + strcspn(s, ":/?");
		snprintf(host, hostsz, "%.*s", (int)(e - s), s);
		colon = *e == ':' ? e : NULL;
	}
	if (*host == '\0')
		return (-1);
	if (colon != NULL) {
		p = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || p == 0 || p > 65535 ||
		    (*end != '\0' && *end != '/' && *end != '?'))
			return (-1);
		*port = (unsigned)p;
	}
	return (0);
}
