/*
 * t_disktest.c: the disk analyzer's pure parts (expected throughput of
 * each layout, slow members), and its start: temp files a crash left are
 * removed, a test saved as running is marked failed, the baseline is read
 * back for the verdict engine.
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
#include "disktest.h"
#include "np.h"
#include "test.h"

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

	T_OK(disktest_baseline(&d, "/volume1", &rd, &wr, &iops));
	T_NEAR(rd, 680e6, 1);
	T_NEAR(wr, 570e6, 1);
	T_NEAR(iops, 900, 0.01);
	T_OK(disktest_baseline(&d, "sda", &rd, &wr, &iops));
	T_NEAR(rd, 185e6, 1);
	T_NEAR(wr, 0, 0);			/* raw disks are never written */
	T_NEAR(iops, 310, 0.01);
	T_ERRNO(disktest_baseline(&d, "sdz", &rd, &wr, &iops), ENOENT);
	disktest_shutdown(&d);
	T_TRUE(d.disktest == NULL);
	cfg_free(d.cfg);

	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	T_EQ_INT(system(p), 0);
}

int
main(void)
{
	(void)t_root;
	(void)t_skip;
	t_expected();
	t_slow();
	t_init();
	return (t_done());
}
