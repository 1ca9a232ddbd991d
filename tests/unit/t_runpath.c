/*
 * t_runpath.c: the parts of a run's path that read no socket: the kernel
 * NFS server's threads summed into one serving process (from a DSM 7
 * box's /proc), the exports open to the client as the volumes under them,
 * and the path report's sentence over two snapshots.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "np.h"
#include "runpath.h"
#include "test.h"
#include "topology.h"
#include "verdict.h"

/* A snapshot of a path to client with one NFS connection and procs. */
static json_t *
t_snap(double time, const char *client, json_t *procs, json_int_t acked)
{
	return (json_pack("{s:f,s:s,s:[{s:s,s:i,s:s,s:s,s:i,s:I,s:n,s:n,"
	    "s:b,s:{s:I,s:I}}],s:o,s:[],s:[]}", "time", time, "client", client,
	    "connections", "local", "192.0.2.1", "lport", 2049, "service",
	    "nfs", "remote", client, "rport", 812, "inode", (json_int_t)4711,
	    "pid", "comm", "kernel", 1, "tcp", "bytes_acked", acked,
	    "bytes_received", (json_int_t)20000, "processes", procs, "files",
	    "unavailable"));
}

/* The kernel's nfsd threads of a DSM 7 box, as one serving process. */
static void
t_knfsd(void)
{
	struct daemon		 d;
	struct probe_buf	 b;
	struct probe_root	 root;
	json_t			*procs, *p;
	char			 dir[] = "/tmp/t_runpath.XXXXXX", cmd[64];

	memset(&d, 0, sizeof d);
	d.root = *t_root("dsm7-4.4-x86_64");
	probe_buf_init(&b);
	procs = json_array();
	T_EQ_INT(runpath_knfsd(&d, &b, procs), 1);
	T_EQ_INT((int)json_array_size(procs), 1);
	p = json_array_get(procs, 0);
	T_EQ_INT((int)json_integer_value(json_object_get(p, "pid")), 12801);
	T_EQ_STR(json_string_value(json_object_get(p, "comm")), "nfsd");
	T_EQ_INT((int)json_integer_value(json_object_get(p, "threads")), 8);
	T_TRUE(json_is_true(json_object_get(p, "kernel")));
	/* Every thread's system time, summed. */
	T_TRUE(json_integer_value(json_object_get(p, "ticks")) > 20331);
	T_TRUE(json_is_integer(json_object_get(p, "read_bytes")));
	json_decref(procs);

	/* A box without the kernel server: none. */
	d.root = *t_root("empty");
	procs = json_array();
	T_EQ_INT(runpath_knfsd(&d, &b, procs), 0);
	T_EQ_INT((int)json_array_size(procs), 0);
	/* A user process called nfsd is not the kernel's server. */
	if (mkdtemp(dir) != NULL) {
		t_put(dir, "proc/77/stat", "77 (nfsd) S 1 77 77 0 -1 4194560 0 "
		    "0 0 0 700 300 0 0 20 0 1 0 100 1000 25 "
		    "18446744073709551615 1 1 1 0 0 0 0 0 0 0 0 0 17 3 0 0\n");
		T_OK(probe_root_open(&root, dir));
		d.root = root;
		T_EQ_INT(runpath_knfsd(&d, &b, procs), 0);
		T_EQ_INT((int)json_array_size(procs), 0);
		probe_root_close(&root);
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			T_TRUE(0);
	}
	json_decref(procs);
	probe_buf_free(&b);
}

