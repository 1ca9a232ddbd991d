/*
 * t_mounts.c: /proc/mounts lines from real QNAP and Synology captures,
 * mountinfo of the fixture boxes, escapes, damaged text, and the live root.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "mounts.h"

static struct mounts	m;

/* The mount at path, or a zeroed one so checks fail cleanly. */
static const struct mounts_entry *
at(const char *path)
{
	static struct mounts_entry	none;
	size_t				i;

	for (i = 0; i < m.n; i++)
		if (strcmp(m.v[i].mountpoint, path) == 0)
			return (&m.v[i]);
	return (&none);
}

/* /proc/mounts as real boxes print it (nas-samples, SOURCES.md §9). */
static void
test_captures(void)
{
	/* qnap-ts653a-qts4/proc-mounts-cachedev-lines.txt */
	static const char	qnap[] =
	    "/dev/mapper/cachedev10 /share/CACHEDEV10_DATA ext4 rw,relatime,"
	    "(null),noacl,stripe=256,data=ordered,jqfmt=vfsv0,"
	    "usrjquota=aquota.user 0 0\n"
	    "/dev/mapper/cachedev10 /share/NFSv=4/sharename ext4 rw,relatime,"
	    "(null),noacl,stripe=256,data=ordered,jqfmt=vfsv0,"
	    "usrjquota=aquota.user 0 0\n";
	/* synology-xpenology-dsm7.2-4vol/proc-mounts-grep-btrfs.txt */
	static const char	xpe[] =
	    "/dev/vg1/volume_1 /volume1 btrfs rw,nodev,relatime,ssd,noacl,"
	    "synoacl,space_cache=v2,metadata_ratio=50,auto_reclaim_space,"
	    "block_group_cache_tree,syno_allocator,subvolid=256,"
	    "subvol=/@syno 0 0\n"
	    "/dev/vg4/volume_4 /volume4 btrfs rw,nodev,relatime,ssd,noacl,"
	    "synoacl,space_cache=v2,metadata_ratio=50,auto_reclaim_space,"
	    "block_group_cache_tree,syno_allocator,subvolid=256,"
	    "subvol=/@syno 0 0\n"
	    "/dev/vg1/volume_1 /volume1/@docker/btrfs btrfs rw,nodev,relatime,"
	    "ssd,noacl,synoacl,space_cache=v2,metadata_ratio=50,"
	    "auto_reclaim_space,block_group_cache_tree,syno_allocator,"
	    "subvolid=256,subvol=/@syno 0 0\n";
	/* synology-dsm7-cachedev-fstab/fstab-volume-line.txt: same form */
	static const char	fstab[] = "/dev/mapper/cachedev_0 /volume1 btrfs "
	    "auto_reclaim_space,ssd,synoacl,relatime,nodev 0 0";
	const char		*e;

	T_OK(mounts_parse_mounts(qnap, sizeof qnap - 1, &m, &e));
	T_EQ_INT(m.n, 2);
	T_EQ_INT(m.from_mountinfo, 0);
	T_EQ_STR(m.v[0].source, "/dev/mapper/cachedev10");
	T_EQ_STR(m.v[0].mountpoint, "/share/CACHEDEV10_DATA");
	T_EQ_STR(m.v[0].fstype, "ext4");
	/* QNAP's "(null)" entry is kept as printed. */
	T_EQ_STR(m.v[0].options, "rw,relatime,(null),noacl,stripe=256,"
	    "data=ordered,jqfmt=vfsv0,usrjquota=aquota.user");
	T_EQ_STR(m.v[1].mountpoint, "/share/NFSv=4/sharename");
	T_EQ_INT(m.v[1].has_dev, 0);
	T_EQ_INT(m.v[1].major, 0);
	T_EQ_STR(m.v[1].super_options, "");

	T_OK(mounts_parse_mounts(xpe, sizeof xpe - 1, &m, &e));
	T_EQ_INT(m.n, 3);
	T_EQ_STR(at("/volume4")->source, "/dev/vg4/volume_4");
	T_EQ_STR(at("/volume1/@docker/btrfs")->fstype, "btrfs");
	T_TRUE(strstr(at("/volume1")->options, ",subvol=/@syno") != NULL);

	T_OK(mounts_parse_mounts(fstab, sizeof fstab - 1, &m, &e));
	T_EQ_INT(m.n, 1);		/* no newline at the end */
	T_EQ_STR(m.v[0].options, "auto_reclaim_space,ssd,synoacl,relatime,"
	    "nodev");
}

