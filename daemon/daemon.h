/*
 * daemon.h: the one struct nasperfd passes to its callbacks.
 */
#ifndef DAEMON_H
#define DAEMON_H

#include <stdint.h>
#include <time.h>

#include "probe.h"
#include "state.h"
#include "tls.h"

struct cfg;
struct event;
struct event_base;
struct evhttp;
struct evhttp_bound_socket;
struct api_conn;
struct api_wait;
struct peercap;
struct sampler;
struct runs;
struct disktest;
struct synth;
struct pathcap;
struct smbsess;
struct zpool;
struct topology;

struct daemon {
	struct event_base	*base;
	struct cfg		*cfg;		/* the running configuration */
	const char		*cfg_path;	/* NULL: built-in defaults */

	/* Command-line overrides, applied over every (re)loaded config. */
	const char		*opt_listen;
	const char		*opt_state;
	const char		*opt_root;
	int			 opt_debug;
	const char		*opt_rotate;	/* --rotate-token: which */
	int			 opt_rotate_cert; /* --rotate-certificate */
	int			 opt_fingerprint; /* --fingerprint */

	char			 state_dir[4096];	/* in use */
	char			 token[STATE_TOKEN_LEN + 1];	/* control */
	char			 token_read[STATE_TOKEN_LEN + 1];
	struct probe_root	 root;
	int			 is_root;	/* running with euid 0 */
	struct timespec		 started;	/* CLOCK_MONOTONIC */

	struct ssl_ctx_st	*tls_ctx;	/* api.tls, synth.tls; or NULL */
	char			 tls_fp[TLS_FP_SIZE];	/* its certificate's */

	struct evhttp		*http;
	struct evhttp_bound_socket *sock;
	struct api_conn		*conns;		/* open API connections */
	unsigned		 nconns;	/* their sockets */
	unsigned		 nadmitted;	/* past allow and the cap */
	struct peercap		*peercap;	/* API connections per address */
	struct event		*ev_sweep;	/* expires idle connections */
	int			 accepting;	/* listener enabled */
	time_t			 refused_at;	/* last api.allow log line */
	unsigned		 refused_quiet;	/* refusals not logged since */
	struct api_wait		*waits;		/* ?interval= requests pending */
	unsigned		 nwaits;

	struct event		*ev_hup, *ev_term, *ev_int;

	struct sampler		*sampler;	/* the history of counters */
	struct runs		*runs;		/* client runs and reports */
	struct disktest		*disktest;	/* the disk analyzer */
	struct synth		*synth;		/* the synthetic data plane */
	unsigned		 synth_port;	/* its port; 0: not listening */
	/* smbd's ports from smb.conf (smb ports), read as each run opens */
	unsigned		 smb_ports[4];
	size_t			 nsmb_ports;
	struct pathcap		*pathcap;	/* measured path capacities */
	struct smbsess		*smbsess;	/* smbd's sessions (smbstatus) */
	struct zpool		*zpool;		/* ZFS's pools (zpool status) */
	struct transfers	*transfers;	/* copies noticed on their own */
	struct authfail		*authfail;	/* failed tokens per address */
	struct runpath_closed	*closed;	/* connections just destroyed */
	/*
	 * The transfers watch's last reading of the file services'
	 * connections (transfers.c's, NULL when none) and when it was made
	 * (nptime_mono): runs.c reads the paths of open runs from it.
	 */
	const struct inetdiag	*file_conns;
	double			 file_conns_at;
};

/*
 * Whether the API's (synth 0) or the data plane's (synth 1) new
 * connections speak TLS: so configured, with a certificate loaded
 * (cfg.h's fields).
 */
#define DAEMON_TLS(d, synth)	(((synth) ? (d)->cfg->synth_tls : \
	(d)->cfg->tls) && (d)->tls_ctx != NULL)

/*
 * Apply the command-line overrides to cfg; -1 with an allocated *cause when
 * one is malformed (a bad -l).
 */
int	daemon_override(const struct daemon *, struct cfg *, char **cause);
/*
 * The box's topology, its Samba part from samba.config; caller frees with
 * topology_free().  NULL with errno on ENOMEM.
 */
struct topology *daemon_topology(struct daemon *);
/*
 * What a request's Authorization header (may be NULL) allows: the control
 * scope when api.auth is off, else the token's (http.h).
 */
enum http_scope daemon_scope(const struct daemon *, const char *authorization);

#endif /* DAEMON_H */