/* The report over two snapshots, and the exports as its volumes. */
static void
t_report(void)
{
	struct daemon		 d;
	struct probe_buf	 b;
	struct topology		*t = topology_new();
	json_t			*p0, *p1, *a, *z, *rep, *v;
	const char		*s;

	memset(&d, 0, sizeof d);
	d.root = *t_root("dsm7-4.4-x86_64");
	probe_buf_init(&b);
	p0 = json_array();
	p1 = json_array();
	runpath_knfsd(&d, &b, p0);
	runpath_knfsd(&d, &b, p1);
	probe_buf_free(&b);
	/* 2 s later: 100 ticks more, 64 MiB more read from storage. */
	v = json_array_get(p1, 0);
	json_object_set_new(v, "ticks", json_integer(json_integer_value(
	    json_object_get(v, "ticks")) + 100));
	json_object_set_new(v, "read_bytes", json_integer(json_integer_value(
	    json_object_get(v, "read_bytes")) + 67108864));
	a = t_snap(1000.0, "192.0.2.10", p0, 1000);
	z = t_snap(1002.0, "192.0.2.10", p1, 1000 + 67108864);
	rep = runpath_report(a, z, 2.0, NULL);
	T_TRUE(rep != NULL);
	s = json_string_value(json_object_get(rep, "summary"));
	T_TRUE(s != NULL && strstr(s, "served by the kernel's nfsd (8 "
	    "threads, ") != NULL);
	if (s != NULL)
		printf("# %s\n", s);
	v = json_array_get(json_object_get(rep, "processes"), 0);
	T_TRUE(json_is_true(json_object_get(v, "kernel")));
	T_NEAR(json_number_value(json_object_get(v, "storage_read_bytes")),
	    67108864, 1);

	/* The kernel's threads hold no files: the client's export. */
	T_OK(topology_read(t_root("dsm7-4.4-x86_64"), t));
	T_TRUE(t->have & TOPOLOGY_EXPORTS);
	runpath_volumes(rep, t, "nfs3");
	v = json_array_get(json_object_get(rep, "volumes"), 0);
	T_EQ_INT((int)json_array_size(json_object_get(rep, "volumes")), 1);
	T_EQ_STR(json_string_value(json_object_get(v, "mount")), "/volume1");
	T_TRUE(json_array_size(json_object_get(v, "devices")) > 0);
	if (json_is_string(json_object_get(v, "summary")))
		printf("# %s\n", json_string_value(json_object_get(v,
		    "summary")));
	json_decref(rep);

	/* A client no export names: no volume. */
	json_object_set_new(z, "client", json_string("198.51.100.7"));
	rep = runpath_report(a, z, 2.0, NULL);
	runpath_volumes(rep, t, "nfs3");
	T_EQ_INT((int)json_array_size(json_object_get(rep, "volumes")), 0);
	json_decref(rep);
	json_decref(a);
	json_decref(z);
	topology_free(t);
}

/*
 * A connection no process holds: the kernel's when it was read with its
 * socket, else one read only as it closed (its socket gone, inode 0).
 */
static void
t_unheld(void)
{
	json_t		*a, *z, *rep;
	const char	*s;

	a = t_snap(1000.0, "192.0.2.10", json_array(), 1000);
	z = t_snap(1002.0, "192.0.2.10", json_array(), 2000);
	rep = runpath_report(a, z, 2.0, NULL);
	s = json_string_value(json_object_get(rep, "summary"));
	T_TRUE(s != NULL && strstr(s, ", served by the kernel (no process "
	    "holds the sockets)") != NULL);
	json_decref(rep);
	json_object_set_new(json_array_get(json_object_get(z, "connections"),
	    0), "inode", json_integer(0));
	rep = runpath_report(a, z, 2.0, NULL);
	s = json_string_value(json_object_get(rep, "summary"));
	T_TRUE(s != NULL && strstr(s, ", no process seen holding it (read "
	    "only as it closed)") != NULL);
	if (s != NULL)
		printf("# %s\n", s);
	json_decref(rep);
	json_decref(a);
	json_decref(z);
}

/* A later reading of a socket with no owner keeps the owner read before. */
static void
t_merge_owner(void)
{
	json_t	*seen, *snap, *c;

	seen = t_snap(1000.0, "192.0.2.10", json_array(), 1000);
	c = json_array_get(json_object_get(seen, "connections"), 0);
	json_object_set_new(c, "pid", json_integer(4242));
	json_object_set_new(c, "comm", json_string("ganesha.nfsd"));
	snap = t_snap(1001.0, "192.0.2.10", json_array(), 2000);
	runpath_merge(seen, snap);
	c = json_array_get(json_object_get(seen, "connections"), 0);
	T_EQ_INT(json_integer_value(json_object_get(c, "pid")), 4242);
	T_EQ_STR(json_string_value(json_object_get(c, "comm")),
	    "ganesha.nfsd");
	T_EQ_INT(json_integer_value(json_object_get(json_object_get(c, "tcp"),
	    "bytes_acked")), 2000);
	json_decref(seen);
	json_decref(snap);
}

