/*
 * bench.h: where nasperf bench reads and writes: a mounted directory, an
 * SMB share through libsmbclient, or an NFS export through libnfs.
 *
 * Each backend opens a target from its TARGET string and offers the few
 * calls the test matrix needs: whole files written or read in order,
 * directories made and removed, and a listing that fetches every entry's
 * attributes (as Finder and Explorer do).  Paths are relative to the
 * target's directory.  On failure a call returns -1 with a message in
 * fs->err.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BENCH_ERR_MAX	512

/* What the options ask of a protocol backend. */
struct bench_proto_opts {
	const char	*min_protocol;	/* SMB: NT1, SMB2, SMB3; NULL default */
	const char	*max_protocol;
	const char	*signing;	/* SMB: off, if_required, required */
	const char	*encrypt;	/* SMB: off, desired, required */
	const char	*credentials;	/* a file: username=, password= */
	int		 nfs_version;	/* 0 (URL or 3), 3, 4 */
	double		 timeout;	/* seconds */
};

/*
 * The protocol options bench and diagnose both take: their long options
 * (letters m M S e A n) and their lines of --help.
 */
#define BENCH_PROTO_LONGOPTS						\
	{ "min-protocol",	required_argument,	NULL, 'm' },	\
	{ "max-protocol",	required_argument,	NULL, 'M' },	\
	{ "signing",		required_argument,	NULL, 'S' },	\
	{ "encrypt",		required_argument,	NULL, 'e' },	\
	{ "credentials",	required_argument,	NULL, 'A' },	\
	{ "nfs-version",	required_argument,	NULL, 'n' }
#define BENCH_PROTO_HELP						\
"      --min-protocol P  smb://: NT1, SMB2, SMB3 or a dialect\n"		\
"      --max-protocol P  smb://: as --min-protocol\n"			\
"      --signing S       smb://: off, if_required or required\n"		\
"      --encrypt E       smb://: off, desired or required\n"		\
"      --credentials FILE\n"						\
"                        smb://: username=, password=, domain= lines\n"	\
"      --nfs-version V   nfs://: 3 or 4\n"

struct bench_fs;

struct bench_ops {
	const char	*name;		/* "local", "smb", "nfs" */
	/* Open path to write (created, truncated) or to read. */
	void	*(*open)(struct bench_fs *, const char *path, int wr);
	/* Whole count, or -1. */
	ssize_t	 (*read)(struct bench_fs *, void *f, void *buf, size_t n);
	ssize_t	 (*write)(struct bench_fs *, void *f, const void *buf,
		    size_t n);
	/* Close; a written file is made durable first. */
	int	 (*close)(struct bench_fs *, void *f);
	int	 (*unlink)(struct bench_fs *, const char *path);
	int	 (*mkdir)(struct bench_fs *, const char *path);
	int	 (*rmdir)(struct bench_fs *, const char *path);
	/* Read a directory and every entry's attributes; entries counted. */
	int	 (*list)(struct bench_fs *, const char *path, uint64_t *n);
	/* 1 when path exists, 0 when not, -1 on error. */
	int	 (*exists)(struct bench_fs *, const char *path);
	void	 (*free)(struct bench_fs *);
};

struct bench_fs {
	const struct bench_ops	*ops;
	char		 err[BENCH_ERR_MAX];
	char		 where[4200];	/* the target as shown */
	const char	*protocol;	/* for the run: smb3, nfs3, local... */
	char		 cache[256];	/* how the client's cache is avoided */
	char		 requests[160];	/* "": no more to say of them */
	int		 can_write;	/* 0: reads only (NFSv4 on libnfs 4) */
	char		 cant_write[256];	/* why not */
	size_t		 align;		/* buffers aligned so (O_DIRECT) */
	void		*priv;
};

/* Set fs->err; returns -1. */
int	bench_err(struct bench_fs *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Connect to host:port within timeout seconds: 0, or -1 with the reason. */
int	bench_reach(struct bench_fs *, const char *host, unsigned port,
	    double timeout);

/*
 * The host and port at the start of "host[:port][/...]" or
 * "[v6addr][:port]..."; port 0 when none.  0, or -1 when malformed.
 */
int	bench_host_port(const char *s, char *host, size_t hostsz,
	    unsigned *port);

/* The backends: 0, or -1 with the reason in fs->err. */
int	bench_local_open(struct bench_fs *, const char *dir,
	    const struct bench_proto_opts *);
int	bench_smb_open(struct bench_fs *, const char *url,
	    const struct bench_proto_opts *);
int	bench_nfs_open(struct bench_fs *, const char *url,
	    const struct bench_proto_opts *);

/*
 * Read a credentials file in smbclient's -A form ("username = u",
 * "password = p", "domain = d"; # comments): 0, or -1 with err set.
 */
int	bench_credentials(const char *path, char *user, size_t usz,
	    char *pass, size_t psz, char *domain, size_t dsz, char *err,
	    size_t errsz);

#endif /* BENCH_H */
