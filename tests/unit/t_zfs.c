/*
 * t_zfs.c: OpenZFS kstats and "zpool status" from real captures
 * (tests/fixtures/zfs/SOURCES.md): every value the probes keep, every cut
 * of every capture, malformed input, and reading under a root.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "test.h"
#include "zfs.h"

static struct zfs_status	st;
static struct zfs_txgs		txgs;

/* Parse a named kstat fixture with names; bail out if it fails. */
static void
named(const char *file, const char *const *names, size_t n,
    struct zfs_named *out)
{
	char	*buf;
	size_t	 len;

	buf = t_fixture(file, &len);
	T_OK(zfs_named_parse(buf, len, names, n, out, NULL));
	free(buf);
}

/* arcstats of 2.2 and of 0.6.5, and the c rows. */
static void
test_arcstats(void)
{
	struct zfs_named	a;

	named("zfs/arcstats-2.2-htop1559.txt", zfs_arc_names, ZFS_ARC_NSTATS,
	    &a);
	T_EQ_U64(a.v[ZFS_ARC_HITS], 178707397);
	T_EQ_U64(a.v[ZFS_ARC_IOHITS], 259225);
	T_EQ_U64(a.v[ZFS_ARC_MISSES], 51963445);
	T_EQ_U64(a.v[ZFS_ARC_DEMAND_DATA_HITS], 56220773);
	T_EQ_U64(a.v[ZFS_ARC_DEMAND_DATA_MISSES], 1220652);
	T_EQ_U64(a.v[ZFS_ARC_DEMAND_METADATA_HITS], 115324291);
	T_EQ_U64(a.v[ZFS_ARC_DEMAND_METADATA_MISSES], 5804);
	T_EQ_U64(a.v[ZFS_ARC_PREFETCH_DATA_HITS], 449538);
	T_EQ_U64(a.v[ZFS_ARC_PREFETCH_DATA_MISSES], 48141873);
	T_EQ_U64(a.v[ZFS_ARC_PREFETCH_METADATA_HITS], 6712795);
	T_EQ_U64(a.v[ZFS_ARC_PREFETCH_METADATA_MISSES], 2595116);
	T_EQ_U64(a.v[ZFS_ARC_MRU_HITS], 58483652);
	T_EQ_U64(a.v[ZFS_ARC_MFU_HITS], 120223745);
	/* The stored copy stops before size, c and the L2 rows. */
	T_EQ_INT(ZFS_HAVE(&a, ZFS_ARC_SIZE), 0);
	T_EQ_INT(ZFS_HAVE(&a, ZFS_ARC_L2_HITS), 0);
	T_EQ_U64(a.have, (1U << ZFS_ARC_SIZE) - 1);
	T_EQ_INT(a.skipped, 0);

	named("zfs/arcstats-0.6.5-zfs4880.txt", zfs_arc_names,
	    ZFS_ARC_NSTATS, &a);
	T_EQ_U64(a.v[ZFS_ARC_HITS], 800938102);
	T_EQ_U64(a.v[ZFS_ARC_MISSES], 95584272);
	T_EQ_U64(a.v[ZFS_ARC_DEMAND_DATA_HITS], 680089930);
	T_EQ_U64(a.v[ZFS_ARC_PREFETCH_METADATA_MISSES], 100521);
	T_EQ_INT(ZFS_HAVE(&a, ZFS_ARC_IOHITS), 0);	/* 2.2 and later */
	T_EQ_INT(ZFS_HAVE(&a, ZFS_ARC_MFU_HITS), 1);
	T_EQ_INT(a.skipped, 0);

	named("zfs/arcstats-c-zfs1779.txt", zfs_arc_names, ZFS_ARC_NSTATS,
	    &a);
	T_EQ_U64(a.v[ZFS_ARC_C], 25240503504ULL);
	T_EQ_U64(a.v[ZFS_ARC_C_MIN], 3758096384ULL);
	T_EQ_U64(a.v[ZFS_ARC_C_MAX], 17179869184ULL);
	T_EQ_U64(a.have, (1U << ZFS_ARC_C) | (1U << ZFS_ARC_C_MIN) |
	    (1U << ZFS_ARC_C_MAX));
}

