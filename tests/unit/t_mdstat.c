/*
 * t_mdstat.c: /proc/mdstat from real NAS captures and the fixture boxes.
 */
#include "config.h"

#include "test.h"
#include "mdstat.h"

/* Real captures, reproduced from published posts (see the archives' sources). */
static const char qnap_4bay[] =
	"Personalities : [linear] [raid0] [raid1] [raid10] [raid6] [raid5] [raid4] [multipath]\n"
	"md1 : active raid5 sda3[4] sdd3[7] sdc3[6] sdb3[5]\n"
	"      17551703040 blocks super 1.0 level 5, 512k chunk, algorithm 2 [4/4] [UUUU]\n"
	"\n"
	"md322 : active raid1 sdd5[3](S) sdc5[2](S) sdb5[1] sda5[0]\n"
	"      7235136 blocks super 1.0 [2/2] [UU]\n"
	"      bitmap: 0/1 pages [0KB], 65536KB chunk\n"
	"\n"
	"md256 : active raid1 sdd2[3](S) sdc2[2](S) sdb2[1] sda2[0]\n"
	"      530112 blocks super 1.0 [2/2] [UU]\n"
	"      bitmap: 0/1 pages [0KB], 65536KB chunk\n"
	"\n"
	"md13 : active raid1 sda4[26] sdd4[27] sdb4[24] sdc4[25]\n"
	"      458880 blocks super 1.0 [24/4] [UUUU____________________]\n"
	"      bitmap: 1/1 pages [4KB], 65536KB chunk\n"
	"\n"
	"md9 : active raid1 sda1[26] sdd1[27] sdb1[24] sdc1[25]\n"
	"      530048 blocks super 1.0 [24/4] [UUUU____________________]\n"
	"      bitmap: 1/1 pages [4KB], 65536KB chunk\n";
static const char ds923_recovery[] =
	"Personalities : [raid1] [raid0]\n"
	"md5 : active raid1 sata4p3[0]\n"
	"      17567603712 blocks super 1.2 [1/1] [U]\n"
	"\n"
	"md3 : active raid1 sata1p3[0] sata2p3[1]\n"
	"      17567603712 blocks super 1.2 [2/2] [UU]\n"
	"\n"
	"md4 : active raid1 sata3p3[0]\n"
	"      17567603712 blocks super 1.2 [1/1] [U]\n"
	"\n"
	"md2 : active raid0 nvme0n1p3[0] nvme1n1p3[1]\n"
	"      3979348608 blocks super 1.2 64k chunks [2/2] [UU]\n"
	"\n"
	"md1 : active raid1 nvme1n1p2[1] nvme0n1p2[0] sata1p2[2] sata4p2[5] sata3p2[4] sata2p2[3]\n"
	"      2097088 blocks [6/6] [UUUUUU]\n"
	"\n"
	"md0 : active raid1 sata4p1[6] nvme1n1p1[1] nvme0n1p1[0] sata1p1[2] sata3p1[4] sata2p1[3]\n"
	"      8388544 blocks [6/5] [UUUUU_]\n"
	"      [==>..................]  recovery = 11.7% (985024/8388544) finish=0.3min speed=328341K/sec\n"
	"\n"
	"unused devices: <none>\n";
static const char ds1821[] =
	"Personalities : [raid1] [linear] \n"
	"md9 : active linear nvme1n1p3[1] nvme0n1p3[0]\n"
	"      6682624 blocks super 1.2 64k rounding [2/2] [UU]\n"
	"      \n"
	"md3 : active linear sata5p3[0] sata6p3[1]\n"
	"      31230310400 blocks super 1.2 64k rounding [2/2] [UU]\n"
	"      \n"
	"md2 : active linear sata7p3[0] sata8p3[1]\n"
	"      31230310400 blocks super 1.2 64k rounding [2/2] [UU]\n"
	"      \n"
	"md5 : active raid1 sata4p3[0]\n"
	"      3896294208 blocks super 1.2 [1/1] [U]\n"
	"      \n"
	"md4 : active raid1 sata3p3[0]\n"
	"      3896294208 blocks super 1.2 [1/1] [U]\n"
	"      \n"
	"md10 : active raid1 sata2p3[0]\n"
	"      15615155200 blocks super 1.2 [1/1] [U]\n"
	"      \n"
	"md8 : active raid1 sata1p3[0]\n"
	"      15615155200 blocks super 1.2 [1/1] [U]\n"
	"      \n"
	"md1 : active raid1 sata1p2[0] sata5p2[7] sata7p2[6] sata8p2[5] sata6p2[4] sata2p2[3] sata4p2[2] sata3p2[1]\n"
	"      2097088 blocks [8/8] [UUUUUUUU]\n"
	"      \n"
	"md0 : active raid1 sata1p1[0] sata5p1[7] sata8p1[6] sata7p1[5] sata6p1[4] sata2p1[3] sata4p1[2] sata3p1[1]\n"
	"      8388544 blocks [8/8] [UUUUUUUU]\n";
