/*
 * sockowner.c: socket inodes to the processes holding them.
 */
#include "config.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
#include "sockowner.h"

/* The number a pid's or a descriptor's entry names; -1 if not one. */
static int
sockowner_num(const char *s)
{
	long	v = 0;

	if (*s == '\0')
		return (-1);
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || v > (INT_MAX - 9) / 10)
			return (-1);
		v = v * 10 + (*s - '0');
	}
	return ((int)v);
}

/* The inode of a "socket:[INODE]" link, or 0 for any other link. */
static uint64_t
sockowner_inode(const char *link)
{
	const char	*s;
	uint64_t	 v = 0;

	if (strncmp(link, "socket:[", 8) != 0)
		return (0);
	for (s = link + 8; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return (0);
		v = v * 10 + (uint64_t)(*s - '0');
	}
	if (s == link + 8 || s[0] != ']' || s[1] != '\0')
		return (0);
	return (v);
}

/* Whether ino is one of the n inodes. */
static int
sockowner_wanted(const uint64_t *inodes, size_t n, uint64_t ino)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (inodes[i] == ino)
			return (1);
	return (0);
}

/*
 * A process's name into comm: its comm file (2.6.33 on), else the name
 * in parentheses in stat (the last ')' ends it), else "?".
 */
static void
sockowner_comm(const struct probe_root *root, int pid, char *comm,
    size_t commsz)
{
	char	 rel[32], stat[512], *a, *b;

	snprintf(rel, sizeof rel, "%d/comm", pid);
	if (probe_read_attr(root, PROBE_PROC, rel, comm, commsz) == 0 &&
	    comm[0] != '\0')
		return;
	snprintf(rel, sizeof rel, "%d/stat", pid);
	if (probe_read_attr(root, PROBE_PROC, rel, stat, sizeof stat) == 0 &&
	    (a = strchr(stat, '(')) != NULL &&
	    (b = strrchr(stat, ')')) != NULL && b > a) {
		*b = '\0';
		if (probe_strlcpy(comm, a + 1, commsz) == 0)
			return;
	}
	probe_strlcpy(comm, "?", commsz);
}

/* Record pid as an owner of ino once, with comm; -1 ENOMEM. */
static int
sockowner_add(struct sockowner *o, size_t first, int pid, uint64_t ino,
    const char *comm)
{
	struct sockowner_hit	*v;
	size_t			 i, ncap;

	for (i = first; i < o->n; i++)
		if (o->v[i].inode == ino)
			return (0);	/* a dup'ed descriptor */
	if (o->n == o->cap) {
		ncap = o->cap == 0 ? 8 : o->cap * 2;
		if ((v = reallocarray(o->v, ncap, sizeof *v)) == NULL)
			return (-1);
		o->v = v;
		o->cap = ncap;
	}
	v = &o->v[o->n++];
	v->inode = ino;
	v->pid = pid;
	probe_strlcpy(v->comm, comm, sizeof v->comm);
	return (0);
}

/* Look through one process's descriptors; -1 only on ENOMEM, EMFILE... */
static int
sockowner_pid(const struct probe_root *root, struct sockowner *o, int pid,
    const uint64_t *inodes, size_t n)
{
	struct dirent	*de;
	DIR		*dir;
	char		 rel[32], link[64], comm[SOCKOWNER_COMM_MAX];
	size_t		 first = o->n;
	ssize_t		 len;
	uint64_t	 ino;
	int		 rc = 0;

	snprintf(rel, sizeof rel, "%d/fd", pid);
	if ((dir = probe_opendir(root, PROBE_PROC, rel)) == NULL) {
		switch (errno) {
		case EACCES:
		case EPERM:
			o->unreadable++;
			return (0);
		case EMFILE:
		case ENFILE:
		case ENOMEM:
			return (-1);
		default:
			return (0);	/* gone (ENOENT, ESRCH), or odd */
		}
	}
	comm[0] = '\0';
	while ((de = readdir(dir)) != NULL) {
		if (sockowner_num(de->d_name) == -1)
			continue;
		/* Closed meanwhile (ENOENT): skip it. */
		len = readlinkat(dirfd(dir), de->d_name, link, sizeof link - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if ((ino = sockowner_inode(link)) == 0 ||
		    !sockowner_wanted(inodes, n, ino))
			continue;
		if (comm[0] == '\0')
			sockowner_comm(root, pid, comm, sizeof comm);
		if ((rc = sockowner_add(o, first, pid, ino, comm)) == -1)
			break;
	}
	closedir(dir);
	return (rc);
}

int
sockowner_read(const struct probe_root *root, const uint64_t *inodes,
    size_t n, struct sockowner *o)
{
	struct dirent	*de;
	DIR		*dir;
	int		 pid, oerrno, rc = 0;

	o->n = 0;
	o->unreadable = 0;
	if ((dir = probe_opendir(root, PROBE_PROC, ".")) == NULL)
		return (-1);
	while (n > 0 && rc == 0 && (de = readdir(dir)) != NULL)
		if ((pid = sockowner_num(de->d_name)) > 0)
			rc = sockowner_pid(root, o, pid, inodes, n);
	oerrno = errno;
	closedir(dir);
	errno = oerrno;
	return (rc);
}

void
sockowner_clear(struct sockowner *o)
{
	if (o == NULL)
		return;
	free(o->v);
	o->v = NULL;
	o->n = o->cap = 0;
	o->unreadable = 0;
}
