/*
 * t_sockowner.c: socket inodes to their processes, live and in a tree.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test.h"
#include "sockowner.h"

/* The hit for pid and ino in o, or NULL. */
static const struct sockowner_hit *
t_hit(const struct sockowner *o, int pid, uint64_t ino)
{
	size_t	i;

	for (i = 0; i < o->n; i++)
		if (o->v[i].pid == pid && o->v[i].inode == ino)
			return (&o->v[i]);
	return (NULL);
}

/*
 * This process's own socket is found with its pid, once though dup'ed;
 * a child holding it after fork is a second owner.
 */
static void
t_live(void)
{
	struct probe_root		 root;
	struct sockowner		 o;
	const struct sockowner_hit	*h;
	struct stat			 st;
	uint64_t			 ino[2];
	pid_t				 child;
	char				 c;
	int				 fd, fd2, p[2];

	memset(&o, 0, sizeof o);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1 ||
	    (fd2 = dup(fd)) == -1 || fstat(fd, &st) == -1 ||
	    probe_root_open(&root, "/") == -1 || pipe(p) == -1) {
		printf("Bail out! %s\n", strerror(errno));
		exit(1);
	}
	ino[0] = st.st_ino;
	ino[1] = 1;		/* no socket has it */
	T_OK(sockowner_read(&root, ino, 2, &o));
	T_EQ_U64(o.n, 1);
	if ((h = t_hit(&o, getpid(), st.st_ino)) == NULL)
		T_TRUE(h != NULL);
	else
		T_EQ_STR(h->comm, "t_sockowner");
	T_OK(sockowner_read(&root, ino + 1, 1, &o));
	T_EQ_U64(o.n, 0);
	T_OK(sockowner_read(&root, ino, 0, &o));
	T_EQ_U64(o.n, 0);

	if ((child = fork()) == -1) {
		printf("Bail out! fork: %s\n", strerror(errno));
		exit(1);
	}
	if (child == 0) {
		close(p[1]);
		/* Hold the socket until the parent closes the pipe. */
		while (read(p[0], &c, 1) == -1 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	T_OK(sockowner_read(&root, ino, 1, &o));
	T_EQ_U64(o.n, 2);
	T_TRUE(t_hit(&o, getpid(), st.st_ino) != NULL);
	T_TRUE(t_hit(&o, (int)child, st.st_ino) != NULL);
	close(p[1]);
	waitpid(child, NULL, 0);
	close(fd);
	close(fd2);
	probe_root_close(&root);
	sockowner_clear(&o);
}

/* Read the tree as nobody: the number of unreadable processes, or -1. */
static int
t_as_nobody(const struct probe_root *root, const uint64_t *ino, size_t n)
{
	struct sockowner	o;
	pid_t			pid;
	int			status;

	if ((pid = fork()) == -1)
		return (-1);
	if (pid == 0) {
		memset(&o, 0, sizeof o);
		if (setgid(65534) == -1 || setuid(65534) == -1 ||
		    sockowner_read(root, ino, n, &o) == -1)
			_exit(100);
		_exit(o.n == 3 ? (int)o.unreadable : 101);
	}
	if (waitpid(pid, &status, 0) == -1 || !WIFEXITED(status))
		return (-1);
	return (WEXITSTATUS(status));
}

/*
 * A tree: process 123 (no comm file, a name with ") " in stat) holds
 * socket 999; 124 holds 1000, and 999 twice; 125's descriptors are not
 * ours to read; 126's fd is not a directory.
 */
static void
t_tree(void)
{
	struct probe_root		 root;
	struct sockowner		 o;
	const struct sockowner_hit	*h;
	char				 dir[] = "/tmp/t_sockowner.XXXXXX";
	char				 empty[] = "/tmp/t_sockowner.XXXXXX";
	char				 p[256];
	uint64_t			 ino[] = { 999, 1000, 7 };
	int				 rc;

	memset(&o, 0, sizeof o);
	if (mkdtemp(dir) == NULL || mkdtemp(empty) == NULL ||
	    chmod(dir, 0755) == -1) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	t_put(dir, "proc/123/stat", "123 (a) b) S 1 123 123 0 -1 4194560\n");
	t_put(dir, "proc/123/fd/.keep", "");
	t_link(dir, "proc/123/fd/3", "socket:[999]");
	t_link(dir, "proc/123/fd/5", "/var/log/samba/log.smbd");
	t_put(dir, "proc/124/comm", "smbd-notifyd\n");
	t_put(dir, "proc/124/fd/.keep", "");
	t_link(dir, "proc/124/fd/4", "socket:[1000]");
	t_link(dir, "proc/124/fd/6", "socket:[999]");
	t_link(dir, "proc/124/fd/7", "socket:[999]");
	t_link(dir, "proc/124/fd/8", "socket:[12x]");
	t_link(dir, "proc/124/fd/9", "pipe:[999]");
	t_link(dir, "proc/124/fd/10", "socket:[999]x");
	t_put(dir, "proc/125/comm", "afpd\n");
	t_put(dir, "proc/125/fd/.keep", "");
	t_link(dir, "proc/125/fd/3", "socket:[1000]");
	t_put(dir, "proc/126/comm", "odd\n");
	t_put(dir, "proc/126/fd", "not a directory\n");
	t_put(dir, "proc/net/tcp", "");
	t_link(dir, "proc/self", "123");
	snprintf(p, sizeof p, "%s/proc/125/fd", dir);
	T_OK(chmod(p, 0));

	T_OK(probe_root_open(&root, dir));
	T_OK(sockowner_read(&root, ino, NP_NITEMS(ino), &o));
	if (geteuid() == 0) {
		/* Root reads 125 too. */
		T_EQ_U64(o.n, 4);
		T_EQ_U64(o.unreadable, 0);
		T_TRUE(t_hit(&o, 125, 1000) != NULL);
		rc = t_as_nobody(&root, ino, NP_NITEMS(ino));
		if (rc == 100 || rc == -1)
			t_skip("cannot become nobody");
		else
			T_EQ_INT(rc, 1);
	} else {
		T_EQ_U64(o.n, 3);
		T_EQ_U64(o.unreadable, 1);
	}
	if ((h = t_hit(&o, 123, 999)) == NULL)
		T_TRUE(h != NULL);
	else
		T_EQ_STR(h->comm, "a) b");
	if ((h = t_hit(&o, 124, 1000)) == NULL)
		T_TRUE(h != NULL);
	else
		T_EQ_STR(h->comm, "smbd-notifyd");
	if ((h = t_hit(&o, 124, 999)) == NULL)
		T_TRUE(h != NULL);
	else
		T_EQ_STR(h->comm, "smbd-notifyd");
	T_TRUE(t_hit(&o, 123, 1000) == NULL);
	T_TRUE(t_hit(&o, 126, 999) == NULL);
	T_TRUE(t_hit(&o, 123, 7) == NULL && t_hit(&o, 124, 7) == NULL);

	/* Only the missing inode: nothing found, nothing wrong. */
	T_OK(sockowner_read(&root, ino + 2, 1, &o));
	T_EQ_U64(o.n, 0);
	probe_root_close(&root);
	sockowner_clear(&o);
	T_TRUE(o.v == NULL && o.n == 0);
	sockowner_clear(NULL);

	/* A root without proc. */
	T_OK(probe_root_open(&root, empty));
	T_ERRNO(sockowner_read(&root, ino, NP_NITEMS(ino), &o), ENOENT);
	probe_root_close(&root);

	T_OK(chmod(p, 0755));
	snprintf(p, sizeof p, "rm -rf '%s' '%s'", dir, empty);
	T_OK(system(p));
}

int
main(void)
{
	t_live();
	t_tree();
	return (t_done());
}