static const char resync_delayed[] =
	"md1 : active raid5 sdc2[3] sdb2[1] sda2[0]\n"
	"      7809024 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [UU_]\n"
	"      \tresync=DELAYED\n"
	"      \n"
	"md0 : active raid1 sdb1[1] sda1[0]\n"
	"      3904512 blocks super 1.2 [2/2] [UU]\n"
	"      [====>................]  resync = 21.5% (842944/3904512) finish=50.1min speed=1015K/sec\n";
static const char ds923_writemostly[] =
	"Personalities : [raid1] [raid0] \n"
	"md3 : active raid1 sata1p3[0] sata3p3[1]\n"
	"      17567603712 blocks super 1.2 [2/2] [UU]\n"
	"      \n"
	"md5 : active raid1 sata4p3[0]\n"
	"      17567603712 blocks super 1.2 [1/1] [U]\n"
	"      \n"
	"md4 : active raid1 sata2p3[0]\n"
	"      17567603712 blocks super 1.2 [1/1] [U]\n"
	"      \n"
	"md2 : active raid0 nvme0n1p3[0] nvme1n1p3[1]\n"
	"      3979348608 blocks super 1.2 64k chunks [2/2] [UU]\n"
	"      \n"
	"md1 : active raid1 sata4p2[2](S) sata3p2[3](S) sata2p2[4](S) sata1p2[5](S) nvme1n1p2[0] nvme0n1p2[1]\n"
	"      2097088 blocks [2/2] [UU]\n"
	"      \n"
	"md0 : active raid1 sata1p1[4](W) sata2p1[5](W) sata3p1[3](W) sata4p1[2](W) nvme1n1p1[0] nvme0n1p1[1]\n"
	"      8388544 blocks [6/6] [UUUUUU]\n"
	"      bitmap: 1/1 pages [4KB], 65536KB chunk\n"
	"\n"
	"unused devices: <none>\n";

/* qnap-8bay-two-raid5-2021/mdstat.txt: two RAID5 pools, six swap spares */
static const char qnap_8bay[] =
	"Personalities : [linear] [raid0] [raid1] [raid10] [raid6] [raid5] [raid4] [multipath]\n"
	"md2 : active raid5 sdd3[0] sda3[3] sdb3[2] sdc3[1]\n"
	"      17551701504 blocks super 1.0 level 5, 512k chunk, algorithm 2 [4/4] [UUUU]\n"
	"      bitmap: 1/3 pages [64KB], 65536KB chunk\n"
	"\n"
	"md1 : active raid5 sdh3[0] sde3[3] sdf3[2] sdg3[1]\n"
	"      23412214272 blocks super 1.0 level 5, 512k chunk, algorithm 2 [4/4] [UUUU]\n"
	"      bitmap: 2/4 pages [128KB], 65536KB chunk\n"
	"\n"
	"md322 : active raid1 sda5[7](S) sdb5[6](S) sdc5[5](S) sdd5[4](S) sde5[3](S) sdf5[2](S) sdg5[1] sdh5[0]\n"
	"      7235136 blocks super 1.0 [2/2] [UU]\n"
	"      bitmap: 0/1 pages [0KB], 65536KB chunk\n"
	"\n";
