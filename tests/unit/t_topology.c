/*
 * t_topology.c: block devices, mounts, btrfs and the resolved stacks of
 * the fixture boxes, and their JSON.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "test.h"
#include "encode.h"
#include "show.h"
#include "topology.h"

/* The mount at path, or NULL. */
static const struct mounts_entry *
mount_at(const struct topology *t, const char *path)
{
	size_t	i;

	for (i = 0; i < t->mounts.n; i++)
		if (strcmp(t->mounts.v[i].mountpoint, path) == 0)
			return (&t->mounts.v[i]);
	return (NULL);
}

/* 1 if the fixture box is in the unpacked trees. */
static int
access_box(const char *box)
{
	const char	*base;
	char		 path[4096];

	if ((base = getenv("NP_FIXTURES")) == NULL)
		base = "tests/fixtures/trees";
	snprintf(path, sizeof path, "%s/%s", base, box);
	return (access(path, F_OK) == 0);
}

/* The stack under a mount point as "kind:n kind:n ...". */
static const char *
stack_of(const struct topology *t, const char *path)
{
	static char			 out[256];
	struct topology_layer		 l[TOPOLOGY_STACK_MAX];
	const struct mounts_entry	*m;
	size_t				 i, n;

	out[0] = '\0';
	if ((m = mount_at(t, path)) == NULL)
		return ("no such mount");
	n = topology_stack(t, topology_mount_device(t, m), m->fstype, l,
	    TOPOLOGY_STACK_MAX);
	for (i = 0; i < n; i++)
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%.47s:%zu",
		    i > 0 ? " " : "", l[i].kind, l[i].n);
	return (out);
}

static void
t_dsm7(void)
{
	struct topology			*t = topology_new();
	const struct blockdev		*d;
	const struct blockdev_part	*p;
	json_t				*j, *v;
	size_t				 i;

	T_OK(topology_read(t_root("dsm7-4.4-x86_64"), t));
	T_EQ_INT(t->have & (TOPOLOGY_BLOCK | TOPOLOGY_MD | TOPOLOGY_MOUNTS |
	    TOPOLOGY_BTRFS), TOPOLOGY_BLOCK | TOPOLOGY_MD | TOPOLOGY_MOUNTS |
	    TOPOLOGY_BTRFS);
	T_TRUE((d = blockdev_find(&t->block, "sata1")) != NULL);
	if (d != NULL) {
		T_EQ_STR(d->model, "WDC WD80EFZZ-68B");
		T_EQ_U64(d->size_bytes, 8001563222016ULL);
		T_EQ_STR(d->transport, "sata");
		T_EQ_INT(d->rotational, 1);
		T_EQ_INT(d->kind, BLOCKDEV_DISK);
		T_EQ_INT(d->nparts, 3);
		T_EQ_STR(d->parts[2].name, "sata1p3");
		T_EQ_U64(d->parts[2].start, 21257952);
		T_EQ_U64(d->parts[2].size_bytes, 15606591488ULL * 512);
		T_EQ_STR(d->parts[2].holders[0], "md2");
	}
	T_TRUE((d = blockdev_find(&t->block, "dm-2")) != NULL);
	if (d != NULL) {
		T_EQ_INT(d->major, 250);
		T_EQ_STR(d->dm_name, "cachedev_0");
		T_EQ_STR(d->dm_class, "cache");
		T_EQ_STR(d->slaves[0], "dm-1");
	}
	T_EQ_STR(blockdev_find(&t->block, "dm-1")->dm_class, "lvm");
	T_TRUE(blockdev_find_dev(&t->block, 8, 3, &p) != NULL && p != NULL &&
	    strcmp(p->name, "sata1p3") == 0);
	T_EQ_INT(t->btrfs.nfs, 1);
	T_EQ_STR(t->btrfs.fs[0].devices[0], "dm-2");
	T_EQ_STR(t->btrfs.fs[0].data.profile, "single");
	T_EQ_STR(t->btrfs.fs[0].metadata.profile, "dup");
	T_EQ_U64(t->btrfs.fs[0].data.total_bytes, 21990232555520ULL);
	/* /volume1 is 0:41 in mountinfo; the source names cachedev_0. */
	T_EQ_STR(topology_mount_device(t, mount_at(t, "/volume1")), "dm-2");
	T_EQ_STR(stack_of(t, "/volume1"),
	    "cache:1 lvm:1 raid6:1 partition:8 disk:8");
	T_EQ_STR(stack_of(t, "/"), "raid1:1 partition:8 disk:8");
	/* the box's /etc/exports; no smb.conf, ganesha or nfsd threads */
	T_EQ_INT(t->have & (TOPOLOGY_SMB | TOPOLOGY_EXPORTS |
	    TOPOLOGY_GANESHA | TOPOLOGY_NFSD_THREADS), TOPOLOGY_EXPORTS);
	T_EQ_INT(t->exports.n, 1);
	T_EQ_INT(t->exports.v[0].nclients, 2);

	T_TRUE((j = enc_topology(t)) != NULL);
	json_array_foreach(json_object_get(j, "md"), i, v)
		if (strcmp(json_string_value(json_object_get(v, "name")),
		    "md2") == 0)
			T_EQ_STR(json_string_value(json_object_get(v, "level")),
			    "raid6");
	v = json_array_get(json_object_get(j, "btrfs"), 0);
	T_EQ_STR(json_string_value(json_object_get(v, "data_profile")),
	    "single");
	T_EQ_STR(json_string_value(json_object_get(json_object_get(j,
	    "identity"), "vendor")), "Synology");
	T_TRUE(json_is_array(json_object_get(j, "nics")));
	json_decref(j);
	topology_free(t);
}

