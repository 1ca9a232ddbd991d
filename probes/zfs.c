/*
 * zfs.c: OpenZFS kstats and "zpool status".
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "np.h"
#include "zfs.h"

#define ZFS_LINE_MAX	1024
#define ZFS_COLS_MAX	32

const char *const zfs_arc_names[ZFS_ARC_NSTATS] = {
	"hits", "misses", "iohits",
	"demand_data_hits", "demand_data_misses",
	"demand_metadata_hits", "demand_metadata_misses",
	"prefetch_data_hits", "prefetch_data_misses",
	"prefetch_metadata_hits", "prefetch_metadata_misses",
	"mru_hits", "mfu_hits",
	"size", "c", "c_min", "c_max",
	"l2_hits", "l2_misses", "l2_size", "l2_asize"
};

const char *const zfs_tx_names[ZFS_TX_NSTATS] = {
	"dmu_tx_assigned", "dmu_tx_delay", "dmu_tx_error",
	"dmu_tx_suspended", "dmu_tx_group", "dmu_tx_memory_reserve",
	"dmu_tx_memory_reclaim", "dmu_tx_dirty_throttle",
	"dmu_tx_dirty_delay", "dmu_tx_dirty_over_max",
	"dmu_tx_dirty_frees_delay", "dmu_tx_quota"
};

const char *const zfs_zil_names[ZFS_ZIL_NSTATS] = {
	"zil_commit_count", "zil_commit_writer_count", "zil_itx_count",
	"zil_itx_indirect_count", "zil_itx_indirect_bytes",
	"zil_itx_copied_count", "zil_itx_copied_bytes",
	"zil_itx_needcopy_count", "zil_itx_needcopy_bytes",
	"zil_itx_metaslab_normal_count", "zil_itx_metaslab_normal_bytes",
	"zil_itx_metaslab_slog_count", "zil_itx_metaslab_slog_bytes",
	"zil_commit_error_count", "zil_commit_stall_count",
	"zil_commit_suspend_count"
};

const char *const zfs_objset_names[ZFS_OBJSET_NSTATS] = {
	"writes", "nwritten", "reads", "nread", "nunlinks", "nunlinked"
};

const char *const zfs_io_names[ZFS_IO_NSTATS] = {
	"nread", "nwritten", "reads", "writes", "wtime", "wlentime",
	"wupdate", "rtime", "rlentime", "rupdate", "wcnt", "rcnt"
};

const char *const zfs_class_names[ZFS_NCLASSES] = {
	"data", "log", "cache", "special", "dedup", "spare"
};

/* The txgs columns, in struct zfs_txg's order after state. */
static const char *const zfs_txg_cols[] = {
	"txg", "birth", "state", "ndirty", "nread", "nwritten", "reads",
	"writes", "otime", "qtime", "wtime", "stime"
};