/* dmu_tx, zil, an objset, a pool's io. */
static void
test_other_kstats(void)
{
	struct zfs_named	 k;
	char			*buf;
	size_t			 len;

	named("zfs/dmu_tx-zfs7718.txt", zfs_tx_names, ZFS_TX_NSTATS, &k);
	T_EQ_U64(k.v[ZFS_TX_ASSIGNED], 3);
	T_EQ_U64(k.v[ZFS_TX_DIRTY_DELAY], 0);
	T_EQ_U64(k.have, (1U << ZFS_TX_NSTATS) - 1);	/* the odd row too */

	named("zfs/zil-grep-zfs16315.txt", zfs_zil_names, ZFS_ZIL_NSTATS,
	    &k);
	T_EQ_INT(ZFS_HAVE(&k, ZFS_ZIL_COMMIT), 1);
	T_EQ_INT(ZFS_HAVE(&k, ZFS_ZIL_COMMIT_WRITER), 1);
	T_EQ_INT(ZFS_HAVE(&k, ZFS_ZIL_COMMIT_SUSPEND), 1);
	T_EQ_INT(ZFS_HAVE(&k, ZFS_ZIL_ITX_SLOG_BYTES), 0);
	T_EQ_U64(k.v[ZFS_ZIL_COMMIT], 0);

	named("zfs/objset-zfs12957.txt", zfs_objset_names, ZFS_OBJSET_NSTATS,
	    &k);
	T_EQ_STR(k.str, "traktor/pi3");
	T_EQ_U64(k.v[ZFS_OBJSET_WRITES], 261837);
	T_EQ_U64(k.v[ZFS_OBJSET_NWRITTEN], 1072484352);
	T_EQ_U64(k.v[ZFS_OBJSET_READS], 97862);
	T_EQ_U64(k.v[ZFS_OBJSET_NREAD], 9648066560ULL);
	T_EQ_U64(k.have, (1U << ZFS_OBJSET_NSTATS) - 1);

	buf = t_fixture("zfs/io-zabbix-zfs-checks2.txt", &len);
	T_OK(zfs_io_parse(buf, len, &k, NULL));
	T_EQ_U64(k.v[ZFS_IO_NREAD], 481047831040ULL);
	T_EQ_U64(k.v[ZFS_IO_NWRITTEN], 2817338549248ULL);
	T_EQ_U64(k.v[ZFS_IO_READS], 15944997);
	T_EQ_U64(k.v[ZFS_IO_WRITES], 44336169);
	T_EQ_U64(k.v[ZFS_IO_WTIME], 4933387151723ULL);
	T_EQ_U64(k.v[ZFS_IO_WLENTIME], 15480260499887487ULL);
	T_EQ_U64(k.v[ZFS_IO_RTIME], 11248067361317ULL);
	T_EQ_U64(k.v[ZFS_IO_RCNT], 0);
	T_EQ_U64(k.have, (1U << ZFS_IO_NSTATS) - 1);
	free(buf);
	T_ERRNO(zfs_io_parse("nread nwritten\n", 15, &k, NULL), EINVAL);
}

/* txgs with ndirty and wtime, and the early 0.6 columns. */
static void
test_txgs(void)
{
	struct zfs_txg_summary	 sum;
	const struct zfs_txg	*x = &txgs.v[0];
	char			*buf;
	size_t			 len;

	buf = t_fixture("zfs/txgs-zfs3811.txt", &len);
	T_OK(zfs_txgs_parse(buf, len, &txgs, NULL));
	free(buf);
	T_EQ_INT(txgs.n, 6);
	T_EQ_INT(txgs.cols, ZFS_TXG_NDIRTY | ZFS_TXG_WTIME);
	T_EQ_U64(x->txg, 31601021);
	T_EQ_U64(x->birth, 200695506940447ULL);
	T_EQ_INT(x->state, 'C');
	T_EQ_U64(x->ndirty, 6530560);
	T_EQ_U64(x->nwritten, 9462784);
	T_EQ_U64(x->writes, 1188);
	T_EQ_U64(x->otime, 2060090840);
	T_EQ_U64(x->qtime, 1693);
	T_EQ_U64(x->wtime, 2174040557);
	T_EQ_U64(x->stime, 2186188720);
	zfs_txgs_summary(&txgs, &sum);
	T_EQ_INT(sum.ncommitted, 6);
	T_EQ_U64(sum.last, 31601026);
	T_EQ_U64(sum.max_ndirty, 7454720);
	T_EQ_U64(sum.max_stime, 2743033451);
	T_EQ_U64(sum.avg_stime, 1802744729);
	T_EQ_U64(sum.nwritten, 39997440);
	T_EQ_INT(txgs.skipped, 0);

	buf = t_fixture("zfs/txgs-old-zfs2218.txt", &len);
	T_OK(zfs_txgs_parse(buf, len, &txgs, NULL));
	free(buf);
	T_EQ_INT(txgs.n, 10);
	T_EQ_INT(txgs.cols, 0);
	T_EQ_U64(x->txg, 7917723);
	T_EQ_INT(x->state, 'C');
	T_EQ_U64(x->birth, 4241593463350422ULL);
	T_EQ_U64(x->nwritten, 1127424);
	T_EQ_U64(x->writes, 351);
	T_EQ_U64(x->otime, 156093280);
	T_EQ_U64(x->qtime, 3990);
	T_EQ_U64(x->stime, 148591575);
	T_EQ_U64(txgs.v[2].nread, 497152);
	T_EQ_U64(txgs.v[2].reads, 7);
	T_EQ_U64(txgs.v[9].txg, 7917732);
	zfs_txgs_summary(&txgs, &sum);
	T_EQ_U64(sum.max_ndirty, 0);
	T_EQ_U64(sum.last, 7917732);
}

/* Parse a zpool status fixture; its only pool, or NULL. */
static const struct zfs_pool *
status(const char *file)
{
	char	*buf;
	size_t	 len;
	int	 rc;

	buf = t_fixture(file, &len);
	rc = zfs_status_parse(buf, len, &st, NULL);
	T_OK(rc);
	free(buf);
	T_EQ_INT(st.npools, 1);
	return (rc == 0 && st.npools == 1 ? &st.pools[0] : NULL);
}

