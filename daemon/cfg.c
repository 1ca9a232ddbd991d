/*
 * cfg.c: nasperfd's configuration.
 *
 * The file is read with libyaml's event API into a small tree of nodes that
 * keep their positions, then walked against cfg_keys[], the one table that
 * also gives the defaults and the keys nasperfd.yaml(5) must document.
 * libyaml accepts duplicate keys and leaves aliases and merge keys to its
 * caller; all three are refused here, as is anything the table does not name.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <yaml.h>

#include "np.h"
#include "cfg.h"
#include "snapshot.h"

#define CFG_FILE_MAX	(1024 * 1024)	/* a config bigger than this is wrong */
#define CFG_DEPTH_MAX	32		/* nesting of mappings and sequences */
#define CFG_COMM_MAX	15		/* the kernel's TASK_COMM_LEN - 1 */
#define CFG_IFNAME_MAX	15		/* IFNAMSIZ - 1 */
/*
 * Descriptors beyond the connections counted: evhttp's listen(2) backlog,
 * which a burst is accepted from in one go before any connection is looked
 * at; and the daemon's own (the event loop, the listeners, the root's
 * directories, syslog, a child's pipes, a disk test's 64 targets at two
 * each).
 */
#define CFG_NOFILE_BURST	128
#define CFG_NOFILE_OWN		256

#define CFG_OFF(m)	offsetof(struct cfg, m), sizeof ((struct cfg *)0)->m

enum cfg_type {
	CFG_ADDRPORT,		/* "ADDR:PORT" into listen_addr, listen_port */
	CFG_BOOL,		/* int, 0 or 1 */
	CFG_UINT,		/* unsigned or uint64_t, by size */
	CFG_PATH,		/* absolute path into a char array */
	CFG_LEVEL,		/* log level: int, 1 for debug */
	CFG_CIDRS,		/* sequence of CIDRs into allow, nallow */
	CFG_GROUPS,		/* mapping of name to patterns into groups */
	CFG_NICS,		/* mapping of interface to settings into nics */
	CFG_ENDPOINT,		/* "ADDR:PORT" or "PORT" into a char array */
	CFG_PATHS		/* sequence of absolute paths: dt_volumes */
};

/* One configuration key: what it is, where it goes, its range, default. */
struct cfg_key {
	const char	*name;		/* dotted path, "api.listen" */
	enum cfg_type	 type;
	size_t		 off;		/* offset in struct cfg */
	size_t		 size;		/* size of the member */
	uint64_t	 min, max;	/* CFG_UINT range */
	const char	*def;		/* default, as a string */
};

/*
 * The keys.  Defaults of list types are space-separated; a process group is
 * NAME=PATTERN,PATTERN.
 */
static const struct cfg_key cfg_keys[] = {
	{ "api.listen", CFG_ADDRPORT, CFG_OFF(listen_addr), 0, 0,
	    "0.0.0.0:9631" },
	{ "api.auth", CFG_BOOL, CFG_OFF(auth), 0, 0, "true" },
	{ "api.allow", CFG_CIDRS, CFG_OFF(allow), 0, 0,
	    "127.0.0.0/8 ::1/128 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 "
	    "169.254.0.0/16 fc00::/7 fe80::/10" },
	{ "api.max_body_bytes", CFG_UINT, CFG_OFF(max_body), 1, 1U << 30,
	    "1048576" },
	{ "api.max_header_bytes", CFG_UINT, CFG_OFF(max_headers), 1, 1U << 20,
	    "16384" },
	{ "api.max_connections", CFG_UINT, CFG_OFF(max_connections), 1, 10000,
	    "64" },
	{ "api.max_connections_per_address", CFG_UINT, CFG_OFF(max_per_address),
	    1, 10000, "16" },
	{ "api.idle_timeout", CFG_UINT, CFG_OFF(idle_timeout), 1, 3600, "30" },
	{ "api.head_timeout", CFG_UINT, CFG_OFF(head_timeout), 1, 3600, "10" },
	{ "api.tls", CFG_BOOL, CFG_OFF(tls), 0, 0, "false" },
	{ "api.tls_certificate", CFG_PATH, CFG_OFF(tls_cert), 0, 0, "" },
	{ "api.tls_key", CFG_PATH, CFG_OFF(tls_key), 0, 0, "" },
	{ "state_dir", CFG_PATH, CFG_OFF(state_dir), 0, 0,
	    "/var/lib/nasperfd" },
	{ "root", CFG_PATH, CFG_OFF(root), 0, 0, "/" },
	{ "log.level", CFG_LEVEL, CFG_OFF(debug), 0, 0, "info" },
	{ "process_groups", CFG_GROUPS, CFG_OFF(groups), 0, 0,
	    "smb=smbd,nmbd,samba-dcerpcd,rpcd_*,winbindd "
	    "ksmbd=ksmbd* "
	    "nfs=nfsd,ganesha.nfsd,rpc.mountd,lockd "
	    "afp=afpd,cnid_metad,cnid_dbd "
	    "iscsi=tgtd,iscsi_*,target_* "
	    "ftp=proftpd,vsftpd "
	    "rsync=rsync "
	    "nasperfd=nasperfd" },
	{ "interfaces", CFG_NICS, CFG_OFF(nics), 0, 0, "" },
	{ "sampler.interval_ms", CFG_UINT, CFG_OFF(sample_interval_ms), 50,
	    60000, "500" },
	{ "sampler.run_interval_ms", CFG_UINT, CFG_OFF(sample_run_interval_ms),
	    50, 60000, "200" },
	{ "sampler.full_seconds", CFG_UINT, CFG_OFF(history_full_s), 10,
	    86400, "300" },
	{ "sampler.coarse_step", CFG_UINT, CFG_OFF(history_coarse_step_s), 1,
	    3600, "10" },
	{ "sampler.coarse_seconds", CFG_UINT, CFG_OFF(history_coarse_s), 0,
	    2592000, "14400" },
	{ "verdict.disk_busy_pct", CFG_UINT, CFG_OFF(v_disk_busy_pct), 1, 100,
	    "90" },
	{ "verdict.nic_util_pct", CFG_UINT, CFG_OFF(v_nic_util_pct), 1, 100,
	    "90" },
	{ "verdict.core_busy_pct", CFG_UINT, CFG_OFF(v_core_busy_pct), 1, 100,
	    "90" },
	{ "verdict.cpu_busy_pct", CFG_UINT, CFG_OFF(v_cpu_busy_pct), 1, 100,
	    "90" },
	{ "verdict.throttled_pct", CFG_UINT, CFG_OFF(v_throttled_pct), 1, 100,
	    "20" },
	{ "verdict.cpu_wait_pct", CFG_UINT, CFG_OFF(v_cpu_wait_pct), 1, 100,
	    "30" },
	{ "verdict.cache_disk_pct", CFG_UINT, CFG_OFF(v_cache_disk_pct), 1,
	    100, "10" },
	{ "verdict.small_request_bytes", CFG_UINT, CFG_OFF(v_small_request),
	    512, 16777216, "65536" },
	{ "verdict.idle_pct", CFG_UINT, CFG_OFF(v_idle_pct), 1, 100, "30" },
	{ "transfers.min_rate_mbps", CFG_UINT, CFG_OFF(xfer_min_rate_mbps), 0,
	    100000, "40" },
	{ "transfers.min_seconds", CFG_UINT, CFG_OFF(xfer_min_seconds), 1,
	    3600, "2" },
	{ "transfers.idle_seconds", CFG_UINT, CFG_OFF(xfer_idle_seconds), 1,
	    3600, "3" },
	{ "synth.listen", CFG_ENDPOINT, CFG_OFF(synth_listen), 0, 0, "9632" },
	{ "synth.max_streams", CFG_UINT, CFG_OFF(synth_max_streams), 0, 1024,
	    "8" },
	{ "synth.max_bytes", CFG_UINT, CFG_OFF(synth_max_bytes), 1,
	    1ULL << 50, "1099511627776" },
	{ "synth.max_rate_mbps", CFG_UINT, CFG_OFF(synth_max_rate_mbps), 0,
	    1000000, "0" },
	{ "synth.idle_timeout", CFG_UINT, CFG_OFF(synth_idle_timeout), 1, 3600,
	    "30" },
	{ "synth.tls", CFG_BOOL, CFG_OFF(synth_tls), 0, 0, "false" },
	{ "samba.config", CFG_PATH, CFG_OFF(samba_config), 0, 0,
	    "/etc/samba/smb.conf" },
	{ "samba.smbstatus", CFG_PATH, CFG_OFF(samba_smbstatus), 0, 0,
	    "/usr/bin/smbstatus" },
	{ "samba.sessions_interval", CFG_UINT, CFG_OFF(samba_sessions_interval),
	    0, 3600, "10" },
	{ "zfs.zpool", CFG_PATH, CFG_OFF(zfs_zpool), 0, 0, "/usr/sbin/zpool" },
	{ "zfs.status_interval", CFG_UINT, CFG_OFF(zfs_status_interval), 0,
	    3600, "60" },
	{ "disktest.volumes", CFG_PATHS, CFG_OFF(dt_volumes), 0, 0, "" },
	{ "disktest.busy_iops", CFG_UINT, CFG_OFF(dt_busy_iops), 0, 10000000,
	    "100" },
	{ "disktest.busy_mbps", CFG_UINT, CFG_OFF(dt_busy_mbps), 0, 1000000,
	    "10" },
	{ "disktest.max_bytes", CFG_UINT, CFG_OFF(dt_max_bytes), 1048576,
	    1ULL << 50, "68719476736" },
	{ "runs.max_count", CFG_UINT, CFG_OFF(runs_max_count), 10, 10000000,
	    "2000" },
	{ "runs.max_bytes", CFG_UINT, CFG_OFF(runs_max_bytes), 16384,
	    1ULL << 40, "67108864" },
};

