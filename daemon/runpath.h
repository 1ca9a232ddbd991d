/*
 * runpath.h: the resources a run's transfer actually used.
 *
 * When a live run opens and when it ends, the client's TCP connections to
 * the file services are read with sock_diag (their tcp_info counters) and
 * tied to the processes holding their sockets, whose CPU, scheduler wait,
 * I/O and cgroup are read too.  The first snapshot is kept in the run (so
 * a restart does not lose it); the difference between the two is the
 * run's path: which connections carried it and how (bytes, round trip,
 * retransmits, the time the sender was limited by the receiver's window or
 * its own buffer), and which processes served it and what they spent.
 */
#ifndef RUNPATH_H
#define RUNPATH_H

#include <jansson.h>

struct daemon;

/*
 * The ports whose connections count as a transfer's: SMB 445 and 139 (and
 * smb.conf's smb ports), NFS 2049, AFP 548, iSCSI 3260 and the synthetic
 * data port.
 */
#define RUNPATH_PORTS	{ 445, 139, 2049, 548, 3260 }
#define RUNPATH_PORTS_MAX	12	/* with smb.conf's and the data port */

/*
 * The file services' ports (without the data port) into ports, which has
 * room for RUNPATH_PORTS_MAX; how many.
 */
size_t	runpath_file_ports(const struct daemon *, unsigned *ports);
/* The service a local port is: "smb", "nfs", "afp", "iscsi", "synth". */
const char *runpath_service(const struct daemon *, unsigned port);

/* Read smbd's ports from the configured smb.conf again. */
void	runpath_refresh(struct daemon *);
/*
 * A snapshot of the path to client_addr now (IPv4 or IPv6 text): its
 * connections and their processes.  Never NULL but on ENOMEM: what could
 * not be read is said in it ("unavailable").  With box, every process's
 * CPU ticks too, to name the busiest processes off the path.  pid (0:
 * none) is a local run's own process: it and its descendants are on the
 * path too.
 */
json_t	*runpath_snap(struct daemon *, const char *client_addr, int box,
	    int pid);
/*
 * The snapshots of n paths at once, into snaps (NULL on ENOMEM), as
 * runpath_snap gives them without box: one reading of every client's
 * connections and of the processes holding them serves them all;
 * reading, when not NULL, is one made already (the transfers watch's:
 * every client's connections to the file services, sockets it holds
 * copied), else one is made.
 */
struct inetdiag;
void	runpath_snaps(struct daemon *, const char *const *clients,
	    const int *pids, size_t n, const struct inetdiag *reading,
	    json_t **snaps);
/*
 * Merge snapshot snap into seen (a copy of the first snapshot, merged
 * into since): each connection and process takes its latest counters,
 * and those snap no longer has are marked "gone" with the counters they
 * had when last seen, so a connection that opens and closes within a run
 * still counts, when it lived through one merge.
 */
void	runpath_merge(json_t *seen, const json_t *snap);
struct inetdiag_conn;
/*
 * A file-service connection whose socket was just destroyed, with its
 * last counters (sock_diag's destroy event, which the transfers watch
 * hears): remembered for two minutes, the last 256 of them.
 */
void	runpath_closed_note(struct daemon *, const struct inetdiag_conn *);
/*
 * The connections of seen that are gone take the last counters noted
 * for them, so that the bytes of a connection's last half second, after
 * the last reading, count.
 */
void	runpath_closed_apply(const struct daemon *, json_t *seen);
/*
 * The path of a run between its first snapshot and what was seen since
 * (start may be NULL: a run that was not open live; end the merged
 * snapshots), its rates over the snapshots' span (seconds when they have
 * no times): {"observed", "client", "interface", "connections",
 * "processes", "others" (the busiest processes off the path, when both
 * snapshots read every process), "summary", "unavailable"}.  A run that
 * declared its protocol (protocol: "smb3", "nfs4"...; NULL: none) leaves
 * out the same client's connections of another file protocol, and the
 * processes and files that only they held: "set_aside" counts them.
 * NULL on ENOMEM.
 */
json_t	*runpath_report(const json_t *start, const json_t *end,
	    double seconds, const char *protocol);

/*
 * The verdict's view of a path report (runpath_report): its connections'
 * totals, its interface, its serving processes and the busiest others.
 * A report that was not observed gives a path whose observed is 0.
 */
struct verdict_path;
void	runpath_view(const json_t *report, struct verdict_path *);
/*
 * Add to a path report its "volumes": the filesystems of the data files
 * its processes held open (under an SMB share's path for an SMB run, else
 * any but the servers' own state), each with its mount, device and every
 * device of the stack below it, from topology t.
 */
struct topology;
void	runpath_volumes(json_t *report, const struct topology *t,
	    const char *protocol);
/*
 * Add the kernel NFS server's threads to procs as one process (their
 * counters summed, "kernel": true, "threads" their number); 0 when the
 * box runs none.  The connections to port 2049 that no process holds are
 * theirs, and the exports open to the client are their volumes.
 */
struct probe_buf;
int	runpath_knfsd(const struct daemon *, struct probe_buf *,
	    json_t *procs);

#endif /* RUNPATH_H */
