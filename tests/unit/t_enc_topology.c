/*
 * t_enc_topology.c: GET /v1/topology's JSON for the fixture boxes: disks
 * with partitions, md arrays with members, dm classes, btrfs with devinfo,
 * filesystems with their stacks, and nulls for what a root lacks.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "test.h"
#include "encode.h"
#include "topology.h"
#include "zfs.h"

/* The element of array a whose key is value, or NULL. */
static json_t *
by(json_t *a, const char *key, const char *value)
{
	json_t		*v;
	const char	*s;
	size_t		 i;

	json_array_foreach(a, i, v) {
		s = json_string_value(json_object_get(v, key));
		if (s != NULL && strcmp(s, value) == 0)
			return (v);
	}
	return (NULL);
}

/* The string at o.key, or "(none)". */
static const char *
str(json_t *o, const char *key)
{
	const char	*s = json_string_value(json_object_get(o, key));

	return (s != NULL ? s : "(none)");
}

/* The integer at o.key, or -12345 when it is not an integer. */
static long long
num(json_t *o, const char *key)
{
	json_t	*v = json_object_get(o, key);

	return (json_is_integer(v) ? (long long)json_integer_value(v) : -12345);
}

/* A stack as "kind:dev,dev kind:dev": a filesystem's layers in one line. */
static const char *
stack(json_t *fs)
{
	static char	 out[1024];
	json_t		*l, *d;
	size_t		 i, j;

	out[0] = '\0';
	json_array_foreach(json_object_get(fs, "stack"), i, l) {
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s:",
		    i > 0 ? " " : "", str(l, "kind"));
		json_array_foreach(json_object_get(l, "names"), j, d)
			snprintf(out + strlen(out), sizeof out - strlen(out),
			    "%s%s", j > 0 ? "," : "", json_string_value(d));
	}
	return (out);
}

/* Encode the box into a new JSON object. */
static json_t *
encode(struct topology *t, const char *box)
{
	json_t	*j;

	T_OK(topology_read(t_root(box), t));
	T_TRUE((j = enc_topology(t)) != NULL);
	return (j != NULL ? j : json_object());
}