/* The keys of one interfaces.NAME mapping (cfg_key_name() lists them too). */
static const struct cfg_key cfg_nic_keys[] = {
	{ "speed_mbps", CFG_UINT, offsetof(struct cfg_nic, speed_mbps),
	    sizeof ((struct cfg_nic *)0)->speed_mbps, 1, 1000000, NULL },
};

enum cfg_node_type {
	CFG_NODE_SCALAR,
	CFG_NODE_SEQ,
	CFG_NODE_MAP
};

/* A parsed YAML node; a mapping's kids alternate key, value. */
struct cfg_node {
	enum cfg_node_type	 type;
	size_t			 line, col;	/* 1-based */
	char			*value;		/* scalar, NUL-terminated */
	size_t			 len;
	int			 plain;		/* unquoted scalar */
	struct cfg_node		**kids;
	size_t			 nkids;
};

/* One parse: where errors go. */
struct cfg_parse {
	const char	*name;
	const char	*buf;
	size_t		 len;
	yaml_parser_t	 parser;
	char		*cause;
};

/* Record the first error at a position; later ones are dropped. */
static NP_PRINTF(4, 5) void
cfg_error(struct cfg_parse *p, size_t line, size_t col, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (p->cause != NULL)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	if (msg == NULL || asprintf(&p->cause, "%s:%zu:%zu: %s", p->name,
	    line, col, msg) == -1)
		p->cause = NULL;
	free(msg);
}

/* Copy src into a zero-filled dst; -1 if it does not fit. */
static int
cfg_copy(char *dst, size_t dstsz, const char *src)
{
	size_t	len = strlen(src);

	if (len >= dstsz)
		return (-1);
	memset(dst, 0, dstsz);
	memcpy(dst, src, len);
	return (0);
}

/* Free a node tree. */
static void
cfg_node_free(struct cfg_node *n)
{
	size_t	i;

	if (n == NULL)
		return;
	for (i = 0; i < n->nkids; i++)
		cfg_node_free(n->kids[i]);
	free(n->kids);
	free(n->value);
	free(n);
}

/* Say what kind of node n is, for messages. */
static const char *
cfg_node_kind(const struct cfg_node *n)
{
	switch (n->type) {
	case CFG_NODE_SCALAR:
		if (n->plain && n->len == 0)
			return ("an empty value");
		return ("a scalar");
	case CFG_NODE_SEQ:
		return ("a sequence");
	case CFG_NODE_MAP:
		return ("a mapping");
	}
	return ("a node");
}

/* 1 if n is an empty or null plain scalar: "key:" with nothing after it. */
static int
cfg_node_null(const struct cfg_node *n)
{
	return (n->type == CFG_NODE_SCALAR && n->plain && (n->len == 0 ||
	    strcmp(n->value, "~") == 0 || strcasecmp(n->value, "null") == 0));
}

/* Turn libyaml's error into a cause at its position. */
static void
cfg_yaml_error(struct cfg_parse *p)
{
	yaml_parser_t	*y = &p->parser;
	size_t		 line = 1, col = 1, i, off;
	const char	*problem;

	problem = y->problem != NULL ? y->problem : "malformed YAML";
	if (y->error == YAML_READER_ERROR) {
		/*
		 * Reader errors (bad UTF-8, control characters) give only a
		 * byte offset: count lines, and characters in the last.
		 */
		off = y->problem_offset < p->len ? y->problem_offset : p->len;
		for (i = 0; i < off; i++) {
			if (p->buf[i] == '\n') {
				line++;
				col = 1;
			} else if (((unsigned char)p->buf[i] & 0xc0) != 0x80)
				col++;
		}
		if (y->problem_value != -1)
			cfg_error(p, line, col, "%s 0x%02x; the file must be "
			    "UTF-8", problem,
			    (unsigned)y->problem_value & 0xff);
		else
			cfg_error(p, line, col, "%s", problem);
		return;
	}
	if (y->error == YAML_MEMORY_ERROR) {
		cfg_error(p, 1, 1, "out of memory");
		return;
	}
	line = y->problem_mark.line + 1;
	col = y->problem_mark.column + 1;
	off = y->problem_mark.index;
	if (off < p->len && p->buf[off] == '\t')
		cfg_error(p, line, col,
		    "%s: a tab cannot indent YAML, use spaces", problem);
	else if (y->context != NULL)
		cfg_error(p, line, col, "%s %s", problem, y->context);
	else
		cfg_error(p, line, col, "%s", problem);
}

/* Next event; -1 with the cause set on a YAML error. */
static int
cfg_next(struct cfg_parse *p, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&p->parser, ev)) {
		cfg_yaml_error(p);
		return (-1);
	}
	return (0);
}

