/*
 * pidfiles.c: a process's open regular files, through /proc/PID/fd.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidfiles.h"
#include "probe.h"

/* Whether s is a descriptor number. */
static int
pidfiles_num(const char *s)
{
	if (*s == '\0')
		return (0);
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return (0);
	return (1);
}

/* Whether f already holds path. */
static int
pidfiles_has(const struct pidfiles *f, const char *path)
{
	size_t	i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].path, path) == 0)
			return (1);
	return (0);
}

int
pidfiles_read(const struct probe_root *root, int pid,
    int (*want)(const char *), struct pidfiles *f)
{
	struct pidfiles_file	*e;
	struct dirent		*de;
	struct stat		 st;
	DIR			*dir;
	char			 rel[32], link[PIDFILES_PATH_MAX];
	ssize_t			 len;

	memset(f, 0, sizeof *f);
	snprintf(rel, sizeof rel, "%d/fd", pid);
	if ((dir = probe_opendir(root, PROBE_PROC, rel)) == NULL)
		return (-1);
	while ((de = readdir(dir)) != NULL) {
		if (!pidfiles_num(de->d_name))
			continue;
		/* Closed meanwhile, or neither a file nor a disk: skip it. */
		if (fstatat(dirfd(dir), de->d_name, &st, 0) == -1 ||
		    (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)))
			continue;
		len = readlinkat(dirfd(dir), de->d_name, link, sizeof link - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if ((S_ISREG(st.st_mode) && want != NULL && !want(link)) ||
		    pidfiles_has(f, link))
			continue;
		if (f->n == PIDFILES_MAX) {
			f->dropped++;
			continue;
		}
		e = &f->v[f->n++];
		e->block = S_ISBLK(st.st_mode);
		e->fd = atoi(de->d_name);
		e->major = e->block ? major(st.st_rdev) : major(st.st_dev);
		e->minor = e->block ? minor(st.st_rdev) : minor(st.st_dev);
		probe_strlcpy(e->path, link, sizeof e->path);
	}
	closedir(dir);
	return (0);
}
