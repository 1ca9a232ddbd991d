/*
 * pidfiles.h: the regular files a process holds open, with the device of
 * the filesystem each is on, to find the volume a transfer read or wrote.
 *
 * Each entry of /proc/PID/fd is followed (fstatat) to the file it names:
 * a regular file gives its st_dev (major:minor, which for btrfs is the
 * anonymous device mountinfo shows too) and the path the link names; a
 * block device opened raw gives its own major:minor.  Sockets, pipes,
 * character devices and directories are left out.  Only root or the
 * process's owner can read its descriptors.
 */
#ifndef PIDFILES_H
#define PIDFILES_H

#include <stddef.h>

#include "probe.h"

#define PIDFILES_MAX		16	/* files kept per process */
#define PIDFILES_PATH_MAX	512

struct pidfiles_file {
	unsigned	major, minor;	/* st_dev of the filesystem; a block
					 * device's own st_rdev */
	int		block;		/* a block device opened raw */
	int		fd;		/* the descriptor (0-2: a standard
					 * stream) */
	char		path[PIDFILES_PATH_MAX];	/* as the link names it */
};

struct pidfiles {
	struct pidfiles_file v[PIDFILES_MAX];
	size_t		n;
	size_t		dropped;	/* regular files past PIDFILES_MAX */
};

/*
 * Read process pid's open regular files and block devices into f, the
 * files those want (NULL: all) says yes to by their path.  -1 with errno: EACCES or EPERM (not root
 * nor the owner), ENOENT (the process is gone).
 */
int	pidfiles_read(const struct probe_root *, int pid,
	    int (*want)(const char *path), struct pidfiles *);

#endif /* PIDFILES_H */
