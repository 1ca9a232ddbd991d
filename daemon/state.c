/*
 * state.c: the state directory, the token, atomic writes.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/types.h>
#ifdef HAVE_SYS_RANDOM_H
#include <sys/random.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "np.h"
#include "state.h"

/* An allocated formatted message for *cause. */
static NP_PRINTF(2, 3) void
state_cause(char **cause, const char *fmt, ...)
{
	va_list	ap;

	if (cause == NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) == -1)
		*cause = NULL;
	va_end(ap);
}

/* mkdir -p with mode for the last component; parents get 0755. */
static int
state_mkdirs(const char *dir, mode_t mode)
{
	char	path[4096], *p;

	if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) == -1 && errno != EEXIST)
			return (-1);
		*p = '/';
	}
	if (mkdir(path, mode) == -1 && errno != EEXIST)
		return (-1);
	return (0);
}

int
state_open(const char *dir, char **cause)
{
	struct stat	st;

	if (cause != NULL)
		*cause = NULL;
	if (dir[0] != '/') {
		state_cause(cause, "state directory %s: not an absolute path",
		    dir);
		return (-1);
	}
	if (state_mkdirs(dir, 0700) == -1 || lstat(dir, &st) == -1) {
		state_cause(cause, "state directory %s: %s", dir,
		    strerror(errno));
		return (-1);
	}
	/*
	 * As sshd's StrictModes: nobody else may have put, or be able to
	 * put, the token and the results there.
	 */
	if (S_ISLNK(st.st_mode)) {
		state_cause(cause, "state directory %s is a symbolic link: "
		    "refusing it (name the directory itself)", dir);
		return (-1);
	}
	if (!S_ISDIR(st.st_mode)) {
		state_cause(cause, "state directory %s: not a directory", dir);
		return (-1);
	}
	if (st.st_uid != geteuid()) {
		state_cause(cause, "state directory %s is owned by uid %u, not "
		    "by the user nasperfd runs as (%u): refusing it (chown it, "
		    "or name another)", dir, (unsigned)st.st_uid,
		    (unsigned)geteuid());
		return (-1);
	}
	if ((st.st_mode & 022) != 0) {
		state_cause(cause, "state directory %s is writable by %s "
		    "(mode %03o): refusing it (chmod go-w it)", dir,
		    (st.st_mode & 002) != 0 ? "anyone" : "its group",
		    (unsigned)(st.st_mode & 0777));
		return (-1);
	}
	if (access(dir, W_OK | X_OK) == -1) {
		state_cause(cause, "state directory %s: %s", dir,
		    strerror(errno));
		return (-1);
	}
	return (0);
}

int
state_choose(const char *dir, char *out, size_t outsz, char **cause)
{
	const char	*base;
	char		*why = NULL;
	int		 n;

	if (state_open(dir, &why) == 0) {
		free(why);
		if (snprintf(out, outsz, "%s", dir) >= (int)outsz) {
			state_cause(cause, "state directory %s: too long", dir);
			return (-1);
		}
		return (0);
	}
	if (geteuid() == 0) {
		if (cause != NULL)
			*cause = why;
		else
			free(why);
		return (-1);
	}
	free(why);
	if ((base = getenv("XDG_STATE_HOME")) != NULL && base[0] == '/')
		n = snprintf(out, outsz, "%s/nasperfd", base);
	else if ((base = getenv("HOME")) != NULL && base[0] == '/')
		n = snprintf(out, outsz, "%s/.local/state/nasperfd", base);
	else {
		state_cause(cause, "state directory %s is not writable and "
		    "neither XDG_STATE_HOME nor HOME is set", dir);
		return (-1);
	}
	if (n < 0 || (size_t)n >= outsz) {
		state_cause(cause, "state directory: path too long");
		return (-1);
	}
	return (state_open(out, cause));
}