/* DSM 7: eight SATA disks, RAID6, LVM, cachedev_0 and btrfs on it. */
static void
test_dsm7(struct topology *t)
{
	json_t	*j = encode(t, "dsm7-4.4-x86_64"), *d, *p, *m, *fs;

	d = by(json_object_get(j, "disks"), "name", "sata3");
	T_EQ_STR(str(d, "model"), "WDC WD80EFZZ-68B");
	T_EQ_STR(str(d, "vendor"), "ATA");
	T_EQ_STR(str(d, "firmware"), "0A81");
	T_EQ_STR(str(d, "transport"), "sata");
	T_EQ_INT(num(d, "size_bytes"), 15628053168LL * 512);
	T_EQ_INT(num(d, "major"), 8);
	T_EQ_INT(num(d, "minor"), 32);
	T_TRUE(json_is_true(json_object_get(d, "rotational")));
	T_TRUE(json_is_false(json_object_get(d, "removable")));
	T_EQ_INT(num(d, "physical_block_size"), 4096);
	T_TRUE(json_is_null(json_object_get(d, "serial")));
	p = by(json_object_get(d, "partitions"), "name", "sata3p3");
	T_EQ_INT(num(p, "number"), 3);
	T_EQ_INT(num(p, "start_sector"), 21257952);
	T_EQ_STR(json_string_value(json_array_get(json_object_get(p,
	    "holders"), 0)), "md2");
	d = by(json_object_get(j, "disks"), "name", "nvme1n1");
	T_EQ_STR(str(d, "transport"), "nvme");
	T_EQ_STR(str(d, "serial"), "NVMEXXXXXXXX0002");
	T_TRUE(json_is_false(json_object_get(d, "rotational")));
	/* md and dm devices are not disks; ram disks are not either */
	T_TRUE(by(json_object_get(j, "disks"), "name", "md2") == NULL);
	T_TRUE(by(json_object_get(j, "disks"), "name", "ram0") == NULL);
	T_EQ_INT(json_array_size(json_object_get(j, "disks")), 10);

	m = by(json_object_get(j, "md"), "name", "md2");
	T_EQ_STR(str(m, "level"), "raid6");
	T_EQ_INT(num(m, "raid_disks"), 8);
	T_EQ_INT(num(m, "degraded"), 0);
	T_EQ_INT(num(m, "size_bytes"), 46819768320LL * 1024);
	T_EQ_INT(json_array_size(json_object_get(m, "members")), 8);
	T_TRUE(by(json_object_get(m, "members"), "name", "sata8p3") != NULL);
	T_EQ_STR(str(m, "sync_action"), "idle");
	T_TRUE(json_is_null(json_object_get(m, "sync_progress_pct")));

	d = by(json_object_get(j, "dm"), "dm_name", "cachedev_0");
	T_EQ_STR(str(d, "name"), "dm-2");
	T_EQ_STR(str(d, "class"), "cache");
	T_TRUE(json_is_null(json_object_get(d, "uuid")));
	T_EQ_STR(json_string_value(json_array_get(json_object_get(d,
	    "slaves"), 0)), "dm-1");
	T_EQ_STR(str(by(json_object_get(j, "dm"), "dm_name", "vg1-volume_1"),
	    "class"), "lvm");

	fs = json_array_get(json_object_get(j, "btrfs"), 0);
	T_EQ_STR(str(fs, "data_profile"), "single");
	T_EQ_STR(str(fs, "metadata_profile"), "dup");
	T_EQ_INT(num(fs, "data_used_bytes"), 20011223412736LL);
	T_EQ_INT(json_array_size(json_object_get(fs, "devinfo")), 0);

	fs = by(json_object_get(j, "filesystems"), "mountpoint", "/volume1");
	T_EQ_STR(str(fs, "device"), "dm-2");
	T_EQ_STR(str(fs, "fstype"), "btrfs");
	T_EQ_STR(str(fs, "btrfs_uuid"), "5e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b");
	T_EQ_STR(stack(fs), "cache:cachedev_0 lvm:vg1-volume_1 raid6:md2 "
	    "partition:sata1p3,sata2p3,sata3p3,sata4p3,sata5p3,sata6p3,"
	    "sata7p3,sata8p3 disk:sata1,sata2,sata3,sata4,sata5,sata6,sata7,"
	    "sata8");
	/* /proc and tmpfs are not on a block device */
	T_TRUE(by(json_object_get(j, "filesystems"), "mountpoint", "/proc") ==
	    NULL);

	T_EQ_STR(str(json_object_get(j, "identity"), "vendor"), "Synology");
	/* the box's /etc/exports: DSM's options, no smb.conf in the box */
	p = json_object_get(json_object_get(j, "protocols"), "nfs");
	m = json_array_get(json_object_get(p, "exports"), 0);
	T_EQ_STR(str(m, "path"), "/volume1/media");
	m = json_array_get(json_object_get(m, "clients"), 1);
	T_EQ_STR(str(m, "host"), "192.0.2.11");
	T_TRUE(json_is_false(json_object_get(m, "sync")));
	T_TRUE(json_is_false(json_object_get(m, "wdelay")));
	T_TRUE(json_is_true(json_object_get(m, "rw")));
	T_EQ_STR(str(m, "sec"), "sys");
	T_TRUE(json_is_null(json_object_get(p, "ganesha_exports")));
	T_TRUE(json_is_false(json_object_get(json_object_get(json_object_get(j,
	    "protocols"), "smb"), "available")));
	d = by(json_object_get(j, "nics"), "name", "eth2");
	T_EQ_INT(num(d, "mtu"), 9000);
	T_EQ_INT(num(d, "speed_mbps"), 10000);
	T_TRUE(json_is_null(json_object_get(d, "bond")));
	json_decref(j);
}

