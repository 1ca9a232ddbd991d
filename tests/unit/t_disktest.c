/*
 * t_disktest.c: the disk analyzer's pure parts (expected throughput of
 * each layout, slow members), its plans over the fixture boxes (targets,
 * refusals, steps, zones), the baseline merged from a test's document,
 * and its start: temp files a crash left are removed, a test saved as
 * running is marked failed, the baseline is read back for the verdict
 * engine.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "baseline.h"
#include "disktest.h"
#include "disktest_plan.h"
#include "np.h"
#include "test.h"
#include "topology.h"

/* Each layout's expected read and write from its members. */
static void
t_expected(void)
{
	const double	four[] = { 100e6, 120e6, 110e6, 130e6 };
	const double	two[] = { 40e6, 40e6 };
	double		rd, wr;

	T_OK(disktest_expected("raid0", four, 4, &rd, &wr));
	T_NEAR(rd, 400e6, 1);		/* n x the slowest */
	T_NEAR(wr, 400e6, 1);
	T_OK(disktest_expected("btrfs raid0", two, 2, &rd, &wr));
	T_NEAR(rd, 80e6, 1);
	T_OK(disktest_expected("raid1", four, 4, &rd, &wr));
	T_NEAR(rd, 115e6, 1);		/* one mirror: the mean */
	T_NEAR(wr, 100e6, 1);		/* every mirror: the slowest */
	T_OK(disktest_expected("btrfs raid10", four, 4, &rd, &wr));
	T_NEAR(rd, 200e6, 1);
	T_OK(disktest_expected("raid5", four, 4, &rd, &wr));
	T_NEAR(rd, 300e6, 1);
	T_NEAR(wr, 300e6, 1);
	T_OK(disktest_expected("raid6", four, 4, &rd, &wr));
	T_NEAR(rd, 200e6, 1);
	T_OK(disktest_expected("linear", four, 4, &rd, &wr));
	T_NEAR(rd, 115e6, 1);
	T_OK(disktest_expected("btrfs single", two, 1, &rd, &wr));
	T_NEAR(wr, 40e6, 1);
	T_OK(disktest_expected("btrfs dup", two, 1, &rd, &wr));
	T_NEAR(wr, 20e6, 1);
	T_ERRNO(disktest_expected("raid6", two, 2, &rd, &wr), EINVAL);
	T_ERRNO(disktest_expected("raid7", four, 4, &rd, &wr), EINVAL);
	T_ERRNO(disktest_expected("raid0", four, 0, &rd, &wr), EINVAL);
}

/* ZFS layouts: every top-level vdev, each raidz at its width less parity. */
static void
t_expected_zfs(void)
{
	double	six[6], twelve[12], rd, wr;
	size_t	i;

	for (i = 0; i < 12; i++)
		twelve[i] = i == 7 ? 90e6 : 100e6;
	for (i = 0; i < 6; i++)
		six[i] = 100e6;
	T_OK(disktest_expected("zfs raidz2", six, 6, &rd, &wr));
	T_NEAR(rd, 400e6, 1);
	T_NEAR(wr, 400e6, 1);
	T_OK(disktest_expected("zfs 2x raidz2", twelve, 12, &rd, &wr));
	T_NEAR(rd, 2 * 4 * 90e6, 1);
	T_OK(disktest_expected("zfs raidz3", six, 6, &rd, &wr));
	T_NEAR(rd, 300e6, 1);
	T_OK(disktest_expected("zfs 3x mirror", six, 6, &rd, &wr));
	T_NEAR(rd, 300e6, 1);
	T_OK(disktest_expected("zfs mirror", six, 2, &rd, &wr));
	T_NEAR(wr, 100e6, 1);
	T_OK(disktest_expected("zfs stripe", six, 3, &rd, &wr));
	T_NEAR(rd, 300e6, 1);
	T_ERRNO(disktest_expected("zfs mixed", six, 6, &rd, &wr), EINVAL);
	T_ERRNO(disktest_expected("zfs draid2", six, 6, &rd, &wr), EINVAL);
	T_ERRNO(disktest_expected("zfs 5x raidz2", twelve, 12, &rd, &wr),
	    EINVAL);
	T_ERRNO(disktest_expected("zfs raidz2", six, 2, &rd, &wr), EINVAL);
	T_ERRNO(disktest_expected("zfs 0x mirror", six, 2, &rd, &wr), EINVAL);
	T_ERRNO(disktest_expected("zfs raidz4", six, 6, &rd, &wr), EINVAL);
}

