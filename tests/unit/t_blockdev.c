/*
 * t_blockdev.c: /sys/block of the fixture boxes, the transport of real
 * sysfs device paths, a scratch tree with damaged entries, and the live
 * root.
 */
#include "config.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "blockdev.h"

static struct blockdev_list	l;

/* The device called name, or a zeroed one so checks fail cleanly. */
static const struct blockdev *
dev(const char *name)
{
	static struct blockdev	 none;
	const struct blockdev	*d = blockdev_find(&l, name);

	return (d != NULL ? d : &none);
}

/* The transport of sysfs paths as real boxes show them. */
static void
test_transport(void)
{
	T_EQ_STR(blockdev_transport("../devices/pci0000:00/0000:00:01.2/"
	    "0000:02:00.0/ata1/host0/target0:0:0/0:0:0:0/block/sata1",
	    "sata1"), "sata");
	T_EQ_STR(blockdev_transport("../devices/soc.0/pcie-controller.2/"
	    "pci0000:00/0000:00:01.0/0000:01:00.0/ata1/host0/target0:0:0/"
	    "0:0:0:0/block/sda", "sda"), "sata");
	T_EQ_STR(blockdev_transport("../devices/pci0000:00/0000:00:01.1/"
	    "0000:07:00.0/0000:08:02.0/0000:0a:00.0/nvme/nvme0/nvme0n1",
	    "nvme0n1"), "nvme");
	T_EQ_STR(blockdev_transport("../devices/pci0000:00/0000:00:14.0/usb2/"
	    "2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdq", "sdq"), "usb");
	T_EQ_STR(blockdev_transport("../devices/pci0000:00/0000:00:01.0/"
	    "0000:01:00.0/host0/port-0:0/end_device-0:0/target0:0:0/0:0:0:0/"
	    "block/sda", "sda"), "sas");
	T_EQ_STR(blockdev_transport("../devices/pci0000:00/0000:00:1c.4/"
	    "0000:05:00.0/0000:06:00.0/domain0/0-0/0-1/thunderbolt/"
	    "0000:08:00.0/nvme/nvme2/nvme2n1", "nvme2n1"), "thunderbolt");
	T_EQ_STR(blockdev_transport("../devices/platform/soc/fe340000.mmc/"
	    "mmc_host/mmc0/mmc0:aaaa/block/mmcblk0", "mmcblk0"), "mmc");
	T_EQ_STR(blockdev_transport("../devices/pci0000:00/0000:00:04.0/"
	    "virtio1/block/vda", "vda"), "virtio");
	T_EQ_STR(blockdev_transport("../devices/platform/host3/session1/"
	    "target3:0:0/3:0:0:0/block/sdb", "sdb"), "scsi");
	T_EQ_STR(blockdev_transport("../devices/virtual/block/loop0",
	    "loop0"), "loop");
	T_EQ_STR(blockdev_transport("../devices/virtual/block/zram0",
	    "zram0"), "virtual");
	T_EQ_STR(blockdev_transport("", "sdz"), "");
	T_EQ_STR(blockdev_kind_name(BLOCKDEV_DM), "dm");
	T_EQ_STR(blockdev_kind_name(BLOCKDEV_OTHER), "other");
}