/* Check vdev i: name, type, class, parent. */
#define VDEV(p, i, n, t, c, par) do {					\
	T_EQ_STR((p)->vdevs[i].name, n);				\
	T_EQ_INT((p)->vdevs[i].type, t);				\
	T_EQ_INT((p)->vdevs[i].class, c);				\
	T_EQ_INT((p)->vdevs[i].parent, par);				\
} while (0)

/* Mirrors with a SLOG mirror and cache, resilvering in the 0.6 format. */
static void
test_status_slog(void)
{
	const struct zfs_pool	*p;

	if ((p = status("zfs/status-resilver-slog-zfs3267.txt")) == NULL)
		return;
	T_EQ_STR(p->name, "tank");
	T_EQ_STR(p->state, "ONLINE");
	T_EQ_STR(p->scan.func, "resilver");
	T_EQ_INT(p->scan.state, ZFS_SCAN_RUNNING);
	T_NEAR(p->scan.pct, 0.39, 1e-9);
	T_EQ_U64(p->scan.scanned, 1449551462);
	T_EQ_U64(p->scan.total, 372588412928ULL);
	T_EQ_U64(p->scan.rate, 132120576);
	T_EQ_U64(p->scan.processed, 0);
	T_EQ_INT(p->scan.eta, 46 * 60);
	T_EQ_INT(p->nvdevs, 9);
	VDEV(p, 0, "tank", ZFS_VDEV_ROOT, ZFS_CLASS_DATA, -1);
	VDEV(p, 1, "mirror-0", ZFS_VDEV_MIRROR, ZFS_CLASS_DATA, 0);
	VDEV(p, 2, "sdc", ZFS_VDEV_DISK, ZFS_CLASS_DATA, 1);
	VDEV(p, 4, "mirror-1", ZFS_VDEV_MIRROR, ZFS_CLASS_LOG, 0);
	VDEV(p, 5, "sda3", ZFS_VDEV_DISK, ZFS_CLASS_LOG, 4);
	VDEV(p, 6, "sdb3", ZFS_VDEV_DISK, ZFS_CLASS_LOG, 4);
	VDEV(p, 7, "sda4", ZFS_VDEV_DISK, ZFS_CLASS_CACHE, 0);
	VDEV(p, 8, "sdb4", ZFS_VDEV_DISK, ZFS_CLASS_CACHE, 0);
	T_EQ_STR(p->vdevs[8].state, "ONLINE");
	T_EQ_STR(p->errors, "No known data errors");
	T_EQ_INT(st.skipped, 0);
}

/* A scrub under way in the 2.2 format on raidz3. */
static void
test_status_scrub(void)
{
	const struct zfs_pool	*p;

	if ((p = status("zfs/status-scrub-raidz3-zfs18150.txt")) == NULL)
		return;
	T_EQ_STR(p->name, "backup2");
	T_EQ_STR(p->scan.func, "scrub");
	T_EQ_INT(p->scan.state, ZFS_SCAN_RUNNING);
	T_NEAR(p->scan.pct, 34.79, 1e-9);
	T_EQ_U64(p->scan.scanned, 292470092988416ULL);
	T_EQ_U64(p->scan.issued, 285873023221760ULL);
	T_EQ_U64(p->scan.total, 823534209204224ULL);
	T_EQ_U64(p->scan.rate, 3468186092ULL);	/* issued, not scanned */
	T_EQ_U64(p->scan.processed, 0);
	T_EQ_INT(p->scan.eta, 86400 + 18 * 3600 + 56 * 60 + 16);
	T_EQ_INT(p->nvdevs, 12);
	VDEV(p, 1, "raidz3-0", ZFS_VDEV_RAIDZ, ZFS_CLASS_DATA, 0);
	T_EQ_INT(p->vdevs[1].parity, 3);
	VDEV(p, 11, "wwn-0x5000cca2c2899df8", ZFS_VDEV_DISK, ZFS_CLASS_DATA,
	    1);
	T_EQ_INT(st.skipped, 0);
}