/* Escapes, optional fields, and lines that must be skipped. */
static void
test_damaged(void)
{
	static const char	mi[] =
	    "40 26 8:17 / /mnt/a\\040b\\011c\\012d\\134e rw shared:1 master:2 "
	    "propagate_from:3 - ext4 /dev/sdb1 rw\n"
	    "41 26 8:18 / /mnt/noopt rw - xfs /dev/sdb2 rw,attr2\n"
	    "42 26 0:50 / /mnt/\xff\xfe rw - tmpfs tmpfs rw\n"
	    "43 26 8:x / /mnt/bad rw - ext4 /dev/sdb3 rw\n"
	    "44 26 8:19 / /mnt/nosep rw ext4 /dev/sdb4 rw\n"
	    "45 26 8:20\n"
	    "\n"
	    "46 26 8:21 / /mnt/cut rw - ext4";
	static const char	mo[] = "/dev/sda1 /\n"
	    "/dev/sdb1 /mnt/x\\040y ext4 rw 0 0\n"
	    "onlyoneword\n";
	char			 big[4096], esc[] = "a\\040\\\\b\\777\\04";
	const char		*e;

	T_OK(mounts_parse_mountinfo(mi, sizeof mi - 1, &m, &e));
	T_EQ_INT(m.n, 4);
	T_EQ_INT(m.skipped, 3);
	T_EQ_STR(m.v[0].mountpoint, "/mnt/a b\tc\nd\\e");
	T_EQ_INT(m.v[0].major, 8);
	T_EQ_INT(m.v[0].minor, 17);
	T_EQ_STR(m.v[0].fstype, "ext4");
	T_EQ_STR(m.v[1].fstype, "xfs");
	T_EQ_STR(m.v[1].super_options, "rw,attr2");
	T_EQ_STR(m.v[2].mountpoint, "/mnt/\xff\xfe");
	/* The last line is cut after the fstype: no source, no options. */
	T_EQ_STR(m.v[3].mountpoint, "/mnt/cut");
	T_EQ_STR(m.v[3].fstype, "ext4");
	T_EQ_STR(m.v[3].source, "");

	T_OK(mounts_parse_mounts(mo, sizeof mo - 1, &m, &e));
	T_EQ_INT(m.n, 1);
	T_EQ_INT(m.skipped, 2);
	T_EQ_STR(m.v[0].mountpoint, "/mnt/x y");

	/* A line longer than any real one is skipped, not cut. */
	memset(big, 'a', sizeof big);
	memcpy(big, "1 1 8:1 / /", 11);
	big[sizeof big - 1] = '\n';
	T_OK(mounts_parse_mountinfo(big, sizeof big, &m, &e));
	T_EQ_INT(m.n, 0);
	T_EQ_INT(m.skipped, 1);

	T_OK(mounts_parse_mountinfo("", 0, &m, &e));
	T_EQ_INT(m.n, 0);

	/* Escapes past \377 and cut ones stay as they are. */
	mounts_unescape(esc);
	T_EQ_STR(esc, "a \\\\b\\777\\04");
}