static void
t_qts_dsm6(void)
{
	struct topology	*t = topology_new();
	json_t		*j;

	T_OK(topology_read(t_root("qts5-5.10-x86_64"), t));
	T_EQ_STR(stack_of(t, "/share/CACHEDEV1_DATA"),
	    "cache:1 lvm:1 raid5:1 partition:4 disk:4");
	T_EQ_STR(stack_of(t, "/mnt/HDA_ROOT"), "raid1:1 partition:4 disk:4");
	T_EQ_STR(blockdev_find(&t->block, "sda")->model, "WDC WD60EFRX-68L");
	T_EQ_U64(blockdev_find(&t->block, "sda")->size_bytes, 6001175126016ULL);
	T_EQ_STR(mount_at(t, "/share/CACHEDEV1_DATA")->options, "rw,relatime");
	T_TRUE(strstr(mount_at(t, "/share/CACHEDEV1_DATA")->super_options,
	    ",(null),noacl,stripe=384,") != NULL);
	T_TRUE(mount_at(t, "/share/NFSv=4/Public") != NULL);
	T_TRUE((j = enc_topology(t)) != NULL);
	json_decref(j);

	T_OK(topology_read(t_root("dsm6-3.10-armhf"), t));
	/* mounted as /dev/vg1000/lv: LVM's path, dm name vg1000-lv */
	T_EQ_STR(stack_of(t, "/volume1"), "lvm:1 raid5:1 partition:4 disk:4");
	T_EQ_STR(blockdev_find(&t->block, "dm-0")->dm_name, "vg1000-lv");
	topology_free(t);
}

