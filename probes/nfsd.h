/*
 * nfsd.h: the NFS server's counters from /proc/net/rpc/nfsd.
 *
 * Each line is a label and numbers; the proc2/proc3/proc4/proc4ops lines
 * begin with how many counts follow.  "th" has the thread count first;
 * kernels before 4.3 follow it with a 10-bucket busy histogram (kept
 * as th_hist), later ones with zeros.  has says which lines were read.
 */
#ifndef NFSD_H
#define NFSD_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define NFSD_OPS_MAX	128

/* Bits of struct nfsd's has. */
#define NFSD_HAS_RC		0x001
#define NFSD_HAS_FH		0x002
#define NFSD_HAS_IO		0x004
#define NFSD_HAS_TH		0x008
#define NFSD_HAS_RA		0x010
#define NFSD_HAS_NET		0x020
#define NFSD_HAS_RPC		0x040
#define NFSD_HAS_PROC2		0x080
#define NFSD_HAS_PROC3		0x100
#define NFSD_HAS_PROC4		0x200
#define NFSD_HAS_PROC4OPS	0x400

/* Positions in proc3 (RFC 1813 procedure numbers). */
enum nfsd_proc3 {
	NFSD3_NULL, NFSD3_GETATTR, NFSD3_SETATTR, NFSD3_LOOKUP, NFSD3_ACCESS,
	NFSD3_READLINK, NFSD3_READ, NFSD3_WRITE, NFSD3_CREATE, NFSD3_MKDIR,
	NFSD3_SYMLINK, NFSD3_MKNOD, NFSD3_REMOVE, NFSD3_RMDIR, NFSD3_RENAME,
	NFSD3_LINK, NFSD3_READDIR, NFSD3_READDIRPLUS, NFSD3_FSSTAT,
	NFSD3_FSINFO, NFSD3_PATHCONF, NFSD3_COMMIT
};
#define NFSD3_NPROCS	22

/* Positions in proc4ops (RFC 7530 operation numbers). */
enum nfsd_op4 {
	NFSD4_OP_ACCESS = 3, NFSD4_OP_CLOSE = 4, NFSD4_OP_COMMIT = 5,
	NFSD4_OP_GETATTR = 9, NFSD4_OP_LOOKUP = 15, NFSD4_OP_OPEN = 18,
	NFSD4_OP_PUTFH = 22, NFSD4_OP_READ = 25, NFSD4_OP_READDIR = 26,
	NFSD4_OP_WRITE = 38
};

/* The proc3 names, "null" … "commit", by enum nfsd_proc3. */
extern const char *const nfsd_proc3_names[NFSD3_NPROCS];

struct nfsd_ops {			/* "proc3 22 0 1 ..." */
	size_t		declared;	/* the count the kernel printed */
	size_t		n;		/* counts read, <= NFSD_OPS_MAX */
	uint64_t	v[NFSD_OPS_MAX];
};

struct nfsd {
	unsigned	has;		/* NFSD_HAS_x */
	uint64_t	rc_hits, rc_misses, rc_nocache;	/* reply cache */
	uint64_t	fh_stale;	/* first field of fh */
	uint64_t	io_read, io_write;	/* bytes */
	uint64_t	th_threads;
	uint64_t	th_fullcnt;	/* times all threads were busy */
	size_t		th_nhist;
	double		th_hist[10];	/* old kernels: busy-time histogram */
	uint64_t	ra_size;
	uint64_t	net_count, net_udp, net_tcp, net_tcpconn;
	uint64_t	rpc_calls, rpc_badcalls, rpc_badfmt, rpc_badauth,
			rpc_badclnt;
	struct nfsd_ops	proc2, proc3, proc4, proc4ops;
};

/* Read <root>/proc/net/rpc/nfsd; -1 and ENOENT when nfsd is not loaded. */
int	nfsd_read(const struct probe_root *, struct probe_buf *,
	    struct nfsd *, const char **errstr);
/* Parse the text; malformed lines leave their bit clear. EINVAL if none. */
int	nfsd_parse(const char *, size_t, struct nfsd *, const char **);

#endif /* NFSD_H */