/*
 * What the ARC served of a ZFS volume's read: arcstats before and after
 * (a real capture, its counters moved on), hits and misses of file data.
 */
static void
t_arc(void)
{
	struct zfs_named	 a, b;
	const char		*err;
	char			*text;
	size_t			 len;
	json_t			*j;

	text = t_fixture("zfs/arcstats-2.2-htop1559.txt", &len);
	T_OK(zfs_named_parse(text, len, zfs_arc_names, ZFS_ARC_NSTATS, &a,
	    &err));
	free(text);
	b = a;
	b.v[ZFS_ARC_DEMAND_DATA_HITS] += 9000;
	b.v[ZFS_ARC_DEMAND_DATA_MISSES] += 1000;
	j = disktest_arc(&a, &b);
	T_TRUE(j != NULL);
	T_EQ_INT((int)json_integer_value(json_object_get(j,
	    "demand_data_hits")), 9000);
	T_NEAR(json_real_value(json_object_get(j, "hit_pct")), 90, 1e-9);
	T_TRUE(json_is_true(json_object_get(j, "from_arc")));
	json_decref(j);
	b = a;
	b.v[ZFS_ARC_DEMAND_DATA_HITS] += 100;
	b.v[ZFS_ARC_DEMAND_DATA_MISSES] += 4900;
	j = disktest_arc(&a, &b);
	T_TRUE(json_is_false(json_object_get(j, "from_arc")));
	T_NEAR(json_real_value(json_object_get(j, "hit_pct")), 2, 1e-9);
	json_decref(j);
	/* Nothing read, counters gone back (a reload), rows missing: none. */
	T_TRUE(disktest_arc(&a, &a) == NULL);
	b = a;
	b.v[ZFS_ARC_DEMAND_DATA_HITS] -= 1;
	b.v[ZFS_ARC_DEMAND_DATA_MISSES] += 10;
	T_TRUE(disktest_arc(&a, &b) == NULL);
	b = a;
	b.v[ZFS_ARC_DEMAND_DATA_MISSES] += 10;
	b.have &= ~(1U << ZFS_ARC_DEMAND_DATA_HITS);
	T_TRUE(disktest_arc(&a, &b) == NULL);
}

/* More than 8 % below the mean is slow; 8 % or less is not. */
static void
t_slow(void)
{
	const double	a[] = { 180e6, 185e6, 190e6, 150e6 };
	const double	b[] = { 100e6, 100e6, 100e6, 92.5e6 };
	const double	one[] = { 10e6 };
	int		slow[4];

	T_EQ_INT(disktest_slow(a, 4, DISKTEST_SLOW_PCT, slow), 1);
	T_EQ_INT(slow[3], 1);
	T_EQ_INT(slow[0], 0);
	/* mean 98.125: 92.5 is 5.7 % below */
	T_EQ_INT(disktest_slow(b, 4, DISKTEST_SLOW_PCT, slow), 0);
	T_EQ_INT(disktest_slow(one, 1, DISKTEST_SLOW_PCT, slow), 0);
}

/* A plan of body over fixture box with the volumes given configured. */
static int
t_plan(const char *box, const char *body, struct dt_plan *p,
    struct http_err *e, const char *vol)
{
	struct topology	*topo = topology_new();
	struct cfg	*cfg = cfg_default();
	json_t		*b = json_loads(body, 0, NULL);
	char		 msg[512];
	int		 rc = -1;

	memset(p, 0, sizeof *p);
	memset(e, 0, sizeof *e);
	p->forced = json_array();
	if (vol != NULL) {
		snprintf(cfg->dt_volumes[0], sizeof cfg->dt_volumes[0], "%s",
		    vol);
		cfg->dt_nvolumes = 1;
	}
	T_TRUE(b != NULL);
	T_OK(topology_read(t_root(box), topo));
	if (dt_plan_parse(b, cfg, p, msg, sizeof msg) == -1)
		snprintf(e->msg, sizeof e->msg, "%s", msg);
	else if (dt_plan_targets(cfg, topo, box, json_object_get(b,
	    "targets"), p, e) == 0 && dt_plan_resync(topo, p, e) == 0) {
		dt_plan_steps(p);
		rc = 0;
	}
	json_decref(b);
	cfg_free(cfg);
	topology_free(topo);
	return (rc);
}