/* A path on a ZFS dataset: the verdict's view names its pool. */
static void
t_view_zfs(void)
{
	struct verdict_path	 v;
	json_t			*rep;

	rep = json_pack("{s:b,s:[],s:[],s:[{s:s,s:s,s:s,s:s,s:s,s:[]}]}",
	    "observed", 1, "connections", "processes", "volumes", "mount",
	    "/mnt/tank/share", "fstype", "zfs", "device", "tank/share",
	    "dataset", "tank/share", "pool", "tank", "devices");
	runpath_view(rep, &v);
	T_TRUE(v.volume_seen && v.zfs);
	T_EQ_STR(v.pool, "tank");
	T_EQ_STR(v.volume, "/mnt/tank/share");
	T_EQ_INT(v.ndisks, 0);
	json_decref(rep);
}

/* Write text to dir/rel, making its directories. */
static void
t_file(const char *dir, const char *rel, const char *text)
{
	char	 path[4096], *slash;
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		(void)mkdir(path, 0755);
		*slash = '/';
	}
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) != 0) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/*
 * Unraid's user shares: smbd holds /mnt/user/Media/film.mkv open on
 * shfs (its mount laid out as Unraid's: shfs at /mnt/user, each data disk
 * at /mnt/diskN on its mdNp1, the cache pool at /mnt/cache); the volume
 * is the disk that holds the file, /mnt/disk2, not shfs.
 */
static void
t_user_share(void)
{
	struct probe_root	 root;
	struct topology		*t = topology_new();
	char			 dir[] = "/tmp/t_runpath.XXXXXX", cmd[64];
	json_t			*rep, *v;

	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	t_file(dir, "proc/self/mountinfo",
	    "22 1 0:21 / / rw,relatime - rootfs rootfs rw\n"
	    "40 22 9:1 / /mnt/disk1 rw,noatime - xfs /dev/md1p1 rw\n"
	    "41 22 9:2 / /mnt/disk2 rw,noatime - xfs /dev/md2p1 rw\n"
	    "42 22 0:44 / /mnt/cache rw,noatime - btrfs /dev/nvme0n1p1 rw\n"
	    "43 22 0:45 / /mnt/user rw,noatime - fuse.shfs shfs rw\n");
	t_file(dir, "mnt/disk1/Media/other.mkv", "x");
	t_file(dir, "mnt/disk2/Media/film.mkv", "x");
	T_OK(probe_root_open(&root, dir));
	T_OK(topology_read(&root, t));
	rep = json_pack("{s:b,s:[{s:s,s:s}],s:[],s:[]}", "observed", 1,
	    "files", "path", "/mnt/user/Media/film.mkv", "dev", "0:45",
	    "connections", "processes");
	runpath_volumes(rep, t, "smb3");
	v = json_array_get(json_object_get(rep, "volumes"), 0);
	T_EQ_STR(json_string_value(json_object_get(v, "mount")), "/mnt/disk2");
	T_EQ_STR(json_string_value(json_object_get(v, "fstype")), "xfs");
	if (json_is_string(json_object_get(v, "summary")))
		printf("# %s\n", json_string_value(json_object_get(v,
		    "summary")));
	json_decref(rep);
	/* A file no disk holds (it went meanwhile): shfs itself. */
	rep = json_pack("{s:b,s:[{s:s,s:s}],s:[],s:[]}", "observed", 1,
	    "files", "path", "/mnt/user/Media/gone.mkv", "dev", "0:45",
	    "connections", "processes");
	runpath_volumes(rep, t, "smb3");
	v = json_array_get(json_object_get(rep, "volumes"), 0);
	T_EQ_STR(json_string_value(json_object_get(v, "mount")), "/mnt/user");
	json_decref(rep);
	probe_root_close(&root);
	topology_free(t);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	T_EQ_INT(system(cmd), 0);
}

/*
 * A run over SMB while the same client reads an NFS export: the NFS
 * connection, its server and that server's files are set aside, not the
 * run's; a run that declared no protocol keeps them all.
 */
