/*
 * sockowner.h: which processes hold given sockets.
 *
 * A socket's inode (sock_diag gives it) is found among the descriptors in
 * <root>/proc/PID/fd, whose links read "socket:[INODE]", so that a
 * connection is tied to its smbd, ganesha.nfsd or afpd at once, without
 * waiting for smbstatus.  A socket the kernel holds itself (nfsd's) has
 * no descriptor and no owner.  Only root may read other users' fd
 * directories: the others are counted, not guessed.  Every process's
 * descriptors are read, so the cost grows with all open descriptors of
 * the box; nothing is allocated but the hits.
 */
#ifndef SOCKOWNER_H
#define SOCKOWNER_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define SOCKOWNER_COMM_MAX	64

/* One process holding one of the sockets. */
struct sockowner_hit {
	uint64_t	inode;
	int		pid;
	char		comm[SOCKOWNER_COMM_MAX];	/* "?" if unreadable */
};

/* The owners found; zero it before the first use. */
struct sockowner {
	struct sockowner_hit	*v;		/* in /proc's order */
	size_t			 n, cap;
	size_t			 unreadable;	/* processes whose fd we may
						   not read (EACCES, EPERM) */
};

/*
 * Find the owners of the n inodes under <root>/proc into o (emptied
 * first): one hit per inode and process, as a socket shared across fork
 * has several and one dup'ed within a process has one.  Processes that
 * vanish meanwhile and descriptors closed meanwhile are skipped.  -1 with
 * errno: ENOENT no <root>/proc, ENOMEM, EMFILE or ENFILE.
 */
int	sockowner_read(const struct probe_root *, const uint64_t *inodes,
	    size_t n, struct sockowner *o);
/* Free the hits; o may be reused. */
void	sockowner_clear(struct sockowner *o);

#endif /* SOCKOWNER_H */
