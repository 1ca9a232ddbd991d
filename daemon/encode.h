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

#endif /* ENCODE_H */