/* Split line into at most max blank-separated words; the count. */
static size_t
zfs_words(char *line, char **w, size_t max)
{
	char	*save = NULL, *tok;
	size_t	 n = 0;

	/* Stop at max: the words after it stay as they are in line. */
	for (tok = strtok_r(line, " \t\r", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t\r", &save)) {
		w[n++] = tok;
		if (n == max)
			break;
	}
	return (n);
}

/* The index of name in names, or -1. */
static int
zfs_index(const char *const *names, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return ((int)i);
	return (-1);
}

/* 1 if line is a kstat's own first line: seven numbers ("6 1 0x01 91"). */
static int
zfs_kstat_header(const char *line)
{
	size_t	n = 0;

	while (*line != '\0') {
		line += strspn(line, " \t");
		if (*line == '\0')
			break;
		if (strspn(line, "0123456789abcdefx") !=
		    strcspn(line, " \t"))
			return (0);
		line += strcspn(line, " \t");
		n++;
	}
	return (n == 7);
}

/* Parse a named kstat's "name type data" rows. */
int
zfs_named_parse(const char *buf, size_t len, const char *const *names,
    size_t nnames, struct zfs_named *out, const char **errstr)
{
	const char	*s = buf, *end = buf + len, *val;
	char		 line[ZFS_LINE_MAX], copy[ZFS_LINE_MAX], *w[4];
	size_t		 rows = 0;
	uint64_t	 type, v;
	int		 i;

	memset(out, 0, sizeof *out);
	if (errstr != NULL)
		*errstr = NULL;
	if (nnames > ZFS_NAMED_MAX)
		nnames = ZFS_NAMED_MAX;
	while (probe_line(&s, end, line, sizeof line) == 0) {
		memcpy(copy, line, sizeof copy);
		if (zfs_words(copy, w, 4) < 3 ||
		    probe_str_u64(w[1], &type) == -1 || type > 7) {
			if (line[strspn(line, " \t")] != '\0' &&
			    !zfs_kstat_header(line) &&
			    strncmp(line, "name ", 5) != 0)
				out->skipped++;
			continue;
		}
		rows++;
		if (type == 7) {
			/* A string: the rest of the line after the type. */
			val = line + (w[2] - copy);
			if (strcmp(w[0], "dataset_name") == 0)
				(void)probe_strlcpy(out->str, val,
				    sizeof out->str);
			continue;
		}
		if ((i = zfs_index(names, nnames, w[0])) == -1)
			continue;
		if (probe_str_u64(w[2], &v) == -1) {
			out->skipped++;		/* negative or junk */
			continue;
		}
		out->v[i] = v;
		out->have |= 1U << i;
	}
	if (rows == 0) {
		if (errstr != NULL)
			*errstr = "no kstat rows";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/*
 * Map a header row's words onto names: map[col] is the index of that
 * column's name, or -1.  The number of columns, 0 when too many.
 */
static size_t
zfs_header(char *line, const char *const *names, size_t nnames, int *map)
{
	char	*w[ZFS_COLS_MAX + 1];
	size_t	 n, i;

	if ((n = zfs_words(line, w, ZFS_COLS_MAX + 1)) > ZFS_COLS_MAX)
		return (0);
	for (i = 0; i < n; i++)
		map[i] = zfs_index(names, nnames, w[i]);
	return (n);
}

/* Parse <pool>/io: a row of names, then a row of values. */
int
zfs_io_parse(const char *buf, size_t len, struct zfs_named *out,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len;
	char		 line[ZFS_LINE_MAX], *w[ZFS_COLS_MAX + 1];
	int		 map[ZFS_COLS_MAX];
	size_t		 ncols = 0, n, i;
	uint64_t	 v;

	memset(out, 0, sizeof *out);
	if (errstr != NULL)
		*errstr = "no io header and value rows";
	while (probe_line(&s, end, line, sizeof line) == 0) {
		if (zfs_kstat_header(line))
			continue;
		if (ncols == 0) {
			if (strncmp(line, "nread", 5) == 0)
				ncols = zfs_header(line, zfs_io_names,
				    ZFS_IO_NSTATS, map);
			continue;
		}
		if ((n = zfs_words(line, w, ZFS_COLS_MAX + 1)) != ncols) {
			out->skipped++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (map[i] != -1 && probe_str_u64(w[i], &v) == 0) {
				out->v[map[i]] = v;
				out->have |= 1U << map[i];
			}
		break;
	}
	if (out->have == 0) {
		errno = EINVAL;
		return (-1);
	}
	if (errstr != NULL)
		*errstr = NULL;
	return (0);
}

/* Fill t's field for txgs column c (an index of zfs_txg_cols). */
static int
zfs_txg_field(struct zfs_txg *t, int c, const char *word)
{
	uint64_t	*f[] = {
		&t->txg, &t->birth, NULL, &t->ndirty, &t->nread,
		&t->nwritten, &t->reads, &t->writes, &t->otime, &t->qtime,
		&t->wtime, &t->stime
	};

	if (c == 2) {
		if (strlen(word) != 1 || strchr("OQWSC", word[0]) == NULL)
			return (-1);
		t->state = word[0];
		return (0);
	}
	return (c < 0 ? 0 : probe_str_u64(word, f[c]));
}

/* Parse <pool>/txgs: a header row naming the columns, a row per txg. */
int
zfs_txgs_parse(const char *buf, size_t len, struct zfs_txgs *t,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len;
	char		 line[ZFS_LINE_MAX], *w[ZFS_COLS_MAX + 1];
	int		 map[ZFS_COLS_MAX];
	size_t		 ncols = 0, n, i;
	struct zfs_txg	*x;

	memset(t, 0, sizeof *t);
	if (errstr != NULL)
		*errstr = NULL;
	while (probe_line(&s, end, line, sizeof line) == 0) {
		if (ncols == 0) {
			if (strncmp(line, "txg ", 4) != 0)
				continue;
			if ((ncols = zfs_header(line, zfs_txg_cols,
			    NP_NITEMS(zfs_txg_cols), map)) == 0)
				break;
			for (i = 0; i < ncols; i++) {
				if (map[i] == 3)
					t->cols |= ZFS_TXG_NDIRTY;
				if (map[i] == 10)
					t->cols |= ZFS_TXG_WTIME;
			}
			continue;
		}
		if (line[strspn(line, " \t")] == '\0')
			continue;
		/* A ring: keep the newest ZFS_TXGS_MAX. */
		if (t->n == ZFS_TXGS_MAX) {
			memmove(&t->v[0], &t->v[1], sizeof t->v[0] *
			    (ZFS_TXGS_MAX - 1));
			t->n--;
		}
		x = &t->v[t->n];
		memset(x, 0, sizeof *x);
		if ((n = zfs_words(line, w, ZFS_COLS_MAX + 1)) != ncols) {
			t->skipped++;
			continue;
		}
		for (i = 0; i < n; i++)
			if (zfs_txg_field(x, map[i], w[i]) == -1)
				break;
		if (i < n || x->state == '\0') {
			t->skipped++;
			continue;
		}
		t->n++;
	}
	if (ncols == 0) {
		if (errstr != NULL)
			*errstr = "no txgs header row";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* Sum up the committed txgs. */
void
zfs_txgs_summary(const struct zfs_txgs *t, struct zfs_txg_summary *sum)
{
	const struct zfs_txg	*x;
	uint64_t		 stime = 0;
	size_t			 i;

	memset(sum, 0, sizeof *sum);
	for (i = 0; i < t->n; i++) {
		x = &t->v[i];
		if (x->state != 'C')
			continue;
		sum->ncommitted++;
		if (x->txg > sum->last)
			sum->last = x->txg;
		if (x->ndirty > sum->max_ndirty)
			sum->max_ndirty = x->ndirty;
		if (x->stime > sum->max_stime)
			sum->max_stime = x->stime;
		stime += x->stime;
		sum->nwritten += x->nwritten;
	}
	if (sum->ncommitted > 0)
		sum->avg_stime = stime / sum->ncommitted;
}

/* 1 if rel is a name that stays inside the kstat directory. */
static int
zfs_safe_rel(const char *rel)
{
	return (rel[0] != '\0' && rel[0] != '/' && strstr(rel, "..") == NULL);
}

/* Read spl/kstat/zfs/<rel> under proc into b. */
static int
zfs_read_rel(const struct probe_root *root, struct probe_buf *b,
    const char *rel, const char **errstr)
{
	char	path[320];

	if (errstr != NULL)
		*errstr = "no ZFS kstat";
	if (!zfs_safe_rel(rel) || snprintf(path, sizeof path,
	    "spl/kstat/zfs/%s", rel) >= (int)sizeof path) {
		errno = EINVAL;
		return (-1);
	}
	return (probe_read(root, PROBE_PROC, path, b));
}

/* Read and parse a named kstat. */
int
zfs_kstat_read(const struct probe_root *root, struct probe_buf *b,
    const char *rel, const char *const *names, size_t nnames,
    struct zfs_named *out, const char **errstr)
{
	memset(out, 0, sizeof *out);
	if (zfs_read_rel(root, b, rel, errstr) == -1)
		return (-1);
	return (zfs_named_parse(b->p, b->len, names, nnames, out, errstr));
}

/* Read and parse a pool's txgs. */
int
zfs_txgs_read(const struct probe_root *root, struct probe_buf *b,
    const char *pool, struct zfs_txgs *t, const char **errstr)
{
	char	rel[96];

	memset(t, 0, sizeof *t);
	if (strchr(pool, '/') != NULL || snprintf(rel, sizeof rel, "%s/txgs",
	    pool) >= (int)sizeof rel) {
		errno = EINVAL;
		return (-1);
	}
	if (zfs_read_rel(root, b, rel, errstr) == -1)
		return (-1);
	return (zfs_txgs_parse(b->p, b->len, t, errstr));
}

/* qsort(3) comparison of two names of zfs_pool_names(). */
static int
zfs_name_cmp(const void *a, const void *b)
{
	return (strcmp(a, b));
}

/* List the pool directories of spl/kstat/zfs, sorted by name. */
int
zfs_pool_names(const struct probe_root *root, char (*names)[64],
    size_t max, size_t *n)
{
	DIR		*d;
	struct dirent	*e;
	char		 rel[320];

	*n = 0;
	if ((d = probe_opendir(root, PROBE_PROC, "spl/kstat/zfs")) == NULL)
		return (-1);
	while ((e = readdir(d)) != NULL && *n < max) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= 64)
			continue;
		/* A pool is a directory with a txgs or io kstat. */
		snprintf(rel, sizeof rel, "spl/kstat/zfs/%s/txgs", e->d_name);
		if (!probe_exists(root, PROBE_PROC, rel)) {
			snprintf(rel, sizeof rel, "spl/kstat/zfs/%s/io",
			    e->d_name);
			if (!probe_exists(root, PROBE_PROC, rel))
				continue;
		}
		strcpy(names[(*n)++], e->d_name);
	}
	closedir(d);
	qsort(names, *n, sizeof names[0], zfs_name_cmp);
	return (0);
}

/* Read every counter; see zfs.h. */
int
zfs_counters_read(const struct probe_root *root, struct probe_buf *b,
    struct zfs_counters *z, const char **errstr)
{
	char			 names[NP_NITEMS(z->pools)][64], rel[96];
	struct zfs_pool_counters *p;
	size_t			 i, n;

	z->have = 0;
	z->npools = 0;
	if (zfs_kstat_read(root, b, "arcstats", zfs_arc_names, ZFS_ARC_NSTATS,
	    &z->arc, errstr) == -1) {
		if (errno != ENOMEM)
			errno = ENOENT;
		if (errstr != NULL)
			*errstr = "no ZFS (no /proc/spl/kstat/zfs/arcstats)";
		return (-1);
	}
	z->have |= ZFS_HAVE_ARC;
	if (zfs_kstat_read(root, b, "dmu_tx", zfs_tx_names, ZFS_TX_NSTATS,
	    &z->tx, NULL) == 0)
		z->have |= ZFS_HAVE_TX;
	if (zfs_kstat_read(root, b, "zil", zfs_zil_names, ZFS_ZIL_NSTATS,
	    &z->zil, NULL) == 0)
		z->have |= ZFS_HAVE_ZIL;
	if (zfs_pool_names(root, names, NP_NITEMS(names), &n) == -1)
		n = 0;
	for (i = 0; i < n; i++) {
		p = &z->pools[z->npools++];
		memset(p, 0, sizeof *p);
		memcpy(p->name, names[i], sizeof p->name);
		if (zfs_txgs_read(root, b, p->name, &z->scratch, NULL) == 0) {
			p->have_txgs = 1;
			p->txg_cols = z->scratch.cols;
			zfs_txgs_summary(&z->scratch, &p->txg);
		}
		snprintf(rel, sizeof rel, "%s/io", p->name);
		if (zfs_read_rel(root, b, rel, NULL) == 0 &&
		    zfs_io_parse(b->p, b->len, &p->io, NULL) == 0)
			p->have_io = 1;
	}
	if (errstr != NULL)
		*errstr = NULL;
	return (0);
}

/* Row i's growth from a to b, or -1 when either lacks it or it fell. */
static double
zfs_delta(const struct zfs_named *a, const struct zfs_named *b, int i)
{
	if (!ZFS_HAVE(a, i) || !ZFS_HAVE(b, i) || b->v[i] < a->v[i])
		return (-1);
	return ((double)(b->v[i] - a->v[i]));
}

/* The sum of two deltas, -1 if either is unknown. */
static double
zfs_sum(double x, double y)
{
	return (x < 0 || y < 0 ? -1 : x + y);
}

/* x per second, or -1 unknown. */
static double
zfs_per_s(double x, double secs)
{
	return (x < 0 ? -1 : x / secs);
}

/* hits of hits + misses in %, or -1 unknown or without any access. */
static double
zfs_pct(double hits, double misses)
{
	return (hits < 0 || misses < 0 || hits + misses <= 0 ? -1 :
	    100 * hits / (hits + misses));
}

/* Rates from a to b; see zfs.h. */
void
zfs_rates(const struct zfs_counters *a, const struct zfs_counters *b,
    double secs, struct zfs_rates *r)
{
	static const struct zfs_named	 none;
	const struct zfs_named		*aa, *ba, *az, *bz, *at, *bt;
	double				 h, m;

	aa = (a->have & b->have & ZFS_HAVE_ARC) ? &a->arc : &none;
	ba = (a->have & b->have & ZFS_HAVE_ARC) ? &b->arc : &none;
	az = (a->have & b->have & ZFS_HAVE_ZIL) ? &a->zil : &none;
	bz = (a->have & b->have & ZFS_HAVE_ZIL) ? &b->zil : &none;
	at = (a->have & b->have & ZFS_HAVE_TX) ? &a->tx : &none;
	bt = (a->have & b->have & ZFS_HAVE_TX) ? &b->tx : &none;
	if (!(secs > 0))
		secs = 1;
	h = zfs_delta(aa, ba, ZFS_ARC_HITS);
	m = zfs_delta(aa, ba, ZFS_ARC_MISSES);
	r->arc_hits = zfs_per_s(h, secs);
	r->arc_misses = zfs_per_s(m, secs);
	r->arc_hit_pct = zfs_pct(h, m);
	r->demand_data_hit_pct = zfs_pct(zfs_delta(aa, ba,
	    ZFS_ARC_DEMAND_DATA_HITS), zfs_delta(aa, ba,
	    ZFS_ARC_DEMAND_DATA_MISSES));
	r->l2_hits = zfs_per_s(zfs_delta(aa, ba, ZFS_ARC_L2_HITS), secs);
	r->l2_misses = zfs_per_s(zfs_delta(aa, ba, ZFS_ARC_L2_MISSES), secs);
	r->zil_commits = zfs_per_s(zfs_delta(az, bz, ZFS_ZIL_COMMIT), secs);
	r->zil_slog_bytes = zfs_per_s(zfs_delta(az, bz,
	    ZFS_ZIL_ITX_SLOG_BYTES), secs);
	r->zil_pool_bytes = zfs_per_s(zfs_delta(az, bz,
	    ZFS_ZIL_ITX_NORMAL_BYTES), secs);
	r->throttle_waits = zfs_per_s(zfs_sum(zfs_delta(at, bt,
	    ZFS_TX_DIRTY_THROTTLE), zfs_delta(at, bt, ZFS_TX_DIRTY_DELAY)),
	    secs);
}

/* Parse "266T", "3.30G/s", "1.68K", "0B", "0". */
int
zfs_size(const char *s, uint64_t *v)
{
	static const char	 units[] = "BKMGTPE";
	const char		*u;
	char			*endp;
	double			 d;

	if (!isdigit((unsigned char)*s))
		return (-1);
	errno = 0;
	d = strtod(s, &endp);
	if (errno != 0 || endp == s)
		return (-1);
	if (*endp != '\0' && *endp != '/' && (u = strchr(units, *endp)) !=
	    NULL) {
		d = ldexp(d, 10 * (int)(u - units));
		endp++;
	}
	if ((*endp != '\0' && strcmp(endp, "/s") != 0) || d >= 1.8e19)
		return (-1);
	*v = (uint64_t)(d + 0.5);
	return (0);
}

/* Seconds in "1 days 18:56:16", "07:58:49" or "0h46m" before "to go". */
static int64_t
zfs_eta(char **w, size_t i)
{
	unsigned	h, m, sec;
	uint64_t	days = 0;
	char		c;

	if (i >= 3 && strcmp(w[i - 2], "days") == 0 &&
	    probe_str_u64(w[i - 3], &days) == -1)
		days = 0;
	if (i >= 1 && sscanf(w[i - 1], "%u:%u:%u%c", &h, &m, &sec, &c) == 3)
		return ((int64_t)(days * 86400 + h * 3600 + m * 60 + sec));
	if (i >= 1 && sscanf(w[i - 1], "%uh%um%c", &h, &m, &c) == 2)
		return ((int64_t)(h * 3600 + m * 60));
	return (-1);
}

/* The size at w[i], if i is in range and it is one. */
static int
zfs_size_at(char **w, size_t n, size_t i, uint64_t *v)
{
	return (i < n ? zfs_size(w[i], v) : -1);
}

/*
 * The scan lines, joined: "scrub in progress since ... 266T / 749T
 * scanned at 3.30G/s, 260T / 749T issued at 3.23G/s 0B repaired, 34.79%
 * done, 1 days 18:56:16 to go", or "scrub repaired 0B in 00:04:50 with 0
 * errors on ...", or the 0.6 "1.35G scanned out of 347G at 126M/s".
 */
static void
zfs_scan(char *text, struct zfs_scan *sc)
{
	char		*w[96], *p;
	size_t		 n, i;
	uint64_t	 v;

	for (p = text; *p != '\0'; p++)
		if (*p == ',')
			*p = ' ';
	n = zfs_words(text, w, NP_NITEMS(w));
	for (i = 0; i < n; i++) {
		if (strcmp(w[i], "scrub") == 0 || strcmp(w[i], "resilver") == 0)
			snprintf(sc->func, sizeof sc->func, "%s", w[i]);
		else if (strcmp(w[i], "resilvered") == 0 && sc->func[0] == '\0')
			snprintf(sc->func, sizeof sc->func, "resilver");
		if (strcmp(w[i], "progress") == 0)
			sc->state = ZFS_SCAN_RUNNING;
		else if (strcmp(w[i], "canceled") == 0)
			sc->state = ZFS_SCAN_CANCELED;
		else if (strcmp(w[i], "paused") == 0)
			sc->state = ZFS_SCAN_PAUSED;
		else if (strcmp(w[i], "with") == 0 &&
		    sc->state == ZFS_SCAN_NONE)
			sc->state = ZFS_SCAN_DONE;
		if (strcmp(w[i], "scanned") == 0 ||
		    strcmp(w[i], "issued") == 0) {
			/* "A / B scanned" or "A scanned" */
			if (i >= 3 && strcmp(w[i - 2], "/") == 0) {
				(void)zfs_size_at(w, n, i - 1, &sc->total);
				(void)zfs_size_at(w, n, i - 3, &v);
			} else if (i == 0 || zfs_size_at(w, n, i - 1, &v) == -1)
				continue;
			if (w[i][0] == 's')
				sc->scanned = v;
			else
				sc->issued = v;
		} else if (strcmp(w[i], "total") == 0 && i > 0)
			(void)zfs_size_at(w, n, i - 1, &sc->total);
		else if (strcmp(w[i], "of") == 0 && i > 0 &&
		    strcmp(w[i - 1], "out") == 0)
			(void)zfs_size_at(w, n, i + 1, &sc->total);
		else if (strcmp(w[i], "at") == 0)
			(void)zfs_size_at(w, n, i + 1, &sc->rate);
		else if (strcmp(w[i], "repaired") == 0 ||
		    strcmp(w[i], "resilvered") == 0) {
			/* "0B repaired" running, "repaired 0B in" done */
			if (i == 0 || zfs_size_at(w, n, i - 1,
			    &sc->processed) == -1)
				(void)zfs_size_at(w, n, i + 1, &sc->processed);
		} else if (strcmp(w[i], "done") == 0 && i > 0 &&
		    (p = strchr(w[i - 1], '%')) != NULL && p[1] == '\0')
			sc->pct = strtod(w[i - 1], NULL);
		else if (strcmp(w[i], "to") == 0 && i + 1 < n &&
		    strcmp(w[i + 1], "go") == 0)
			sc->eta = zfs_eta(w, i);
	}
}

/* The type and parity a vdev's name gives ("raidz2-0", "draid2:11d..."). */
static void
zfs_vdev_kind(struct zfs_vdev *v)
{
	const char	*n = v->name;

	v->type = ZFS_VDEV_DISK;
	if (strncmp(n, "mirror", 6) == 0 && (n[6] == '\0' || n[6] == '-'))
		v->type = ZFS_VDEV_MIRROR;
	else if (strncmp(n, "raidz", 5) == 0 && strchr("123-", n[5]) != NULL) {
		v->type = ZFS_VDEV_RAIDZ;
		v->parity = isdigit((unsigned char)n[5]) ? n[5] - '0' : 1;
	} else if (strcmp(n, "raidz") == 0) {
		v->type = ZFS_VDEV_RAIDZ;
		v->parity = 1;
	} else if (strncmp(n, "draid", 5) == 0 && n[5] != '\0' &&
	    strchr("123:-", n[5]) != NULL) {
		v->type = ZFS_VDEV_DRAID;
		v->parity = isdigit((unsigned char)n[5]) ? n[5] - '0' : 1;
	} else if (strncmp(n, "replacing-", 10) == 0)
		v->type = ZFS_VDEV_REPLACING;
	else if (strncmp(n, "spare-", 6) == 0)
		v->type = ZFS_VDEV_SPARE;
}

/* The class a group line names ("logs", "cache"...), or -1. */
static int
zfs_class(const char *word)
{
	static const char *const groups[] = {
		"logs", "cache", "special", "dedup", "spares"
	};
	static const enum zfs_vdev_class classes[] = {
		ZFS_CLASS_LOG, ZFS_CLASS_CACHE, ZFS_CLASS_SPECIAL,
		ZFS_CLASS_DEDUP, ZFS_CLASS_SPARE
	};
	int	i;

	if ((i = zfs_index(groups, NP_NITEMS(groups), word)) == -1)
		return (-1);
	return ((int)classes[i]);
}

/* The column a line's first non-blank is at, tabs every 8 columns. */
static int
zfs_indent(const char *s)
{
	int	col = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		col = *s == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return (col);
}

/* Parser state for zfs_status_parse between lines. */
struct zfs_sp {
	struct zfs_pool	*pool;
	int		 in_scan, in_config;
	int		 base;		/* indent of the NAME header, -1 */
	int		 class;		/* the group lines are under */
	int		 stack[16];	/* vdev index at each depth */
	char		 scan[1024];
};

/* A line of the config: a vdev, a group header, or not understood. */
static int
zfs_config_line(struct zfs_sp *sp, char *line)
{
	struct zfs_pool	*p = sp->pool;
	struct zfs_vdev	*v;
	char		*w[8], *rest;
	size_t		 n, i;
	int		 indent = zfs_indent(line), depth, c;

	if ((n = zfs_words(line, w, NP_NITEMS(w))) == 0)
		return (0);
	if (sp->base == -1) {
		if (strcmp(w[0], "NAME") != 0)
			return (-1);
		sp->base = indent;
		return (0);
	}
	if (indent < sp->base || (indent - sp->base) % 2 != 0)
		return (-1);
	depth = (indent - sp->base) / 2;
	if (depth == 0 && n == 1 && (c = zfs_class(w[0])) != -1) {
		sp->class = c;
		return (0);
	}
	if (depth >= (int)NP_NITEMS(sp->stack) || n < 2 ||
	    p->nvdevs == ZFS_VDEVS_MAX || (depth > 0 && p->nvdevs == 0) ||
	    (depth == 0 && p->nvdevs != 0))
		return (-1);
	v = &p->vdevs[p->nvdevs];
	memset(v, 0, sizeof *v);
	if (probe_strlcpy(v->name, w[0], sizeof v->name) == -1 ||
	    probe_strlcpy(v->state, w[1], sizeof v->state) == -1)
		return (-1);
	v->depth = depth;
	v->parent = depth == 0 ? -1 : sp->stack[depth - 1];
	v->class = depth == 0 ? ZFS_CLASS_DATA : sp->class;
	if (depth == 0)
		v->type = ZFS_VDEV_ROOT;
	else
		zfs_vdev_kind(v);
	if (n >= 5 && zfs_size(w[2], &v->rerr) == 0 &&
	    zfs_size(w[3], &v->werr) == 0 && zfs_size(w[4], &v->cerr) == 0)
		i = 5;
	else
		i = 2;
	/* The note is the rest of the line after the words used. */
	if (i < n) {
		rest = w[i];
		for (; i + 1 < n; i++)
			w[i][strlen(w[i])] = ' ';
		(void)probe_strlcpy(v->note, rest, sizeof v->note);
	}
	sp->stack[depth] = (int)p->nvdevs++;
	return (0);
}

/* A key line ("  pool: tank", " state:", "config:"): its key, or NULL. */
static const char *
zfs_key(char *line, char **val)
{
	size_t	lead = strspn(line, " "), len;

	if (lead > 3 || line[0] == '\t')
		return (NULL);
	len = strspn(line + lead, "abcdefghijklmnopqrstuvwxyz");
	if (len == 0 || line[lead + len] != ':' ||
	    (line[lead + len + 1] != ' ' && line[lead + len + 1] != '\0'))
		return (NULL);
	line[lead + len] = '\0';
	*val = line + lead + len + 1;
	*val += strspn(*val, " ");
	return (line + lead);
}

/* End a pool's scan text: parse what was gathered. */
static void
zfs_scan_end(struct zfs_sp *sp)
{
	if (sp->in_scan && sp->pool != NULL)
		zfs_scan(sp->scan, &sp->pool->scan);
	sp->in_scan = 0;
}

/* One line of zpool status. */
static int
zfs_status_line(struct zfs_status *st, struct zfs_sp *sp, char *line)
{
	const char	*key;
	char		 copy[ZFS_LINE_MAX], *val;
	struct zfs_pool	*p;

	memcpy(copy, line, sizeof copy);
	if ((key = zfs_key(copy, &val)) == NULL) {
		if (sp->in_scan && line[0] != '\0') {
			strncat(sp->scan, " ", sizeof sp->scan -
			    strlen(sp->scan) - 1);
			strncat(sp->scan, line, sizeof sp->scan -
			    strlen(sp->scan) - 1);
			return (0);
		}
		if (sp->in_config && sp->pool != NULL) {
			if (line[strspn(line, " \t")] == '\0')
				return (0);
			return (zfs_config_line(sp, line));
		}
		/* The paragraphs of status:, action: and see: go on here. */
		return (line[strspn(line, " \t")] == '\0' ||
		    (sp->pool != NULL && strchr(" \t", line[0]) != NULL) ?
		    0 : 1);
	}
	zfs_scan_end(sp);
	sp->in_config = 0;
	if (strcmp(key, "pool") == 0) {
		if (st->npools == ZFS_POOLS_MAX) {
			sp->pool = NULL;
			return (-1);
		}
		p = sp->pool = &st->pools[st->npools++];
		memset(p, 0, sizeof *p);
		p->scan.pct = -1;
		p->scan.eta = -1;
		return (probe_strlcpy(p->name, val, sizeof p->name));
	}
	if ((p = sp->pool) == NULL)
		return (-1);
	if (strcmp(key, "state") == 0)
		return (probe_strlcpy(p->state, val, sizeof p->state));
	if (strcmp(key, "scan") == 0) {
		sp->in_scan = 1;
		snprintf(sp->scan, sizeof sp->scan, "%s", val);
		if (strcmp(val, "none requested") == 0)
			sp->in_scan = 0;
	} else if (strcmp(key, "config") == 0) {
		sp->in_config = 1;
		sp->base = -1;
		sp->class = ZFS_CLASS_DATA;
	} else if (strcmp(key, "errors") == 0)
		(void)probe_strlcpy(p->errors, val, sizeof p->errors);
	return (0);
}

/* Parse zpool status output, pool by pool. */
int
zfs_status_parse(const char *buf, size_t len, struct zfs_status *st,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len;
	char		 line[ZFS_LINE_MAX];
	struct zfs_sp	 sp;

	memset(st, 0, sizeof *st);
	memset(&sp, 0, sizeof sp);
	if (errstr != NULL)
		*errstr = NULL;
	while (probe_line(&s, end, line, sizeof line) == 0)
		if (zfs_status_line(st, &sp, line) != 0)
			st->skipped++;
	zfs_scan_end(&sp);
	if (st->npools == 0) {
		if (errstr != NULL)
			*errstr = "no pool: line";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

/* The dataset called name, made when missing; NULL on ENOMEM. */
static struct zfs_dataset *
zfs_dataset_get(struct zfs_datasets *ds, const char *name)
{
	struct zfs_dataset	*v;
	size_t			 i, cap;

	for (i = ds->n; i > 0; i--)
		if (strcmp(ds->v[i - 1].name, name) == 0)
			return (&ds->v[i - 1]);
	if (ds->n == ds->cap) {
		cap = ds->cap == 0 ? 16 : ds->cap * 2;
		if ((v = reallocarray(ds->v, cap, sizeof *v)) == NULL)
			return (NULL);
		ds->v = v;
		ds->cap = cap;
	}
	v = &ds->v[ds->n++];
	memset(v, 0, sizeof *v);
	snprintf(v->name, sizeof v->name, "%s", name);
	return (v);
}

int
zfs_datasets_parse(const char *buf, size_t len, struct zfs_datasets *ds,
    const char **errstr)
{
	const char		*s = buf, *end = buf + len;
	char			 line[ZFS_LINE_MAX], *w[ZFS_COLS_MAX + 1];
	struct zfs_dataset	*d;
	size_t			 n, kept = 0;
	uint64_t		 v;

	ds->n = ds->skipped = 0;
	if (errstr != NULL)
		*errstr = "no dataset property";
	while (probe_line(&s, end, line, sizeof line) == 0) {
		if ((n = zfs_words(line, w, ZFS_COLS_MAX + 1)) == 0 ||
		    strcmp(w[0], "NAME") == 0)
			continue;
		if (n < 3 || strlen(w[0]) >= sizeof d->name) {
			ds->skipped++;
			continue;
		}
		if (strcmp(w[1], "mountpoint") != 0 &&
		    strcmp(w[1], "sync") != 0 &&
		    strcmp(w[1], "compression") != 0 &&
		    strcmp(w[1], "primarycache") != 0 &&
		    strcmp(w[1], "recordsize") != 0)
			continue;
		if ((d = zfs_dataset_get(ds, w[0])) == NULL) {
			errno = ENOMEM;
			return (-1);
		}
		kept++;
		if (strcmp(w[1], "mountpoint") == 0)
			snprintf(d->mountpoint, sizeof d->mountpoint, "%s",
			    w[2]);
		else if (strcmp(w[1], "sync") == 0)
			snprintf(d->sync, sizeof d->sync, "%s", w[2]);
		else if (strcmp(w[1], "compression") == 0)
			snprintf(d->compression, sizeof d->compression, "%s",
			    w[2]);
		else if (strcmp(w[1], "primarycache") == 0)
			snprintf(d->primarycache, sizeof d->primarycache, "%s",
			    w[2]);
		else if (zfs_size(w[2], &v) == 0)	/* "128K", or -p's bytes */
			d->recordsize = v;
	}
	if (kept == 0) {
		errno = EINVAL;
		return (-1);
	}
	if (errstr != NULL)
		*errstr = NULL;
	return (0);
}

const struct zfs_dataset *
zfs_dataset_find(const struct zfs_datasets *ds, const char *name)
{
	size_t	i;

	for (i = 0; ds != NULL && i < ds->n; i++)
		if (strcmp(ds->v[i].name, name) == 0)
			return (&ds->v[i]);
	return (NULL);
}

const struct zfs_pool *
zfs_pool_of(const struct zfs_status *st, const char *dataset)
{
	size_t	i, len = strcspn(dataset, "/");

	for (i = 0; st != NULL && i < st->npools; i++)
		if (strlen(st->pools[i].name) == len &&
		    strncmp(st->pools[i].name, dataset, len) == 0)
			return (&st->pools[i]);
	return (NULL);
}

void
zfs_datasets_clear(struct zfs_datasets *ds)
{
	free(ds->v);
	memset(ds, 0, sizeof *ds);
}

const char *const zfs_vio_names[ZFS_VIO_NCOLS] = {
	"alloc", "free", "read_ops", "write_ops", "read_bytes", "write_bytes",
	"total_wait_read", "total_wait_write", "disk_wait_read",
	"disk_wait_write", "syncq_wait_read", "syncq_wait_write",
	"asyncq_wait_read", "asyncq_wait_write", "scrub_wait", "trim_wait",
	"rebuild_wait"
};

/* zpool iostat's column groups, the first header line's words. */
static const struct {
	const char	*group;
	int		 first;		/* its first column, -1 not kept */
	int		 width;		/* how many, when known */
} zfs_vio_groups[] = {
	{ "capacity", ZFS_VIO_ALLOC, 2 },
	{ "operations", ZFS_VIO_OPS_R, 2 },
	{ "bandwidth", ZFS_VIO_BW_R, 2 },
	{ "total_wait", ZFS_VIO_TOTAL_R, 2 },
	{ "disk_wait", ZFS_VIO_DISK_R, 2 },
	{ "syncq_wait", ZFS_VIO_SYNCQ_R, 2 },
	{ "asyncq_wait", ZFS_VIO_ASYNCQ_R, 2 },
	{ "scrub", ZFS_VIO_SCRUB, 1 },
	{ "trim", ZFS_VIO_TRIM, 1 },
	{ "rebuild", ZFS_VIO_REBUILD, 1 },
};

/* Parser state for zfs_viostat_parse between lines. */
struct zfs_vp {
	char		 groups[ZFS_LINE_MAX];	/* the first header line */
	int		 map[ZFS_COLS_MAX];	/* value i's column, or -1 */
	size_t		 nvals;			/* values a row has */
	int		 state;			/* 0 out, 1 header, 2 rows */
	char		 pool[64];
	int		 class;
};

/*
 * The second header line ("pool alloc free read write ... wait") under
 * the groups of the first: each value's column.  -1 when they disagree.
 */
static int
zfs_vio_header(struct zfs_vp *vp, struct zfs_viostat *io, char *line)
{
	char	*g[ZFS_COLS_MAX], *w[ZFS_COLS_MAX + 1];
	size_t	 ng, nw, i, k, at = 0;
	int	 width, first;

	ng = zfs_words(vp->groups, g, ZFS_COLS_MAX);
	nw = zfs_words(line, w, ZFS_COLS_MAX + 1);
	if (nw < 2 || nw > ZFS_COLS_MAX)
		return (-1);
	io->cols = 0;
	for (i = 0; i < ng; i++) {
		first = -1;
		/* A pair reads "read write", "alloc free" or "pend activ". */
		width = 1;
		if (1 + at < nw && (strcmp(w[1 + at], "read") == 0 ||
		    strcmp(w[1 + at], "alloc") == 0 ||
		    strcmp(w[1 + at], "pend") == 0))
			width = 2;
		for (k = 0; k < NP_NITEMS(zfs_vio_groups); k++)
			if (strcmp(g[i], zfs_vio_groups[k].group) == 0) {
				first = zfs_vio_groups[k].first;
				width = zfs_vio_groups[k].width;
			}
		if (at + (size_t)width > nw - 1)
			return (-1);
		for (k = 0; k < (size_t)width; k++) {
			vp->map[at + k] = first == -1 ? -1 : first + (int)k;
			if (first != -1)
				io->cols |= 1U << (first + (int)k);
		}
		at += (size_t)width;
	}
	if (at != nw - 1)
		return (-1);
	vp->nvals = at;
	return (0);
}

/* A latency: "6ms", "133ns", "1us", "2s", or ns as -p prints; -1. */
static int
zfs_vio_time(const char *s, double *v)
{
	static const struct {
		const char	*unit;
		double		 per_s;
	} units[] = {
		{ "", 1e9 }, { "ns", 1e9 }, { "us", 1e6 }, { "ms", 1e3 },
		{ "s", 1.0 }
	};
	char	*end;
	double	 d;
	size_t	 i;

	if (!isdigit((unsigned char)*s))
		return (-1);
	errno = 0;
	d = strtod(s, &end);
	if (errno != 0 || end == s)
		return (-1);
	for (i = 0; i < NP_NITEMS(units); i++)
		if (strcmp(end, units[i].unit) == 0) {
			*v = d / units[i].per_s;
			return (0);
		}
	return (-1);
}

/* A row of a report: a pool, a vdev, a disk, or a group ("logs"). */
static int
zfs_vio_row(struct zfs_vp *vp, struct zfs_viostat *io, char *line)
{
	struct zfs_vio_row	*r;
	char			*w[ZFS_COLS_MAX + 1];
	size_t			 n, i;
	uint64_t		 u;
	int			 depth = zfs_indent(line) / 2, c, col;

	if ((n = zfs_words(line, w, ZFS_COLS_MAX + 1)) != vp->nvals + 1)
		return (-1);
	if (depth == 0 && (c = zfs_class(w[0])) != -1) {
		vp->class = c;
		return (0);
	}
	if (depth == 0) {
		if (probe_strlcpy(vp->pool, w[0], sizeof vp->pool) == -1)
			return (-1);
		vp->class = ZFS_CLASS_DATA;
		/* A pool listed again: a report without its header (no -v). */
		for (i = 0; i < io->nrows; i++)
			if (io->rows[i].depth == 0 &&
			    strcmp(io->rows[i].name, w[0]) == 0)
				io->nrows = 0;
	}
	if (io->nrows == ZFS_VIO_ROWS_MAX || vp->pool[0] == '\0')
		return (-1);
	r = &io->rows[io->nrows];
	memset(r, 0, sizeof *r);
	if (probe_strlcpy(r->name, w[0], sizeof r->name) == -1)
		return (-1);
	snprintf(r->pool, sizeof r->pool, "%s", vp->pool);
	r->depth = depth;
	r->class = (enum zfs_vdev_class)vp->class;
	for (i = 0; i < ZFS_VIO_NCOLS; i++)
		r->v[i] = NAN;
	for (i = 0; i < vp->nvals; i++) {
		if ((col = vp->map[i]) == -1 || strcmp(w[i + 1], "-") == 0)
			continue;
		if (col >= ZFS_VIO_TOTAL_R) {
			if (zfs_vio_time(w[i + 1], &r->v[col]) == -1)
				return (-1);
		} else if (zfs_size(w[i + 1], &u) == -1)
			return (-1);
		else
			r->v[col] = (double)u;
	}
	io->nrows++;
	return (0);
}

/* One line of zpool iostat's output. */
static int
zfs_vio_line(struct zfs_vp *vp, struct zfs_viostat *io, char *line)
{
	char	 copy[ZFS_LINE_MAX], *w[2];
	size_t	 n;

	snprintf(copy, sizeof copy, "%s", line);
	n = zfs_words(copy, w, 2);
	if (n == 0) {
		vp->state = 0;
		return (0);
	}
	if (strspn(w[0], "-") == strlen(w[0])) {
		/* The line under the header, and (-v) after each pool. */
		if (vp->state == 1)
			vp->state = 2;
		return (0);
	}
	if (strcmp(w[0], "capacity") == 0 || strcmp(w[0], "operations") == 0) {
		snprintf(vp->groups, sizeof vp->groups, "%s", line);
		vp->state = 1;
		return (0);
	}
	if (vp->state == 1) {
		/* A new report: the last one is what is kept. */
		io->nrows = 0;
		vp->pool[0] = '\0';
		vp->class = ZFS_CLASS_DATA;
		if (zfs_vio_header(vp, io, line) == -1) {
			vp->state = 0;
			return (-1);
		}
		return (0);
	}
	if (vp->state == 2)
		return (zfs_vio_row(vp, io, line));
	return (-1);		/* a timestamp (-T), or not understood */
}

int
zfs_viostat_parse(const char *buf, size_t len, struct zfs_viostat *io,
    const char **errstr)
{
	const char	*s = buf, *end = buf + len;
	char		 line[ZFS_LINE_MAX];
	struct zfs_vp	 vp;

	memset(&vp, 0, sizeof vp);
	io->nrows = io->skipped = 0;
	io->cols = 0;
	while (probe_line(&s, end, line, sizeof line) == 0)
		if (zfs_vio_line(&vp, io, line) != 0)
			io->skipped++;
	if (io->nrows == 0) {
		if (errstr != NULL)
			*errstr = "no header and row of zpool iostat";
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

int
zfs_viostat_writes(const struct zfs_viostat *io, const char *pool, int log,
    struct zfs_vio_writes *w)
{
	static const enum zfs_vio_col	 cols[] = { ZFS_VIO_TOTAL_W,
					    ZFS_VIO_DISK_W, ZFS_VIO_SYNCQ_W };
	double				*out[] = { &w->total, &w->disk,
					    &w->syncq };
	double				 sum[3] = { 0, 0, 0 }, ops[3] = { 0, 0,
					    0 };
	const struct zfs_vio_row	*r;
	size_t				 i, c;

	memset(w, 0, sizeof *w);
	for (i = 0; i < io->nrows; i++) {
		r = &io->rows[i];
		if (strcmp(r->pool, pool) != 0 || (log ? r->depth != 1 ||
		    r->class != ZFS_CLASS_LOG : r->depth != 0))
			continue;
		if (w->nvdevs++ == 0)
			snprintf(w->name, sizeof w->name, "%s", r->name);
		if (!isfinite(r->v[ZFS_VIO_OPS_W]))
			continue;
		w->ops += r->v[ZFS_VIO_OPS_W];
		for (c = 0; c < NP_NITEMS(cols); c++)
			if (isfinite(r->v[cols[c]])) {
				sum[c] += r->v[cols[c]] * r->v[ZFS_VIO_OPS_W];
				ops[c] += r->v[ZFS_VIO_OPS_W];
			}
	}
	if (w->nvdevs == 0)
		return (-1);
	if (w->nvdevs > 1)
		w->name[0] = '\0';
	for (c = 0; c < NP_NITEMS(cols); c++)
		*out[c] = ops[c] > 0 ? sum[c] / ops[c] : NAN;
	return (0);
}