/* Add kid to a node's list. */
static int
cfg_node_add(struct cfg_parse *p, struct cfg_node *n, struct cfg_node *kid)
{
	struct cfg_node	**kids;

	kids = reallocarray(n->kids, n->nkids + 1, sizeof *kids);
	if (kids == NULL) {
		cfg_error(p, kid->line, kid->col, "out of memory");
		cfg_node_free(kid);
		return (-1);
	}
	n->kids = kids;
	n->kids[n->nkids++] = kid;
	return (0);
}

/*
 * Build the node that starts with event ev (which this takes), reading to
 * its end.  NULL with the cause set.
 */
static struct cfg_node *
cfg_build(struct cfg_parse *p, yaml_event_t *ev, int depth)
{
	struct cfg_node	*n = NULL, *kid;
	yaml_event_t	 next;
	yaml_char_t	*anchor = NULL, *tag = NULL;
	yaml_event_type_t end = YAML_NO_EVENT;
	size_t		 line, col;

	line = ev->start_mark.line + 1;
	col = ev->start_mark.column + 1;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		cfg_error(p, line, col, "aliases are not supported: '*%s'",
		    ev->data.alias.anchor);
		goto out;
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
		end = YAML_SEQUENCE_END_EVENT;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
		end = YAML_MAPPING_END_EVENT;
		break;
	default:
		cfg_error(p, line, col, "unexpected YAML event");
		goto out;
	}
	if (anchor != NULL) {
		cfg_error(p, line, col, "anchors are not supported: '&%s'",
		    anchor);
		goto out;
	}
	if (tag != NULL) {
		cfg_error(p, line, col, "tags are not supported: '%s'", tag);
		goto out;
	}
	if (depth > CFG_DEPTH_MAX) {
		cfg_error(p, line, col, "nested more than %d levels deep",
		    CFG_DEPTH_MAX);
		goto out;
	}
	if ((n = calloc(1, sizeof *n)) == NULL) {
		cfg_error(p, line, col, "out of memory");
		goto out;
	}
	n->line = line;
	n->col = col;
	if (ev->type == YAML_SCALAR_EVENT) {
		n->type = CFG_NODE_SCALAR;
		n->len = ev->data.scalar.length;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		if ((n->value = malloc(n->len + 1)) == NULL) {
			cfg_error(p, line, col, "out of memory");
			goto fail;
		}
		memcpy(n->value, ev->data.scalar.value, n->len);
		n->value[n->len] = '\0';
		goto out;
	}
	n->type = end == YAML_SEQUENCE_END_EVENT ? CFG_NODE_SEQ : CFG_NODE_MAP;
	for (;;) {
		if (cfg_next(p, &next) == -1)
			goto fail;
		if (next.type == end) {
			yaml_event_delete(&next);
			break;
		}
		if ((kid = cfg_build(p, &next, depth + 1)) == NULL ||
		    cfg_node_add(p, n, kid) == -1)
			goto fail;
	}
	goto out;
fail:
	cfg_node_free(n);
	n = NULL;
out:
	yaml_event_delete(ev);
	return (n);
}

/*
 * Parse the whole stream: at most one document.  *root is NULL for an
 * empty stream.  -1 with the cause set.
 */
static int
cfg_read_stream(struct cfg_parse *p, struct cfg_node **root)
{
	yaml_event_t	 ev;
	int		 rc = -1;

	*root = NULL;
	if (cfg_next(p, &ev) == -1)
		return (-1);
	yaml_event_delete(&ev);				/* STREAM-START */
	if (cfg_next(p, &ev) == -1)
		return (-1);
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		return (0);
	}
	yaml_event_delete(&ev);				/* DOCUMENT-START */
	if (cfg_next(p, &ev) == -1)
		return (-1);
	if ((*root = cfg_build(p, &ev, 0)) == NULL)
		return (-1);
	if (cfg_next(p, &ev) == -1)
		goto out;
	yaml_event_delete(&ev);				/* DOCUMENT-END */
	if (cfg_next(p, &ev) == -1)
		goto out;
	if (ev.type != YAML_STREAM_END_EVENT) {
		cfg_error(p, ev.start_mark.line + 1, ev.start_mark.column + 1,
		    "only one YAML document is allowed");
		yaml_event_delete(&ev);
		goto out;
	}
	yaml_event_delete(&ev);
	rc = 0;
out:
	if (rc == -1) {
		cfg_node_free(*root);
		*root = NULL;
	}
	return (rc);
}

/* Levenshtein distance between a and b, for "did you mean". */
static size_t
cfg_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j, prev, tmp, d[128];

	if (la >= NP_NITEMS(d) || lb >= NP_NITEMS(d))
		return (SIZE_MAX);
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = d[j];
			if (a[i - 1] == b[j - 1])
				d[j] = prev;
			else {
				d[j] = prev;
				if (d[j - 1] < d[j])
					d[j] = d[j - 1];
				if (tmp < d[j])
					d[j] = tmp;
				d[j]++;
			}
			prev = tmp;
		}
	}
	return (d[lb]);
}

/* Offer the closest of a candidate to path: sets *best if closer. */
static void
cfg_suggest1(const char *path, const char *cand, const char **best,
    size_t *bestd)
{
	size_t	d;

	d = cfg_distance(path, cand);
	if (d < *bestd) {
		*bestd = d;
		*best = cand;
	}
}

/*
 * Report an unknown key, with the nearest known one if it is close.  keys
 * are relative to prefix, or full dotted names when prefix is NULL.
 */
static void
cfg_unknown(struct cfg_parse *p, const struct cfg_node *key, const char *path,
    const char *prefix, const struct cfg_key *keys, size_t nkeys)
{
	static const char	*sections[] = { "api", "log", "sampler", "verdict",
	    "synth", "disktest", "samba" };
	const char		*best = NULL;
	char			 cand[256];
	size_t			 bestd = SIZE_MAX, i, d;

	for (i = 0; i < nkeys; i++) {
		if (prefix == NULL) {
			cfg_suggest1(path, keys[i].name, &best, &bestd);
			continue;
		}
		snprintf(cand, sizeof cand, "%s.%s", prefix, keys[i].name);
		if ((d = cfg_distance(path, cand)) < bestd) {
			bestd = d;
			best = keys[i].name;
		}
	}
	for (i = 0; prefix == NULL && i < NP_NITEMS(sections); i++)
		cfg_suggest1(path, sections[i], &best, &bestd);
	if (best == NULL || bestd > 2 || bestd * 3 > strlen(path))
		cfg_error(p, key->line, key->col, "unknown key '%s'", path);
	else
		cfg_error(p, key->line, key->col,
		    "unknown key '%s'; did you mean '%s%s%s'?", path,
		    prefix != NULL ? prefix : "", prefix != NULL ? "." : "",
		    best);
}

/*
 * Check a mapping's keys: scalars, no merge key, no duplicates.  -1 with
 * the cause set.
 */