/* The plan's step labels, one per line. */
static const char *
t_labels(const struct dt_plan *p)
{
	static char	out[8192];
	char		l[128];
	size_t		i;

	out[0] = '\0';
	for (i = 0; i < p->nsteps; i++) {
		dt_plan_label(p, &p->steps[i], l, sizeof l);
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s\n",
		    l);
	}
	return (out);
}

/* DSM 7: /volume1, btrfs on dm on an 8-disk RAID 6; every step. */
static void
t_plan_dsm7(void)
{
	static struct dt_plan	p;
	struct http_err		e;
	uint64_t		off, len;
	size_t			i;

	if (t_plan("dsm7-4.4-x86_64", "{}", &p, &e, "/volume1") == -1) {
		T_EQ_STR(e.msg, "");
		return;
	}
	T_EQ_INT(p.ndisks, 8);
	T_EQ_STR(p.disks[0].name, "sata1");
	T_EQ_STR(p.disks[0].dev, "/dev/sata1");
	T_EQ_STR(p.disks[7].name, "sata8");
	T_EQ_STR(p.disks[0].model, "WDC WD80EFZZ-68B");
	T_EQ_U64(p.disks[0].size, 8001563222016ULL);
	T_EQ_INT(p.nvols, 1);
	T_EQ_STR(p.vols[0].path, "/volume1");
	T_EQ_STR(p.vols[0].tmp, "/volume1/" DISKTEST_TMPNAME);
	T_EQ_STR(p.vols[0].fstype, "btrfs");
	T_EQ_STR(p.vols[0].layout, "raid6");
	T_EQ_INT(p.vols[0].nmembers, 8);
	T_EQ_STR(p.vols[0].members[0], "sata1p3");
	for (i = 0; i < p.vols[0].nmembers; i++)
		T_EQ_INT(p.vols[0].disk[i], i);
	/* 8 x (3 zones + 2 random), all at once, 4 on the volume. */
	T_EQ_INT(p.nsteps, 8 * 5 + 1 + 4);
	T_EQ_INT(p.kind, DT_SEQ | DT_RND);
	T_EQ_U64(p.size, 1ULL << 30);
	T_EQ_U64(p.bs, 1ULL << 20);
	T_NEAR(p.seconds, 5, 0);
	T_TRUE(strncmp(t_labels(&p), "sata1 sequential read, outer zone\n"
	    "sata1 sequential read, middle zone\nsata1 sequential read, "
	    "inner zone\nsata1 random 4 KiB read, QD1\nsata1 random 4 KiB "
	    "read, QD32\nsata2 ", 154) == 0);
	T_TRUE(strstr(t_labels(&p), "all 8 disks at once\n/volume1 "
	    "sequential write\n/volume1 sequential read\n/volume1 random "
	    "4 KiB read\n/volume1 random 4 KiB write\n") != NULL);
	T_EQ_INT(p.steps[3].qd, 1);
	T_EQ_INT(p.steps[4].qd, DT_RAND_QD);
	T_EQ_INT(p.steps[0].qd, DT_DEF_QD);
	/* Zones of 1 GiB: the start, the middle and the end, aligned. */
	dt_plan_zone(&p, &p.disks[0], 0, &off, &len);
	T_EQ_U64(off, 0);
	T_EQ_U64(len, 1ULL << 30);
	dt_plan_zone(&p, &p.disks[0], 1, &off, &len);
	T_EQ_U64(off % p.bs, 0);
	T_TRUE(off <= p.disks[0].size / 2 && off + p.bs > p.disks[0].size / 2);
	dt_plan_zone(&p, &p.disks[0], 2, &off, &len);
	T_EQ_U64(off % p.bs, 0);
	T_TRUE(off + len <= p.disks[0].size &&
	    off + len + p.bs > p.disks[0].size);
	json_decref(p.forced);
}