/* Every box: disks, partitions, md and dm devices, majors as they are. */
static void
test_boxes(void)
{
	const struct blockdev		*d;
	const struct blockdev_part	*p;

	/* DSM 6, SHR: sda5 of four disks → md2 → LVM vg1000-lv. */
	T_OK(blockdev_read(t_root("dsm6-3.10-armhf"), &l));
	T_EQ_INT(l.ndevs, 24);		/* 4 disks, 3 md, 1 dm, 16 ram */
	d = dev("sda");
	T_EQ_INT(d->kind, BLOCKDEV_DISK);
	T_EQ_INT(d->major, 8);
	T_EQ_INT(d->minor, 0);
	T_EQ_U64(d->size_bytes, 5860533168ULL * 512);
	T_EQ_STR(d->model, "WDC WD30EFRX-68E");
	T_EQ_STR(d->vendor, "ATA");	/* "ATA     " in sysfs */
	T_EQ_STR(d->rev, "0A82");
	T_EQ_STR(d->serial, "");
	T_EQ_STR(d->transport, "sata");
	T_EQ_INT(d->rotational, 1);
	T_EQ_INT(d->ro, 0);
	T_EQ_INT(d->removable, 0);
	T_EQ_INT(d->logical_block, 512);
	T_EQ_INT(d->physical_block, 4096);
	T_EQ_INT(d->nparts, 3);
	T_EQ_STR(d->parts[0].name, "sda1");
	T_EQ_INT(d->parts[0].number, 1);
	T_EQ_U64(d->parts[0].start, 2048);
	T_EQ_U64(d->parts[0].size_bytes, 4980480ULL * 512);
	T_EQ_STR(d->parts[0].holders[0], "md0");
	T_EQ_STR(d->parts[2].name, "sda5");
	T_EQ_INT(d->parts[2].number, 5);
	T_EQ_INT(d->parts[2].minor, 5);
	T_EQ_U64(d->parts[2].start, 9453280);
	T_EQ_U64(d->parts[2].size_bytes, 5850870912ULL * 512);
	T_EQ_STR(d->parts[2].holders[0], "md2");
	d = dev("md2");
	T_EQ_INT(d->kind, BLOCKDEV_MD);
	T_EQ_U64(d->size_bytes, 17552606592ULL * 512);
	T_EQ_INT(d->nslaves, 4);
	T_EQ_STR(d->slaves[3], "sdd5");
	T_EQ_STR(d->holders[0], "dm-0");
	T_EQ_STR(d->transport, "");
	d = dev("dm-0");
	T_EQ_INT(d->kind, BLOCKDEV_DM);
	T_EQ_INT(d->major, 253);
	T_EQ_STR(d->dm_name, "vg1000-lv");
	T_EQ_STR(d->dm_class, "lvm");
	T_EQ_STR(d->slaves[0], "md2");
	T_EQ_INT(dev("ram0")->kind, BLOCKDEV_OTHER);
	T_TRUE(blockdev_find_dev(&l, 8, 36, &p) == NULL && p == NULL);
	T_TRUE(blockdev_find_dev(&l, 8, 53, &p) == blockdev_find(&l, "sdd") &&
	    p != NULL && strcmp(p->name, "sdd5") == 0);
	T_TRUE(blockdev_find_any(&l, "sdc2", &p) == blockdev_find(&l, "sdc") &&
	    p != NULL && p->number == 2);
	T_TRUE(blockdev_find_any(&l, "md2", &p) == blockdev_find(&l, "md2") &&
	    p == NULL);

	/* DSM 7: sataN disks with sataNpM partitions, dm major 250, NVMe. */
	T_OK(blockdev_read(t_root("dsm7-4.4-x86_64"), &l));
	d = dev("sata8");
	T_EQ_INT(d->major, 8);
	T_EQ_INT(d->minor, 112);
	T_EQ_STR(d->rev, "0A81");
	T_EQ_STR(d->parts[0].name, "sata8p1");
	T_EQ_STR(d->parts[0].holders[0], "md0");
	d = dev("nvme0n1");
	T_EQ_INT(d->kind, BLOCKDEV_DISK);
	T_EQ_INT(d->major, 259);
	T_EQ_STR(d->transport, "nvme");
	T_EQ_STR(d->model, "SNV3400-400G");
	T_EQ_STR(d->serial, "NVMEXXXXXXXX0001");
	T_EQ_STR(d->rev, "S9FM02.1");	/* firmware_rev */
	T_EQ_INT(d->rotational, 0);
	T_EQ_U64(d->size_bytes, 781422768ULL * 512);
	T_EQ_INT(d->physical_block, 512);
	T_EQ_INT(dev("dm-0")->major, 250);
	T_EQ_STR(dev("dm-0")->dm_name, "vg1-syno_vg_reserved_area");
	T_EQ_STR(dev("dm-0")->dm_class, "lvm");
	T_EQ_STR(dev("dm-1")->dm_name, "vg1-volume_1");
	T_EQ_STR(dev("dm-1")->holders[0], "dm-2");
	T_EQ_STR(dev("dm-2")->dm_class, "cache");
	T_EQ_STR(dev("dm-2")->dm_uuid, "");
	T_EQ_INT(dev("md2")->nslaves, 8);
	T_EQ_STR(dev("md2")->holders[1], "dm-1");

	/* QTS 5: CACHEDEV over LVM over md1; md numbers 9, 13, 256, 322. */
	T_OK(blockdev_read(t_root("qts5-5.10-x86_64"), &l));
	T_EQ_STR(dev("dm-2")->dm_name, "cachedev1");
	T_EQ_STR(dev("dm-2")->dm_class, "cache");
	T_EQ_INT(dev("dm-2")->major, 253);
	T_EQ_STR(dev("dm-0")->dm_name, "vg1-lv544");
	T_EQ_STR(dev("md1")->holders[0], "dm-0");
	T_EQ_INT(dev("md322")->minor, 322);
	T_EQ_INT(dev("md322")->kind, BLOCKDEV_MD);
	T_EQ_STR(dev("md9")->slaves[0], "sda1");
	d = dev("loop0");
	T_EQ_INT(d->kind, BLOCKDEV_LOOP);
	T_EQ_STR(d->transport, "loop");
	T_EQ_U64(d->size_bytes, 0);
	T_EQ_STR(d->backing_file, "");
	T_EQ_STR(dev("sdd")->model, "WDC WD60EFRX-68L");
	T_EQ_U64(dev("sdd")->size_bytes, 11721045168ULL * 512);

	if (!t_have_box("readynas6-4.4-armhf"))
		t_skip("readynas6-4.4-armhf is not in the tree");
	else {
		T_OK(blockdev_read(t_root("readynas6-4.4-armhf"), &l));
		T_EQ_INT(l.ndevs, 7);
		d = dev("sdc");
		T_EQ_STR(d->model, "ST3000VN007-2E41");
		T_EQ_STR(d->rev, "SC60");
		T_EQ_STR(d->transport, "sata");
		T_EQ_U64(d->size_bytes, 5860533168ULL * 512);
		T_EQ_STR(d->parts[2].name, "sdc3");
		T_EQ_STR(d->parts[2].holders[0], "md127");
		d = dev("md127");
		T_EQ_INT(d->kind, BLOCKDEV_MD);
		T_EQ_INT(d->minor, 127);
		T_EQ_INT(d->nslaves, 4);
		T_EQ_INT(d->nholders, 0);	/* btrfs holds no block device */
	}
	if (!t_have_box("debian12-6.1-btrfs"))
		t_skip("debian12-6.1-btrfs is not in the tree");
	else {
		/* A btrfs over whole disks: no partitions, no holders. */
		T_OK(blockdev_read(t_root("debian12-6.1-btrfs"), &l));
		T_EQ_INT(l.ndevs, 4);
		d = dev("nvme0n1");
		T_EQ_STR(d->transport, "nvme");
		T_EQ_STR(d->model, "Samsung SSD 970 EVO Plus 250GB");
		T_EQ_STR(d->serial, "S4EUNX0XXXXXX1");
		T_EQ_STR(d->rev, "2B2QEXM7");
		T_EQ_U64(d->size_bytes, 500118192ULL * 512);
		T_EQ_INT(d->nparts, 3);
		T_EQ_STR(d->parts[1].name, "nvme0n1p2");
		T_EQ_INT(d->parts[1].major, 259);
		d = dev("sdc");
		T_EQ_STR(d->model, "ST4000VN008-2DR166");
		T_EQ_STR(d->rev, "SC60");
		T_EQ_STR(d->transport, "sata");
		T_EQ_U64(d->size_bytes, 7814037168ULL * 512);
		T_EQ_INT(d->nparts, 0);
		T_EQ_INT(d->nholders, 0);
	}

	T_ERRNO(blockdev_read(t_root("empty"), &l), ENOENT);
	T_EQ_INT(l.ndevs, 0);
}