/* Unraid: paths, notes, error counts, replacing, elided lines. */
static void
test_status_unraid(void)
{
	const struct zfs_pool	*p;

	if ((p = status("zfs/status-unraid-resilver-webgui2547.txt")) == NULL)
		return;
	T_EQ_STR(p->state, "DEGRADED");
	T_EQ_STR(p->scan.func, "resilver");
	T_NEAR(p->scan.pct, 46.64, 1e-9);
	T_EQ_U64(p->scan.scanned, 75646399990989ULL);
	T_EQ_U64(p->scan.issued, 53106411621581ULL);
	T_EQ_U64(p->scan.total, 114349209288704ULL);
	T_EQ_U64(p->scan.rate, 2115271393);
	T_EQ_U64(p->scan.processed, 3078632557773ULL);
	T_EQ_INT(p->scan.eta, 7 * 3600 + 58 * 60 + 49);
	T_EQ_INT(p->nvdevs, 7);
	VDEV(p, 1, "raidz2-0", ZFS_VDEV_RAIDZ, ZFS_CLASS_DATA, 0);
	T_EQ_INT(p->vdevs[1].parity, 2);
	VDEV(p, 2, "/dev/sdt1", ZFS_VDEV_DISK, ZFS_CLASS_DATA, 1);
	T_EQ_U64(p->vdevs[2].cerr, 9);
	T_EQ_STR(p->vdevs[2].note, "(resilvering)");
	VDEV(p, 4, "replacing-2", ZFS_VDEV_REPLACING, ZFS_CLASS_DATA, 1);
	T_EQ_U64(p->vdevs[4].cerr, 26);
	VDEV(p, 5, "11687508470009778260", ZFS_VDEV_DISK, ZFS_CLASS_DATA, 4);
	T_EQ_STR(p->vdevs[5].state, "UNAVAIL");
	T_EQ_STR(p->vdevs[5].note, "was /dev/sdv1/old");
	VDEV(p, 6, "/dev/sdv1", ZFS_VDEV_DISK, ZFS_CLASS_DATA, 4);
	T_EQ_STR(p->errors, "1 data errors, use '-v' for a list");
	T_EQ_INT(st.skipped, 3);	/* the poster's "." lines */
}

/* dRAID, the 0.8 format with replacing, illumos with logs and cache. */
static void
test_status_more(void)
{
	const struct zfs_pool	*p;

	if ((p = status("zfs/status-draid-resilver-zfs16979.txt")) != NULL) {
		T_NEAR(p->scan.pct, 81.21, 1e-9);
		T_EQ_U64(p->scan.scanned, 1553741871442821ULL);
		T_EQ_U64(p->scan.issued, 158329674399744ULL);
		T_EQ_U64(p->scan.total, 194613558116352ULL);
		T_EQ_U64(p->scan.rate, 1385126953);
		T_EQ_U64(p->scan.processed, 47718804645478ULL);
		T_EQ_INT(p->nvdevs, 2);
		VDEV(p, 1, "draid2:11d:53c:1s-0", ZFS_VDEV_DRAID,
		    ZFS_CLASS_DATA, 0);
		T_EQ_INT(p->vdevs[1].parity, 2);
	}
	if ((p = status("zfs/status-replacing-zfs7537.txt")) != NULL) {
		T_EQ_U64(p->scan.scanned, 6794981859656ULL);
		T_EQ_U64(p->scan.issued, 4683919534326ULL);
		T_EQ_U64(p->scan.total, 7058864650322ULL);
		T_EQ_U64(p->scan.rate, 465567744);
		T_EQ_U64(p->scan.processed, 132070244352ULL);
		T_EQ_INT(p->scan.eta, 3600 + 24 * 60 + 38);
		T_EQ_INT(p->nvdevs, 11);
		VDEV(p, 2, "replacing-0", ZFS_VDEV_REPLACING, ZFS_CLASS_DATA,
		    1);
		T_EQ_STR(p->vdevs[3].state, "OFFLINE");
		VDEV(p, 4, "sdh", ZFS_VDEV_DISK, ZFS_CLASS_DATA, 2);
		T_EQ_STR(p->vdevs[5].note, "too many errors");
		T_EQ_INT(p->vdevs[5].parent, 1);
		VDEV(p, 10, "ata-WDC_WD3001FFSX-68JNUN0_WD-WCC13LDN2ULC",
		    ZFS_VDEV_DISK, ZFS_CLASS_DATA, 9);
	}
	if ((p = status("zfs/status-raidz2-logs-cache-omnios1483.txt")) !=
	    NULL) {
		T_EQ_STR(p->scan.func, "scrub");
		T_EQ_INT(p->scan.state, ZFS_SCAN_DONE);
		T_NEAR(p->scan.pct, -1, 0);
		T_EQ_INT(p->nvdevs, 17);
		VDEV(p, 8, "raidz2-2", ZFS_VDEV_RAIDZ, ZFS_CLASS_DATA, 0);
		VDEV(p, 15, "c0t55CD2E414EC0B5ABd0", ZFS_VDEV_DISK,
		    ZFS_CLASS_LOG, 0);
		VDEV(p, 16, "c0t55CD2E414EC0FF43d0", ZFS_VDEV_DISK,
		    ZFS_CLASS_LOG, 0);
		T_EQ_INT(st.skipped, 0);
	}
	if ((p = status("zfs/status-truenas-scale-boot-pool.txt")) != NULL) {
		T_EQ_STR(p->name, "boot-pool");
		T_EQ_INT(p->scan.state, ZFS_SCAN_DONE);
		T_EQ_INT(p->nvdevs, 4);
		VDEV(p, 1, "mirror-0", ZFS_VDEV_MIRROR, ZFS_CLASS_DATA, 0);
		VDEV(p, 3, "sdau3", ZFS_VDEV_DISK, ZFS_CLASS_DATA, 1);
		T_EQ_INT(st.skipped, 0);
	}
}

