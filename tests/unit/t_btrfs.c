/*
 * t_btrfs.c: /sys/fs/btrfs of the fixture boxes, a scratch RAID1 with
 * devinfo and a conversion in progress, damaged entries, and the live root.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "btrfs.h"

#define FS1	"fs/btrfs/0b4a5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d"
#define FS2	"fs/btrfs/11111111-2222-4333-8444-555555555555"

/* Make the directory dir/rel and its parents. */
static void
mkdirs(const char *dir, const char *rel)
{
	char	path[4096], *p;

	snprintf(path, sizeof path, "%s/%s/", dir, rel);
	for (p = path + strlen(dir) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		(void)mkdir(path, 0755);
		*p = '/';
	}
}

/* The error_stats text of kernels 5.14 on, and damaged forms of it. */
static void
test_parse(void)
{
	static const char	 stats[] = "write_errs 3\nread_errs 17\n"
	    "flush_errs 0\ncorruption_errs 2\ngeneration_errs 1\n";
	static const char	 odd[] = "future_errs 9\nread_errs 5\n"
	    "write_errs x\nwrite_errs\n";
	struct btrfs_devinfo	 d;
	const char		*e = NULL;

	memset(&d, 0, sizeof d);
	T_OK(btrfs_parse_error_stats(stats, sizeof stats - 1, &d, &e));
	T_EQ_INT(d.has_errors, 1);
	T_EQ_U64(d.write_errs, 3);
	T_EQ_U64(d.read_errs, 17);
	T_EQ_U64(d.flush_errs, 0);
	T_EQ_U64(d.corruption_errs, 2);
	T_EQ_U64(d.generation_errs, 1);

	memset(&d, 0, sizeof d);
	T_OK(btrfs_parse_error_stats(odd, sizeof odd - 1, &d, &e));
	T_EQ_U64(d.read_errs, 5);
	T_EQ_U64(d.write_errs, 0);

	memset(&d, 0, sizeof d);
	T_ERRNO(btrfs_parse_error_stats("", 0, &d, &e), EINVAL);
	T_EQ_INT(d.has_errors, 0);
	T_ERRNO(btrfs_parse_error_stats("\xff\xfe\n\n", 4, &d, &e), EINVAL);
	T_EQ_STR(e, "no error counters");
}