/* QTS 5: CACHEDEV1 over LVM over RAID5, 24-slot system arrays whole. */
static void
test_qts(struct topology *t)
{
	json_t	*j = encode(t, "qts5-5.10-x86_64"), *m, *fs, *mem;

	m = by(json_object_get(j, "md"), "name", "md9");
	T_EQ_INT(num(m, "raid_disks"), 24);
	T_EQ_INT(num(m, "degraded"), 0);
	T_EQ_STR(str(m, "status"), "UUUU____________________");
	m = by(json_object_get(j, "md"), "name", "md322");
	mem = by(json_object_get(m, "members"), "name", "sdc5");
	T_EQ_STR(json_string_value(json_array_get(json_object_get(mem,
	    "flags"), 0)), "spare");
	T_EQ_STR(str(mem, "state"), "spare");
	T_TRUE(json_is_null(json_object_get(mem, "slot")));
	m = by(json_object_get(j, "md"), "name", "md1");
	T_EQ_STR(str(m, "level"), "raid5");
	T_EQ_INT(num(m, "chunk_bytes"), 512 * 1024);

	fs = by(json_object_get(j, "filesystems"), "mountpoint",
	    "/share/CACHEDEV1_DATA");
	T_EQ_STR(stack(fs), "cache:cachedev1 lvm:vg1-lv1 raid5:md1 "
	    "partition:sda3,sdb3,sdc3,sdd3 disk:sda,sdb,sdc,sdd");
	T_TRUE(strstr(str(fs, "super_options"), ",(null),") != NULL);
	T_TRUE(json_is_null(json_object_get(fs, "btrfs_uuid")));
	fs = by(json_object_get(j, "filesystems"), "mountpoint",
	    "/share/NFSv=4/Public");
	T_EQ_STR(str(fs, "device"), "dm-2");
	T_TRUE(json_is_null(json_object_get(j, "btrfs")));
	T_EQ_STR(str(json_object_get(j, "identity"), "vendor"), "QNAP");
	json_decref(j);
}

/* DSM 6 SHR: ext4 on vg1000-lv on RAID5. */
static void
test_dsm6(struct topology *t)
{
	json_t	*j = encode(t, "dsm6-3.10-armhf"), *fs;

	fs = by(json_object_get(j, "filesystems"), "mountpoint", "/volume1");
	T_EQ_STR(str(fs, "source"), "/dev/vg1000/lv");
	T_EQ_STR(str(fs, "device"), "dm-0");
	T_EQ_STR(stack(fs), "lvm:vg1000-lv raid5:md2 partition:sda5,sdb5,"
	    "sdc5,sdd5 disk:sda,sdb,sdc,sdd");
	fs = by(json_object_get(j, "filesystems"), "mountpoint", "/");
	T_EQ_STR(stack(fs), "raid1:md0 partition:sda1,sdb1,sdc1,sdd1 "
	    "disk:sda,sdb,sdc,sdd");
	T_EQ_STR(str(by(json_object_get(j, "md"), "name", "md0"), "super"),
	    "(none)");				/* 0.90: null */
	json_decref(j);
}

/* Debian 12: btrfs RAID1 with devinfo, ext4 root on NVMe. */
static void
test_debian(struct topology *t)
{
	json_t	*j, *fs, *di;

	if (!t_have_box("debian12-6.1-btrfs")) {
		t_skip("debian12-6.1-btrfs is not in the tree");
		return;
	}
	j = encode(t, "debian12-6.1-btrfs");
	T_TRUE(json_is_null(json_object_get(j, "md")));
	fs = json_array_get(json_object_get(j, "btrfs"), 0);
	T_EQ_STR(str(fs, "label"), "data");
	T_EQ_STR(str(fs, "data_profile"), "raid1");
	T_EQ_INT(json_array_size(json_object_get(fs, "devices")), 3);
	T_EQ_INT(num(fs, "metadata_used_bytes"), 6442450944LL);
	di = json_array_get(json_object_get(fs, "devinfo"), 1);
	T_EQ_INT(num(di, "devid"), 2);
	T_TRUE(json_is_false(json_object_get(di, "missing")));
	T_EQ_INT(num(json_object_get(di, "errors"), "corruption"), 0);
	fs = by(json_object_get(j, "filesystems"), "mountpoint", "/srv/data");
	T_EQ_STR(stack(fs), "btrfs raid1:sda,sdb,sdc");
	T_EQ_STR(str(fs, "btrfs_uuid"), "8f3c2a71-5b0d-4e9a-9c1f-2d7e6b4a0c13");
	fs = by(json_object_get(j, "filesystems"), "mountpoint", "/");
	T_EQ_STR(stack(fs), "partition:nvme0n1p2 disk:nvme0n1");
	T_EQ_STR(str(by(json_object_get(j, "disks"), "name", "nvme0n1"),
	    "model"), "Samsung SSD 970 EVO Plus 250GB");
	T_EQ_STR(str(json_object_get(j, "identity"), "model"),
	    "PowerEdge T140");
	json_decref(j);
}