/* Every prefix of every capture: parsed, or EINVAL; nothing worse. */
static void
test_cuts(void)
{
	static const char *const files[] = {
		"zfs/arcstats-2.2-htop1559.txt", "zfs/dmu_tx-zfs7718.txt",
		"zfs/objset-zfs12957.txt", "zfs/io-zabbix-zfs-checks2.txt",
		"zfs/txgs-zfs3811.txt", "zfs/txgs-old-zfs2218.txt",
		"zfs/status-resilver-slog-zfs3267.txt",
		"zfs/status-unraid-resilver-webgui2547.txt",
		"zfs/status-raidz2-logs-cache-omnios1483.txt"
	};
	struct zfs_named	 k;
	char			*buf, *copy;
	size_t			 len, n, f, bad = 0;

	for (f = 0; f < NP_NITEMS(files); f++) {
		buf = t_fixture(files[f], &len);
		for (n = 0; n <= len; n++) {
			if ((copy = malloc(n + 1)) == NULL)
				exit(1);
			memcpy(copy, buf, n);
			errno = 0;
			if (zfs_named_parse(copy, n, zfs_arc_names,
			    ZFS_ARC_NSTATS, &k, NULL) == -1 && errno != EINVAL)
				bad++;
			if (zfs_io_parse(copy, n, &k, NULL) == -1 &&
			    errno != EINVAL)
				bad++;
			if (zfs_txgs_parse(copy, n, &txgs, NULL) == -1 &&
			    errno != EINVAL)
				bad++;
			if (zfs_status_parse(copy, n, &st, NULL) == -1 &&
			    errno != EINVAL)
				bad++;
			free(copy);
		}
		free(buf);
	}
	T_EQ_U64(bad, 0);
}

/* Sizes as zpool prints them, and junk. */
static void
test_sizes(void)
{
	uint64_t	v;

	T_OK(zfs_size("3.30G/s", &v));
	T_EQ_U64(v, 3543348019ULL);
	T_OK(zfs_size("1.68K", &v));
	T_EQ_U64(v, 1720);
	T_OK(zfs_size("0B", &v));
	T_EQ_U64(v, 0);
	T_OK(zfs_size("0", &v));
	T_TRUE(zfs_size("12:00", &v) == -1);
	T_TRUE(zfs_size("", &v) == -1);
	T_TRUE(zfs_size("K", &v) == -1);
	T_TRUE(zfs_size("1.5X", &v) == -1);
	T_TRUE(zfs_size("99E", &v) == -1);
	T_TRUE(zfs_size("-1", &v) == -1);
}

/* Malformed and hostile status and kstat text. */
static void
test_malformed(void)
{
	struct zfs_named	 k;
	const char		*err;
	char			 big[8192], *p;
	size_t			 i;

	T_ERRNO(zfs_status_parse("", 0, &st, &err), EINVAL);
	T_EQ_STR(err, "no pool: line");
	T_ERRNO(zfs_named_parse("hits 4\n", 7, zfs_arc_names, ZFS_ARC_NSTATS,
	    &k, &err), EINVAL);
	T_ERRNO(zfs_txgs_parse("1 C 2\n", 6, &txgs, &err), EINVAL);
	/* Negative and junk values, an unknown type. */
	T_OK(zfs_named_parse("hits 4 -3\nmisses 4 7x\nsize 9 1\nc 4 5\n", 36,
	    zfs_arc_names, ZFS_ARC_NSTATS, &k, NULL));
	T_EQ_U64(k.have, 1U << ZFS_ARC_C);
	T_EQ_INT(k.skipped, 3);
	/* Nine pools (one too many), a vdev nested past the stack. */
	p = big;
	for (i = 0; i < 9; i++)
		p += sprintf(p, "  pool: p%zu\nconfig:\n\tNAME STATE\n"
		    "\tp%zu ONLINE 0 0 0\n", i, i);
	p += sprintf(p, "  pool: deep\n");
	T_OK(zfs_status_parse(big, (size_t)(p - big), &st, NULL));
	T_EQ_INT(st.npools, ZFS_POOLS_MAX);
	T_EQ_INT(st.pools[7].nvdevs, 1);
	p = big;
	p += sprintf(p, "  pool: deep\nconfig:\n\tNAME STATE\n"
	    "\tdeep ONLINE 0 0 0\n");
	for (i = 1; i < 20; i++)
		p += sprintf(p, "\t%*smirror-%zu ONLINE 0 0 0\n", (int)i * 2,
		    "", i);
	T_OK(zfs_status_parse(big, (size_t)(p - big), &st, NULL));
	T_EQ_INT(st.pools[0].nvdevs, 16);
	T_EQ_INT(st.skipped, 4);
	/* A vdev before its pool's row, odd indents, a bare "spares" list. */
	p = big;
	p += sprintf(p, "  pool: odd\nconfig:\n\tNAME STATE\n"
	    "\t  early ONLINE 0 0 0\n\todd ONLINE 0 0 0\n"
	    "\t   three ONLINE 0 0 0\n\tspares\n\t  sdz AVAIL\n");
	T_OK(zfs_status_parse(big, (size_t)(p - big), &st, NULL));
	T_EQ_INT(st.pools[0].nvdevs, 2);
	T_EQ_INT(st.pools[0].vdevs[1].class, ZFS_CLASS_SPARE);
	T_EQ_STR(st.pools[0].vdevs[1].state, "AVAIL");
	T_EQ_INT(st.skipped, 2);
}