static void
t_other_protocol(void)
{
	json_t		*a, *z, *rep, *v;
	const char	*s;
	int		 k;

	for (k = 0; k < 2; k++) {
		json_t *snap[2];
		int	i;

		for (i = 0; i < 2; i++)
			snap[i] = json_pack("{s:f,s:s,s:[{s:s,s:i,s:s,s:s,s:i,"
			    "s:I,s:i,s:s,s:{s:I,s:I}},{s:s,s:i,s:s,s:s,s:i,s:I,"
			    "s:i,s:s,s:{s:I,s:I}}],s:[{s:i,s:s,s:I,s:i,s:[]},{s:i,"
			    "s:s,s:I,s:i,s:[]}],s:[{s:i,s:s,s:s,s:b},{s:i,s:s,"
			    "s:s,s:b}],"
			    "s:[]}", "time", 1000.0 + 2 * i, "client",
			    "192.0.2.10", "connections", "local", "192.0.2.1",
			    "lport", 445, "service", "smb", "remote",
			    "192.0.2.10", "rport", 50000, "inode",
			    (json_int_t)11, "pid", 10, "comm", "smbd", "tcp",
			    "bytes_acked", (json_int_t)(1000 + i * 50000000),
			    "bytes_received", (json_int_t)1000, "local",
			    "192.0.2.1", "lport", 2049, "service", "nfs",
			    "remote", "192.0.2.10", "rport", 812, "inode",
			    (json_int_t)12, "pid", 20, "comm", "ganesha.nfsd",
			    "tcp", "bytes_acked", (json_int_t)(1000 + i *
			    30000000), "bytes_received", (json_int_t)1000,
			    "processes", "pid", 10, "comm", "smbd", "ticks",
			    (json_int_t)(100 + 50 * i), "threads", 1,
			    "unavailable", "pid", 20, "comm", "ganesha.nfsd",
			    "ticks", (json_int_t)(100 + 90 * i), "threads", 1,
			    "unavailable",
			    "files", "pid", 10, "dev", "7:0", "path",
			    "/srv/share/film.mkv", "block", 0, "pid", 20, "dev",
			    "7:1", "path", "/srv/nfs/big", "block", 0,
			    "unavailable");
		a = snap[0];
		z = snap[1];
		T_TRUE(a != NULL && z != NULL);
		if (a == NULL || z == NULL)
			return;
		rep = runpath_report(a, z, 2.0, k == 0 ? "smb3" : NULL);
		T_TRUE(rep != NULL);
		if (k == 0) {
			T_EQ_INT((int)json_array_size(json_object_get(rep,
			    "connections")), 1);
			v = json_array_get(json_object_get(rep, "connections"),
			    0);
			T_EQ_STR(json_string_value(json_object_get(v,
			    "service")), "smb");
			T_NEAR(json_number_value(json_object_get(v,
			    "sent_bytes")), 50000000, 1);
			T_EQ_INT((int)json_array_size(json_object_get(rep,
			    "processes")), 1);
			v = json_array_get(json_object_get(rep, "processes"), 0);
			T_EQ_STR(json_string_value(json_object_get(v, "comm")),
			    "smbd");
			T_EQ_INT((int)json_array_size(json_object_get(rep,
			    "files")), 1);
			v = json_array_get(json_object_get(rep, "files"), 0);
			T_EQ_STR(json_string_value(json_object_get(v, "path")),
			    "/srv/share/film.mkv");
			v = json_object_get(rep, "set_aside");
			T_EQ_INT((int)json_integer_value(json_object_get(v,
			    "connections")), 1);
			T_EQ_STR(json_string_value(json_array_get(
			    json_object_get(v, "services"), 0)), "nfs");
			s = json_string_value(json_object_get(v, "why"));
			T_TRUE(s != NULL && strstr(s, "than the run's smb3") !=
			    NULL);
			s = json_string_value(json_object_get(rep, "summary"));
			T_TRUE(s != NULL && strstr(s, "ganesha") == NULL);
			if (s != NULL)
				printf("# %s\n", s);
		} else {
			T_EQ_INT((int)json_array_size(json_object_get(rep,
			    "connections")), 2);
			T_EQ_INT((int)json_array_size(json_object_get(rep,
			    "processes")), 2);
			T_EQ_INT((int)json_array_size(json_object_get(rep,
			    "files")), 2);
			T_TRUE(json_object_get(rep, "set_aside") == NULL);
		}
		json_decref(rep);
		json_decref(a);
		json_decref(z);
	}
}

int
main(void)
{
	t_knfsd();
	t_report();
	t_unheld();
	t_other_protocol();
	t_merge_owner();
	t_view_zfs();
	t_user_share();
	return (t_done());
}