/* QTS 5 sequential only, ReadyNAS by its path, Debian disks and btrfs. */
static void
t_plan_boxes(void)
{
	static struct dt_plan	p;
	struct http_err		e;

	if (t_plan("qts5-5.10-x86_64", "{\"kind\":\"seq\",\"seconds\":1,"
	    "\"size\":8388608}", &p, &e, "/share/CACHEDEV1_DATA") == 0) {
		T_EQ_STR(p.vols[0].layout, "raid5");
		T_EQ_STR(p.vols[0].fstype, "ext4");
		T_EQ_INT(p.vols[0].nmembers, 4);
		T_EQ_STR(p.disks[3].name, "sdd");
		/* 4 x 3 zones, all at once, the file written and read. */
		T_EQ_INT(p.nsteps, 4 * 3 + 1 + 2);
		T_EQ_U64(p.size, 8388608);
	} else
		T_EQ_STR(e.msg, "");
	json_decref(p.forced);

	/* A trailing slash names the configured volume. */
	if (t_plan("readynas6-4.4-armhf", "{\"kind\":\"seq\",\"targets\":"
	    "[\"/data/\"]}", &p, &e, "/data") == 0) {
		T_EQ_STR(p.vols[0].path, "/data");
		T_EQ_STR(p.vols[0].device, "md127");
		T_EQ_STR(p.vols[0].layout, "raid5");
		T_EQ_INT(p.ndisks, 4);
	} else
		T_EQ_STR(e.msg, "");
	json_decref(p.forced);

	/* A disk named twice, by name and path, is tested once. */
	if (t_plan("debian12-6.1-btrfs", "{\"kind\":\"random\",\"targets\":"
	    "[\"/srv/data\",\"nvme0n1\",\"/dev/nvme0n1\",\"sda\"]}", &p, &e,
	    "/srv/data") == 0) {
		T_EQ_STR(p.vols[0].layout, "btrfs raid1");
		T_EQ_INT(p.vols[0].nmembers, 3);
		T_EQ_INT(p.ndisks, 4);
		T_EQ_STR(p.disks[3].name, "nvme0n1");
		/* No sequential step, nor all at once; no volume read. */
		T_EQ_INT(p.nsteps, 4 * 2 + 3);
		T_TRUE(strstr(t_labels(&p), "sequential read") == NULL);
		T_TRUE(strstr(t_labels(&p), "at once") == NULL);
	} else
		T_EQ_STR(e.msg, "");
	json_decref(p.forced);
}

/* What a plan refuses, and says why. */
static void
t_plan_refused(void)
{
	static const struct {
		const char	*box, *body, *vol;
		int		 status;
		const char	*code, *msg;
	} c[] = {
		{ "dsm7-4.4-x86_64", "{\"targets\":[\"sata1p3\"]}", NULL, 400,
		    "bad_target", "is a partition of sata1: name the disk" },
		{ "dsm7-4.4-x86_64", "{\"targets\":[\"sdq\"]}", NULL, 400,
		    "unknown_target", "not a disk in dsm7-4.4-x86_64/sys" },
		{ "dsm7-4.4-x86_64", "{\"targets\":[\"/etc\"]}", "/volume1",
		    400, "bad_target", "not in disktest.volumes, the volumes "
		    "a test may write to (/volume1)" },
		{ "dsm7-4.4-x86_64", "{\"targets\":[\"/volume2\"]}",
		    "/volume2", 400, "not_mounted", "is not a mount point" },
		{ "dsm7-4.4-x86_64", "{}", NULL, 400, "no_target",
		    "no disktest.volumes are configured" },
		{ "dsm7-4.4-x86_64", "{\"targets\":\"sata1\"}", NULL, 0, "",
		    "targets: expected an array" },
		{ "dsm7-4.4-x86_64", "{\"speed\":1}", NULL, 0, "",
		    "unknown key 'speed'" },
		{ "dsm7-4.4-x86_64", "{\"seconds\":0}", NULL, 0, "",
		    "seconds: expected" },
		{ "dsm7-4.4-x86_64", "{\"kind\":\"fast\"}", NULL, 0, "",
		    "kind: expected full, seq or random" },
		{ "dsm7-4.4-x86_64", "{\"block_size\":1000}", NULL, 0, "",
		    "block_size: expected a multiple of 4096" },
		{ "dsm7-4.4-x86_64", "{\"size\":4096}", NULL, 0, "",
		    "size: expected an integer number of bytes" },
	};
	static struct dt_plan	p;
	struct http_err		e;
	size_t			i;

	for (i = 0; i < NP_NITEMS(c); i++) {
		T_EQ_INT(t_plan(c[i].box, c[i].body, &p, &e, c[i].vol), -1);
		T_EQ_INT(e.status, c[i].status);
		T_EQ_STR(e.code, c[i].code);
		if (strstr(e.msg, c[i].msg) == NULL)
			T_EQ_STR(e.msg, c[i].msg);
		json_decref(p.forced);
	}
}