/* synology-12bay-2017-chroot/mdstat.txt: SHR over three partition sets */
static const char syno_12bay[] =
	"Personalities : [linear] [raid0] [raid1] [raid10] [raid6] [raid5] [raid4]\n"
	"md3 : active raid5 sda7[0] sdl7[6] sde7[4] sdf7[5] sdd7[3] sdc7[2] sdb7[1]\n"
	"      23435390592 blocks super 1.2 level 5, 64k chunk, algorithm 2 [7/7] [UUUUUUU]\n"
	"\n"
	"md4 : active raid5 sda6[0] sdl6[10] sdh6[8] sdj6[9] sde6[5] sdf6[6] sdi6[7] sdd6[4] sdg6[3] sdc6[2] sdb6[1]\n"
	"      19534949120 blocks super 1.2 level 5, 64k chunk, algorithm 2 [11/11] [UUUUUUUUUUU]\n"
	"\n"
	"md2 : active raid5 sdk5[0] sdh5[10] sdj5[11] sde5[7] sdf5[8] sdi5[9] sdd5[6] sdb5[3] sdc5[4] sdg5[5] sda5[2] sdl5[12]\n"
	"      42924062016 blocks super 1.2 level 5, 64k chunk, algorithm 2 [12/12] [UUUUUUUUUUUU]\n"
	"\n"
	"md1 : active raid1 sda2[2] sdb2[3] sdc2[0] sdd2[6] sde2[7] sdf2[9] sdg2[1] sdh2[10] sdi2[8] sdj2[11] sdk2[5] sdl2[4]\n"
	"      2097088 blocks [12/12] [UUUUUUUUUUUU]\n"
	"\n";
/* synology-ds923plus-dsm7.2.1/mdstat-failed-degraded.txt */
static const char ds923_failed[] =
	"Personalities : [raid1] [raid0]\n"
	"md5 : active raid1 sata4p3[0]\n"
	"      17567603712 blocks super 1.2 [1/1] [U]\n"
	"\n"
	"md3 : active raid1 sata1p3[0] sata2p3[1]\n"
	"      17567603712 blocks super 1.2 [2/2] [UU]\n"
	"\n"
	"md4 : active raid1 sata3p3[0]\n"
	"      17567603712 blocks super 1.2 [1/1] [U]\n"
	"\n"
	"md2 : active raid0 nvme0n1p3[0] nvme1n1p3[1]\n"
	"      3979348608 blocks super 1.2 64k chunks [2/2] [UU]\n"
	"\n"
	"md1 : active raid1 nvme1n1p2[1] nvme0n1p2[0] sata1p2[2] sata4p2[5] sata3p2[4] sata2p2[3]\n"
	"      2097088 blocks [6/6] [UUUUUU]\n"
	"\n"
	"md0 : active raid1 nvme1n1p1[1] nvme0n1p1[0] sata1p1[2] sata4p1[6](F) sata3p1[4] sata2p1[3]\n"
	"      8388544 blocks [6/5] [UUUUU_]\n"
	"\n"
	"unused devices: <none>\n";

static struct mdstat	md;

/* The array called name, or a zeroed one so checks fail cleanly. */
static const struct mdstat_array *
arr(const char *name)
{
	static struct mdstat_array	none;
	const struct mdstat_array	*a = mdstat_find(&md, name);

	return (a != NULL ? a : &none);
}

/* Member name of array a, or a zeroed one. */
static const struct mdstat_member *
member(const char *a, const char *name)
{
	static struct mdstat_member	none;
	size_t				i;

	for (i = 0; i < arr(a)->nmembers; i++)
		if (strcmp(arr(a)->members[i].name, name) == 0)
			return (&arr(a)->members[i]);
	return (&none);
}