/*
 * A scratch tree: a USB disk with partitions listed out of order, a loop
 * with a backing file, dm-crypt, a dangling link, a name that is not
 * UTF-8, an over-long name, and devices whose dev file is empty or junk.
 */
static void
test_scratch(void)
{
	struct probe_root	 root;
	const struct blockdev	*d;
	char			 dir[] = "/tmp/t_blockdev.XXXXXX", cmd[64];

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
#define USBDEV	"devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/" \
	    "target6:0:0/6:0:0:0/block/sdq"
#define USB	"sys/" USBDEV
	t_put(dir, USB "/dev", "65:0\n");
	t_put(dir, USB "/size", "3907029168\n");
	t_put(dir, USB "/removable", "1\n");
	t_put(dir, USB "/queue/rotational", "1\n");
	t_put(dir, USB "/device/model", "Elements 25A2   \n");
	t_put(dir, USB "/device/vendor", "WD      \n");
	t_put(dir, USB "/sdq2/partition", "2\n");
	t_put(dir, USB "/sdq2/dev", "65:2\n");
	t_put(dir, USB "/sdq2/start", "4096\n");
	t_put(dir, USB "/sdq2/size", "1000\n");
	t_put(dir, USB "/sdq1/partition", "1\n");
	t_put(dir, USB "/sdq1/dev", "65:1\n");
	t_put(dir, USB "/sdq1/start", "2048\n");
	t_put(dir, USB "/sdq1/size", "2048\n");
	t_put(dir, USB "/sdq3/partition", "3\n");	/* no dev: skipped */
	t_put(dir, USB "/holders/.keep", "");
	t_put(dir, "sys/block/.keep", "");
	t_link(dir, "sys/block/sdq", "../" USBDEV);
	t_put(dir, "sys/devices/virtual/block/loop3/dev", "7:3\n");
	t_put(dir, "sys/devices/virtual/block/loop3/size", "2097152\n");
	t_put(dir, "sys/devices/virtual/block/loop3/loop/backing_file",
	    "/srv/img/disk 1.img\n");
	t_link(dir, "sys/block/loop3", "../devices/virtual/block/loop3");
	t_put(dir, "sys/devices/virtual/block/dm-7/dev", "254:7\n");
	t_put(dir, "sys/devices/virtual/block/dm-7/dm/name", "luks-data\n");
	t_put(dir, "sys/devices/virtual/block/dm-7/dm/uuid",
	    "CRYPT-LUKS2-0f1e2d3c4b5a69788796a5b4c3d2e1f0-luks-data\n");
	t_link(dir, "sys/block/dm-7", "../devices/virtual/block/dm-7");
	t_put(dir, "sys/devices/virtual/block/dm-8/dev", "254:8\n");
	t_put(dir, "sys/devices/virtual/block/dm-8/dm/name", "mpatha\n");
	t_put(dir, "sys/devices/virtual/block/dm-8/dm/uuid", "mpath-3600a\n");
	t_link(dir, "sys/block/dm-8", "../devices/virtual/block/dm-8");
	t_link(dir, "sys/block/sdx", "../devices/gone/sdx");
	t_put(dir, "sys/block/sd\xff\xfe/dev", "8:224\n");
	t_put(dir, "sys/block/sd\xff\xfe/size", "8\n");
	t_put(dir, "sys/block/abcdefghijklmnopqrstuvwxyz0123456789/dev", "8:240\n");
	t_put(dir, "sys/block/sdy/dev", "");
	t_put(dir, "sys/block/sdz/dev", "8:x\n");
	t_put(dir, "sys/block/sdw/dev", "8:176 9\n");

	T_OK(probe_root_open(&root, dir));
	T_OK(blockdev_read(&root, &l));
	T_EQ_INT(l.ndevs, 5);	/* dm-7 dm-8 loop3 sd\xff\xfe sdq */
	d = dev("sdq");
	T_EQ_STR(d->transport, "usb");
	T_EQ_INT(d->removable, 1);
	T_EQ_INT(d->ro, -1);		/* no ro file */
	T_EQ_INT(d->logical_block, 0);
	T_EQ_STR(d->model, "Elements 25A2");
	T_EQ_STR(d->vendor, "WD");
	T_EQ_U64(d->size_bytes, 3907029168ULL * 512);
	T_EQ_INT(d->nparts, 2);
	T_EQ_STR(d->parts[0].name, "sdq1");
	T_EQ_U64(d->parts[0].size_bytes, 2048 * 512);
	T_EQ_STR(d->parts[1].name, "sdq2");
	T_EQ_U64(d->parts[1].start, 4096);
	T_EQ_INT(d->nholders, 0);
	d = dev("loop3");
	T_EQ_INT(d->kind, BLOCKDEV_LOOP);
	T_EQ_STR(d->backing_file, "/srv/img/disk 1.img");
	T_EQ_U64(d->size_bytes, 1073741824ULL);
	T_EQ_INT(d->rotational, -1);
	T_EQ_STR(dev("dm-7")->dm_class, "crypt");
	T_EQ_STR(dev("dm-7")->dm_name, "luks-data");
	T_EQ_INT(dev("dm-7")->major, 254);
	T_EQ_STR(dev("dm-8")->dm_class, "");	/* multipath: no class */
	d = dev("sd\xff\xfe");
	T_EQ_INT(d->kind, BLOCKDEV_DISK);
	T_EQ_INT(d->minor, 224);
	T_EQ_U64(d->size_bytes, 4096);
	T_EQ_STR(d->transport, "");
	T_TRUE(blockdev_find(&l, "sdx") == NULL);	/* dangling */
	T_TRUE(blockdev_find(&l, "sdy") == NULL);
	T_TRUE(blockdev_find(&l, "sdz") == NULL);
	T_TRUE(blockdev_find(&l, "sdw") == NULL);
	probe_root_close(&root);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	T_EQ_INT(system(cmd), 0);
}

/* The live root: this machine's loop devices, major 7. */
static void
test_live(void)
{
	struct probe_root	 live;
	size_t			 i, loops = 0, bad = 0;

	T_OK(probe_root_open(&live, "/"));
	T_OK(blockdev_read(&live, &l));
	for (i = 0; i < l.ndevs; i++) {
		if (l.devs[i].kind != BLOCKDEV_LOOP)
			continue;
		loops++;
		if (l.devs[i].major != 7 ||
		    strcmp(l.devs[i].transport, "loop") != 0)
			bad++;
	}
	if (loops == 0)
		t_skip("no loop devices on this machine");
	else
		T_EQ_INT(bad, 0);
	probe_root_close(&live);
}

int
main(void)
{
	blockdev_init(&l);
	test_transport();
	test_boxes();
	test_scratch();
	test_live();
	blockdev_clear(&l);
	return (t_done());
}