/* ReadyNAS OS 6: btrfs on RAID5, an 802.3ad bond of two GbE ports. */
static void
test_readynas(struct topology *t)
{
	json_t	*j, *fs, *n, *bond, *mem;

	if (!t_have_box("readynas6-4.4-armhf")) {
		t_skip("readynas6-4.4-armhf is not in the tree");
		return;
	}
	j = encode(t, "readynas6-4.4-armhf");
	fs = by(json_object_get(j, "filesystems"), "mountpoint", "/data");
	T_EQ_STR(str(fs, "device"), "md127");
	T_EQ_STR(str(fs, "btrfs_uuid"), "2b7e9c41-6d3a-4f1e-8b5c-0a9d8e7f6c5b");
	T_EQ_STR(stack(fs), "raid5:md127 partition:sda3,sdb3,sdc3,sdd3 "
	    "disk:sda,sdb,sdc,sdd");
	T_EQ_STR(str(by(json_object_get(j, "md"), "name", "md1"), "level"),
	    "raid10");
	T_TRUE(json_is_array(json_object_get(j, "dm")) &&
	    json_array_size(json_object_get(j, "dm")) == 0);
	n = by(json_object_get(j, "nics"), "name", "bond0");
	bond = json_object_get(n, "bond");
	T_EQ_STR(str(bond, "mode_text"), "IEEE 802.3ad Dynamic link aggregation");
	T_EQ_INT(num(bond, "capacity_mbps"), 1000);
	T_EQ_INT(json_array_size(json_object_get(bond, "members")), 2);
	mem = by(json_object_get(bond, "members"), "name", "eth0");
	T_TRUE(json_is_null(json_object_get(mem, "speed_mbps")));
	mem = by(json_object_get(bond, "members"), "name", "eth1");
	T_EQ_INT(num(mem, "speed_mbps"), 1000);
	T_EQ_STR(str(json_object_get(j, "identity"), "vendor"), "NETGEAR");
	T_EQ_STR(str(json_object_get(j, "cpu"), "soc"),
	    "Marvell Armada 370/XP (Device Tree)");
	json_decref(j);
}

/* An empty root: every part null, and the object still well-formed. */
static void
test_empty(struct topology *t)
{
	json_t	*j = encode(t, "empty");
	char	*s;

	T_TRUE(json_is_null(json_object_get(j, "disks")));
	T_TRUE(json_is_null(json_object_get(j, "md")));
	T_TRUE(json_is_null(json_object_get(j, "dm")));
	T_TRUE(json_is_null(json_object_get(j, "btrfs")));
	T_TRUE(json_is_null(json_object_get(j, "filesystems")));
	T_TRUE(json_is_null(json_object_get(j, "nics")));
	T_TRUE(json_is_null(json_object_get(j, "identity")));
	T_TRUE(json_is_null(json_object_get(j, "cpu")));
	T_TRUE((s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS)) != NULL);
	T_EQ_STR(s != NULL ? s : "", "{\"btrfs\":null,\"cpu\":null,"
	    "\"disks\":null,\"dm\":null,\"filesystems\":null,"
	    "\"identity\":null,\"md\":null,\"nics\":null,"
	    "\"protocols\":{\"nfs\":{\"exports\":null,"
	    "\"ganesha_exports\":null,\"threads\":null},\"smb\":"
	    "{\"available\":false,\"notes\":[],\"server_max_protocol\":null,"
	    "\"server_min_protocol\":null,\"server_signing\":null,"
	    "\"shares\":null,\"smb_encrypt\":null,"
	    "\"source\":\"/etc/samba/smb.conf\"}}}");
	free(s);
	json_decref(j);
}