/* mountinfo of every box, with the device numbers the stacks use. */
static void
test_boxes(void)
{
	struct probe_buf	 b;
	const char		*e;

	probe_buf_init(&b);
	T_OK(mounts_read(t_root("dsm6-3.10-armhf"), &b, &m, &e));
	T_EQ_INT(m.from_mountinfo, 1);
	T_EQ_INT(m.n, 16);
	T_EQ_STR(at("/volume1")->source, "/dev/vg1000/lv");
	T_EQ_INT(at("/volume1")->major, 253);
	T_EQ_INT(at("/volume1")->minor, 0);
	T_EQ_STR(at("/volume1")->super_options,
	    "rw,synoacl,data=ordered,jqfmt=vfsv0,usrjquota=aquota.user");
	T_EQ_INT(at("/")->major, 9);
	T_EQ_STR(at("/sys/fs/cgroup/cpu,cpuacct")->fstype, "cgroup");

	T_OK(mounts_read(t_root("dsm7-4.4-x86_64"), &b, &m, &e));
	T_EQ_STR(at("/volume1")->root, "/@syno");
	T_EQ_STR(at("/volume1")->fstype, "btrfs");
	/* btrfs reports its anonymous device, not the cache device's. */
	T_EQ_INT(at("/volume1")->major, 0);
	T_EQ_INT(at("/volume1")->minor, 41);
	T_EQ_STR(at("/volume1")->options, "rw,nodev,relatime");
	T_EQ_STR(at("/volume1")->source, "/dev/mapper/cachedev_0");
	T_EQ_STR(at("/")->source, "/dev/md0");
	T_EQ_STR(at("/")->options, "rw,noatime");

	T_OK(mounts_read(t_root("qts5-5.10-x86_64"), &b, &m, &e));
	T_EQ_INT(m.n, 16);
	T_EQ_STR(at("/")->fstype, "tmpfs");
	T_EQ_INT(at("/mnt/HDA_ROOT")->minor, 9);
	T_EQ_STR(at("/share/CACHEDEV1_DATA")->super_options,
	    "rw,(null),noacl,stripe=384,data=ordered,jqfmt=vfsv0,"
	    "usrjquota=aquota.user");
	T_EQ_STR(at("/share/NFSv=4/Public")->root, "/Public");
	T_EQ_INT(at("/share/NFSv=4/Public")->minor, 2);

	if (!t_have_box("debian12-6.1-btrfs"))
		t_skip("debian12-6.1-btrfs is not in the tree");
	else {
		T_OK(mounts_read(t_root("debian12-6.1-btrfs"), &b, &m, &e));
		T_EQ_STR(at("/")->source, "/dev/nvme0n1p2");
		T_EQ_INT(at("/")->major, 259);
		T_EQ_INT(at("/")->minor, 2);
		T_EQ_STR(at("/srv/data")->fstype, "btrfs");
		T_EQ_STR(at("/srv/data")->source, "/dev/sda");
		T_EQ_STR(at("/boot/efi")->fstype, "vfat");
	}
	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(mounts_read(t_root("readynas6-4.4-armhf"), &b, &m, &e));
		T_EQ_STR(at("/data")->source, "/dev/md127");
		T_EQ_STR(at("/data")->fstype, "btrfs");
		T_EQ_INT(at("/data")->minor, 32);
		T_EQ_STR(at("/home")->root, "/home");
		T_EQ_STR(at("/apps")->root, "/.apps");
		T_EQ_STR(at("/apps")->super_options,
		    "rw,nodiratime,nospace_cache,subvolid=258,subvol=/.apps");
	}

	T_ERRNO(mounts_read(t_root("empty"), &b, &m, &e), ENOENT);
	T_EQ_INT(m.n, 0);
	T_EQ_STR(e, "no proc/self/mountinfo or proc/mounts");
	probe_buf_free(&b);
}

/*
 * The live root: mountinfo, every entry with its type, /proc on it.  (In
 * a chroot the mount of "/" itself lies outside and is not listed.)
 */
static void
test_live(void)
{
	struct probe_root	 live;
	struct probe_buf	 b;
	const char		*e;
	size_t			 i, typed = 0;

	probe_buf_init(&b);
	T_OK(probe_root_open(&live, "/"));
	T_OK(mounts_read(&live, &b, &m, &e));
	T_EQ_INT(m.from_mountinfo, 1);
	for (i = 0; i < m.n; i++)
		if (m.v[i].fstype[0] != '\0')
			typed++;
	T_TRUE(m.n > 0 && typed == m.n);
	T_TRUE(at("/proc")->has_dev);
	T_EQ_STR(at("/proc")->fstype, "proc");
	probe_root_close(&live);
	probe_buf_free(&b);
}

int
main(void)
{
	mounts_init(&m);
	test_captures();
	test_damaged();
	test_boxes();
	test_live();
	mounts_clear(&m);
	return (t_done());
}