static int
cfg_check_map(struct cfg_parse *p, const struct cfg_node *map,
    const char *prefix)
{
	const struct cfg_node	*k, *o;
	size_t			 i, j;

	for (i = 0; i < map->nkids; i += 2) {
		k = map->kids[i];
		if (k->type != CFG_NODE_SCALAR) {
			cfg_error(p, k->line, k->col,
			    "a key must be a scalar, not %s", cfg_node_kind(k));
			return (-1);
		}
		if (k->plain && strcmp(k->value, "<<") == 0) {
			cfg_error(p, k->line, k->col,
			    "merge keys ('<<') are not supported");
			return (-1);
		}
		if (strlen(k->value) != k->len) {
			cfg_error(p, k->line, k->col, "a key contains a NUL");
			return (-1);
		}
		for (j = 0; j < i; j += 2) {
			o = map->kids[j];
			if (strcmp(o->value, k->value) != 0)
				continue;
			cfg_error(p, k->line, k->col,
			    "duplicate key '%s%s%s', first given at %zu:%zu",
			    prefix != NULL ? prefix : "",
			    prefix != NULL ? "." : "", k->value, o->line,
			    o->col);
			return (-1);
		}
	}
	return (0);
}

/* The scalar value of n for key path; NULL with the cause set. */
static const char *
cfg_scalar(struct cfg_parse *p, const struct cfg_node *n, const char *path)
{
	if (n->type != CFG_NODE_SCALAR || cfg_node_null(n)) {
		cfg_error(p, n->line, n->col, "%s: expected a value, got %s",
		    path, cfg_node_kind(n));
		return (NULL);
	}
	if (strlen(n->value) != n->len) {
		cfg_error(p, n->line, n->col, "%s: value contains a NUL", path);
		return (NULL);
	}
	return (n->value);
}

/*
 * Parse an unsigned decimal: digits only, no sign, no leading zero, no
 * overflow.  -1 with errstr.
 */
static int
cfg_uint_parse(const char *s, uint64_t min, uint64_t max, uint64_t *v,
    const char **errstr)
{
	uint64_t	n = 0;
	const char	*c;

	if (*s == '\0' || (s[0] == '0' && s[1] != '\0')) {
		*errstr = "is not a decimal number";
		return (-1);
	}
	for (c = s; *c != '\0'; c++) {
		if (*c < '0' || *c > '9') {
			*errstr = "is not a decimal number";
			return (-1);
		}
	}
	for (c = s; *c != '\0'; c++) {
		if (n > (UINT64_MAX - (uint64_t)(*c - '0')) / 10) {
			*errstr = "is out of range";
			return (-1);
		}
		n = n * 10 + (uint64_t)(*c - '0');
	}
	if (n < min || n > max) {
		*errstr = "is out of range";
		return (-1);
	}
	*v = n;
	return (0);
}

/* Parse a YAML boolean: true/false, yes/no, on/off in any case. */
static int
cfg_bool_parse(const char *s, int *v)
{
	static const char	*yes[] = { "true", "yes", "on" };
	static const char	*no[] = { "false", "no", "off" };
	size_t			 i;

	for (i = 0; i < NP_NITEMS(yes); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*v = 1;
			return (0);
		}
		if (strcasecmp(s, no[i]) == 0) {
			*v = 0;
			return (0);
		}
	}
	return (-1);
}

/* Split api.listen's ADDR:PORT or [ADDR]:PORT; the address is checked. */
int
cfg_listen_parse(const char *s, char *host, size_t hostsz, uint16_t *port,
    const char **errstr)
{
	const char	*colon, *h;
	char		 addr[INET6_ADDRSTRLEN], buf[16];
	size_t		 hlen;
	uint64_t	 v;
	int		 af;

	if (s[0] == '[') {
		if ((colon = strstr(s, "]:")) == NULL) {
			*errstr = "expected [IPv6]:PORT";
			return (-1);
		}
		h = s + 1;
		hlen = (size_t)(colon - h);
		colon++;
		af = AF_INET6;
	} else {
		if ((colon = strrchr(s, ':')) == NULL) {
			*errstr = "expected ADDR:PORT";
			return (-1);
		}
		if (strchr(s, ':') != colon) {
			*errstr = "an IPv6 address goes in brackets, "
			    "as in [::]:9631";
			return (-1);
		}
		h = s;
		hlen = (size_t)(colon - s);
		af = AF_INET;
	}
	if (hlen == 0 || hlen >= sizeof addr || hlen >= hostsz) {
		*errstr = "expected ADDR:PORT";
		return (-1);
	}
	memcpy(addr, h, hlen);
	addr[hlen] = '\0';
	if (inet_pton(af, addr, buf) != 1) {
		*errstr = af == AF_INET ? "not an IPv4 address" :
		    "not an IPv6 address";
		return (-1);
	}
	if (cfg_uint_parse(colon + 1, 1, 65535, &v, errstr) == -1) {
		*errstr = "the port is not a number from 1 to 65535";
		return (-1);
	}
	memset(host, 0, hostsz);
	memcpy(host, addr, hlen);
	*port = (uint16_t)v;
	return (0);
}

/* ADDR:PORT as cfg_listen_parse() takes it, or a PORT alone on defhost. */
int
cfg_endpoint_parse(const char *s, const char *defhost, char *host,
    size_t hostsz, uint16_t *port, const char **errstr)
{
	uint64_t	v;

	if (strchr(s, ':') != NULL)
		return (cfg_listen_parse(s, host, hostsz, port, errstr));
	if (cfg_uint_parse(s, 1, 65535, &v, errstr) == -1) {
		*errstr = "expected ADDR:PORT or a port from 1 to 65535";
		return (-1);
	}
	if (snprintf(host, hostsz, "%s", defhost) >= (int)hostsz) {
		*errstr = "the address is too long";
		return (-1);
	}
	*port = (uint16_t)v;
	return (0);
}

/* Parse a CIDR, refusing host bits outside the prefix.  -1 with errstr. */
static int
cfg_cidr_parse1(const char *s, struct cfg_cidr *c, const char **errstr)
{
	char		 addr[INET6_ADDRSTRLEN];
	const char	*slash;
	size_t		 len, i;
	uint64_t	 prefix;
	unsigned	 max, bits;

	memset(c, 0, sizeof *c);
	slash = strchr(s, '/');
	len = slash != NULL ? (size_t)(slash - s) : strlen(s);
	if (len == 0 || len >= sizeof addr) {
		*errstr = "not an address or CIDR";
		return (-1);
	}
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (inet_pton(AF_INET, addr, c->addr) == 1) {
		c->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, addr, c->addr) == 1) {
		c->family = AF_INET6;
		max = 128;
	} else {
		*errstr = "not an address or CIDR";
		return (-1);
	}
	prefix = max;
	if (slash != NULL &&
	    cfg_uint_parse(slash + 1, 0, max, &prefix, errstr) == -1) {
		*errstr = max == 32 ?
		    "the prefix is not a number from 0 to 32" :
		    "the prefix is not a number from 0 to 128";
		goto fail;
	}
	c->prefix = (unsigned)prefix;
	for (i = 0; i < max / 8; i++) {
		bits = i * 8 >= prefix ? 8 : (prefix >= i * 8 + 8 ? 0 :
		    (unsigned)(i * 8 + 8 - prefix));
		if (bits != 0 && (c->addr[i] & ((1U << bits) - 1)) != 0) {
			*errstr = "host bits are set beyond the prefix";
			goto fail;
		}
	}
	return (0);
