/*
 * verdict.h: what held a client's run back, from the server's counters
 * over the run's window.
 *
 * The USE method over the history: for each resource its utilisation
 * against its capacity (disk busy time, NIC bytes against the path's
 * capacity, CPU per core and per process group, a group's cgroup quota),
 * then the saturated one is the verdict; with none saturated, a read the
 * disks did not serve is "cache", small requests are "latency", and an
 * idle server is "client".  The report is JSON (the shape is in
 * nasperfd(8) and the HTML and YAML renderers read it).
 */
#ifndef VERDICT_H
#define VERDICT_H

#include <stdint.h>

#include <jansson.h>

#include "history.h"
#include "verdict_outcome.h"

struct cfg;
struct crypto;
struct smbstatus_session;
struct topology;

/*
 * The resource of a latency verdict on ZFS's intent log, which the hints
 * look for (zfs_sync_writes).
 */
#define VERDICT_ZIL_RESOURCE	"ZFS intent log (synchronous writes)"

#define VERDICT_PATH_PROCS	8
#define VERDICT_PATH_OTHERS	4
#define VERDICT_COMM_MAX	32
#define VERDICT_PATH_DISKS	32

/* A process over the run's window: one that served it, or a busy other. */
struct verdict_proc {
	int		pid;
	char		comm[VERDICT_COMM_MAX];
	int		core;		/* the CPU it last ran on, -1 unknown */
	int		threads;	/* 0 unknown */
	int		kernel;		/* kernel threads summed (nfsd) */
	double		cpu_pct;	/* of one core; NAN unknown */
	double		wait_pct;	/* runnable, waiting for a CPU; NAN */
	double		quota_cores;	/* its cgroup's CPU quota; 0 none, NAN */
	double		throttled_pct;	/* of the window; NAN unknown */
	double		throttled_periods_pct;	/* of its quota periods; NAN */
	double		storage_read;	/* bytes it had read from storage */
};

/*
 * What the run's transfer used (runpath.c): its connections, the
 * interface that holds their local address, the processes holding their
 * sockets, and the busiest processes off the path.  A path that was not
 * observed (a recorded run) leaves the whole box to be judged.
 */
struct verdict_path {
	int		observed;
	size_t		nconn;
	double		sent, received;		/* bytes, the server's view */
	double		retransmits;		/* NAN unknown */
	double		rtt_ms;			/* the largest; NAN unknown */
	double		rwnd_limited_pct;	/* of the window, the largest */
	double		sndbuf_limited_pct;
	double		sending_pct;
	char		nic[HIST_NAME_MAX];	/* "" unknown */
	int		synth;			/* to the synthetic data port */
	/*
	 * The volumes of the files its processes held open: every device of
	 * their stacks (filesystem device, arrays, partitions, disks).
	 */
	int		volume_seen;
	char		disks[VERDICT_PATH_DISKS][HIST_NAME_MAX];
	size_t		ndisks;
	char		volume[160];		/* the first, for sentences */
	int		zfs;			/* a volume is a ZFS dataset */
	char		pool[64];		/* of that pool */
	char		dataset[160];		/* that dataset */
	struct verdict_proc proc[VERDICT_PATH_PROCS];
	size_t		nproc;
	double		storage_read;	/* by all of them; NAN unknown */
	struct verdict_proc other[VERDICT_PATH_OTHERS];	/* busiest first */
	size_t		nother;
};

/* What the client saw, and the window on the server's clock. */
struct verdict_run {
	const char	*id, *label, *protocol, *op, *client, *client_addr;
	int		 has_bytes, has_ops, has_files, has_block, has_seconds;
	uint64_t	 bytes, ops, files, block_size;
	double		 seconds;	/* the client's own timing */
	double		 start, end;	/* server clock */
	int		 ended;
	int		 interrupted;	/* the client stopped it unfinished */
	int		 retroactive;
	int		 has_offset;
	double		 clock_offset;	/* client minus server */

	/*
	 * The measured capacity of the network path to this client in the
	 * run's direction (bytes/s, from a synthetic-data test), 0 when
	 * none was measured: it comes before the link speed.
	 */
	double		 path_capacity;
	double		 path_capacity_time;	/* when measured, Unix s */
	/*
	 * The disk analyzer's baseline of a disk, an array or a volume (its
	 * mount point): 0 and its read and write bytes/s (0 when not
	 * measured) and when it was measured (Unix s; when may be NULL), or
	 * -1 when it has none.  NULL: no baseline at all, busy time alone.
	 */
	int		(*baseline)(void *arg, const char *disk, double *read_bps,
			    double *write_bps, double *when);
	void		*baseline_arg;

	/*
	 * For the hints, all may be NULL: this client's SMB session in the
	 * window (smbstatus), the server's configuration (smb.conf,
	 * exports, bonds, encrypted volumes) and /proc/crypto.
	 */
	const struct smbstatus_session *session;
	const struct topology	*topo;
	const struct crypto	*crypto;
	/*
	 * The fastest earlier run from this client with the same protocol
	 * and operation whose session had neither signing nor encryption:
	 * its rate (bytes/s, 0 none) and id.
	 */
	double		 plain_rate;
	const char	*plain_id;
	/* What the transfer used; NULL or not observed: the whole box. */
	const struct verdict_path *path;
};

/* What the verdict found, for the hints (verdict_hints.c). */
struct verdict_facts {
	const struct verdict_run *run;
	const struct history	*h;
	enum verdict_class	 cls;		/* the primary verdict's */
	const char		*resource;
	double			 client_rate;	/* bytes/s, NAN unknown */
	/* The session's smbd over the window, from the group's top pids. */
	int			 sess_cpu_known;
	double			 sess_pct;	/* of one core */
	int			 sess_core;
	/* The busiest interface (a bond's member when it was the limit). */
	const char		*nic;		/* NULL: none carried traffic */
	uint64_t		 nic_mtu;
	double			 nic_pkt;	/* average bytes per packet */
	double			 nic_pps;	/* packets/s, the main direction */
	/* The bond the busiest interface is a member of, and its speeds. */
	const char		*bond, *bond_mode;
	double			 member_mbps, bond_mbps;
};

/*
 * The report of run over history h: verdict, observations, evidence and
 * the series.  server (borrowed, may be NULL) is copied in as "server".
 * NULL with an allocated *cause when the history does not cover the
 * window (errno ERANGE) or on ENOMEM.  out (may be NULL) gets what it
 * decided.
 */
json_t	*verdict_report(const struct history *h, const struct verdict_run *run,
	    const struct cfg *cfg, const json_t *server,
	    struct verdict_outcome *out, char **cause);
/* The hints of a verdict: [{"kind", "text", "figure"}]; NULL on ENOMEM. */
json_t	*verdict_hints(const struct verdict_facts *);
/* bps as "123 MB/s", "12.3 MB/s" or "0.12 MB/s"; "-" when not finite. */
void	verdict_mbs(char *out, size_t outsz, double bps);

#endif /* VERDICT_H */