/*
 * Pools over the Debian 12 box's disks, as zpool status -P prints them:
 * tank, a raidz1 of sda, sdb and sdc with nvme0n1p3 as its log; and, on
 * another such box, duo, two mirrors.
 */
static const char t_zpool_tank[] =
"  pool: tank\n"
" state: ONLINE\n"
"config:\n"
"\n"
"\tNAME              STATE     READ WRITE CKSUM\n"
"\ttank              ONLINE       0     0     0\n"
"\t  raidz1-0        ONLINE       0     0     0\n"
"\t    /dev/sda      ONLINE       0     0     0\n"
"\t    /dev/sdb      ONLINE       0     0     0\n"
"\t    /dev/sdc      ONLINE       0     0     0\n"
"\tlogs\n"
"\t  /dev/nvme0n1p3  ONLINE       0     0     0\n"
"\n"
"errors: No known data errors\n";
static const char t_zpool_duo[] =
"  pool: duo\n"
" state: ONLINE\n"
"config:\n"
"\n"
"\tNAME              STATE     READ WRITE CKSUM\n"
"\tduo               ONLINE       0     0     0\n"
"\t  mirror-0        ONLINE       0     0     0\n"
"\t    /dev/sda      ONLINE       0     0     0\n"
"\t    /dev/sdb      ONLINE       0     0     0\n"
"\t  mirror-1        ONLINE       0     0     0\n"
"\t    /dev/sdc      ONLINE       0     0     0\n"
"\t    /dev/nvme0n1p3  ONLINE       0     0     0\n"
"\n"
"errors: No known data errors\n";

/* A plan of a test of the ZFS dataset mounted at vol. */
static int
t_plan_zfs_one(struct topology *topo, const char *vol, struct dt_plan *p,
    struct http_err *e)
{
	struct cfg	*cfg = cfg_default();
	json_t		*targets = json_pack("[s]", vol);
	int		 rc;

	memset(p, 0, sizeof *p);
	memset(e, 0, sizeof *e);
	p->forced = json_array();
	snprintf(cfg->dt_volumes[0], sizeof cfg->dt_volumes[0], "%s", vol);
	cfg->dt_nvolumes = 1;
	rc = dt_plan_targets(cfg, topo, "/", targets, p, e);
	json_decref(p->forced);
	json_decref(targets);
	cfg_free(cfg);
	return (rc);
}

/* A mount of dataset at mountpoint, added to topo's. */
static void
t_mount_zfs(struct topology *topo, const char *dataset, const char *mnt)
{
	struct mounts_entry	*me;

	if (topo->mounts.n == topo->mounts.cap) {
		topo->mounts.cap = topo->mounts.cap * 2 + 4;
		topo->mounts.v = reallocarray(topo->mounts.v,
		    topo->mounts.cap, sizeof *topo->mounts.v);
	}
	me = &topo->mounts.v[topo->mounts.n++];
	memset(me, 0, sizeof *me);
	snprintf(me->source, sizeof me->source, "%s", dataset);
	snprintf(me->mountpoint, sizeof me->mountpoint, "%s", mnt);
	snprintf(me->fstype, sizeof me->fstype, "zfs");
	snprintf(me->options, sizeof me->options, "rw,xattr,noacl");
}

/*
 * A ZFS dataset is a volume like another: its pool's data disks are its
 * members (not the log), its layout the pool's, and a dataset of a pool
 * zpool status did not list is refused with the reason.
 */
