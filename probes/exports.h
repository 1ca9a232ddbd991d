/*
 * exports.h: NFS exports as configured: the kernel server's /etc/exports,
 * nfs-ganesha's EXPORT blocks, and the kernel server's thread count.
 *
 * /etc/exports lines are "path [-defaults] host(options) host2(options)";
 * a path may be quoted or carry \040 escapes, a trailing backslash joins
 * the next line, "#" starts a comment.  A host without options gets the
 * defaults; "(options)" alone is every host ("*").  Effective options use
 * nfs-utils' defaults: ro, sync, wdelay, root_squash, sec=sys.
 *
 * ganesha.conf is blocks of "Key = value;" ("EXPORT { Path = /x; ... }");
 * "%include" lines are read under the same root.  EXPORT_DEFAULTS fills
 * what an EXPORT leaves out, then ganesha's own defaults: Access_Type
 * None, Protocols 3,4, SecType none,sys, Squash root_squash.
 */
#ifndef EXPORTS_H
#define EXPORTS_H

#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#define EXPORTS_PATH_MAX	512
#define EXPORTS_HOST_MAX	128
#define EXPORTS_OPTS_MAX	256
#define EXPORTS_MAX_CLIENTS	16
#define EXPORTS_MAX		128
#define EXPORTS_GANESHA_MAX	32
#define EXPORTS_GANESHA_DEPTH	8	/* nested %include */

struct exports_client {
	char	host[EXPORTS_HOST_MAX];	/* "192.0.2.0/24", "*", "@netgroup" */
	char	options[EXPORTS_OPTS_MAX];	/* defaults then own, as
						 * written */
	int	sync;		/* 1 sync (the default), 0 async */
	int	wdelay;		/* 1 wdelay (the default), 0 no_wdelay */
	int	rw;		/* 1 rw, 0 ro (the default) */
	int	root_squash;	/* 1 root_squash (the default), 0 no_ */
	int	all_squash;	/* 1 all_squash */
	char	sec[64];	/* "sys" (the default), "krb5p", "sys:krb5" */
};

struct exports_entry {
	char			path[EXPORTS_PATH_MAX];
	struct exports_client	clients[EXPORTS_MAX_CLIENTS];
	size_t			nclients;
};

struct exports {
	struct exports_entry	*v;	/* caller frees with exports_clear */
	size_t			 n;
	size_t			 cap;
	size_t			 skipped;	/* lines or clients not
						 * understood */
};

struct exports_ganesha_export {
	int	export_id;		/* -1 when not set */
	char	path[EXPORTS_PATH_MAX];
	char	pseudo[EXPORTS_PATH_MAX];	/* "" when not set */
	char	access_type[16];	/* "RW", "RO", "MDONLY", "None" */
	char	protocols[32];		/* "3,4" */
	char	sectype[64];		/* "sys", "none,sys", "krb5p" */
	char	squash[32];		/* "No_Root_Squash" */
};

struct exports_ganesha {
	struct exports_ganesha_export	exports[EXPORTS_GANESHA_MAX];
	size_t				n;
	size_t				files;		/* includes counted */
	size_t				skipped;	/* bad syntax, missing
							 * includes */
};

/* Initialise an empty list. */
void	exports_init(struct exports *);
/* Free the entries of a list; it may be reused after exports_init. */
void	exports_clear(struct exports *);
/*
 * Parse /etc/exports text into e (emptied first).  -1: ENOMEM, or EINVAL
 * for a NUL byte.
 */
int	exports_parse(const char *buf, size_t len, struct exports *e,
	    const char **errstr);
/* Read <root>/etc/exports; -1 and ENOENT when there is none. */
int	exports_read(const struct probe_root *, struct probe_buf *,
	    struct exports *e, const char **errstr);

/* Parse ganesha.conf text; %include lines are counted as skipped. */
int	exports_ganesha_parse(const char *buf, size_t len,
	    struct exports_ganesha *g, const char **errstr);
/*
 * Read path (NULL: /etc/ganesha/ganesha.conf) under root with its
 * %includes; -1 and ENOENT when there is none.
 */
int	exports_ganesha_read(const struct probe_root *, const char *path,
	    struct exports_ganesha *g, const char **errstr);
/*
 * Whether an exports client spec ("*", "192.0.2.10", "192.0.2.0/24",
 * "192.0.2.0/255.255.255.0", an IPv6 address or prefix) takes address
 * addr (numeric text): 1 yes, 0 no, -1 when it cannot tell without a
 * name service (a host name, a wildcard name, "@netgroup").
 */
int	exports_client_match(const char *spec, const char *addr);
/* The kernel server's threads from /proc/fs/nfsd/threads; -1 if absent. */
int	exports_threads_read(const struct probe_root *, uint64_t *threads);

#endif /* EXPORTS_H */