/* Debian 12: ext4 on an NVMe partition, btrfs RAID1 over whole disks. */
static void
t_debian(void)
{
	struct topology	*t = topology_new();

	if (access_box("debian12-6.1-btrfs") == 0) {
		t_skip("debian12-6.1-btrfs is not in the tree");
		topology_free(t);
		return;
	}
	T_OK(topology_read(t_root("debian12-6.1-btrfs"), t));
	T_EQ_INT(t->have & TOPOLOGY_MD, 0);
	T_EQ_STR(stack_of(t, "/"), "partition:1 disk:1");
	T_EQ_STR(stack_of(t, "/boot/efi"), "partition:1 disk:1");
	/* The members are whole disks: nothing under them. */
	T_EQ_STR(stack_of(t, "/srv/data"), "btrfs raid1:3");
	T_EQ_STR(topology_mount_device(t, mount_at(t, "/srv/data")), "sda");
	topology_free(t);
}

/* ReadyNAS OS 6: btrfs on md127 (RAID5), three subvolumes mounted. */
static void
t_readynas(void)
{
	struct topology	*t = topology_new();

	if (access_box("readynas6-4.4-armhf") == 0) {
		t_skip("readynas6-4.4-armhf is not in the tree");
		topology_free(t);
		return;
	}
	T_OK(topology_read(t_root("readynas6-4.4-armhf"), t));
	T_EQ_STR(topology_mount_device(t, mount_at(t, "/data")), "md127");
	T_EQ_STR(stack_of(t, "/data"), "raid5:1 partition:4 disk:4");
	T_EQ_STR(stack_of(t, "/apps"), "raid5:1 partition:4 disk:4");
	T_EQ_STR(stack_of(t, "/"), "raid1:1 partition:4 disk:4");
	T_EQ_INT(t->nics.nbonds, 1);
	T_EQ_INT(t->identity.vendor, IDENTITY_NETGEAR);
	topology_free(t);
}

static void
t_empty_live(void)
{
	struct topology		*t = topology_new();
	struct probe_root	 live;
	json_t			*j;

	T_OK(topology_read(t_root("empty"), t));
	T_EQ_INT(t->have, 0);
	T_TRUE((j = enc_topology(t)) != NULL);
	T_TRUE(json_is_null(json_object_get(j, "disks")));
	T_TRUE(json_is_null(json_object_get(j, "md")));
	json_decref(j);
	T_OK(probe_root_open(&live, "/"));
	T_OK(topology_read(&live, t));
	T_TRUE(t->have & TOPOLOGY_BLOCK);
	T_TRUE(t->have & TOPOLOGY_MOUNTS);
	T_TRUE(t->mounts.n > 0 && t->mounts.from_mountinfo);
	T_TRUE((j = enc_topology(t)) != NULL);
	json_decref(j);
	probe_root_close(&live);
	topology_free(t);
}

static void
t_mounts_parse(void)
{
	static const char mi[] =
	    "36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 - ext3 "
	    "/dev/root rw,errors=continue\n"
	    "37 35 0:41 /@syno /volume1 rw shared:5 - btrfs "
	    "/dev/mapper/cachedev_0 rw,synoacl\n"
	    "garbage line\n";
	struct mounts	m;
	const char	*e;

	mounts_init(&m);
	T_OK(mounts_parse_mountinfo(mi, sizeof mi - 1, &m, &e));
	T_EQ_INT(m.n, 2);
	T_EQ_INT(m.skipped, 1);
	T_EQ_STR(m.v[0].mountpoint, "/mnt two");
	T_EQ_INT(m.v[0].major, 98);
	T_EQ_STR(m.v[0].fstype, "ext3");
	T_EQ_STR(m.v[1].root, "/@syno");
	T_EQ_STR(m.v[1].source, "/dev/mapper/cachedev_0");
	T_EQ_STR(m.v[1].super_options, "rw,synoacl");
	mounts_clear(&m);
}

/*
 * A ZFS dataset's stack is its pool's members, as zpool status lists
 * them: pool0 of an OmniOS box (two raidz2 vdevs, two log devices) and
 * TrueNAS SCALE's boot-pool (a mirror of two partitions).  The pools as
 * /v1/topology serves them.
 */