static void
t_captures(void)
{
	const char	*e;

	T_OK(mdstat_parse(qnap_4bay, sizeof qnap_4bay - 1, &md, &e));
	T_EQ_INT(md.narrays, 5);
	T_EQ_STR(arr("md1")->level, "raid5");
	T_EQ_U64(arr("md1")->blocks, 17551703040ULL);
	T_EQ_STR(arr("md1")->super, "1.0");
	T_EQ_U64(arr("md1")->chunk_kib, 512);
	T_EQ_INT(arr("md1")->nmembers, 4);
	T_EQ_STR(arr("md1")->members[0].name, "sda3");
	T_EQ_INT(arr("md1")->members[0].index, 4);
	T_EQ_INT(arr("md1")->degraded, 0);
	/* QNAP's 24-slot system arrays with 4 disks are whole. */
	T_EQ_INT(arr("md9")->raid_disks, 24);
	T_EQ_INT(arr("md9")->active_disks, 4);
	T_EQ_STR(arr("md9")->status, "UUUU____________________");
	T_EQ_INT(arr("md9")->degraded, 0);
	T_EQ_INT(arr("md9")->members[0].index, 26);
	T_TRUE(arr("md9")->bitmap);
	T_TRUE(arr("md322")->members[0].flags & MDSTAT_F_SPARE);
	T_TRUE((arr("md322")->members[2].flags & MDSTAT_F_SPARE) == 0);
	T_EQ_INT(arr("md322")->degraded, 0);
	T_EQ_INT(md.skipped, 0);

	T_OK(mdstat_parse(ds923_recovery, sizeof ds923_recovery - 1, &md, &e));
	T_EQ_INT(md.narrays, 6);
	T_EQ_STR(arr("md0")->super, "");	/* 0.90: no "super" word */
	T_EQ_STR(arr("md0")->status, "UUUUU_");
	T_EQ_INT(arr("md0")->degraded, 1);
	T_EQ_STR(arr("md0")->sync_action, "recovery");
	T_NEAR(arr("md0")->sync_pct, 11.7, 1e-9);
	T_EQ_U64(arr("md0")->sync_done, 985024);
	T_EQ_U64(arr("md0")->sync_total, 8388544);
	T_NEAR(arr("md0")->sync_finish_min, 0.3, 1e-9);
	T_EQ_U64(arr("md0")->sync_speed_kib, 328341);
	T_EQ_STR(arr("md0")->members[0].name, "sata4p1");
	T_EQ_STR(arr("md2")->level, "raid0");
	T_EQ_U64(arr("md2")->chunk_kib, 64);	/* "64k chunks" */
	T_EQ_STR(arr("md1")->members[0].name, "nvme1n1p2");
	T_EQ_INT(arr("md5")->raid_disks, 1);
	T_EQ_INT(md.skipped, 0);

	/* Partial capture: the post stops after md0, with no trailer. */
	T_OK(mdstat_parse(ds1821, sizeof ds1821 - 1, &md, &e));
	T_EQ_STR(arr("md9")->level, "linear");
	T_EQ_U64(arr("md9")->chunk_kib, 0);	/* "64k rounding" is no chunk */
	T_EQ_STR(arr("md3")->members[1].name, "sata6p3");
	T_EQ_STR(md.personalities, " [raid1] [linear] ");

	T_OK(mdstat_parse(resync_delayed, sizeof resync_delayed - 1, &md, &e));
	T_EQ_STR(arr("md1")->sync_action, "resync");
	T_EQ_STR(arr("md1")->sync_wait, "DELAYED");
	T_EQ_INT(arr("md1")->degraded, 1);
	T_EQ_STR(arr("md0")->sync_action, "resync");
	T_NEAR(arr("md0")->sync_pct, 21.5, 1e-9);

	T_OK(mdstat_parse(ds923_writemostly, sizeof ds923_writemostly - 1,
	    &md, &e));
	T_TRUE(arr("md0")->members[0].flags & MDSTAT_F_WRITEMOSTLY);
	T_TRUE(arr("md0")->bitmap);
	T_OK(mdstat_parse(qnap_8bay, sizeof qnap_8bay - 1, &md, &e));
	T_EQ_INT(md.narrays, 3);
	T_EQ_U64(arr("md1")->blocks, 23412214272ULL);
	T_EQ_STR(arr("md1")->members[0].name, "sdh3");
	T_EQ_INT(arr("md2")->members[0].index, 0);
	T_EQ_INT(arr("md2")->degraded, 0);
	T_EQ_INT(arr("md322")->nmembers, 8);
	T_TRUE(arr("md322")->members[5].flags & MDSTAT_F_SPARE);
	T_EQ_INT(arr("md322")->members[6].flags, 0);
	T_EQ_INT(arr("md322")->members[0].index, 7);
	T_EQ_INT(arr("md322")->degraded, 0);
	T_EQ_INT(md.skipped, 0);

	T_OK(mdstat_parse(syno_12bay, sizeof syno_12bay - 1, &md, &e));
	T_EQ_INT(md.narrays, 4);
	T_EQ_INT(arr("md2")->raid_disks, 12);
	T_EQ_INT(arr("md2")->nmembers, 12);
	T_EQ_STR(arr("md2")->members[11].name, "sdl5");
	T_EQ_INT(arr("md2")->members[11].index, 12);
	T_EQ_U64(arr("md2")->blocks, 42924062016ULL);
	T_EQ_U64(arr("md4")->chunk_kib, 64);
	T_EQ_INT(arr("md4")->raid_disks, 11);
	T_EQ_STR(arr("md1")->super, "");
	T_EQ_INT(arr("md3")->degraded, 0);

	T_OK(mdstat_parse(ds923_failed, sizeof ds923_failed - 1, &md, &e));
	T_EQ_INT(md.narrays, 6);
	T_EQ_STR(member("md0", "sata4p1")->name, "sata4p1");
	T_EQ_INT(member("md0", "sata4p1")->index, 6);
	T_TRUE(member("md0", "sata4p1")->flags & MDSTAT_F_FAULTY);
	T_EQ_INT(member("md0", "sata3p1")->flags, 0);
	T_EQ_INT(arr("md0")->raid_disks, 6);
	T_EQ_INT(arr("md0")->active_disks, 5);
	T_EQ_INT(arr("md0")->degraded, 1);
	T_EQ_STR(arr("md0")->sync_action, "");
	T_TRUE(arr("md0")->sync_pct < 0);
	T_EQ_INT(arr("md3")->degraded, 0);
}