/* Reading under a root: arcstats, a pool's txgs, the pool list. */
static void
test_read(void)
{
	struct probe_root	 root;
	struct probe_buf	 b;
	struct zfs_named	 k;
	char			 dir[] = "/tmp/t_zfs.XXXXXX", names[4][64];
	char			*buf;
	size_t			 len, n;

	probe_buf_init(&b);
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	buf = t_fixture("zfs/arcstats-2.2-htop1559.txt", &len);
	t_put(dir, "proc/spl/kstat/zfs/arcstats", buf);
	free(buf);
	buf = t_fixture("zfs/txgs-zfs3811.txt", &len);
	t_put(dir, "proc/spl/kstat/zfs/anima/txgs", buf);
	free(buf);
	buf = t_fixture("zfs/io-zabbix-zfs-checks2.txt", &len);
	t_put(dir, "proc/spl/kstat/zfs/zstore/io", buf);
	free(buf);
	t_put(dir, "proc/spl/kstat/zfs/fm", "");	/* not a pool */
	T_OK(probe_root_open(&root, dir));
	T_OK(zfs_kstat_read(&root, &b, "arcstats", zfs_arc_names,
	    ZFS_ARC_NSTATS, &k, NULL));
	T_EQ_U64(k.v[ZFS_ARC_HITS], 178707397);
	T_OK(zfs_txgs_read(&root, &b, "anima", &txgs, NULL));
	T_EQ_INT(txgs.n, 6);
	T_OK(zfs_pool_names(&root, names, 4, &n));
	T_EQ_INT(n, 2);
	T_EQ_STR(names[0], "anima");
	T_EQ_STR(names[1], "zstore");
	T_ERRNO(zfs_kstat_read(&root, &b, "dmu_tx", zfs_tx_names,
	    ZFS_TX_NSTATS, &k, NULL), ENOENT);
	T_ERRNO(zfs_kstat_read(&root, &b, "../../mdstat", zfs_tx_names,
	    ZFS_TX_NSTATS, &k, NULL), EINVAL);
	T_ERRNO(zfs_txgs_read(&root, &b, "a/b", &txgs, NULL), EINVAL);
	probe_root_close(&root);
	T_ERRNO(zfs_kstat_read(t_root("empty"), &b, "arcstats", zfs_arc_names,
	    ZFS_ARC_NSTATS, &k, NULL), ENOENT);
	T_TRUE(zfs_pool_names(t_root("empty"), names, 4, &n) == -1 &&
	    n == 0);
	probe_buf_free(&b);
}

/* zfs get: the table form (three real captures) and -Hp's tabs. */
static void
test_datasets(void)
{
	struct zfs_datasets		 ds;
	const struct zfs_dataset	*d;
	const char			*err;
	char				*text;
	size_t				 len;
	static const char		 tabs[] = "tank/share\tsync\talways\n"
	    "tank/share\trecordsize\t131072\n"
	    "tank/share\tmountpoint\t/mnt/tank/share\n"
	    "tank/share\tprimarycache\tmetadata\n";

	memset(&ds, 0, sizeof ds);
	text = t_fixture("zfs/get-local-received-zfs12953.txt", &len);
	T_OK(zfs_datasets_parse(text, len, &ds, &err));
	free(text);
	T_EQ_INT(ds.n, 2);
	d = zfs_dataset_find(&ds, "zp-3x12-a");
	T_TRUE(d != NULL && d->recordsize == 1048576);
	T_EQ_STR(d != NULL ? d->compression : "", "lz4");
	d = zfs_dataset_find(&ds, "zp-3x12-a/backup");
	T_EQ_STR(d != NULL ? d->primarycache : "", "none");
	T_TRUE(zfs_dataset_find(&ds, "zp-3x12-a/other") == NULL);

	text = t_fixture("zfs/get-all-pve-zfs7038.txt", &len);
	T_OK(zfs_datasets_parse(text, len, &ds, &err));
	free(text);
	T_EQ_INT(ds.n, 1);
	d = zfs_dataset_find(&ds, "rpool/ROOT/pve-1");
	T_TRUE(d != NULL && d->recordsize == 131072);
	T_EQ_STR(d != NULL ? d->mountpoint : "", "/");
	T_EQ_STR(d != NULL ? d->compression : "", "on");

	text = t_fixture("zfs/get-all-sync-zfs8764.txt", &len);
	T_OK(zfs_datasets_parse(text, len, &ds, &err));
	free(text);
	d = zfs_dataset_find(&ds, "test-tank");
	T_EQ_STR(d != NULL ? d->sync : "", "standard");
	T_EQ_STR(d != NULL ? d->primarycache : "?", "");

	T_OK(zfs_datasets_parse(tabs, sizeof tabs - 1, &ds, &err));
	d = zfs_dataset_find(&ds, "tank/share");
	T_EQ_STR(d != NULL ? d->sync : "", "always");
	T_TRUE(d != NULL && d->recordsize == 131072);
	T_EQ_STR(d != NULL ? d->mountpoint : "", "/mnt/tank/share");
	T_EQ_STR(d != NULL ? d->primarycache : "", "metadata");

	/* zpool status is no zfs get. */
	text = t_fixture("zfs/status-truenas-scale-boot-pool.txt", &len);
	T_ERRNO(zfs_datasets_parse(text, len, &ds, &err), EINVAL);
	free(text);
	zfs_datasets_clear(&ds);
}