/* A scratch root with smb.conf, ganesha.conf and nfsd's thread count. */
static void
test_protocols(struct topology *t)
{
	struct probe_root	 root;
	char			 dir[] = "/tmp/t_enc_topology.XXXXXX", cmd[64];
	json_t			*j, *smb, *nfs, *v;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		exit(1);
	}
	t_put(dir, "etc/samba/smb.conf", "[global]\nserver min protocol = "
	    "SMB3_00\ninclude = /etc/samba/none.conf\n[data]\npath = /data\n"
	    "smb encrypt = required\nread only = no\n");
	t_put(dir, "etc/ganesha/ganesha.conf", "EXPORT { Export_Id = 7; "
	    "Path = /srv; Pseudo = /srv; Access_Type = RO; }\n");
	t_put(dir, "proc/fs/nfsd/threads", "8\n");
	T_OK(probe_root_open(&root, dir));
	T_OK(topology_read(&root, t));
	T_TRUE((j = enc_topology(t)) != NULL);
	smb = json_object_get(json_object_get(j, "protocols"), "smb");
	T_TRUE(json_is_true(json_object_get(smb, "available")));
	T_EQ_STR(str(smb, "source"), "/etc/samba/smb.conf");
	T_EQ_STR(str(smb, "server_min_protocol"), "SMB3_00");
	T_EQ_STR(str(smb, "server_max_protocol"), "SMB3");
	T_EQ_STR(str(smb, "server_signing"), "default");
	T_EQ_STR(str(smb, "smb_encrypt"), "default");
	v = json_array_get(json_object_get(smb, "shares"), 0);
	T_EQ_STR(str(v, "name"), "data");
	T_EQ_STR(str(v, "path"), "/data");
	T_TRUE(json_is_false(json_object_get(v, "read_only")));
	T_EQ_STR(str(v, "smb_encrypt"), "required");
	T_EQ_INT(json_array_size(json_object_get(smb, "notes")), 2);
	nfs = json_object_get(json_object_get(j, "protocols"), "nfs");
	T_TRUE(json_is_null(json_object_get(nfs, "exports")));
	T_EQ_INT(num(nfs, "threads"), 8);
	v = json_array_get(json_object_get(nfs, "ganesha_exports"), 0);
	T_EQ_INT(num(v, "export_id"), 7);
	T_EQ_STR(str(v, "access_type"), "RO");
	T_EQ_STR(str(v, "sectype"), "none,sys");
	json_decref(j);
	probe_root_close(&root);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	T_EQ_INT(system(cmd), 0);
}

/* zpool iostat -vl as /v1/counters gives it. */
static void
test_viostat(void)
{
	struct zfs_viostat	*io = calloc(1, sizeof *io);
	const char		*err;
	char			*buf;
	size_t			 len;
	json_t			*a, *v;

	if (io == NULL)
		return;
	buf = t_fixture("zfs/iostat-vl-logs-zfs4433.txt", &len);
	T_OK(zfs_viostat_parse(buf, len, io, &err));
	free(buf);
	T_TRUE((a = enc_zfs_viostat(io)) != NULL);
	T_EQ_INT(json_array_size(a), 4);
	v = json_array_get(a, 3);
	T_EQ_STR(str(v, "name"), "A3");
	T_EQ_STR(str(v, "pool"), "mypool");
	T_EQ_STR(str(v, "class"), "log");
	T_EQ_INT(num(v, "depth"), 1);
	T_NEAR(json_number_value(json_object_get(v, "total_wait_write_ms")),
	    49, 1e-9);
	T_NEAR(json_number_value(json_object_get(v, "write_bytes_per_s")),
	    131.0 * 1048576, 1e-6);
	T_TRUE(json_is_null(json_object_get(v, "total_wait_read_ms")));
	/* 0.7 printed no trim column: no key, rather than a null. */
	T_TRUE(json_object_get(v, "trim_wait_ms") == NULL);
	T_TRUE(json_is_null(json_object_get(v, "scrub_wait_ms")));
	json_decref(a);
	free(io);
}

int
main(void)
{
	struct topology	*t = topology_new();

	if (t == NULL) {
		printf("Bail out! topology_new\n");
		return (1);
	}
	test_viostat();
	test_dsm7(t);
	test_qts(t);
	test_dsm6(t);
	test_debian(t);
	test_readynas(t);
	test_empty(t);
	test_protocols(t);
	topology_free(t);
	return (t_done());
}