fail:
	memset(c, 0, sizeof *c);
	return (-1);
}

/* Parse one allow-list entry, as api.allow takes it. */
int
cfg_cidr_parse(const char *s, struct cfg_cidr *c)
{
	const char	*errstr;

	if (cfg_cidr_parse1(s, c, &errstr) == -1) {
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Check a comm pattern; NULL if fine, else why not. */
static const char *
cfg_pattern_check(const char *s)
{
	if (*s == '\0')
		return ("an empty pattern matches nothing");
	if (strlen(s) >= CFG_NAME_MAX)
		return ("the pattern is too long");
	/*
	 * The kernel truncates comm to 15 characters, so a longer literal
	 * name can never match: "samba-dcerpcd" fits, "rpcd_lsarpc_x..." not.
	 */
	if (strpbrk(s, "*?[") == NULL && strlen(s) > CFG_COMM_MAX)
		return ("is longer than 15 characters and can never match "
		    "(the kernel truncates a process's comm to 15)");
	return (NULL);
}

/* Check a group name: letters, digits, '_', '-', '.'; NULL if fine. */
static const char *
cfg_group_check(const char *s)
{
	const char	*c;

	if (*s == '\0' || strlen(s) >= CFG_NAME_MAX)
		return ("a group name has 1 to 63 characters");
	for (c = s; *c != '\0'; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' ||
		    *c == '.')
			continue;
		return ("a group name has only letters, digits, '_', '-', '.'");
	}
	return (NULL);
}

/* Check an interface name as the kernel would take it; NULL if fine. */
static const char *
cfg_ifname_check(const char *s)
{
	if (*s == '\0' || strlen(s) > CFG_IFNAME_MAX)
		return ("an interface name has 1 to 15 characters");
	if (strpbrk(s, "/: \t") != NULL || strcmp(s, ".") == 0 ||
	    strcmp(s, "..") == 0)
		return ("not an interface name");
	return (NULL);
}

/* Store an unsigned of the member's size at p. */
static void
cfg_store_uint(void *p, size_t size, uint64_t v)
{
	unsigned	u;

	if (size == sizeof (uint64_t))
		memcpy(p, &v, sizeof v);
	else {
		u = (unsigned)v;
		memcpy(p, &u, sizeof u);
	}
}

/*
 * Set a scalar key from its string form (the file's value or the table's
 * default).  -1 with *why set to an allocated message.
 */
static int
cfg_set_scalar(struct cfg *c, const struct cfg_key *k, const char *s,
    char **why)
{
	char		*field = (char *)c + k->off;
	char		 addr[64];
	const char	*errstr;
	uint64_t	 v;
	uint16_t	 port;
	int		 b;
	int		 rc = -1;

	*why = NULL;
	switch (k->type) {
	case CFG_ADDRPORT:
		if (cfg_listen_parse(s, c->listen_addr, sizeof c->listen_addr,
		    &c->listen_port, &errstr) == -1) {
			if (asprintf(why, "'%s': %s", s, errstr) == -1)
				*why = NULL;
			goto out;
		}
		break;
	case CFG_BOOL:
		if (cfg_bool_parse(s, &b) == -1) {
			errstr =
			    "is not a boolean (true/false, yes/no, on/off)";
			goto bad;
		}
		memcpy(field, &b, sizeof b);
		break;
	case CFG_UINT:
		if (cfg_uint_parse(s, k->min, k->max, &v, &errstr) == -1)
			goto range;
		cfg_store_uint(field, k->size, v);
		break;
	case CFG_PATH:
		/* A path whose default is none may be set to none. */
		if (s[0] == '\0' && k->def[0] == '\0') {
			memset(field, 0, k->size);
			break;
		}
		if (s[0] != '/') {
			errstr = "is not an absolute path";
			goto bad;
		}
		if (cfg_copy(field, k->size, s) == -1) {
			errstr = "is too long";
			goto bad;
		}
		break;
	case CFG_ENDPOINT:
		if (cfg_endpoint_parse(s, "0.0.0.0", addr, sizeof addr, &port,
		    &errstr) == -1) {
			if (asprintf(why, "'%s': %s", s, errstr) == -1)
				*why = NULL;
			goto out;
		}
		if (cfg_copy(field, k->size, s) == -1) {
			errstr = "is too long";
			goto bad;
		}
		break;
	case CFG_LEVEL:
		if (strcmp(s, "info") == 0)
			b = 0;
		else if (strcmp(s, "debug") == 0)
			b = 1;
		else {
			errstr = "is not one of info, debug";
			goto bad;
		}
		memcpy(field, &b, sizeof b);
		break;
	default:
		errstr = "is not a scalar key";
		goto bad;
	}
	rc = 0;
	goto out;
range:
	if (strcmp(errstr, "is out of range") == 0) {
		if (asprintf(why, "'%s' %s %ju-%ju", s, errstr,
		    (uintmax_t)k->min, (uintmax_t)k->max) == -1)
			*why = NULL;
		goto out;
	}
bad:
	if (asprintf(why, "'%s' %s", s, errstr) == -1)
		*why = NULL;
out:
	return (rc);
}

/* Add one CIDR to the allow-list; -1 with *why. */
static int
cfg_add_cidr(struct cfg *c, const char *s, char **why)
{
	const char	*errstr;

	*why = NULL;
	if (c->nallow == CFG_MAX_ALLOW) {
		if (asprintf(why, "more than %d entries", CFG_MAX_ALLOW) == -1)
			*why = NULL;
		return (-1);
	}
	if (cfg_cidr_parse1(s, &c->allow[c->nallow], &errstr) == -1) {
		if (asprintf(why, "'%s': %s", s, errstr) == -1)
			*why = NULL;
		return (-1);
	}
	c->nallow++;
	return (0);
}

/* Add one volume to disktest.volumes; -1 with *why. */
static int
cfg_add_volume(struct cfg *c, const char *s, char **why)
{
	const char	*errstr = NULL;
	size_t		 i;

	*why = NULL;
	if (c->dt_nvolumes == CFG_MAX_VOLUMES)
		errstr = "one volume too many";
	else if (s[0] != '/')
		errstr = "is not an absolute path";
	else if (strlen(s) >= CFG_VOLUME_MAX)
		errstr = "is too long";
	else if (strlen(s) > 1 && s[strlen(s) - 1] == '/')
		errstr = "ends in a slash";
	for (i = 0; errstr == NULL && i < c->dt_nvolumes; i++)
		if (strcmp(c->dt_volumes[i], s) == 0)
			errstr = "is listed twice";
	if (errstr != NULL) {
		if (asprintf(why, "'%s' %s", s, errstr) == -1)
			*why = NULL;
		return (-1);
	}
	cfg_copy(c->dt_volumes[c->dt_nvolumes++], CFG_VOLUME_MAX, s);
	return (0);
}

/* disktest.volumes: a sequence of absolute paths, possibly empty. */
static int
cfg_do_paths(struct cfg_parse *p, struct cfg *c, const struct cfg_node *v,
    const char *path)
{
	const struct cfg_node	*item;
	const char		*s;
	char			*why;
	size_t			 i;

	if (cfg_node_null(v)) {
		c->dt_nvolumes = 0;
		return (0);
	}
	if (v->type != CFG_NODE_SEQ) {
		cfg_error(p, v->line, v->col, "%s: expected a sequence of "
		    "absolute paths, got %s", path, cfg_node_kind(v));
		return (-1);
	}
	memset(c->dt_volumes, 0, sizeof c->dt_volumes);
	c->dt_nvolumes = 0;
	for (i = 0; i < v->nkids; i++) {
		item = v->kids[i];
		if ((s = cfg_scalar(p, item, path)) == NULL)
			return (-1);
		if (cfg_add_volume(c, s, &why) == -1) {
			cfg_error(p, item->line, item->col, "%s: %s", path,
			    why != NULL ? why : "out of memory");
			free(why);
			return (-1);
		}
	}
	return (0);
}

/* Start a new process group; NULL with *why. */
static struct cfg_group *
cfg_add_group(struct cfg *c, const char *name, char **why)
{
	struct cfg_group	*g;
	const char		*errstr;

	*why = NULL;
	if (c->ngroups == CFG_MAX_GROUPS) {
		if (asprintf(why, "more than %d groups", CFG_MAX_GROUPS) == -1)
			*why = NULL;
		return (NULL);
	}
	if ((errstr = cfg_group_check(name)) != NULL) {
		if (asprintf(why, "'%s': %s", name, errstr) == -1)
			*why = NULL;
		return (NULL);
	}
	g = &c->groups[c->ngroups++];
	cfg_copy(g->name, sizeof g->name, name);
	return (g);
}

/* Add a pattern to a group; -1 with *why. */
static int
cfg_add_pattern(struct cfg_group *g, const char *s, char **why)
{
	const char	*errstr;

	*why = NULL;
	if (g->npatterns == CFG_MAX_PATTERNS) {
		if (asprintf(why, "more than %d patterns",
		    CFG_MAX_PATTERNS) == -1)
			*why = NULL;
		return (-1);
	}
	if ((errstr = cfg_pattern_check(s)) != NULL) {
		if (asprintf(why, "'%s' %s", s, errstr) == -1)
			*why = NULL;
		return (-1);
	}
	cfg_copy(g->patterns[g->npatterns++], CFG_NAME_MAX, s);
	return (0);
}

/* Set one key from its default string; -1 only on a broken table. */
static int
cfg_set_default(struct cfg *c, const struct cfg_key *k)
{
	struct cfg_group	*g = NULL;
	char			*copy, *word, *last, *pat, *plast, *eq, *why;
	int			 rc = -1;

	switch (k->type) {
	case CFG_CIDRS:
	case CFG_GROUPS:
	case CFG_NICS:
	case CFG_PATHS:
		break;
	default:
		rc = cfg_set_scalar(c, k, k->def, &why);
		free(why);
		return (rc);
	}
	if ((copy = strdup(k->def)) == NULL)
		return (-1);
	why = NULL;
	for (word = strtok_r(copy, " ", &last); word != NULL;
	    word = strtok_r(NULL, " ", &last)) {
		if (k->type == CFG_CIDRS) {
			if (cfg_add_cidr(c, word, &why) == -1)
				goto out;
			continue;
		}
		if (k->type == CFG_PATHS) {
			if (cfg_add_volume(c, word, &why) == -1)
				goto out;
			continue;
		}
		if (k->type != CFG_GROUPS || (eq = strchr(word, '=')) == NULL)
			goto out;
		*eq = '\0';
		if ((g = cfg_add_group(c, word, &why)) == NULL)
			goto out;
		for (pat = strtok_r(eq + 1, ",", &plast); pat != NULL;
		    pat = strtok_r(NULL, ",", &plast)) {
			if (cfg_add_pattern(g, pat, &why) == -1)
				goto out;
		}
	}
	rc = 0;
out:
	free(why);
	free(copy);
	return (rc);
}

/* api.allow: a non-empty sequence of CIDRs, replacing the defaults. */
static int
cfg_do_cidrs(struct cfg_parse *p, struct cfg *c, const struct cfg_node *v,
    const char *path)
{
	const struct cfg_node	*item;
	const char		*s;
	char			*why;
	size_t			 i;

	if (v->type != CFG_NODE_SEQ) {
		cfg_error(p, v->line, v->col, "%s: expected a sequence of "
		    "addresses or CIDRs, got %s", path, cfg_node_kind(v));
		return (-1);
	}
	if (v->nkids == 0) {
		cfg_error(p, v->line, v->col,
		    "%s: an empty list would refuse every client", path);
		return (-1);
	}
	memset(c->allow, 0, sizeof c->allow);
	c->nallow = 0;
	for (i = 0; i < v->nkids; i++) {
		item = v->kids[i];
		if ((s = cfg_scalar(p, item, path)) == NULL)
			return (-1);
		if (cfg_add_cidr(c, s, &why) == -1) {
			cfg_error(p, item->line, item->col, "%s: %s", path,
			    why != NULL ? why : "out of memory");
			free(why);
			return (-1);
		}
	}
	return (0);
}

/* process_groups: a mapping of name to patterns, replacing the defaults. */
static int
cfg_do_groups(struct cfg_parse *p, struct cfg *c, const struct cfg_node *v,
    const char *path)
{
	const struct cfg_node	*name, *pats, *item;
	struct cfg_group	*g;
	const char		*s;
	char			*why, gpath[256];
	size_t			 i, j;

	if (v->type != CFG_NODE_MAP) {
		cfg_error(p, v->line, v->col, "%s: expected a mapping of group "
		    "names to patterns, got %s", path, cfg_node_kind(v));
		return (-1);
	}
	if (cfg_check_map(p, v, path) == -1)
		return (-1);
	memset(c->groups, 0, sizeof c->groups);
	c->ngroups = 0;
	for (i = 0; i < v->nkids; i += 2) {
		name = v->kids[i];
		pats = v->kids[i + 1];
		snprintf(gpath, sizeof gpath, "%s.%s", path, name->value);
		if ((g = cfg_add_group(c, name->value, &why)) == NULL) {
			cfg_error(p, name->line, name->col, "%s: %s", path,
			    why != NULL ? why : "out of memory");
			free(why);
			return (-1);
		}
		if (pats->type != CFG_NODE_SEQ) {
			cfg_error(p, pats->line, pats->col, "%s: expected a "
			    "sequence of patterns, got %s", gpath,
			    cfg_node_kind(pats));
			return (-1);
		}
		if (pats->nkids == 0) {
			cfg_error(p, pats->line, pats->col,
			    "%s: a group with no patterns matches nothing",
			    gpath);
			return (-1);
		}
		for (j = 0; j < pats->nkids; j++) {
			item = pats->kids[j];
			if ((s = cfg_scalar(p, item, gpath)) == NULL)
				return (-1);
			if (cfg_add_pattern(g, s, &why) == -1) {
				cfg_error(p, item->line, item->col, "%s: %s",
				    gpath, why != NULL ? why : "out of memory");
				free(why);
				return (-1);
			}
		}
	}
	return (0);
}

/* interfaces: a mapping of interface name to its settings. */
static int
cfg_do_nics(struct cfg_parse *p, struct cfg *c, const struct cfg_node *v,
    const char *path)
{
	const struct cfg_node	*name, *set, *k, *val;
	const struct cfg_key	*nk;
	struct cfg_nic		*nic;
	const char		*errstr, *s;
	char			 npath[256], kpath[512];
	uint64_t		 u;
	size_t			 i, j, n;
	int			 seen;

	if (v->type != CFG_NODE_MAP) {
		cfg_error(p, v->line, v->col, "%s: expected a mapping of "
		    "interface names, got %s", path, cfg_node_kind(v));
		return (-1);
	}
	if (cfg_check_map(p, v, path) == -1)
		return (-1);
	memset(c->nics, 0, sizeof c->nics);
	c->nnics = 0;
	for (i = 0; i < v->nkids; i += 2) {
		name = v->kids[i];
		set = v->kids[i + 1];
		snprintf(npath, sizeof npath, "%s.%s", path, name->value);
		if ((errstr = cfg_ifname_check(name->value)) != NULL) {
			cfg_error(p, name->line, name->col, "%s: '%s': %s",
			    path, name->value, errstr);
			return (-1);
		}
		if (c->nnics == CFG_MAX_NICS) {
			cfg_error(p, name->line, name->col,
			    "%s: more than %d interfaces", path, CFG_MAX_NICS);
			return (-1);
		}
		if (set->type != CFG_NODE_MAP) {
			cfg_error(p, set->line, set->col, "%s: expected a "
			    "mapping such as { speed_mbps: 1000 }, got %s",
			    npath, cfg_node_kind(set));
			return (-1);
		}
		if (cfg_check_map(p, set, npath) == -1)
			return (-1);
		nic = &c->nics[c->nnics++];
		cfg_copy(nic->name, sizeof nic->name, name->value);
		seen = 0;
		for (j = 0; j < set->nkids; j += 2) {
			k = set->kids[j];
			val = set->kids[j + 1];
			snprintf(kpath, sizeof kpath, "%s.%s", npath, k->value);
			nk = NULL;
			for (n = 0; n < NP_NITEMS(cfg_nic_keys); n++)
				if (strcmp(cfg_nic_keys[n].name, k->value) == 0)
					nk = &cfg_nic_keys[n];
			if (nk == NULL) {
				cfg_unknown(p, k, kpath, npath, cfg_nic_keys,
				    NP_NITEMS(cfg_nic_keys));
				return (-1);
			}
			if ((s = cfg_scalar(p, val, kpath)) == NULL)
				return (-1);
			if (cfg_uint_parse(s, nk->min, nk->max, &u,
			    &errstr) == -1) {
				if (strcmp(errstr, "is out of range") != 0)
					cfg_error(p, val->line, val->col,
					    "%s: '%s' %s", kpath, s, errstr);
				else
					cfg_error(p, val->line, val->col,
					    "%s: '%s' %s %ju-%ju", kpath, s,
					    errstr, (uintmax_t)nk->min,
					    (uintmax_t)nk->max);
				return (-1);
			}
			cfg_store_uint((char *)nic + nk->off, nk->size, u);
			seen = 1;
		}
		if (!seen) {
			cfg_error(p, set->line, set->col,
			    "%s: speed_mbps is required", npath);
			return (-1);
		}
	}
	return (0);
}

/* Set key k from node v. */
static int
cfg_do_key(struct cfg_parse *p, struct cfg *c, const struct cfg_key *k,
    const struct cfg_node *v)
{
	const char	*s;
	char		*why;

	switch (k->type) {
	case CFG_CIDRS:
		return (cfg_do_cidrs(p, c, v, k->name));
	case CFG_GROUPS:
		return (cfg_do_groups(p, c, v, k->name));
	case CFG_NICS:
		return (cfg_do_nics(p, c, v, k->name));
	case CFG_PATHS:
		return (cfg_do_paths(p, c, v, k->name));
	default:
		break;
	}
	if ((s = cfg_scalar(p, v, k->name)) == NULL)
		return (-1);
	if (cfg_set_scalar(c, k, s, &why) == -1) {
		cfg_error(p, v->line, v->col, "%s: %s", k->name,
		    why != NULL ? why : "out of memory");
		free(why);
		return (-1);
	}
	return (0);
}

/* 1 if some key lives under section path ("api" for "api.listen"). */
static int
cfg_is_section(const char *path)
{
	size_t	i, len = strlen(path);

	for (i = 0; i < NP_NITEMS(cfg_keys); i++) {
		if (strncmp(cfg_keys[i].name, path, len) == 0 &&
		    cfg_keys[i].name[len] == '.')
			return (1);
	}
	return (0);
}

/* Walk a mapping at prefix ("" at the top) against the table. */
static int
cfg_walk(struct cfg_parse *p, struct cfg *c, const struct cfg_node *map,
    const char *prefix)
{
	const struct cfg_node	*k, *v;
	const struct cfg_key	*key;
	char			 path[512];
	size_t			 i, j;

	if (cfg_check_map(p, map, *prefix != '\0' ? prefix : NULL) == -1)
		return (-1);
	for (i = 0; i < map->nkids; i += 2) {
		k = map->kids[i];
		v = map->kids[i + 1];
		snprintf(path, sizeof path, "%s%s%s", prefix,
		    *prefix != '\0' ? "." : "", k->value);
		if (strchr(k->value, '.') != NULL) {
			cfg_error(p, k->line, k->col, "unknown key '%s' (write "
			    "a dotted key as nested mappings)", path);
			return (-1);
		}
		key = NULL;
		for (j = 0; j < NP_NITEMS(cfg_keys); j++)
			if (strcmp(cfg_keys[j].name, path) == 0)
				key = &cfg_keys[j];
		if (key != NULL) {
			if (cfg_do_key(p, c, key, v) == -1)
				return (-1);
			continue;
		}
		if (!cfg_is_section(path)) {
			cfg_unknown(p, k, path, NULL, cfg_keys,
			    NP_NITEMS(cfg_keys));
			return (-1);
		}
		if (cfg_node_null(v))
			continue;	/* "api:", every key commented out */
		if (v->type != CFG_NODE_MAP) {
			cfg_error(p, v->line, v->col,
			    "%s: expected a mapping, got %s", path,
			    cfg_node_kind(v));
			return (-1);
		}
		if (cfg_walk(p, c, v, path) == -1)
			return (-1);
	}
	return (0);
}

/* A config of the table's defaults; the daemon runs on it with no file. */
struct cfg *
cfg_default(void)
{
	struct cfg	*c;
	size_t		 i;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return (NULL);
	for (i = 0; i < NP_NITEMS(cfg_keys); i++) {
		if (cfg_set_default(c, &cfg_keys[i]) == -1) {
			free(c);
			errno = EINVAL;
			return (NULL);
		}
	}
	return (c);
}

/* Parse a YAML buffer over the defaults into a new config. */
struct cfg *
cfg_parse(const char *name, const char *buf, size_t len, char **cause)
{
	struct cfg_parse	 p;
	struct cfg_node		*root = NULL;
	struct cfg		*c = NULL;
	int			 ok = 0;

	*cause = NULL;
	memset(&p, 0, sizeof p);
	p.name = name;
	p.buf = buf;
	p.len = len;
	if ((c = cfg_default()) == NULL) {
		if (asprintf(cause, "%s: out of memory", name) == -1)
			*cause = NULL;
		return (NULL);
	}
	cfg_copy(c->path, sizeof c->path, name);
	if (!yaml_parser_initialize(&p.parser)) {
		cfg_error(&p, 1, 1, "out of memory");
		goto out;
	}
	yaml_parser_set_input_string(&p.parser, (const unsigned char *)buf,
	    len);
	yaml_parser_set_encoding(&p.parser, YAML_UTF8_ENCODING);
	if (cfg_read_stream(&p, &root) == 0) {
		if (root == NULL || cfg_node_null(root))
			ok = 1;			/* empty: all defaults */
		else if (root->type != CFG_NODE_MAP)
			cfg_error(&p, root->line, root->col, "the top level "
			    "must be a mapping of keys, not %s",
			    cfg_node_kind(root));
		else if (cfg_walk(&p, c, root, "") == 0)
			ok = 1;
	}
	if (ok && c->history_full_s * 1000ULL / c->sample_interval_ms < 2) {
		cfg_error(&p, 1, 1, "sampler.full_seconds (%u) must hold at "
		    "least two samples of sampler.interval_ms (%u)",
		    c->history_full_s, c->sample_interval_ms);
		ok = 0;
	}
	if (ok && (c->tls_cert[0] == '\0') != (c->tls_key[0] == '\0')) {
		cfg_error(&p, 1, 1, "api.tls_certificate and api.tls_key go "
		    "together: name both, or neither for the certificate "
		    "nasperfd makes in its state directory");
		ok = 0;
	}
	yaml_parser_delete(&p.parser);
out:
	cfg_node_free(root);
	if (!ok) {
		free(c);
		*cause = p.cause;
		if (*cause == NULL && asprintf(cause, "%s: invalid "
		    "configuration", name) == -1)
			*cause = NULL;
		errno = EINVAL;
		return (NULL);
	}
	free(p.cause);
	return (c);
}

/* Read a file, at most CFG_FILE_MAX bytes, and parse it. */
struct cfg *
cfg_load(const char *path, char **cause)
{
	struct stat	 st;
	struct cfg	*c = NULL;
	char		*buf = NULL;
	size_t		 len = 0;
	ssize_t		 n;
	int		 fd = -1, oerrno;

	*cause = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1 ||
	    fstat(fd, &st) == -1)
		goto syserr;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		if (asprintf(cause, "%s: not a regular file", path) == -1)
			*cause = NULL;
		goto out;
	}
	if ((buf = malloc(CFG_FILE_MAX + 1)) == NULL)
		goto syserr;
	for (;;) {
		n = read(fd, buf + len, CFG_FILE_MAX + 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto syserr;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > CFG_FILE_MAX) {
			errno = EFBIG;
			if (asprintf(cause, "%s: larger than %d bytes", path,
			    CFG_FILE_MAX) == -1)
				*cause = NULL;
			goto out;
		}
	}
	c = cfg_parse(path, buf, len, cause);
	goto out;