/* DSM 7: one filesystem on the cache device, data single, metadata dup. */
static void
test_boxes(void)
{
	struct btrfs		*b = malloc(sizeof *b);
	const struct btrfs_fs	*fs;

	T_OK(btrfs_read(t_root("dsm7-4.4-x86_64"), b));
	T_EQ_INT(b->nfs, 1);		/* "features" is not a filesystem */
	fs = &b->fs[0];
	T_EQ_STR(fs->uuid, "5e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b");
	T_EQ_STR(fs->label, "2024.03.02-10:41:17 v69057");
	T_EQ_INT(fs->ndevices, 1);
	T_EQ_STR(fs->devices[0], "dm-2");
	T_EQ_STR(fs->data.profile, "single");
	T_EQ_U64(fs->data.total_bytes, 21990232555520ULL);
	T_EQ_U64(fs->data.used_bytes, 20011223412736ULL);
	T_EQ_STR(fs->metadata.profile, "dup");
	T_EQ_U64(fs->metadata.total_bytes, 53687091200ULL);
	T_EQ_U64(fs->metadata.used_bytes, 31138512896ULL);
	T_EQ_STR(fs->system.profile, "dup");
	T_EQ_U64(fs->system.total_bytes, 33554432);
	T_EQ_INT(fs->ndevinfo, 0);	/* kernel 4.4 has no devinfo/ */
	T_TRUE(btrfs_find_device(b, "dm-2") == fs);
	T_TRUE(btrfs_find_device(b, "md2") == NULL);

	/* ext4 on LVM, and a QNAP with ext4 on its cache devices. */
	T_ERRNO(btrfs_read(t_root("dsm6-3.10-armhf"), b), ENOENT);
	T_EQ_INT(b->nfs, 0);
	T_ERRNO(btrfs_read(t_root("empty"), b), ENOENT);
	T_EQ_INT(b->nfs, 0);

	if (!t_have_box("debian12-6.1-btrfs"))
		t_skip("debian12-6.1-btrfs is not in the tree");
	else {
		T_OK(btrfs_read(t_root("debian12-6.1-btrfs"), b));
		T_EQ_INT(b->nfs, 1);
		fs = &b->fs[0];
		T_EQ_STR(fs->uuid, "8f3c2a71-5b0d-4e9a-9c1f-2d7e6b4a0c13");
		T_EQ_STR(fs->label, "data");
		T_EQ_INT(fs->ndevices, 3);
		T_EQ_STR(fs->devices[0], "sda");
		T_EQ_STR(fs->devices[2], "sdc");
		T_EQ_STR(fs->data.profile, "raid1");
		T_EQ_U64(fs->data.total_bytes, 5497558138880ULL);
		T_EQ_U64(fs->data.used_bytes, 4398046511104ULL);
		T_EQ_STR(fs->metadata.profile, "raid1");
		T_EQ_U64(fs->metadata.used_bytes, 6442450944ULL);
		T_EQ_STR(fs->system.profile, "raid1");
		T_EQ_U64(fs->system.used_bytes, 868352);
		T_EQ_INT(fs->ndevinfo, 3);
		T_EQ_INT(fs->devinfo[2].devid, 3);
		T_EQ_INT(fs->devinfo[2].missing, 0);
		T_EQ_INT(fs->devinfo[2].has_errors, 1);
		T_EQ_U64(fs->devinfo[2].corruption_errs, 0);
		T_TRUE(btrfs_find_device(b, "sdb") == fs);
		T_TRUE(btrfs_find_device(b, "nvme0n1p2") == NULL);
	}
	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(btrfs_read(t_root("readynas6-4.4-armhf"), b));
		/* ReadyNAS OS 6 puts btrfs straight on an md array. */
		T_EQ_INT(b->nfs, 1);
		fs = &b->fs[0];
		T_EQ_STR(fs->uuid, "2b7e9c41-6d3a-4f1e-8b5c-0a9d8e7f6c5b");
		T_EQ_STR(fs->label, "0e36f164:data");
		T_EQ_INT(fs->ndevices, 1);
		T_EQ_STR(fs->devices[0], "md127");
		T_EQ_STR(fs->data.profile, "single");
		T_EQ_U64(fs->data.total_bytes, 6597069766656ULL);
		T_EQ_U64(fs->data.used_bytes, 5412033411072ULL);
		T_EQ_STR(fs->metadata.profile, "dup");
	}
	free(b);
}

/*
 * A scratch root: a RAID1 over three disks (kernel 6.1 devinfo, one member
 * missing and one with errors, one from before error_stats), and a
 * filesystem mid-way from single to raid1c3 whose flags files must not be
 * taken for profiles.
 */