static void
t_quirks(void)
{
	static const char syno_e[] =
	    "Personalities : [linear]\n"
	    "md3 : active linear sata1p3[0](E) sata2p3[1]\n"
	    "      31230310400 blocks super 1.2 64k rounding [2/2] [EU]\n";
	static const char inactive[] =
	    "md127 : inactive sdb[0](S) sdc[1](S)\n"
	    "      7813774336 blocks super external:imsm\n";
	static const char ro[] =
	    "md0 : active (auto-read-only) raid1 sda1[0] sdb1[1](F)\n"
	    "      1000 blocks [2/1] [U_]\n"
	    "      resync=PENDING\n";
	static const char cut[] =
	    "Personalities : [raid5]\nmd2 : active raid5 sda5[0] sdb5[";
	static const char junk[] = "md0 : active raid1 x[y] [9999999999999]\n"
	    "   garbage\n\xff\xfe\n";
	static const char huge[] = "md0 : active raid1 sdb1[1] sda1[0]\n"
	    "      1000 blocks [2/1] [U_]\n"
	    "      [>....]  recovery = 1e999% (1/1000) finish=nanmin "
	    "speed=1K/sec\n";
	const char	*e;

	static const char check[] =
	    "md2 : active raid5 sdc3[2] sdb3[1] sda3[0]\n"
	    "      7804374912 blocks super 1.2 level 5, 64k chunk, "
	    "algorithm 2 [3/3] [UUU]\n"
	    "      [=>...................]  check =  8.5% "
	    "(331930112/3902187456) finish=312.4min speed=190476K/sec\n"
	    "      bitmap: 0/30 pages [0KB], 65536KB chunk\n"
	    "\n"
	    "md3 : active raid6 sdh1[4] sdg1[3] sdf1[2] sde1[1] sdd1[0]\n"
	    "      5860147200 blocks super 1.2 level 6, 512k chunk, "
	    "algorithm 2 [5/5] [UUUUU]\n"
	    "      [>....................]  reshape =  0.4% "
	    "(8128000/1953382400) finish=4170.1min speed=7774K/sec\n";

	T_OK(mdstat_parse(check, sizeof check - 1, &md, &e));
	T_EQ_STR(arr("md2")->sync_action, "check");
	T_NEAR(arr("md2")->sync_pct, 8.5, 1e-9);
	T_EQ_U64(arr("md2")->sync_done, 331930112);
	T_EQ_U64(arr("md2")->sync_total, 3902187456ULL);
	T_NEAR(arr("md2")->sync_finish_min, 312.4, 1e-9);
	T_EQ_U64(arr("md2")->sync_speed_kib, 190476);
	T_TRUE(arr("md2")->bitmap);
	T_EQ_INT(arr("md2")->degraded, 0);
	T_EQ_STR(arr("md3")->sync_action, "reshape");
	T_NEAR(arr("md3")->sync_pct, 0.4, 1e-9);
	T_EQ_U64(arr("md3")->chunk_kib, 512);
	T_EQ_U64(arr("md3")->sync_speed_kib, 7774);
	T_EQ_INT(md.skipped, 0);

	T_OK(mdstat_parse(syno_e, sizeof syno_e - 1, &md, &e));
	T_TRUE(arr("md3")->members[0].flags & MDSTAT_F_ERROR);
	T_EQ_STR(arr("md3")->status, "EU");
	T_EQ_INT(arr("md3")->degraded, 0);
	T_OK(mdstat_parse(inactive, sizeof inactive - 1, &md, &e));
	T_EQ_INT(arr("md127")->active, 0);
	T_EQ_STR(arr("md127")->level, "");
	T_EQ_STR(arr("md127")->super, "external:imsm");
	T_EQ_INT(arr("md127")->nmembers, 2);
	T_OK(mdstat_parse(ro, sizeof ro - 1, &md, &e));
	T_EQ_STR(arr("md0")->readonly, "auto-read-only");
	T_EQ_STR(arr("md0")->level, "raid1");
	T_TRUE(arr("md0")->members[1].flags & MDSTAT_F_FAULTY);
	T_EQ_STR(arr("md0")->sync_wait, "PENDING");
	T_EQ_INT(arr("md0")->degraded, 1);
	T_OK(mdstat_parse(cut, sizeof cut - 1, &md, &e));
	T_EQ_INT(md.narrays, 1);
	T_EQ_INT(arr("md2")->nmembers, 1);	/* the cut member is dropped */
	T_OK(mdstat_parse(junk, sizeof junk - 1, &md, &e));
	T_EQ_INT(arr("md0")->nmembers, 0);
	T_OK(mdstat_parse(huge, sizeof huge - 1, &md, &e));
	T_EQ_STR(arr("md0")->sync_action, "recovery");
	T_TRUE(arr("md0")->sync_pct < 0);	/* not infinity */
	T_TRUE(arr("md0")->sync_finish_min < 0);	/* not NaN */
	T_EQ_U64(arr("md0")->sync_done, 1);
	T_ERRNO(mdstat_parse("", 0, &md, &e), EINVAL);
}

