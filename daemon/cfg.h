/*
 * cfg.h: nasperfd's configuration: built-in defaults, the YAML file, and
 * strict validation.
 *
 * One table in cfg.c drives parsing, validation, the defaults and the
 * nasperfd.yaml(5) page.  A load builds a whole new struct cfg; the caller
 * swaps it in only when it is valid, so a bad reload keeps the old one.
 */
#ifndef CFG_H
#define CFG_H

#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>

struct snapshot_opts;
struct snapshot_group;

#define CFG_MAX_ALLOW		64	/* CIDR entries in api.allow */
#define CFG_MAX_GROUPS		32	/* process groups */
#define CFG_MAX_PATTERNS	16	/* comm patterns per group */
#define CFG_MAX_NICS		32	/* per-interface overrides */
#define CFG_NAME_MAX		64
#define CFG_MAX_VOLUMES		16	/* disktest.volumes */
#define CFG_VOLUME_MAX		512	/* bytes of one volume path */
#define CFG_SYNTH_SPARE		16	/* data connections past max_streams */

/* One CIDR of the allow-list, IPv4 or IPv6. */
struct cfg_cidr {
	int		family;		/* AF_INET or AF_INET6 */
	uint8_t		addr[16];	/* network address, network order */
	unsigned	prefix;		/* 0..32 or 0..128 */
};

/* A process group: processes whose comm matches one of the patterns. */
struct cfg_group {
	char	name[CFG_NAME_MAX];
	/* fnmatch(3) patterns against /proc/PID/comm, e.g. "smbd", "ksmbd*" */
	char	patterns[CFG_MAX_PATTERNS][CFG_NAME_MAX];
	size_t	npatterns;
};

/* What sysfs gets wrong about an interface (veth, USB NICs say 10000 or -1). */
struct cfg_nic {
	char		name[CFG_NAME_MAX];
	uint64_t	speed_mbps;	/* link capacity to assume, Mbit/s */
};

struct cfg {
	char		path[4096];	/* file it came from, "" for defaults */

	/* api */
	char		listen_addr[64];	/* api.listen, host part */
	uint16_t	listen_port;		/* api.listen, port part */
	int		auth;			/* api.auth: 1 require the token */
	struct cfg_cidr	allow[CFG_MAX_ALLOW];	/* api.allow */
	size_t		nallow;
	uint64_t	max_body;		/* api.max_body_bytes */
	uint64_t	max_headers;		/* api.max_header_bytes */
	unsigned	max_connections;	/* api.max_connections */
	unsigned	max_per_address;	/* ..._per_address, both ports */
	unsigned	idle_timeout;		/* api.idle_timeout, seconds */
	unsigned	head_timeout;		/* api.head_timeout, seconds */
	int		tls;			/* api.tls: 1 speak TLS */
	char		tls_cert[4096];		/* api.tls_certificate; "": made */
	char		tls_key[4096];		/* api.tls_key */

	/* paths */
	char		state_dir[4096];	/* state_dir */
	char		root[4096];		/* root: where proc, sys, etc live */

	/* log */
	int		debug;			/* log.level: 1 for debug */

	/* probes */
	struct cfg_group groups[CFG_MAX_GROUPS];	/* process_groups */
	size_t		ngroups;
	struct cfg_nic	nics[CFG_MAX_NICS];		/* interfaces */
	size_t		nnics;

	/* sampler */
	unsigned	sample_interval_ms;	/* sampler.interval_ms */
	unsigned	sample_run_interval_ms;	/* sampler.run_interval_ms */
	unsigned	history_full_s;		/* sampler.full_seconds */
	unsigned	history_coarse_step_s;	/* sampler.coarse_step */
	unsigned	history_coarse_s;	/* sampler.coarse_seconds */

	/* verdict: the thresholds of the verdict engine */
	unsigned	v_disk_busy_pct;	/* verdict.disk_busy_pct */
	unsigned	v_nic_util_pct;		/* verdict.nic_util_pct */
	unsigned	v_core_busy_pct;	/* verdict.core_busy_pct */
	unsigned	v_cpu_busy_pct;		/* verdict.cpu_busy_pct */
	unsigned	v_throttled_pct;	/* verdict.throttled_pct */
	unsigned	v_cpu_wait_pct;		/* verdict.cpu_wait_pct */
	unsigned	xfer_min_rate_mbps;	/* transfers.min_rate_mbps */
	unsigned	xfer_min_seconds;	/* transfers.min_seconds */
	unsigned	xfer_idle_seconds;	/* transfers.idle_seconds */
	unsigned	v_cache_disk_pct;	/* verdict.cache_disk_pct */
	unsigned	v_small_request;	/* verdict.small_request_bytes */
	unsigned	v_idle_pct;		/* verdict.idle_pct */