int
state_random(void *buf, size_t len)
{
	unsigned char	*p = buf;
	ssize_t		 n;
	int		 fd, oerrno;

#ifdef HAVE_GETRANDOM
	while (len > 0) {
		n = getrandom(p, len, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			break;		/* ENOSYS before 3.17: /dev/urandom */
		p += n;
		len -= (size_t)n;
	}
	if (len == 0)
		return (0);
#endif
	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	while (len > 0) {
		n = read(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			oerrno = n == 0 ? EIO : errno;
			close(fd);
			errno = oerrno;
			return (-1);
		}
		p += n;
		len -= (size_t)n;
	}
	close(fd);
	return (0);
}

int
state_write(const char *dir, const char *name, const void *buf, size_t len,
    int mode)
{
	char		 tmp[4096], path[4096];
	const char	*p = buf;
	ssize_t		 n;
	int		 fd = -1, dfd = -1, oerrno, rc = -1;

	if (snprintf(path, sizeof path, "%s/%s", dir, name) >=
	    (int)sizeof path || snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX",
	    dir, name) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	if ((fd = mkstemp(tmp)) == -1)
		return (-1);
	if (fchmod(fd, (mode_t)mode) == -1)
		goto out;
	while (len > 0) {
		n = write(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto out;
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) == -1 || close(fd) == -1) {
		fd = -1;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto out;
	/* The rename itself is durable only once the directory is synced. */
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1)
		(void)fsync(dfd);
	rc = 0;
out:
	oerrno = errno;
	if (fd != -1)
		close(fd);
	if (dfd != -1)
		close(dfd);
	if (rc == -1)
		(void)unlink(tmp);
	errno = oerrno;
	return (rc);
}

/* 1 if s is exactly STATE_TOKEN_LEN lowercase hex digits. */
static int
state_token_valid(const char *s)
{
	size_t	i;

	for (i = 0; i < STATE_TOKEN_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return (0);
	return (s[i] == '\0' || s[i] == '\n');
}

int
state_token(const char *dir, const char *name, char *out, size_t outsz,
    char **cause)
{
	char		 path[4096], buf[STATE_TOKEN_LEN + 2];
	struct stat	 st;
	ssize_t		 n;
	int		 fd;

	if (cause != NULL)
		*cause = NULL;
	if (outsz < STATE_TOKEN_LEN + 1) {
		state_cause(cause, "token: buffer too small");
		return (-1);
	}
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) != -1) {
		if (fstat(fd, &st) == -1) {
			state_cause(cause, "token %s: %s", path,
			    strerror(errno));
			close(fd);
			return (-1);
		}
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    st.st_nlink != 1) {
			state_cause(cause, "token %s: %s: refusing it (remove "
			    "it to generate a new one)", path, !S_ISREG(
			    st.st_mode) ? "not a regular file" : st.st_uid !=
			    geteuid() ? "owned by another user" :
			    "it has other names (hard links)");
			close(fd);
			return (-1);
		}
		n = read(fd, buf, sizeof buf - 1);
		if (n >= 0)
			buf[n] = '\0';
		/* Our own, but others could read it: a leak, tightened. */
		if ((st.st_mode & 077) != 0)
			(void)fchmod(fd, 0600);
		close(fd);
		if (n >= STATE_TOKEN_LEN && state_token_valid(buf)) {
			memcpy(out, buf, STATE_TOKEN_LEN);
			out[STATE_TOKEN_LEN] = '\0';
			return (0);
		}
		state_cause(cause, "token %s: not %d hex characters; remove "
		    "it to generate a new one", path, STATE_TOKEN_LEN);
		return (-1);
	}
	if (errno != ENOENT) {
		state_cause(cause, "token %s: %s", path, strerror(errno));
		return (-1);
	}
	return (state_token_new(dir, name, out, outsz, cause));
}

int
state_token_new(const char *dir, const char *name, char *out, size_t outsz,
    char **cause)
{
	unsigned char	 raw[STATE_TOKEN_LEN / 2];
	size_t		 i;

	if (cause != NULL)
		*cause = NULL;
	if (outsz < STATE_TOKEN_LEN + 1) {
		state_cause(cause, "token: buffer too small");
		return (-1);
	}
	if (state_random(raw, sizeof raw) == -1) {
		state_cause(cause, "token: no random source: %s",
		    strerror(errno));
		return (-1);
	}
	for (i = 0; i < sizeof raw; i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
	out[STATE_TOKEN_LEN] = '\n';
	if (state_write(dir, name, out, STATE_TOKEN_LEN + 1, 0600) == -1) {
		state_cause(cause, "token %s/%s: %s", dir, name,
		    strerror(errno));
		return (-1);
	}
	out[STATE_TOKEN_LEN] = '\0';
	return (0);
}