static void
t_plan_zfs(void)
{
	static struct dt_plan	 p;
	static struct zfs_status tank, duo;
	struct topology		*topo = topology_new();
	struct http_err		 e;
	const char		*err;

	T_OK(topology_read(t_root("debian12-6.1-btrfs"), topo));
	T_OK(zfs_status_parse(t_zpool_tank, sizeof t_zpool_tank - 1, &tank,
	    &err));
	T_OK(zfs_status_parse(t_zpool_duo, sizeof t_zpool_duo - 1, &duo,
	    &err));
	t_mount_zfs(topo, "tank/share", "/mnt/tank/share");
	t_mount_zfs(topo, "duo", "/mnt/duo");
	t_mount_zfs(topo, "gone/data", "/mnt/gone");
	topo->zpool = &tank;
	if (!T_TRUE(t_plan_zfs_one(topo, "/mnt/tank/share", &p, &e) == 0))
		printf("#   %d %s\n", e.status, e.msg);
	T_EQ_INT((int)p.nvols, 1);
	T_EQ_STR(p.vols[0].layout, "zfs raidz1");
	T_EQ_STR(p.vols[0].device, "tank/share");
	T_EQ_STR(p.vols[0].fstype, "zfs");
	T_EQ_INT((int)p.vols[0].nmembers, 3);
	T_EQ_STR(p.vols[0].members[0], "sda");
	T_EQ_STR(p.vols[0].members[2], "sdc");
	T_EQ_STR(p.disks[p.vols[0].disk[1]].name, "sdb");
	T_EQ_INT((int)p.ndisks, 3);	/* the log's nvme0n1 is not read */
	T_EQ_INT(t_plan_zfs_one(topo, "/mnt/gone", &p, &e), -1);
	T_EQ_INT(e.status, 400);
	T_TRUE(strstr(e.msg, "gone/data: its pool is not in zpool status") !=
	    NULL);
	topo->zpool = &duo;
	T_OK(t_plan_zfs_one(topo, "/mnt/duo", &p, &e));
	T_EQ_STR(p.vols[0].layout, "zfs 2x mirror");
	T_EQ_INT((int)p.vols[0].nmembers, 4);
	T_EQ_STR(p.disks[p.vols[0].disk[3]].name, "nvme0n1");
	topo->zpool = NULL;
	T_EQ_INT(t_plan_zfs_one(topo, "/mnt/tank/share", &p, &e), -1);
	topology_free(topo);
}

/* An array that resyncs refuses a test of its disks, unless forced. */
static void
t_plan_resync(void)
{
	static struct dt_plan	 p;
	struct topology		*topo = topology_new();
	struct cfg		*cfg = cfg_default();
	struct http_err		 e;
	json_t			*targets = json_pack("[s]", "sdb");
	size_t			 i;

	T_OK(topology_read(t_root("readynas6-4.4-armhf"), topo));
	for (i = 0; i < topo->md.narrays; i++)
		if (strcmp(topo->md.arrays[i].name, "md127") == 0) {
			snprintf(topo->md.arrays[i].sync_action,
			    sizeof topo->md.arrays[i].sync_action, "resync");
			topo->md.arrays[i].sync_pct = 42.5;
		}
	memset(&p, 0, sizeof p);
	p.forced = json_array();
	T_OK(dt_plan_targets(cfg, topo, "/", targets, &p, &e));
	T_EQ_INT(dt_plan_resync(topo, &p, &e), -1);
	T_EQ_INT(e.status, 409);
	T_EQ_STR(e.code, "array_resyncing");
	T_TRUE(strstr(e.msg, "md127 is in resync (42.5 % done") != NULL);
	p.force = 1;
	T_OK(dt_plan_resync(topo, &p, &e));
	T_EQ_INT(json_array_size(p.forced), 1);
	json_decref(p.forced);
	json_decref(targets);
	cfg_free(cfg);
	topology_free(topo);
}

/* Figures a disk cannot give are said to be implausible, and why. */
static void
t_implausible(void)
{
	static struct dt_disk	k;
	json_t			*a, *r;

	memset(&k, 0, sizeof k);
	snprintf(k.name, sizeof k.name, "sdb");
	snprintf(k.transport, sizeof k.transport, "sata");
	k.rotational = 1;
	k.alloc_pct = -1;
	k.zone_bps[0] = 260e6;
	k.zone_bps[2] = 130e6;
	r = json_pack("{s:f}", "iops", 180.0);
	k.rand[0] = r;
	a = disktest_implausible(&k);
	T_EQ_INT(json_array_size(a), 0);	/* a plausible HDD */
	json_decref(a);
	k.zone_bps[1] = 1900e6;			/* a controller's cache */
	json_object_set_new(r, "iops", json_real(9000));
	a = disktest_implausible(&k);
	T_EQ_INT(json_array_size(a), 2);
	T_TRUE(strstr(json_string_value(json_array_get(a, 0)),
	    "read 1900 MB/s, faster than any does") != NULL);
	T_TRUE(strstr(json_string_value(json_array_get(a, 1)),
	    "served 9000 random 4 KiB reads a second") != NULL);
	json_decref(a);
	/* A loop device says it spins: no claim on it, but its file. */
	snprintf(k.transport, sizeof k.transport, "%s", "");
	snprintf(k.name, sizeof k.name, "loop3");
	snprintf(k.backing, sizeof k.backing, "/srv/img/disk.img");
	k.alloc_pct = 12;
	a = disktest_implausible(&k);
	T_EQ_INT(json_array_size(a), 1);
	T_TRUE(strstr(json_string_value(json_array_get(a, 0)), "loop3 is a "
	    "loop device over /srv/img/disk.img, a sparse file (12 % of it "
	    "allocated)") != NULL);
	json_decref(a);
	k.alloc_pct = 100;
	a = disktest_implausible(&k);
	T_EQ_INT(json_array_size(a), 0);
	json_decref(a);
	json_decref(r);
}