	/* synth: the synthetic data plane */
	char		synth_listen[80];	/* synth.listen: ADDR:PORT, PORT */
	unsigned	synth_max_streams;	/* synth.max_streams; 0: off */
	uint64_t	synth_max_bytes;	/* synth.max_bytes, per stream */
	unsigned	synth_max_rate_mbps;	/* synth.max_rate_mbps; 0: none */
	unsigned	synth_idle_timeout;	/* synth.idle_timeout, seconds */
	int		synth_tls;		/* synth.tls: 1 speak TLS */

	/* samba: where Samba's settings and sessions come from */
	char		samba_config[4096];	/* samba.config */
	char		samba_smbstatus[4096];	/* samba.smbstatus */
	unsigned	samba_sessions_interval; /* samba.sessions_interval, s */

	/* zfs: where the pools' layout comes from */
	char		zfs_zpool[4096];	/* zfs.zpool */
	unsigned	zfs_status_interval;	/* zfs.status_interval, s */

	/* disktest: the disk analyzer */
	char		dt_volumes[CFG_MAX_VOLUMES][CFG_VOLUME_MAX];
					/* disktest.volumes: may be written */
	size_t		dt_nvolumes;
	unsigned	dt_busy_iops;		/* disktest.busy_iops; 0: none */
	unsigned	dt_busy_mbps;		/* disktest.busy_mbps; 0: none */
	uint64_t	dt_max_bytes;		/* disktest.max_bytes */
	unsigned	runs_max_count;		/* runs.max_count */
	uint64_t	runs_max_bytes;		/* runs.max_bytes */
};

/* A struct cfg holding the built-in defaults; caller frees with cfg_free(). */
struct cfg	*cfg_default(void);
/*
 * Load path over the defaults.  NULL on error with *cause set to an
 * allocated "file:line:column: message" the caller frees.
 */
struct cfg	*cfg_load(const char *path, char **cause);
/* Parse a YAML buffer as if read from name (tests, the embedded default). */
struct cfg	*cfg_parse(const char *name, const char *buf, size_t len,
		    char **cause);
/* Free a config; NULL is fine. */
void		 cfg_free(struct cfg *);
/* 1 if the address (AF_INET/AF_INET6 sockaddr) is in the allow-list. */
int		 cfg_allowed(const struct cfg *, const struct sockaddr *);
/* The configured speed for interface name in Mbit/s, or 0 if none. */
uint64_t	 cfg_nic_speed(const struct cfg *, const char *name);
/* Parse "a.b.c.d/n" or "x::y/n" into c; -1 on a malformed entry. */
int		 cfg_cidr_parse(const char *, struct cfg_cidr *c);
/*
 * Parse "a.b.c.d:port" or "[x::y]:port" into host (no brackets) and port;
 * -1 with a static *errstr.  api.listen and nasperfd -l share it.
 */
int		 cfg_listen_parse(const char *, char *host, size_t hostsz,
		    uint16_t *port, const char **errstr);
/*
 * Parse ADDR:PORT as cfg_listen_parse() does, or a PORT alone with defhost
 * as the address (synth.listen); -1 with a static *errstr.
 */
int		 cfg_endpoint_parse(const char *, const char *defhost,
		    char *host, size_t hostsz, uint16_t *port,
		    const char **errstr);
/*
 * The connections one client address may hold on the data port:
 * api.max_connections_per_address, but never fewer than synth.max_streams,
 * so that one client may run every stream.
 */
unsigned	 cfg_synth_per_address(const struct cfg *);
/*
 * The file descriptors cfg lets the daemon hold at once, which its
 * RLIMIT_NOFILE must allow: both listeners' connections and the daemon's
 * own files.
 */
unsigned	 cfg_nofile(const struct cfg *);
/*
 * The i-th key of the table, dotted ("api.listen",
 * "interfaces.NAME.speed_mbps"), or NULL past the end.
 */
const char	*cfg_key_name(size_t i);
/* The i-th key's default as nasperfd.yaml(5) shows it, or NULL past the end. */
const char	*cfg_key_default(size_t i);
/*
 * The snapshot options of cfg's process groups: groups and pats are the
 * caller's arrays that opts points into.
 */
void		 cfg_snapshot_opts(const struct cfg *, struct snapshot_opts *opts,
		    struct snapshot_group *groups,
		    const char *(*pats)[CFG_MAX_PATTERNS]);

#endif /* CFG_H */