/* The row of io called name (in pool), or NULL. */
static const struct zfs_vio_row *
t_vio_row(const struct zfs_viostat *io, const char *pool, const char *name)
{
	size_t	i;

	for (i = 0; i < io->nrows; i++)
		if (strcmp(io->rows[i].pool, pool) == 0 &&
		    strcmp(io->rows[i].name, name) == 0)
			return (&io->rows[i]);
	return (NULL);
}

/* zpool iostat -vl of real pools, three column sets. */
static void
test_viostat(void)
{
	static const char exact[] =
	    "              capacity     operations     bandwidth    total_wait"
	    "     disk_wait    syncq_wait    asyncq_wait  scrub   trim  rebuild\n"
	    "pool        alloc   free   read  write   read  write   read  write"
	    "   read  write   read  write   read  write   wait   wait   wait\n"
	    "----------  -----  -----  -----  -----  -----  -----  -----  -----"
	    "  -----  -----  -----  -----  -----  -----  -----  -----  -----\n"
	    "tank  1099511627776 2199023255552 12 340 49152 178257920 - "
	    "8123456 - 2500000 - 1200 - 5400000 - - -\n"
	    "  mirror-0  1099511627776 2199023255552 12 300 49152 157286400 - "
	    "9000000 - 2600000 - 1100 - 6000000 - - -\n"
	    "    sda - - 6 150 24576 78643200 - 9000000 - 2600000 - 1100 - "
	    "6000000 - - -\n"
	    "logs - - - - - - - - - - - - - - - - -\n"
	    "  nvme0n1 1048576 1024209543168 0 40 0 20971520 - 95000 - "
	    "60000 - 30000 - - - - -\n"
	    "----------  -----  -----  -----  -----  -----  -----  -----  -----"
	    "  -----  -----  -----  -----  -----  -----  -----  -----  -----\n";
	struct zfs_viostat		*io;
	const struct zfs_vio_row	*r;
	const char			*err;
	char				*buf;
	size_t				 len;

	if ((io = calloc(1, sizeof *io)) == NULL)
		return;
	buf = t_fixture("zfs/iostat-vl-raidz1-ubuntuforums.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	T_EQ_INT(io->nrows, 7);
	T_EQ_INT(io->skipped, 0);
	T_TRUE((io->cols >> ZFS_VIO_TRIM) & 1U);
	T_TRUE(!((io->cols >> ZFS_VIO_REBUILD) & 1U));
	r = t_vio_row(io, "teststore", "raidz1-0");
	T_TRUE(r != NULL && r->depth == 1 && r->class == ZFS_CLASS_DATA);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_BW_W] : 0, 39.9 * 1048576, 1);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_TOTAL_W] : 0, 0.007, 1e-12);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SYNCQ_R] : 0, 1e-6, 1e-15);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SCRUB] : 0, 0.052, 1e-12);
	T_TRUE(r != NULL && isnan(r->v[ZFS_VIO_TRIM]));
	r = t_vio_row(io, "teststore", "sdd1");
	T_TRUE(r != NULL && r->depth == 2 && isnan(r->v[ZFS_VIO_ALLOC]));
	T_NEAR(r != NULL ? r->v[ZFS_VIO_OPS_W] : 0, 45, 1e-9);
	r = t_vio_row(io, "teststore", "teststore");
	T_NEAR(r != NULL ? r->v[ZFS_VIO_ALLOC] : 0, 1.34 * 1099511627776.0,
	    1024);

	/* Five reports: the last (a 30 s interval) is kept. */
	buf = t_fixture("zfs/iostat-vl-interval-ubuntuforums.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	T_EQ_INT(io->nrows, 7);
	r = t_vio_row(io, "testpool", "sda1");
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SYNCQ_R] : 0, 768e-9, 1e-15);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_BW_W] : 0, 26.4 * 1048576, 1);
	r = t_vio_row(io, "testpool", "sdb1");
	T_TRUE(r != NULL && isnan(r->v[ZFS_VIO_TOTAL_R]) &&
	    isnan(r->v[ZFS_VIO_ASYNCQ_R]));

	/* 2.x: a rebuild column; the disk right under the pool. */
	buf = t_fixture("zfs/iostat-vly-rebuild-extrange.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	T_EQ_INT(io->nrows, 2);
	T_TRUE((io->cols >> ZFS_VIO_REBUILD) & 1U);
	r = t_vio_row(io, "storage-temp", "sde");
	T_TRUE(r != NULL && r->depth == 1);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_ASYNCQ_W] : 0, 0.082, 1e-12);

	/* 0.7: no trim; a log device under its group row. */
	buf = t_fixture("zfs/iostat-vl-logs-zfs4433.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	T_TRUE(!((io->cols >> ZFS_VIO_TRIM) & 1U));
	T_EQ_INT(io->nrows, 4);
	r = t_vio_row(io, "mypool", "A3");
	T_TRUE(r != NULL && r->class == ZFS_CLASS_LOG && r->depth == 1);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SYNCQ_W] : 0, 0.047, 1e-12);
	r = t_vio_row(io, "mypool", "A2");
	T_TRUE(r != NULL && r->class == ZFS_CLASS_DATA);
	{
		struct zfs_vio_writes	w;

		/* The intent log's device, then the pool as a whole. */
		T_OK(zfs_viostat_writes(io, "mypool", 1, &w));
		T_EQ_STR(w.name, "A3");
		T_EQ_INT(w.nvdevs, 1);
		T_NEAR(w.ops, 1966, 1);		/* 1.92K */
		T_NEAR(w.total, 0.049, 1e-12);
		T_NEAR(w.disk, 0.002, 1e-12);
		T_NEAR(w.syncq, 0.047, 1e-12);
		T_OK(zfs_viostat_writes(io, "mypool", 0, &w));
		T_EQ_STR(w.name, "mypool");
		T_NEAR(w.ops, 2426, 1);		/* 2.37K */
		T_NEAR(w.total, 0.041, 1e-12);
		T_NEAR(w.syncq, 0.046, 1e-12);
		T_TRUE(zfs_viostat_writes(io, "tank", 0, &w) == -1);
		/* Two log vdevs: weighted by their writes, and no name. */
		io->rows[io->nrows] = io->rows[3];
		snprintf(io->rows[io->nrows].name, sizeof io->rows[0].name,
		    "A4");
		io->rows[io->nrows].v[ZFS_VIO_OPS_W] = 100;
		io->rows[io->nrows].v[ZFS_VIO_TOTAL_W] = 0.001;
		io->rows[io->nrows].v[ZFS_VIO_DISK_W] = NAN;
		io->nrows++;
		T_OK(zfs_viostat_writes(io, "mypool", 1, &w));
		T_EQ_STR(w.name, "");
		T_EQ_INT(w.nvdevs, 2);
		T_NEAR(w.ops, 2066, 1);
		T_NEAR(w.total, (1966 * 0.049 + 100 * 0.001) / 2066, 1e-4);
		T_NEAR(w.disk, 0.002, 1e-12);	/* A4 printed none */
	}

	/* A date line (-T d), mirrors of one name, K operations. */
	buf = t_fixture("zfs/iostat-vlTd-mirrors-zfs11754.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	T_EQ_INT(io->skipped, 1);
	free(buf);
	T_EQ_INT(io->nrows, 7);
	r = t_vio_row(io, "pool2", "pool2");
	T_NEAR(r != NULL ? r->v[ZFS_VIO_OPS_W] : 0, 62.5 * 1024, 1);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SYNCQ_W] : 0, 1e-6, 1e-15);

	/* A dash line first, then the headers; the pool alone. */
	buf = t_fixture("zfs/iostat-vl-raidz2-zfs7694.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	r = t_vio_row(io, "data3", "raidz2");
	T_NEAR(r != NULL ? r->v[ZFS_VIO_BW_R] : 0, 1.32 * 1073741824.0, 1024);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SYNCQ_R] : 0, 133e-9, 1e-15);
	T_EQ_INT(io->nrows, 7);
	buf = t_fixture("zfs/iostat-l-zfs7935.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	T_EQ_INT(io->nrows, 1);
	T_NEAR(io->rows[0].v[ZFS_VIO_TOTAL_R], 881e-9, 1e-15);
	T_NEAR(io->rows[0].v[ZFS_VIO_SCRUB], 175e-9, 1e-15);

	/* -p: exact bytes and nanoseconds, as nasperfd asks for them. */
	T_OK(zfs_viostat_parse(exact, sizeof exact - 1, io, &err));
	T_EQ_INT(io->nrows, 4);
	r = t_vio_row(io, "tank", "nvme0n1");
	T_TRUE(r != NULL && r->class == ZFS_CLASS_LOG);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_TOTAL_W] : 0, 95e-6, 1e-15);
	T_NEAR(r != NULL ? r->v[ZFS_VIO_BW_W] : 0, 20971520, 1e-6);
	r = t_vio_row(io, "tank", "tank");
	T_NEAR(r != NULL ? r->v[ZFS_VIO_SYNCQ_W] : 0, 1.2e-6, 1e-15);

	/* Not zpool iostat. */
	buf = t_fixture("zfs/status-truenas-scale-boot-pool.txt", &len);
	T_ERRNO(zfs_viostat_parse(buf, len, io, &err), EINVAL);
	free(buf);
	T_ERRNO(zfs_viostat_parse("", 0, io, &err), EINVAL);
	free(io);
}

int
main(void)
{
	test_arcstats();
	test_other_kstats();
	test_txgs();
	test_status_slog();
	test_status_scrub();
	test_status_unraid();
	test_status_more();
	test_cuts();
	test_sizes();
	test_malformed();
	test_read();
	test_datasets();
	test_viostat();
	return (t_done());
}