/* A finished test's figures merged into the baseline, then read back. */
static void
t_baseline(void)
{
	json_t	*b = json_object(), *doc;
	double	 rd, wr, iops;

	doc = json_loads("{\"id\":7,\"ended\":1800000000.5,\"kernel\":"
	    "\"6.1.0\",\"firmware\":\"DSM 7.2\",\"box\":\"DS1821+\","
	    "\"disks\":[{\"name\":\"sata1\",\"model\":\"WDC\",\"serial\":"
	    "\"X1\",\"firmware\":\"81.00A81\",\"size_bytes\":8001563222016,"
	    "\"zones\":{\"outer\":{\"bytes_per_s\":260e6},\"middle\":"
	    "{\"bytes_per_s\":210e6},\"inner\":null},\"rand_qd1\":{\"iops\":"
	    "80},\"rand_qd32\":{\"iops\":310},\"concurrent\":null}],"
	    "\"volumes\":[{\"path\":\"/volume1\",\"layout\":\"raid6\","
	    "\"fstype\":\"btrfs\",\"direct\":false,\"write\":{\"bytes_per_s\":"
	    "900e6},\"read\":{\"bytes_per_s\":1100e6},\"rand_read\":null,"
	    "\"rand_write\":{\"iops\":2000},\"expected\":{\"read_bytes_per_s\":"
	    "1560e6,\"write_bytes_per_s\":1560e6}}]}", 0, NULL);
	T_TRUE(doc != NULL);
	T_OK(baseline_merge(b, doc));
	T_OK(baseline_get(b, "sata1", &rd, &wr, &iops, NULL));
	T_NEAR(rd, 260e6, 1);
	T_NEAR(wr, 0, 0);
	T_NEAR(iops, 310, 0.01);
	T_OK(baseline_get(b, "/volume1", &rd, &wr, &iops, NULL));
	T_NEAR(rd, 1100e6, 1);
	T_NEAR(wr, 900e6, 1);
	T_NEAR(iops, 0, 0);			/* not measured */
	T_EQ_STR(json_string_value(json_object_get(b, "box")), "DS1821+");
	T_TRUE(json_object_get(json_object_get(json_object_get(json_object_get(
	    b, "disks"), "sata1"), "seq_read_bytes_per_s"), "inner") == NULL);
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(
	    json_object_get(b, "volumes"), "/volume1"), "test")), 7);
	T_NEAR(json_number_value(json_object_get(json_object_get(
	    json_object_get(b, "volumes"), "/volume1"),
	    "expected_read_bytes_per_s")), 1560e6, 1);
	T_ERRNO(baseline_get(b, "sata2", &rd, &wr, &iops, NULL), ENOENT);
	/* A later test of the volume alone keeps the disk's figures. */
	json_object_set_new(doc, "id", json_integer(8));
	json_array_clear(json_object_get(doc, "disks"));
	json_object_set_new(json_object_get(json_array_get(json_object_get(doc,
	    "volumes"), 0), "read"), "bytes_per_s", json_real(1000e6));
	T_OK(baseline_merge(b, doc));
	T_OK(baseline_get(b, "/volume1", &rd, &wr, &iops, NULL));
	T_NEAR(rd, 1000e6, 1);
	T_OK(baseline_get(b, "sata1", &rd, &wr, &iops, NULL));
	T_NEAR(rd, 260e6, 1);
	json_decref(doc);
	json_decref(b);
}