static void
t_zfs(void)
{
	struct topology		*t = topology_new();
	struct topology_layer	 l[TOPOLOGY_STACK_MAX];
	struct zfs_status	*st = malloc(sizeof *st), *st2;
	const char		*err;
	char			*text;
	size_t			 len, n;
	json_t			*j, *v;

	st2 = malloc(sizeof *st2);
	T_OK(topology_read(t_root("empty"), t));
	text = t_fixture("zfs/status-raidz2-logs-cache-omnios1483.txt", &len);
	T_OK(zfs_status_parse(text, len, st, &err));
	free(text);
	text = t_fixture("zfs/status-truenas-scale-boot-pool.txt", &len);
	T_OK(zfs_status_parse(text, len, st2, &err));
	free(text);
	/* One listing of both pools. */
	st->pools[st->npools++] = st2->pools[0];
	t->zpool = st;
	n = topology_stack(t, "pool0/share", "zfs", l, TOPOLOGY_STACK_MAX);
	T_EQ_INT(n, 1);
	T_EQ_STR(l[0].kind, "zfs raidz2");
	T_EQ_INT(l[0].n, 14);		/* 12 in two raidz2, 2 logs */
	T_EQ_STR(l[0].devices[0], "c0t5000C500A612DA93d0");
	T_EQ_STR(l[0].devices[13], "c0t55CD2E414EC0FF43d0");
	n = topology_stack(t, "boot-pool/ROOT/22.12.0", "zfs", l,
	    TOPOLOGY_STACK_MAX);
	T_EQ_INT(n, 1);
	T_EQ_STR(l[0].kind, "zfs mirror");
	T_EQ_INT(l[0].n, 2);
	T_EQ_STR(l[0].devices[1], "sdau3");
	/* A pool zpool status did not list, or no listing: no stack. */
	T_EQ_INT(topology_stack(t, "tank/share", "zfs", l, TOPOLOGY_STACK_MAX),
	    0);
	t->zpool = NULL;
	T_EQ_INT(topology_stack(t, "pool0/share", "zfs", l,
	    TOPOLOGY_STACK_MAX), 0);

	j = enc_zfs_pools(st);
	T_EQ_INT(json_array_size(j), 2);
	v = json_array_get(j, 0);
	T_EQ_STR(json_string_value(json_object_get(v, "name")), "pool0");
	T_EQ_STR(json_string_value(json_object_get(json_object_get(v, "scan"),
	    "function")), "scrub");
	v = json_array_get(json_object_get(v, "vdevs"), 1);
	T_EQ_STR(json_string_value(json_object_get(v, "name")), "raidz2-0");
	T_EQ_STR(json_string_value(json_object_get(v, "type")), "raidz");
	T_EQ_INT(json_integer_value(json_object_get(v, "parity")), 2);
	v = json_array_get(json_object_get(json_array_get(j, 0), "vdevs"), 16);
	T_EQ_STR(json_string_value(json_object_get(v, "class")), "log");

	/* nasperf topology's table of them. */
	{
		json_t	*body = json_pack("{s:{s:O}}", "zfs", "pools", j);
		char	*out = NULL;
		size_t	 olen = 0;
		FILE	*f = open_memstream(&out, &olen);

		show_topology(f, body);
		fclose(f);
		T_TRUE(out != NULL && strstr(out, "raidz2-0") != NULL &&
		    strstr(out, "c0t5000C500A612DA93d0 c0t5000C500C9DFFD53d0")
		    != NULL);
		T_TRUE(out != NULL && strstr(out, "boot-pool") != NULL &&
		    strstr(out, "sdat3 sdau3") != NULL);
		if (out != NULL)
			printf("%s", out);
		free(out);
		json_decref(body);
	}
	json_decref(j);
	free(st);
	free(st2);
	topology_free(t);
}

int
main(void)
{
	t_dsm7();
	t_qts_dsm6();
	t_debian();
	t_readynas();
	t_empty_live();
	t_mounts_parse();
	t_zfs();
	return (t_done());
}