static void
test_scratch(void)
{
	struct probe_root	 root;
	struct btrfs		*b = malloc(sizeof *b);
	const struct btrfs_fs	*fs;
	char			 dir[] = "/tmp/t_btrfs.XXXXXX", cmd[64];
	size_t			 i;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	t_put(dir, "sys/" FS1 "/label", "tank\n");
	mkdirs(dir, "sys/" FS1 "/devices");
	t_link(dir, "sys/" FS1 "/devices/sdc", "../../../../devices/sdc");
	t_link(dir, "sys/" FS1 "/devices/sda", "../../../../devices/sda");
	t_link(dir, "sys/" FS1 "/devices/sdb", "../../../../devices/sdb");
	t_put(dir, "sys/" FS1 "/allocation/data/flags", "1\n");
	t_put(dir, "sys/" FS1 "/allocation/data/total_bytes", "3221225472\n");
	t_put(dir, "sys/" FS1 "/allocation/data/bytes_used", "1048576\n");
	t_put(dir, "sys/" FS1 "/allocation/data/raid1/total_bytes",
	    "3221225472\n");
	t_put(dir, "sys/" FS1 "/allocation/metadata/flags", "4\n");
	t_put(dir, "sys/" FS1 "/allocation/metadata/raid1/used_bytes", "0\n");
	t_put(dir, "sys/" FS1 "/allocation/system/raid1/used_bytes", "0\n");
	t_put(dir, "sys/" FS1 "/devinfo/1/missing", "0\n");
	t_put(dir, "sys/" FS1 "/devinfo/1/error_stats", "write_errs 0\n"
	    "read_errs 0\nflush_errs 0\ncorruption_errs 0\n"
	    "generation_errs 0\n");
	t_put(dir, "sys/" FS1 "/devinfo/3/missing", "1\n");
	t_put(dir, "sys/" FS1 "/devinfo/3/error_stats", "write_errs 41\n"
	    "read_errs 7\nflush_errs 2\ncorruption_errs 0\n"
	    "generation_errs 0\n");
	t_put(dir, "sys/" FS1 "/devinfo/2/missing", "0\n");
	t_put(dir, "sys/" FS1 "/devinfo/junk/missing", "0\n");
	t_put(dir, "sys/" FS1 "/devinfo/4/missing", "\n");
	t_put(dir, "sys/" FS1 "/devinfo/4/error_stats", "");
	t_put(dir, "sys/" FS2 "/allocation/data/raid1c3/total_bytes", "1\n");
	t_put(dir, "sys/" FS2 "/allocation/data/single/total_bytes", "1\n");
	t_put(dir, "sys/" FS2 "/allocation/data/flags", "1\n");
	t_put(dir, "sys/" FS2 "/allocation/metadata/flags", "4\n");
	t_put(dir, "sys/fs/btrfs/features/raid1c34", "0\n");
	t_put(dir, "sys/fs/btrfs/not-a-uuid/label", "x\n");

	T_OK(probe_root_open(&root, dir));
	T_OK(btrfs_read(&root, b));
	T_EQ_INT(b->nfs, 2);
	fs = NULL;
	for (i = 0; i < b->nfs; i++)
		if (strcmp(b->fs[i].label, "tank") == 0)
			fs = &b->fs[i];
	T_TRUE(fs != NULL);
	if (fs != NULL) {
		T_EQ_INT(fs->ndevices, 3);
		T_EQ_STR(fs->devices[0], "sda");	/* sorted */
		T_EQ_STR(fs->devices[2], "sdc");
		T_EQ_STR(fs->data.profile, "raid1");
		T_EQ_U64(fs->data.total_bytes, 3221225472ULL);
		T_EQ_U64(fs->data.used_bytes, 1048576);
		T_EQ_STR(fs->metadata.profile, "raid1");
		T_EQ_U64(fs->metadata.total_bytes, 0);	/* no file */
		T_EQ_STR(fs->system.profile, "raid1");
		T_EQ_INT(fs->ndevinfo, 4);		/* "junk" skipped */
		T_EQ_INT(fs->devinfo[0].devid, 1);
		T_EQ_INT(fs->devinfo[0].missing, 0);
		T_EQ_INT(fs->devinfo[0].has_errors, 1);
		T_EQ_U64(fs->devinfo[0].write_errs, 0);
		T_EQ_INT(fs->devinfo[1].devid, 2);
		T_EQ_INT(fs->devinfo[1].has_errors, 0);	/* before 5.14 */
		T_EQ_INT(fs->devinfo[2].devid, 3);
		T_EQ_INT(fs->devinfo[2].missing, 1);
		T_EQ_U64(fs->devinfo[2].write_errs, 41);
		T_EQ_U64(fs->devinfo[2].read_errs, 7);
		T_EQ_U64(fs->devinfo[2].flush_errs, 2);
		T_EQ_INT(fs->devinfo[3].devid, 4);
		T_EQ_INT(fs->devinfo[3].missing, -1);	/* empty file */
		T_EQ_INT(fs->devinfo[3].has_errors, 0);
		T_TRUE(btrfs_find_device(b, "sdb") == fs);
	}
	fs = &b->fs[fs == &b->fs[0] ? 1 : 0];
	T_EQ_STR(fs->label, "");
	T_EQ_INT(fs->ndevices, 0);
	/* In the table's order, whatever readdir gives. */
	T_EQ_STR(fs->data.profile, "single,raid1c3");
	T_EQ_STR(fs->metadata.profile, "");	/* only a flags file */
	T_EQ_STR(fs->system.profile, "");
	probe_root_close(&root);
	free(b);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	T_EQ_INT(system(cmd), 0);
}

/* The live root: no btrfs, or filesystems with at least one member. */
static void
test_live(void)
{
	struct probe_root	 live;
	struct btrfs		*b = malloc(sizeof *b);
	size_t			 i;
	int			 ok = 1;

	T_OK(probe_root_open(&live, "/"));
	if (btrfs_read(&live, b) == -1)
		T_EQ_INT(errno, ENOENT);
	else {
		for (i = 0; i < b->nfs; i++)
			if (strlen(b->fs[i].uuid) != 36)
				ok = 0;
		T_TRUE(ok);
	}
	probe_root_close(&live);
	free(b);
}

int
main(void)
{
	test_parse();
	test_boxes();
	test_scratch();
	test_live();
	return (t_done());
}