/* The start: crash leftovers removed, baseline read back. */
static void
t_init(void)
{
	struct daemon	 d;
	char		 dir[] = "/tmp/t_disktest.XXXXXX", p[512], vol[400];
	char		 vol2[400], tmp1[512], tmp2[512], other[512], *cause;
	double		 rd, wr, iops;
	json_t		*doc;
	json_error_t	 jerr;

	memset(&d, 0, sizeof d);
	if (mkdtemp(dir) == NULL) {
		T_TRUE(0);
		return;
	}
	snprintf(vol, sizeof vol, "%s/vol", dir);
	snprintf(vol2, sizeof vol2, "%s/old", dir);
	snprintf(tmp1, sizeof tmp1, "%s/%s", vol, DISKTEST_TMPNAME);
	snprintf(tmp2, sizeof tmp2, "%s/%s", vol2, DISKTEST_TMPNAME);
	snprintf(other, sizeof other, "%s/keep.txt", vol2);
	t_put(dir, "vol/" DISKTEST_TMPNAME, "left by a crash");
	t_put(dir, "old/" DISKTEST_TMPNAME, "left by a crash, in a volume "
	    "no longer listed");
	t_put(dir, "old/keep.txt", "not ours");
	/* The marker names the old volume's file, and one not ours. */
	{
		char	m[1200];

		snprintf(m, sizeof m, "%s\n%s\n/etc/passwd\n", tmp2, other);
		t_put(dir, "disktest.active", m);
	}
	t_put(dir, "disktests/4.json", "{\"id\":4,\"state\":\"running\"}");
	t_put(dir, "baseline.json", "{\"disks\":{\"sda\":{\"seq_read_bytes_per_s\":"
	    "{\"outer\":185e6,\"inner\":95e6},\"rand_read_iops_qd32\":310}},"
	    "\"volumes\":{\"/volume1\":{\"seq_read_bytes_per_s\":680e6,"
	    "\"seq_write_bytes_per_s\":570e6,\"rand_read_iops_qd32\":900}}}");

	d.cfg = cfg_default();
	snprintf(d.cfg->dt_volumes[0], sizeof d.cfg->dt_volumes[0], "%s", vol);
	d.cfg->dt_nvolumes = 1;
	snprintf(d.state_dir, sizeof d.state_dir, "%s", dir);
	T_OK(disktest_init(&d, &cause));
	T_TRUE(access(tmp1, F_OK) == -1 && errno == ENOENT);
	T_TRUE(access(tmp2, F_OK) == -1 && errno == ENOENT);
	T_TRUE(access(other, F_OK) == 0);	/* not our file name */
	T_TRUE(access("/etc/passwd", F_OK) == 0);
	snprintf(p, sizeof p, "%s/disktest.active", dir);
	T_TRUE(access(p, F_OK) == -1);

	/* The test the crash interrupted is failed, and says why. */
	snprintf(p, sizeof p, "%s/disktests/4.json", dir);
	doc = json_load_file(p, 0, &jerr);
	T_EQ_STR(json_string_value(json_object_get(doc, "state")), "failed");
	T_TRUE(strstr(json_string_value(json_object_get(doc, "error")),
	    "stopped during the test") != NULL);
	json_decref(doc);

	T_OK(disktest_baseline(&d, "/volume1", &rd, &wr, &iops, NULL));
	T_NEAR(rd, 680e6, 1);
	T_NEAR(wr, 570e6, 1);
	T_NEAR(iops, 900, 0.01);
	T_OK(disktest_baseline(&d, "sda", &rd, &wr, &iops, NULL));
	T_NEAR(rd, 185e6, 1);
	T_NEAR(wr, 0, 0);			/* raw disks are never written */
	T_NEAR(iops, 310, 0.01);
	T_ERRNO(disktest_baseline(&d, "sdz", &rd, &wr, &iops, NULL), ENOENT);
	disktest_shutdown(&d);
	T_TRUE(d.disktest == NULL);
	cfg_free(d.cfg);

	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	T_EQ_INT(system(p), 0);
}

int
main(void)
{
	(void)t_skip;
	t_expected();
	t_expected_zfs();
	t_arc();
	t_slow();
	t_plan_dsm7();
	t_plan_boxes();
	t_plan_refused();
	t_plan_resync();
	t_plan_zfs();
	t_implausible();
	t_baseline();
	t_init();
	return (t_done());
}
