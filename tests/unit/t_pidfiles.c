/*
 * t_pidfiles.c: a process's open regular files and their devices, live.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fcntl.h>

#include "test.h"
#include "pidfiles.h"

/* The entry of f naming path, or NULL. */
static const struct pidfiles_file *
t_find(const struct pidfiles *f, const char *path)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].path, path) == 0)
			return (&f->v[i]);
	return (NULL);
}

/*
 * A block device opened raw is listed with its own major:minor (as root,
 * with a loop device to open; else said and left).
 */
static void
t_block(const struct probe_root *root)
{
	const struct pidfiles_file	*e;
	struct pidfiles			 f;
	struct stat			 st;
	int				 fd;

	if ((fd = open("/dev/loop0", O_RDONLY)) == -1 ||
	    fstat(fd, &st) == -1 || !S_ISBLK(st.st_mode)) {
		printf("# no /dev/loop0 to open (%s): block devices not "
		    "checked\n", strerror(errno));
		if (fd != -1)
			close(fd);
		return;
	}
	T_OK(pidfiles_read(root, getpid(), NULL, &f));
	if ((e = t_find(&f, "/dev/loop0")) == NULL)
		T_TRUE(e != NULL);
	else {
		T_TRUE(e->block);
		T_EQ_U64(e->major, major(st.st_rdev));
		T_EQ_U64(e->minor, minor(st.st_rdev));
	}
	close(fd);
}

/* Not one of the many files. */
static int
t_not_many(const char *path)
{
	return (strncmp(path, "/tmp/t_pidfiles.m.", 18) != 0);
}

int
main(void)
{
	struct probe_root		 root;
	struct pidfiles			 f;
	const struct pidfiles_file	*e;
	struct stat			 st;
	char				 path[] = "/tmp/t_pidfiles.XXXXXX";
	char				 many[32][40];
	int				 fd, fd2, s, p[2], i, n;

	if (probe_root_open(&root, "/") == -1 || (fd = mkstemp(path)) == -1 ||
	    fstat(fd, &st) == -1 || (fd2 = dup(fd)) == -1 ||
	    (s = socket(AF_INET, SOCK_STREAM, 0)) == -1 || pipe(p) == -1) {
		printf("Bail out! %s\n", strerror(errno));
		return (1);
	}
	/* The file is listed once though dup'ed, on its filesystem's device. */
	T_OK(pidfiles_read(&root, getpid(), NULL, &f));
	if ((e = t_find(&f, path)) == NULL)
		T_TRUE(e != NULL);
	else {
		T_EQ_U64(e->major, major(st.st_dev));
		T_EQ_U64(e->minor, minor(st.st_dev));
		T_TRUE(e->fd == fd || e->fd == fd2);	/* by its descriptor */
	}
	/* Sockets, pipes, character devices and directories are not files. */
	for (i = 0; i < (int)f.n; i++)
		T_TRUE(strncmp(f.v[i].path, "socket:", 7) != 0 &&
		    strncmp(f.v[i].path, "pipe:", 5) != 0 &&
		    (strncmp(f.v[i].path, "/dev/", 5) != 0 || f.v[i].block));
	t_block(&root);
	/* Past PIDFILES_MAX, files are counted, not kept. */
	for (n = 0; n < 32; n++) {
		snprintf(many[n], sizeof many[n], "/tmp/t_pidfiles.m.XXXXXX");
		if (mkstemp(many[n]) == -1)
			break;
	}
	T_OK(pidfiles_read(&root, getpid(), NULL, &f));
	T_EQ_U64(f.n, PIDFILES_MAX);
	T_TRUE(f.dropped + f.n >= (size_t)n + 1);
	/* Only what the caller wants. */
	T_OK(pidfiles_read(&root, getpid(), t_not_many, &f));
	T_TRUE(t_find(&f, path) != NULL);
	T_EQ_U64(f.dropped, 0);
	for (i = 0; i < (int)f.n; i++)
		T_TRUE(strncmp(f.v[i].path, "/tmp/t_pidfiles.m.", 18) != 0);
	for (i = 0; i < n; i++)
		unlink(many[i]);
	/* A process that is not there. */
	T_TRUE(pidfiles_read(&root, 0x7ffffff0, NULL, &f) == -1 && errno == ENOENT);
	unlink(path);
	close(fd);
	close(fd2);
	close(s);
	probe_root_close(&root);
	return (t_done());
}