syserr:
	if (asprintf(cause, "%s: %s", path, strerror(errno)) == -1)
		*cause = NULL;
out:
	oerrno = errno;
	free(buf);
	if (fd != -1)
		close(fd);
	errno = oerrno;
	return (c);
}

/* Free a config; it holds no pointers. */
void
cfg_free(struct cfg *c)
{
	free(c);
}

/* Match a client address against api.allow. */
int
cfg_allowed(const struct cfg *c, const struct sockaddr *sa)
{
	const struct cfg_cidr	*e;
	const uint8_t		*a4 = NULL, *a6 = NULL;
	const uint8_t		*a;
	struct sockaddr_in	 sin;
	struct sockaddr_in6	 sin6;
	size_t			 i;
	unsigned		 full, rest;

	if (sa->sa_family == AF_INET) {
		memcpy(&sin, sa, sizeof sin);
		a4 = (const uint8_t *)&sin.sin_addr;
	} else if (sa->sa_family == AF_INET6) {
		memcpy(&sin6, sa, sizeof sin6);
		a6 = sin6.sin6_addr.s6_addr;
		/* A dual-stack socket shows IPv4 clients as ::ffff:a.b.c.d. */
		if (IN6_IS_ADDR_V4MAPPED(&sin6.sin6_addr))
			a4 = a6 + 12;
	} else
		return (0);
	for (i = 0; i < c->nallow; i++) {
		e = &c->allow[i];
		if (e->family == AF_INET && a4 != NULL)
			a = a4;
		else if (e->family == AF_INET6 && a6 != NULL)
			a = a6;
		else
			continue;
		full = e->prefix / 8;
		rest = e->prefix % 8;
		if (memcmp(a, e->addr, full) != 0)
			continue;
		if (rest != 0 && ((a[full] ^ e->addr[full]) &
		    (0xffU << (8 - rest)) & 0xff) != 0)
			continue;
		return (1);
	}
	return (0);
}