static void
t_boxes(void)
{
	struct probe_buf	b;
	const char		*e;

	probe_buf_init(&b);
	T_OK(mdstat_read(t_root("dsm6-3.10-armhf"), &b, &md, &e));
	T_EQ_STR(arr("md2")->level, "raid5");
	T_EQ_U64(arr("md2")->blocks, 8776303296ULL);
	T_EQ_U64(arr("md2")->chunk_kib, 64);
	T_EQ_INT(arr("md2")->degraded, 0);
	T_EQ_STR(arr("md2")->sync_action, "idle");
	T_TRUE(arr("md2")->from_sysfs);
	T_EQ_STR(arr("md0")->super, "");

	T_OK(mdstat_read(t_root("dsm7-4.4-x86_64"), &b, &md, &e));
	T_EQ_STR(arr("md2")->level, "raid6");
	T_EQ_U64(arr("md2")->blocks, 46819768320ULL);
	T_EQ_INT(arr("md2")->raid_disks, 8);
	T_EQ_INT(arr("md2")->nmembers, 8);
	T_EQ_INT(arr("md2")->degraded, 0);
	T_EQ_STR(arr("md0")->members[0].state, "in_sync");

	T_OK(mdstat_read(t_root("qts5-5.10-x86_64"), &b, &md, &e));
	T_EQ_STR(arr("md1")->level, "raid5");
	T_EQ_U64(arr("md1")->chunk_kib, 512);
	/* sysfs says degraded 20 for the 24-slot arrays; they are whole. */
	T_EQ_INT(arr("md9")->raid_disks, 24);
	T_EQ_INT(arr("md9")->degraded, 0);
	T_EQ_INT(arr("md13")->degraded, 0);
	T_EQ_STR(member("md322", "sdc5")->state, "spare");
	T_EQ_INT(member("md322", "sdc5")->slot, -1);
	T_EQ_STR(member("md322", "sda5")->state, "in_sync");
	T_EQ_INT(member("md322", "sdb5")->slot, 1);

	/* ReadyNAS OS 6: RAID10 swap with "512K chunks 2 near-copies". */
	T_OK(mdstat_read(t_root("readynas6-4.4-armhf"), &b, &md, &e));
	T_EQ_INT(md.narrays, 3);
	T_EQ_STR(arr("md127")->level, "raid5");
	T_EQ_U64(arr("md127")->blocks, 8776250496ULL);
	T_EQ_U64(arr("md127")->chunk_kib, 64);
	T_EQ_INT(arr("md127")->degraded, 0);
	T_EQ_STR(member("md127", "sdd3")->name, "sdd3");
	T_EQ_INT(member("md127", "sdd3")->index, 3);
	T_EQ_STR(arr("md1")->level, "raid10");
	T_EQ_U64(arr("md1")->chunk_kib, 512);
	T_EQ_INT(arr("md1")->raid_disks, 4);
	T_EQ_STR(arr("md0")->super, "1.2");
	T_EQ_INT(md.skipped, 0);

	/* Debian 12 has no md: no mdstat at all. */
	T_ERRNO(mdstat_read(t_root("debian12-6.1-btrfs"), &b, &md, &e),
	    ENOENT);
	T_ERRNO(mdstat_read(t_root("empty"), &b, &md, &e), ENOENT);
	probe_buf_free(&b);
}

int
main(void)
{
	t_captures();
	t_quirks();
	t_boxes();
	return (t_done());
}
