/*
 * encode.h: probe results as JSON for the API, and as Prometheus text.
 *
 * The probes library knows nothing of jansson or libevent; these functions
 * turn its structs into what the API serves.  Every json_t returned is a new
 * reference the caller owns (json_decref).  Values a probe could not read
 * are JSON null (or absent), never 0; a ratio over a zero denominator is null.
 */
#ifndef ENCODE_H
#define ENCODE_H

#include <jansson.h>

struct evbuffer;
struct smbstatus_session;
struct snapshot;
struct topology;
struct zfs_datasets;
struct zfs_status;
struct zfs_viostat;

/*
 * A JSON string of s; bytes that are not UTF-8 become the text "\xNN", so
 * one odd name cannot void a whole answer (json_string() refuses them).
 * NULL only on ENOMEM (encode.c).
 */
json_t	*enc_text(const char *s);
/* enc_text(), or JSON null when s is NULL or empty (encode.c). */
json_t	*enc_text_or_null(const char *s);

/*
 * One SMB session: {"pid", "user", "group", "machine", "address",
 * "dialect", "signing": {"degree", "cipher"}, "encryption"} (encode.c).
 */
json_t	*enc_smb_session(const struct smbstatus_session *);

/*
 * The pools "zpool status" listed: [{"name", "state", "errors", "scan":
 * {"function", "state", "done_pct", "bytes_per_second", "scanned_bytes",
 * "issued_bytes", "total_bytes", "processed_bytes", "eta_s"} or null,
 * "vdevs": [{"name", "type", "class", "parity", "depth", "parent",
 * "state", "read_errors", "write_errors", "checksum_errors", "note"}]}]
 * (enc_topology.c).
 */
json_t	*enc_zfs_pools(const struct zfs_status *);
/*
 * The datasets zfs get listed: [{"name", "mountpoint", "sync",
 * "compression", "primarycache", "recordsize_bytes"}], null where
 * unknown (enc_topology.c).
 */
json_t	*enc_zfs_datasets(const struct zfs_datasets *);
/*
 * Each row of zpool iostat -vl: [{"pool", "name", "depth", "class",
 * "alloc_bytes", "free_bytes", "read_ops_per_s", "write_ops_per_s",
 * "read_bytes_per_s", "write_bytes_per_s", "total_wait_read_ms", ...,
 * "disk_wait_...", "syncq_wait_...", "asyncq_wait_...", "scrub_wait_ms",
 * "trim_wait_ms", "rebuild_wait_ms"}], the columns its header had, null
 * where it printed "-" (enc_topology.c).
 */
json_t	*enc_zfs_viostat(const struct zfs_viostat *);

/* One counter snapshot as served by GET /v1/counters (enc_counters.c). */
json_t	*enc_counters(const struct snapshot *);
/*
 * Rates between two snapshots of the same root, prev taken before cur:
 * per-core CPU %, per-disk r/s w/s rMB/s wMB/s await aqu-sz %util (md arrays
 * from their members), per-NIC bytes and packets per second, per process
 * group CPU % (enc_counters.c).
 */
json_t	*enc_rates(const struct snapshot *prev, const struct snapshot *cur);
/* The storage, NIC and identity topology, GET /v1/topology (enc_topology.c). */
json_t	*enc_topology(const struct topology *);
/*
 * Append the Prometheus text exposition of a snapshot to evb, metric names
 * in node_exporter's style with the nasperf_ prefix (metrics.c).  0 or -1.
 */
int	 metrics_render(struct evbuffer *evb, const struct snapshot *);
struct transfers_total;
/*
 * Append the per-client byte counters (n of them, then other unless it
 * is zero) and the transfers' count and those under way (metrics.c).
 */
int	 metrics_render_clients(struct evbuffer *evb,
	    const struct transfers_total *v, size_t n,
	    const struct transfers_total *other, unsigned long count,
	    unsigned active);
struct runs_tally;
/*
 * Append the verdicts given since nasperfd started, by origin and class,
 * and the hints given with them (metrics.c).
 */
int	 metrics_render_verdicts(struct evbuffer *evb,
	    const struct runs_tally *v, size_t n);
/* A disk's or a volume's baseline, as the disk analyzer measured it. */
struct metrics_baseline {
	char	name[256];	/* "sda", or a volume's mount point */
	int	volume;
	double	read, write;	/* bytes/s; 0: never measured */
	double	when;		/* Unix seconds */
};
/*
 * Append the disks' and volumes' baselines: what the disk analyzer
 * measured each can do, and when (metrics.c).
 */
int	 metrics_render_baseline(struct evbuffer *evb,
	    const struct metrics_baseline *v, size_t n);
/*
 * Append each ZFS vdev's operations, bandwidth and latencies over the
 * second zpool iostat measured, which ended at when (metrics.c).
 */
int	 metrics_render_zfs_vdevs(struct evbuffer *evb,
	    const struct zfs_viostat *io, double when);

#endif /* ENCODE_H */