/* The speed_mbps configured for an interface, 0 if none. */
uint64_t
cfg_nic_speed(const struct cfg *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->nnics; i++)
		if (strcmp(c->nics[i].name, name) == 0)
			return (c->nics[i].speed_mbps);
	return (0);
}

/* The data port's cap per address: never below synth.max_streams. */
unsigned
cfg_synth_per_address(const struct cfg *c)
{
	return (c->max_per_address > c->synth_max_streams ?
	    c->max_per_address : c->synth_max_streams);
}

/* What RLIMIT_NOFILE must allow for c. */
unsigned
cfg_nofile(const struct cfg *c)
{
	return (c->max_connections + CFG_NOFILE_BURST + c->synth_max_streams +
	    CFG_SYNTH_SPARE + CFG_NOFILE_OWN);
}

/* Name the i-th key, for the man page test and --help-config. */
const char *
cfg_key_name(size_t i)
{
	static const char	*nic_names[] = { "interfaces.NAME.speed_mbps" };

	if (i < NP_NITEMS(cfg_keys))
		return (cfg_keys[i].name);
	i -= NP_NITEMS(cfg_keys);
	if (i < NP_NITEMS(nic_names))
		return (nic_names[i]);
	return (NULL);
}

/* The i-th key's default as a string ("" when it has none). */
const char *
cfg_key_default(size_t i)
{
	if (i < NP_NITEMS(cfg_keys))
		return (cfg_keys[i].def);
	i -= NP_NITEMS(cfg_keys);
	if (i < NP_NITEMS(cfg_nic_keys))
		return ("");
	return (NULL);
}

/* The snapshot options of configuration cfg; opts points into groups, pats. */
void
cfg_snapshot_opts(const struct cfg *cfg, struct snapshot_opts *opts,
    struct snapshot_group *groups, const char *(*pats)[CFG_MAX_PATTERNS])
{
	size_t	i, j;

	memset(opts, 0, sizeof *opts);
	for (i = 0; i < cfg->ngroups; i++) {
		for (j = 0; j < cfg->groups[i].npatterns; j++)
			pats[i][j] = cfg->groups[i].patterns[j];
		groups[i].name = cfg->groups[i].name;
		groups[i].patterns = pats[i];
		groups[i].npatterns = cfg->groups[i].npatterns;
		/* The group nasperfd is this daemon, not every one. */
		groups[i].pid = strcmp(cfg->groups[i].name, "nasperfd") == 0 ?
		    (int)getpid() : 0;
	}
	opts->groups = groups;
	opts->ngroups = cfg->ngroups;
}
