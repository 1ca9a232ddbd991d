/*
 * disktest.c: the disk analyzer: plans, safety checks, the step machine
 * over the disk benchmark engine, results and the capability baseline.
 *
 * A test is a list of steps (each zone of each disk, random reads at QD1
 * and QD32, all disks at once, then each volume's temp file written, read
 * and accessed at random).  The engine runs a step in its own threads;
 * a 200 ms evtimer polls it without blocking (diskbench_poll() takes no
 * lock) and, once it is done, collects it (diskbench_wait() then returns
 * at once) and starts the next.  Before the first step, other I/O on the
 * test's disks is measured over one second, again from a timer, and the
 * POST is answered only then.
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>

#include <jansson.h>

#include "cfg.h"
#include "daemon.h"
#include "diskbench.h"
#include "diskstats.h"
#include "disktest.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "state.h"
#include "topology.h"

#define DT_SUBDIR		"disktests"
#define DT_BASELINE	"baseline.json"
#define DT_ACTIVE	"disktest.active"	/* temp files being written */
#define DT_POLL_US	200000
#define DT_BUSY_US	1000000			/* other I/O measured over */
#define DT_MAX_DISKS	32
#define DT_MAX_VOLS	CFG_MAX_VOLUMES
#define DT_MAX_TARGETS	64
#define DT_NZONES	3
#define DT_MAX_STEPS	(DT_MAX_DISKS * (DT_NZONES + 2) + 1 + DT_MAX_VOLS * 4)
#define DT_RAND_BS	4096
#define DT_RAND_QD	32
#define DT_DEF_SIZE	(1ULL << 30)
#define DT_MIN_SIZE	(1ULL << 20)
#define DT_DEF_BS	(1ULL << 20)
#define DT_DEF_QD	4
#define DT_DEF_SECONDS	5.0
#define DT_MAX_SECONDS	600.0
#define DT_DEF_ZONE	(1ULL << 30)
#define DT_RESERVE_MIN	(16ULL << 20)		/* left free beyond the file */
#define DT_MAX_KEPT	256			/* finished tests in memory */

#define DT_SEQ		0x1
#define DT_RND		0x2

enum dt_state { DT_CHECKING, DT_RUNNING, DT_DONE, DT_FAILED, DT_CANCELLED };

static const char *const dt_state_names[] = {
	"checking", "running", "done", "failed", "cancelled"
};
static const char *const dt_zone_names[DT_NZONES] = {
	"outer", "middle", "inner"
};
static const char *const dt_vstep_names[] = {
	"write", "read", "rand_read", "rand_write"
};

enum dt_op { DT_ZONE, DT_RAND, DT_ALL, DT_VWRITE, DT_VREAD, DT_VRANDR,
	DT_VRANDW };

/* A disk under test. */
struct dt_disk {
	char		 name[BLOCKDEV_NAME_MAX];
	char		 dev[BLOCKDEV_NAME_MAX + 8];	/* /dev/NAME */
	uint64_t	 size;				/* bytes */
	char		 model[64], serial[64], rev[32];
	double		 zone_bps[DT_NZONES];		/* 0: not measured */
	double		 all_bps;			/* all disks at once */
	json_t		*zones[DT_NZONES];
	json_t		*rand[2];			/* QD1, QD32 */
	json_t		*all;
};

/* A volume under test. */
struct dt_volume {
	char		 path[CFG_VOLUME_MAX];
	char		 tmp[CFG_VOLUME_MAX + 32];
	char		 device[BLOCKDEV_NAME_MAX];
	char		 fstype[32];
	char		 layout[48];
	char		 members[DT_MAX_DISKS][BLOCKDEV_NAME_MAX];
	size_t		 disk[DT_MAX_DISKS];	/* index in disks[] */
	size_t		 nmembers;
	uint64_t	 laid_out;		/* bytes of the temp file */
	int		 direct;		/* -1 unknown */
	int		 dirfd;			/* the volume's directory, or -1 */
	int		 fd;			/* the temp file we made, or -1 */
	dev_t		 tmp_dev;		/* and its inode */
	ino_t		 tmp_ino;
	json_t		*res[4];		/* dt_vstep_names */
};

/* One step: an operation on a disk or a volume. */
struct dt_step {
	enum dt_op	 op;
	size_t		 idx;
	int		 zone;
	unsigned	 qd;
};

struct dt_test {
	struct disktest		*dt;
	unsigned long		 id;
	enum dt_state		 state;
	unsigned		 kind;		/* DT_SEQ | DT_RND */
	uint64_t		 size, bs, zone_bytes;
	unsigned		 qd;
	double			 seconds;	/* per step */
	int			 force;
	json_t			*request;
	json_t			*forced;	/* what was overridden */
	char			 kernel[64], firmware[96], box[64];

	struct dt_disk		 disks[DT_MAX_DISKS];
	size_t			 ndisks;
	struct dt_volume	 vols[DT_MAX_VOLS];
	size_t			 nvols;
	struct dt_step		 steps[DT_MAX_STEPS];
	size_t			 nsteps, step;

	struct diskbench	*db[DT_MAX_DISKS];	/* the step's runs */
	size_t			 ndb;
	struct event		*timer;
	http_done_cb	*cb;		/* answers the POST, once */
	void			*cbarg;
	struct diskstats	 ds0;		/* at the busy check's start */
	double			 mono0;

	double			 created, started, ended;	/* Unix */
	double			 cancel_mono;	/* 0: not cancelled */
	double			 cancel_s;	/* cancel to stopped, or -1 */
	char			 error[768];
};

/* A finished test, as saved. */
struct dt_saved {
	unsigned long	 id;
	json_t		*doc;
};

struct disktest {
	struct daemon	*d;
	char		 dir[4200];
	unsigned long	 next_id;
	json_t		*baseline;
	struct dt_test	*cur;
	struct dt_saved	*v;
	size_t		 n, cap;
};

static void	dt_tick_cb(evutil_socket_t, short, void *);
static void	dt_finish(struct dt_test *, enum dt_state);

/* A JSON number, or null when x is not finite or not positive. */
static json_t *
dt_real(double x)
{
	return (isfinite(x) && x > 0 ? json_real(x) : json_null());
}

/* Expected sequential throughput of a layout; see disktest.h. */
int
disktest_expected(const char *layout, const double *bps, size_t n,
    double *rd, double *wr)
{
	double	min, sum = 0;
	size_t	i;

	*rd = *wr = 0;
	if (strncmp(layout, "btrfs ", 6) == 0)
		layout += 6;
	if (n == 0)
		goto bad;
	min = bps[0];
	for (i = 0; i < n; i++) {
		sum += bps[i];
		if (bps[i] < min)
			min = bps[i];
	}
	/* Striped layouts go at the pace of their slowest member. */
	if (strcmp(layout, "raid0") == 0) {
		*rd = *wr = (double)n * min;
	} else if (strcmp(layout, "raid1") == 0 ||
	    strcmp(layout, "raid1c3") == 0 || strcmp(layout, "raid1c4") == 0) {
		/* One sequential reader is served by one mirror. */
		*rd = sum / (double)n;
		*wr = min;
	} else if (strcmp(layout, "raid10") == 0) {
		if (n < 2)
			goto bad;
		*rd = *wr = (double)(n / 2) * min;
	} else if (strcmp(layout, "raid4") == 0 ||
	    strcmp(layout, "raid5") == 0) {
		if (n < 2)
			goto bad;
		*rd = *wr = (double)(n - 1) * min;
	} else if (strcmp(layout, "raid6") == 0) {
		if (n < 3)
			goto bad;
		*rd = *wr = (double)(n - 2) * min;
	} else if (strcmp(layout, "dup") == 0) {
		*rd = sum / (double)n;
		*wr = *rd / 2;
	} else if (strcmp(layout, "linear") == 0 ||
	    strcmp(layout, "jbod") == 0 || strcmp(layout, "single") == 0) {
		/* A file lives on one member at a time. */
		*rd = *wr = sum / (double)n;
	} else
		goto bad;
	return (0);
bad:
	errno = EINVAL;
	return (-1);
}

/* Flag members more than pct % below the mean; see disktest.h. */
size_t
disktest_slow(const double *bps, size_t n, double pct, int *slow)
{
	double	sum = 0, mean;
	size_t	i, nslow = 0;

	for (i = 0; i < n; i++)
		sum += bps[i];
	mean = n > 0 ? sum / (double)n : 0;
	for (i = 0; i < n; i++) {
		slow[i] = n > 1 && bps[i] < mean * (1 - pct / 100);
		nslow += (size_t)slow[i];
	}
	return (nslow);
}

/* The disk called name in t, or NULL. */
static struct dt_disk *
dt_disk_find(struct dt_test *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->ndisks; i++)
		if (strcmp(t->disks[i].name, name) == 0)
			return (&t->disks[i]);
	return (NULL);
}

/* Add a whole device to the test (once); its index, or -1 when full. */
static int
dt_disk_add(struct dt_test *t, const struct blockdev *b)
{
	struct dt_disk	*k;

	if ((k = dt_disk_find(t, b->name)) != NULL)
		return ((int)(k - t->disks));
	if (t->ndisks == DT_MAX_DISKS)
		return (-1);
	k = &t->disks[t->ndisks];
	snprintf(k->name, sizeof k->name, "%s", b->name);
	snprintf(k->dev, sizeof k->dev, "/dev/%s", b->name);
	k->size = b->size_bytes;
	snprintf(k->model, sizeof k->model, "%s", b->model);
	snprintf(k->serial, sizeof k->serial, "%s", b->serial);
	snprintf(k->rev, sizeof k->rev, "%s", b->rev);
	return ((int)t->ndisks++);
}

/* The whole disk under a device (a partition's disk, an array's first). */
static const struct blockdev *
dt_leaf(const struct topology *topo, const char *name, int depth)
{
	const struct blockdev		*b;
	const struct blockdev_part	*p;

	if (depth > TOPOLOGY_STACK_MAX ||
	    (b = blockdev_find_any(&topo->block, name, &p)) == NULL)
		return (NULL);
	if (p != NULL || b->nslaves == 0)
		return (b);
	return (dt_leaf(topo, b->slaves[0], depth + 1));
}

/*
 * Parse and check the body into t; -1 with msg when a value is wrong.
 * Targets are left in t->request for dt_resolve().
 */
static int
dt_parse(const json_t *body, const struct cfg *cfg, struct dt_test *t,
    char *msg, size_t msgsz)
{
	static const char *const known[] = {
		"targets", "kind", "size", "block_size", "queue_depth",
		"seconds", "zone_bytes", "force"
	};
	const char	*key, *s;
	json_t		*v;
	size_t		 i;
	int		 found;

	json_object_foreach((json_t *)body, key, v) {
		for (found = 0, i = 0; i < NP_NITEMS(known); i++)
			found |= strcmp(key, known[i]) == 0;
		if (!found) {
			snprintf(msg, msgsz, "unknown key '%.40s' (known: "
			    "targets kind size block_size queue_depth seconds "
			    "zone_bytes force)", key);
			return (-1);
		}
	}
	t->kind = DT_SEQ | DT_RND;
	t->bs = DT_DEF_BS;
	t->qd = DT_DEF_QD;
	t->seconds = DT_DEF_SECONDS;
	t->zone_bytes = DT_DEF_ZONE;
	t->size = cfg->dt_max_bytes < DT_DEF_SIZE ? cfg->dt_max_bytes :
	    DT_DEF_SIZE;
	if ((v = json_object_get(body, "kind")) != NULL) {
		s = json_string_value(v);
		if (s != NULL && strcmp(s, "full") == 0)
			t->kind = DT_SEQ | DT_RND;
		else if (s != NULL && strcmp(s, "seq") == 0)
			t->kind = DT_SEQ;
		else if (s != NULL && strcmp(s, "random") == 0)
			t->kind = DT_RND;
		else {
			snprintf(msg, msgsz, "kind: expected full, seq or "
			    "random");
			return (-1);
		}
	}
	if ((v = json_object_get(body, "size")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) <
		    (json_int_t)DT_MIN_SIZE || (uint64_t)json_integer_value(v) >
		    cfg->dt_max_bytes) {
			snprintf(msg, msgsz, "size: expected an integer number "
			    "of bytes from %llu to %llu (disktest.max_bytes)",
			    (unsigned long long)DT_MIN_SIZE,
			    (unsigned long long)cfg->dt_max_bytes);
			return (-1);
		}
		t->size = (uint64_t)json_integer_value(v);
	}
	if ((v = json_object_get(body, "block_size")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 4096 ||
		    json_integer_value(v) > (json_int_t)DISKBENCH_MAX_BS ||
		    json_integer_value(v) % 4096 != 0) {
			snprintf(msg, msgsz, "block_size: expected a multiple "
			    "of 4096 from 4096 to %llu",
			    (unsigned long long)DISKBENCH_MAX_BS);
			return (-1);
		}
		t->bs = (uint64_t)json_integer_value(v);
	}
	if ((v = json_object_get(body, "zone_bytes")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) <
		    (json_int_t)DT_MIN_SIZE) {
			snprintf(msg, msgsz, "zone_bytes: expected an integer "
			    "from %llu", (unsigned long long)DT_MIN_SIZE);
			return (-1);
		}
		t->zone_bytes = (uint64_t)json_integer_value(v);
	}
	if ((v = json_object_get(body, "queue_depth")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > DISKBENCH_MAX_QD) {
			snprintf(msg, msgsz, "queue_depth: expected an integer "
			    "from 1 to %d", DISKBENCH_MAX_QD);
			return (-1);
		}
		t->qd = (unsigned)json_integer_value(v);
	}
	if ((v = json_object_get(body, "seconds")) != NULL) {
		double	x = json_number_value(v);

		if (!json_is_number(v) || !(x >= 1 && x <= DT_MAX_SECONDS)) {
			snprintf(msg, msgsz, "seconds: expected a number of "
			    "seconds per step from 1 to %.0f", DT_MAX_SECONDS);
			return (-1);
		}
		t->seconds = x;
	}
	if ((v = json_object_get(body, "force")) != NULL) {
		if (!json_is_boolean(v)) {
			snprintf(msg, msgsz, "force: expected true or false");
			return (-1);
		}
		t->force = json_is_true(v);
	}
	t->size -= t->size % t->bs;
	if (t->size < t->bs) {
		snprintf(msg, msgsz, "size: smaller than one block (%llu "
		    "bytes)", (unsigned long long)t->bs);
		return (-1);
	}
	if ((v = json_object_get(body, "targets")) != NULL &&
	    (!json_is_array(v) || json_array_size(v) > DT_MAX_TARGETS)) {
		snprintf(msg, msgsz, "targets: expected an array of at most %d "
		    "disk names, /dev paths or volume mount points",
		    DT_MAX_TARGETS);
		return (-1);
	}
	for (i = 0; v != NULL && i < json_array_size(v); i++) {
		s = json_string_value(json_array_get(v, i));
		if (s == NULL || *s == '\0' || strlen(s) >= CFG_VOLUME_MAX) {
			snprintf(msg, msgsz, "targets: item %zu is not a disk "
			    "name or a path", i);
			return (-1);
		}
	}
	return (0);
}

/* The configured volume equal to path (a trailing slash aside), or NULL. */
static const char *
dt_volume_conf(const struct cfg *cfg, const char *path)
{
	size_t	i, len = strlen(path);

	while (len > 1 && path[len - 1] == '/')
		len--;
	for (i = 0; i < cfg->dt_nvolumes; i++)
		if (strlen(cfg->dt_volumes[i]) == len &&
		    strncmp(cfg->dt_volumes[i], path, len) == 0)
			return (cfg->dt_volumes[i]);
	return (NULL);
}

/* Bytes free to an unprivileged writer at path; -1 and errno. */
static int
dt_free_bytes(const char *path, uint64_t *avail, uint64_t *total)
{
	struct statvfs	sv;

	if (statvfs(path, &sv) == -1)
		return (-1);
	*avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	*total = (uint64_t)sv.f_blocks * sv.f_frsize;
	return (0);
}

/* Whether the volume has room for the file and some to spare; -1 if not. */
static int
dt_check_space(const struct dt_test *t, const struct dt_volume *v,
    struct http_err *r)
{
	uint64_t	avail, total, reserve;

	if (dt_free_bytes(v->path, &avail, &total) == -1)
		return (http_fail(r, 400, "bad_volume", "%s: %s", v->path,
		    strerror(errno)));
	reserve = total / 100 > DT_RESERVE_MIN ? total / 100 : DT_RESERVE_MIN;
	if (avail < t->size || avail - t->size < reserve)
		return (http_fail(r, 507, "insufficient_space", "%s has %.1f "
		    "MB free; the test file needs %.1f MB and %.1f MB must "
		    "stay free: pass a smaller size", v->path, avail / 1e6,
		    t->size / 1e6, reserve / 1e6));
	return (0);
}

/* Add volume path (configured, a mount point) and its member disks. */
static int
dt_volume_add(NP_UNUSED struct daemon *d, const struct topology *topo,
    struct dt_test *t, const char *conf, struct http_err *r)
{
	struct topology_layer		 layers[TOPOLOGY_STACK_MAX];
	const struct mounts_entry	*me = NULL;
	const struct topology_layer	*ml = NULL;
	struct dt_volume		*v;
	const char			*dev;
	struct stat			 st;
	size_t				 i, nl;
	int				 k;

	for (i = 0; i < t->nvols; i++)
		if (strcmp(t->vols[i].path, conf) == 0)
			return (0);
	if (t->nvols == DT_MAX_VOLS)
		return (http_fail(r, 400, "bad_target", "too many volumes"));
	if (stat(conf, &st) == -1)
		return (http_fail(r, 400, "bad_target", "%s: %s", conf,
		    strerror(errno)));
	if (!S_ISDIR(st.st_mode))
		return (http_fail(r, 400, "bad_target", "%s: not a directory",
		    conf));
	/* The last mount on a path is the one in effect. */
	for (i = 0; i < topo->mounts.n; i++)
		if (strcmp(topo->mounts.v[i].mountpoint, conf) == 0)
			me = &topo->mounts.v[i];
	if (me == NULL)
		return (http_fail(r, 400, "not_mounted", "%s is not a mount "
		    "point: its volume is mounted elsewhere or not at all, "
		    "and the test file would land on the filesystem below",
		    conf));
	v = &t->vols[t->nvols];
	memset(v, 0, sizeof *v);
	v->direct = -1;
	v->dirfd = v->fd = -1;
	snprintf(v->path, sizeof v->path, "%s", conf);
	snprintf(v->tmp, sizeof v->tmp, "%s/%s", strcmp(conf, "/") == 0 ?
	    "" : conf, DISKTEST_TMPNAME);
	snprintf(v->fstype, sizeof v->fstype, "%s", me->fstype);
	if ((dev = topology_mount_device(topo, me)) == NULL)
		return (http_fail(r, 400, "bad_target", "%s: %s is not on a "
		    "block device", conf, me->fstype));
	snprintf(v->device, sizeof v->device, "%s", dev);
	nl = topology_stack(topo, dev, me->fstype, layers, TOPOLOGY_STACK_MAX);
	for (i = 0; i < nl && ml == NULL; i++) {
		if (strncmp(layers[i].kind, "btrfs ", 6) == 0)
			ml = &layers[i];
		else if ((strncmp(layers[i].kind, "raid", 4) == 0 ||
		    strcmp(layers[i].kind, "linear") == 0) && i + 1 < nl)
			ml = &layers[i + 1];
		if (ml != NULL)
			(void)probe_strlcpy(v->layout, layers[i].kind,
			    sizeof v->layout);
	}
	if (ml == NULL && nl > 0) {
		ml = &layers[nl - 1];
		snprintf(v->layout, sizeof v->layout, "%s", ml->n > 1 ?
		    "linear" : "single");
	}
	for (i = 0; ml != NULL && i < ml->n && v->nmembers < DT_MAX_DISKS;
	    i++) {
		const struct blockdev	*b;

		if ((b = dt_leaf(topo, ml->devices[i], 0)) == NULL)
			continue;
		if ((k = dt_disk_add(t, b)) == -1)
			return (http_fail(r, 400, "bad_target", "more than %d "
			    "disks", DT_MAX_DISKS));
		snprintf(v->members[v->nmembers], sizeof v->members[0], "%s",
		    ml->devices[i]);
		v->disk[v->nmembers++] = (size_t)k;
	}
	t->nvols++;
	log_debug("disktest: %s: %s on %s, %s over %zu disks", conf,
	    v->fstype, v->device, v->layout, v->nmembers);
	return (0);
}

/* Resolve one target into disks or a volume. */
static int
dt_target(struct daemon *d, const struct topology *topo, struct dt_test *t,
    const char *s, struct http_err *r)
{
	const struct blockdev		*b;
	const struct blockdev_part	*p;
	const char			*name = s, *conf;
	size_t				 i;

	/* A configured volume first: one may be mounted under /dev/shm. */
	if (s[0] == '/' && (conf = dt_volume_conf(d->cfg, s)) != NULL)
		return (dt_volume_add(d, topo, t, conf, r));
	if (strncmp(s, "/dev/", 5) == 0)
		name = s + 5;
	else if (s[0] == '/') {
		if ((conf = dt_volume_conf(d->cfg, s)) == NULL) {
			char	list[1024] = "";

			for (i = 0; i < d->cfg->dt_nvolumes; i++) {
				strncat(list, " ", sizeof list -
				    strlen(list) - 1);
				strncat(list, d->cfg->dt_volumes[i],
				    sizeof list - strlen(list) - 1);
			}
			return (http_fail(r, 400, "bad_target", "%.200s is "
			    "not in disktest.volumes, the volumes a test may "
			    "write to (%s)", s, list[0] != '\0' ? list + 1 :
			    "none are configured"));
		}
		return (dt_volume_add(d, topo, t, conf, r));
	}
	if ((b = blockdev_find_any(&topo->block, name, &p)) == NULL)
		return (http_fail(r, 400, "unknown_target", "unknown target "
		    "'%.100s': not a disk in %s/sys/block, nor a volume "
		    "path", s, d->root.path));
	if (p != NULL)
		return (http_fail(r, 400, "bad_target", "%.100s is a "
		    "partition of %s: name the disk", s, b->name));
	if (dt_disk_add(t, b) == -1)
		return (http_fail(r, 400, "bad_target", "more than %d disks",
		    DT_MAX_DISKS));
	return (0);
}

/* Refuse while an md array under the test's disks resyncs, unless forced. */
static int
dt_check_resync(const struct topology *topo, struct dt_test *t,
    struct http_err *r)
{
	const struct blockdev		*b;
	char				 why[256];
	size_t				 i, j;
	int				 involved;

	for (i = 0; i < topo->md.narrays; i++) {
		const struct mdstat_array	*a = &topo->md.arrays[i];

		if ((a->sync_action[0] == '\0' ||
		    strcmp(a->sync_action, "idle") == 0) && a->sync_pct < 0)
			continue;
		involved = dt_disk_find(t, a->name) != NULL;
		for (j = 0; j < a->nmembers && !involved; j++)
			involved = (b = dt_leaf(topo, a->members[j].name,
			    0)) != NULL && dt_disk_find(t, b->name) != NULL;
		if (!involved)
			continue;
		snprintf(why, sizeof why, "%s is in %s (%.1f %% done, %llu "
		    "KiB/s)", a->name, a->sync_action[0] != '\0' &&
		    strcmp(a->sync_action, "idle") != 0 ? a->sync_action :
		    "resync", a->sync_pct >= 0 ? a->sync_pct : 0,
		    (unsigned long long)a->sync_speed_kib);
		if (!t->force)
			return (http_fail(r, 409, "array_resyncing", "%s: a "
			    "test now would slow it down and measure neither; "
			    "retry when it has finished, or force", why));
		json_array_append_new(t->forced, json_string(why));
	}
	return (0);
}

/* Every disk's node must be a block device; volumes need room. */
static int
dt_check_devices(struct dt_test *t, struct http_err *r)
{
	struct stat	st;
	size_t		i;

	for (i = 0; i < t->ndisks; i++) {
		if (stat(t->disks[i].dev, &st) == -1)
			return (http_fail(r, 400, "bad_target", "%s: %s",
			    t->disks[i].dev, strerror(errno)));
		if (!S_ISBLK(st.st_mode))
			return (http_fail(r, 400, "bad_target", "%s is not a "
			    "block device", t->disks[i].dev));
	}
	for (i = 0; i < t->nvols; i++)
		if (dt_check_space(t, &t->vols[i], r) == -1)
			return (-1);
	return (0);
}

/* Plan the steps of t. */
static void
dt_plan(struct dt_test *t)
{
	struct dt_step	*s;
	size_t		 i;
	int		 z;

	t->nsteps = 0;
#define DT_ADD(o, x, zz, q) do {					\
	s = &t->steps[t->nsteps++];					\
	s->op = (o);							\
	s->idx = (x);							\
	s->zone = (zz);							\
	s->qd = (q);							\
} while (0)
	for (i = 0; i < t->ndisks; i++) {
		if (t->kind & DT_SEQ)
			for (z = 0; z < DT_NZONES; z++)
				DT_ADD(DT_ZONE, i, z, t->qd);
		if (t->kind & DT_RND) {
			DT_ADD(DT_RAND, i, 0, 1);
			DT_ADD(DT_RAND, i, 1, DT_RAND_QD);
		}
	}
	if ((t->kind & DT_SEQ) && t->ndisks > 1)
		DT_ADD(DT_ALL, 0, 0, t->qd);
	for (i = 0; i < t->nvols; i++) {
		DT_ADD(DT_VWRITE, i, 0, t->qd);
		if (t->kind & DT_SEQ)
			DT_ADD(DT_VREAD, i, 0, t->qd);
		if (t->kind & DT_RND) {
			DT_ADD(DT_VRANDR, i, 0, DT_RAND_QD);
			DT_ADD(DT_VRANDW, i, 0, DT_RAND_QD);
		}
	}
#undef DT_ADD
}

/* A step's name for progress and errors. */
static void
dt_step_label(const struct dt_test *t, const struct dt_step *s, char *out,
    size_t outsz)
{
	switch (s->op) {
	case DT_ZONE:
		snprintf(out, outsz, "%s sequential read, %s zone",
		    t->disks[s->idx].name, dt_zone_names[s->zone]);
		break;
	case DT_RAND:
		snprintf(out, outsz, "%s random 4 KiB read, QD%u",
		    t->disks[s->idx].name, s->qd);
		break;
	case DT_ALL:
		snprintf(out, outsz, "all %zu disks at once", t->ndisks);
		break;
	default:
		snprintf(out, outsz, "%s %s", t->vols[s->idx].path,
		    s->op == DT_VWRITE ? "sequential write" :
		    s->op == DT_VREAD ? "sequential read" :
		    s->op == DT_VRANDR ? "random 4 KiB read" :
		    "random 4 KiB write");
		break;
	}
}

/* Remove a volume's temp file if it is there; never follows a link. */
static void
dt_unlink_tmp(const char *tmp)
{
	struct stat	st;

	if (lstat(tmp, &st) == -1)
		return;
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		log_warnx("disktest: %s: not a regular file; left alone", tmp);
		return;
	}
	if (unlink(tmp) == -1)
		log_warn("disktest: %s", tmp);
	else
		log_debug("disktest: removed %s", tmp);
}

/*
 * Whether the temp file we hold open is still ours alone: a regular file
 * owned by us with one link, the one under its name.  A file renamed over
 * the name (our own then has no link), a hard link made to ours, or a
 * change of owner fails the test; we never write what someone else put
 * there.  -1 with t->error set.
 */
static int
dt_tmp_check(struct dt_test *t, const struct dt_volume *v, const char *label)
{
	struct stat	st;
	const char	*why = NULL;

	if (v->fd == -1)
		why = "there is none: the volume's write step did not make it";
	else if (fstat(v->fd, &st) == -1)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "it is not a regular file";
	else if (st.st_uid != geteuid())
		why = "another user owns it";
	else if (st.st_nlink == 0)
		why = "something else was put in its place";
	else if (st.st_nlink != 1)
		why = "it has gained a hard link";
	if (why == NULL)
		return (0);
	snprintf(t->error, sizeof t->error, "%s: the test file %s is no "
	    "longer ours alone (%s); nothing more is written to it", label,
	    v->tmp, why);
	return (-1);
}

/*
 * Close the volume's temp file and remove its name, relative to the
 * volume's directory and only if the name is still our file: a link or a
 * file someone put there instead is left alone and logged.
 */
static void
dt_tmp_close(struct dt_volume *v)
{
	struct stat	st;

	if (v->fd != -1) {
		if (fstatat(v->dirfd, DISKTEST_TMPNAME, &st,
		    AT_SYMLINK_NOFOLLOW) == 0) {
			if (st.st_dev != v->tmp_dev || st.st_ino != v->tmp_ino)
				log_warnx("disktest: %s: not the file this "
				    "test made; left alone", v->tmp);
			else if (unlinkat(v->dirfd, DISKTEST_TMPNAME, 0) == -1)
				log_warn("disktest: %s", v->tmp);
			else
				log_debug("disktest: removed %s", v->tmp);
		}
		close(v->fd);
		v->fd = -1;
	}
	if (v->dirfd != -1) {
		close(v->dirfd);
		v->dirfd = -1;
	}
}

/*
 * Make the volume's temp file: opened relative to a descriptor of the
 * volume's directory, created exclusively and never through a link, and
 * kept open for every later step, so that no path is opened again.  A
 * name left by a test that died is removed first (unlinkat(2) removes a
 * link, never what it points to).  -1 with t->error set.
 */
static int
dt_tmp_create(struct dt_test *t, struct dt_volume *v, const char *label)
{
	struct stat	st;

	dt_tmp_close(v);
	if ((v->dirfd = open(v->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		snprintf(t->error, sizeof t->error, "%s: %s: %s", label,
		    v->path, strerror(errno));
		return (-1);
	}
	if (fstatat(v->dirfd, DISKTEST_TMPNAME, &st, AT_SYMLINK_NOFOLLOW) ==
	    0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
	    unlinkat(v->dirfd, DISKTEST_TMPNAME, 0) == 0)
		log_info("disktest: removed %s before the test made its own",
		    v->tmp);
	v->fd = openat(v->dirfd, DISKTEST_TMPNAME, O_RDWR | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
	if (v->fd == -1) {
		snprintf(t->error, sizeof t->error, "%s: cannot create %s: %s%s",
		    label, v->tmp, strerror(errno), errno == EEXIST ?
		    " (something else took the name; the test writes only a "
		    "new file of its own)" : "");
		return (-1);
	}
	if (fstat(v->fd, &st) == -1) {
		snprintf(t->error, sizeof t->error, "%s: %s: %s", label,
		    v->tmp, strerror(errno));
		return (-1);
	}
	v->tmp_dev = st.st_dev;
	v->tmp_ino = st.st_ino;
	return (dt_tmp_check(t, v, label));
}

/* The zone region of a disk: offset and length, block-aligned. */
static void
dt_zone(const struct dt_test *t, const struct dt_disk *k, int zone,
    uint64_t *off, uint64_t *len)
{
	uint64_t	l = t->zone_bytes, size = k->size;

	if (l > size / DT_NZONES)
		l = size / DT_NZONES;
	l -= l % t->bs;
	*len = l;
	if (zone == 0)
		*off = 0;
	else if (zone == 1)
		*off = (size / 2) - (size / 2) % t->bs;
	else
		*off = (size - l) - (size - l) % t->bs;
}

/* Whether disk name has left sys/block or shrunk to nothing. */
static int
dt_gone(const struct daemon *d, const char *name)
{
	char		rel[64];
	uint64_t	sectors;

	snprintf(rel, sizeof rel, "block/%s/size", name);
	return (probe_attr_u64(&d->root, PROBE_SYS, rel, &sectors) == -1 ||
	    sectors == 0);
}

/* Start the runs of the current step; -1 with t->error set. */
static int
dt_step_start(struct dt_test *t)
{
	const struct dt_step	*s = &t->steps[t->step];
	struct diskbench_spec	 spec[DT_MAX_DISKS];
	struct http_err	 r;
	struct dt_volume	*v = NULL;
	char			*cause = NULL, label[128];
	size_t			 i, n = 1;

	memset(spec, 0, sizeof spec);
	for (i = 0; i < DT_MAX_DISKS; i++) {
		spec[i].engine = DISKBENCH_AUTO;
		spec[i].direct = 1;
		spec[i].max_seconds = t->seconds;
		spec[i].seed = t->id * 7919 + t->step;
		spec[i].block_size = t->bs;
		spec[i].queue_depth = s->qd;
		spec[i].pattern = DISKBENCH_SEQ;
		spec[i].dir = DISKBENCH_READ;
		spec[i].is_raw_device = 1;
	}
	dt_step_label(t, s, label, sizeof label);
	if (s->op >= DT_VWRITE) {
		v = &t->vols[s->idx];
		spec[0].is_raw_device = 0;
		spec[0].path = v->tmp;
		spec[0].length = v->laid_out - v->laid_out % t->bs;
	}
	switch (s->op) {
	case DT_ZONE:
		spec[0].path = t->disks[s->idx].dev;
		dt_zone(t, &t->disks[s->idx], s->zone, &spec[0].offset,
		    &spec[0].length);
		break;
	case DT_RAND:
		spec[0].path = t->disks[s->idx].dev;
		spec[0].pattern = DISKBENCH_RAND;
		spec[0].block_size = DT_RAND_BS;
		break;
	case DT_ALL:
		n = t->ndisks;
		for (i = 0; i < n; i++) {
			spec[i].path = t->disks[i].dev;
			dt_zone(t, &t->disks[i], 0, &spec[i].offset,
			    &spec[i].length);
		}
		break;
	case DT_VWRITE:
		/* The free space again: it may have gone since the POST. */
		if (dt_check_space(t, v, &r) == -1) {
			snprintf(t->error, sizeof t->error, "%s", r.msg);
			return (-1);
		}
		if (dt_tmp_create(t, v, label) == -1)
			return (-1);
		/*
		 * A new file written once, as a copy to the NAS writes it:
		 * over at its size or at the step's seconds, never wrapping
		 * round to overwrite blocks already allocated.
		 */
		spec[0].dir = DISKBENCH_WRITE;
		spec[0].length = t->size;
		spec[0].max_bytes = t->size;
		break;
	case DT_VREAD:
		break;
	case DT_VRANDR:
	case DT_VRANDW:
		spec[0].pattern = DISKBENCH_RAND;
		spec[0].block_size = DT_RAND_BS;
		spec[0].length = v->laid_out - v->laid_out % DT_RAND_BS;
		if (s->op == DT_VRANDW)
			spec[0].dir = DISKBENCH_WRITE;
		break;
	}
	if (v != NULL) {
		/* Every step on the descriptor made above, never the path. */
		if (dt_tmp_check(t, v, label) == -1)
			return (-1);
		spec[0].use_fd = 1;
		spec[0].fd = v->fd;
	}
	log_debug("disktest %lu: step %zu/%zu: %s", t->id, t->step + 1,
	    t->nsteps, label);
	for (i = 0; i < n; i++) {
		if ((t->db[i] = diskbench_start(&spec[i], &cause)) == NULL) {
			snprintf(t->error, sizeof t->error, "%s: %s%s", label,
			    spec[i].is_raw_device && dt_gone(t->dt->d,
			    spec[i].path + 5) ? "the device has gone "
			    "(detached or removed) during the test: " : "",
			    cause != NULL ? cause : strerror(errno));
			free(cause);
			return (-1);
		}
		t->ndb = i + 1;
	}
	return (0);
}

/* A run's result as JSON. */
static json_t *
dt_result_json(const struct diskbench_result *res)
{
	json_t	*ps, *o;
	size_t	 i;

	if ((ps = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < res->nper_second; i++)
		json_array_append_new(ps, json_real(res->per_second[i]));
	o = json_pack("{s:I,s:I,s:f,s:o,s:o,s:{s:f,s:f,s:f,s:f,s:f,s:f},s:b,"
	    "s:s,s:o}", "bytes", (json_int_t)res->bytes, "ios",
	    (json_int_t)res->ios, "seconds", res->seconds, "bytes_per_s",
	    dt_real(res->bytes_per_s), "iops", dt_real(res->iops), "lat_us",
	    "p50", res->lat_us_p50, "p90", res->lat_us_p90, "p99",
	    res->lat_us_p99, "p999", res->lat_us_p999, "max", res->lat_us_max,
	    "mean", res->lat_us_mean, "direct", res->direct_used, "engine",
	    res->engine_used == DISKBENCH_AIO ? "aio" : "threads",
	    "per_second", ps);
	return (o);
}

/* Collect the finished runs of the current step; -1 on a failed I/O. */
static int
dt_step_collect(struct dt_test *t, int *cancelled)
{
	const struct dt_step	*s = &t->steps[t->step];
	struct diskbench_result	 res;
	struct dt_volume	*v;
	struct dt_disk		*k;
	struct stat		 st;
	json_t			*j;
	char			 label[128];
	size_t			 i;
	int			 rc = 0;

	dt_step_label(t, s, label, sizeof label);
	for (i = 0; i < t->ndb; i++) {
		memset(&res, 0, sizeof res);
		if (diskbench_wait(t->db[i], &res) == -1 && rc == 0) {
			snprintf(t->error, sizeof t->error, "%s: %s: %s",
			    label, res.errstr != NULL ? res.errstr : "I/O "
			    "failed", strerror(res.error != 0 ? res.error :
			    errno));
			rc = -1;
		}
		*cancelled |= res.cancelled;
		j = dt_result_json(&res);
		k = &t->disks[s->op == DT_ALL ? i : s->idx];
		switch (s->op) {
		case DT_ZONE:
			k->zone_bps[s->zone] = res.bytes_per_s;
			json_decref(k->zones[s->zone]);
			k->zones[s->zone] = j;
			break;
		case DT_RAND:
			json_decref(k->rand[s->zone]);
			k->rand[s->zone] = j;
			break;
		case DT_ALL:
			k->all_bps = res.bytes_per_s;
			json_decref(k->all);
			k->all = j;
			break;
		default:
			v = &t->vols[s->idx];
			json_decref(v->res[s->op - DT_VWRITE]);
			v->res[s->op - DT_VWRITE] = j;
			if (s->op == DT_VWRITE || v->direct == -1)
				v->direct = res.direct_used;
			break;
		}
		diskbench_free(t->db[i]);
		t->db[i] = NULL;
	}
	t->ndb = 0;
	if (rc == 0 && !*cancelled && s->op == DT_VWRITE) {
		v = &t->vols[s->idx];
		if (dt_tmp_check(t, v, label) == -1)
			return (-1);
		if (fstat(v->fd, &st) == -1 || (uint64_t)st.st_size < t->bs) {
			snprintf(t->error, sizeof t->error, "%s: the test file "
			    "was not laid out", label);
			return (-1);
		}
		v->laid_out = (uint64_t)st.st_size;
	}
	return (rc);
}

/* The expected figures and efficiency of a volume, as JSON. */
static json_t *
dt_volume_expected(const struct dt_test *t, const struct dt_volume *v)
{
	const struct dt_disk	*k;
	double			 bps[DT_MAX_DISKS], rd, wr, mr, mw;
	size_t			 i;
	int			 all = 1;

	for (i = 0; i < v->nmembers; i++) {
		k = &t->disks[v->disk[i]];
		all &= k->all_bps > 0;
		if ((bps[i] = k->zone_bps[0]) <= 0)
			return (json_null());
	}
	/* The figures read all at once include a controller's ceiling. */
	for (i = 0; all && t->ndisks > 1 && i < v->nmembers; i++)
		bps[i] = t->disks[v->disk[i]].all_bps;
	if (disktest_expected(v->layout, bps, v->nmembers, &rd, &wr) == -1)
		return (json_null());
	mr = v->res[1] != NULL ? json_real_value(json_object_get(v->res[1],
	    "bytes_per_s")) : 0;
	mw = v->res[0] != NULL ? json_real_value(json_object_get(v->res[0],
	    "bytes_per_s")) : 0;
	return (json_pack("{s:o,s:o,s:s,s:{s:o,s:o}}", "read_bytes_per_s",
	    dt_real(rd), "write_bytes_per_s", dt_real(wr), "basis",
	    all && t->ndisks > 1 ? "members' outer-zone sequential reads, "
	    "all disks at once, and the layout" : "members' outer-zone "
	    "sequential reads, one disk at a time, and the layout",
	    "efficiency", "read", mr > 0 ? dt_real(mr / rd) : json_null(),
	    "write", mw > 0 ? dt_real(mw / wr) : json_null()));
}

/* The whole document of a test, live or finished. */
static json_t *
dt_doc(struct dt_test *t)
{
	struct diskbench_progress	 p;
	const struct dt_disk		*k;
	const struct dt_volume		*v;
	json_t				*doc, *disks, *vols, *o, *m, *z, *sl;
	double				 bps[DT_MAX_DISKS], frac, cur = 0;
	double				 sum1 = 0, sumall = 0, secs = 0;
	char				 label[128] = "";
	int				 slow[DT_MAX_DISKS], cnt[DT_MAX_DISKS];
	int				 flagged[DT_MAX_DISKS];
	size_t				 i, j, zz;

	memset(flagged, 0, sizeof flagged);
	memset(cnt, 0, sizeof cnt);
	/* A member more than 8 % below its array's mean is slow. */
	for (i = 0; i < t->nvols; i++) {
		v = &t->vols[i];
		for (j = 0; j < v->nmembers; j++)
			if ((bps[j] = t->disks[v->disk[j]].zone_bps[0]) <= 0)
				break;
		if (j < v->nmembers || v->nmembers < 2)
			continue;
		disktest_slow(bps, v->nmembers, DISKTEST_SLOW_PCT, slow);
		for (j = 0; j < v->nmembers; j++) {
			flagged[v->disk[j]] |= slow[j];
			cnt[v->disk[j]]++;
		}
	}
	disks = json_array();
	for (i = 0; i < t->ndisks; i++) {
		k = &t->disks[i];
		z = json_object();
		for (zz = 0; zz < DT_NZONES; zz++)
			json_object_set(z, dt_zone_names[zz], k->zones[zz] !=
			    NULL ? k->zones[zz] : json_null());
		o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:o,s:O?,s:O?,s:O?,"
		    "s:o}", "name", k->name, "device", k->dev, "model",
		    k->model, "serial", k->serial, "firmware", k->rev,
		    "size_bytes", (json_int_t)k->size, "zones", z, "rand_qd1",
		    k->rand[0], "rand_qd32", k->rand[1], "concurrent", k->all,
		    "slow", cnt[i] > 0 ? json_boolean(flagged[i]) :
		    json_null());
		json_array_append_new(disks, o);
		sum1 += k->zone_bps[0];
		sumall += k->all_bps;
	}
	vols = json_array();
	for (i = 0; i < t->nvols; i++) {
		v = &t->vols[i];
		m = json_array();
		sl = json_array();
		for (j = 0; j < v->nmembers; j++) {
			json_array_append_new(m, json_pack("{s:s,s:s}",
			    "member", v->members[j], "disk",
			    t->disks[v->disk[j]].name));
			if (flagged[v->disk[j]])
				json_array_append_new(sl, json_string(
				    t->disks[v->disk[j]].name));
		}
		o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o}", "path",
		    v->path, "device", v->device, "fstype", v->fstype,
		    "layout", v->layout, "members", m, "slow_members", sl,
		    "direct", v->direct == -1 ? json_null() :
		    json_boolean(v->direct), "cache", v->direct == -1 ?
		    json_null() : json_string(v->direct ? "O_DIRECT: the "
		    "page cache was bypassed" : "no O_DIRECT on this "
		    "filesystem: writes ended with fdatasync, the file's "
		    "cached pages were dropped (POSIX_FADV_DONTNEED) before "
		    "each read"));
		for (j = 0; j < NP_NITEMS(dt_vstep_names); j++)
			json_object_set(o, dt_vstep_names[j], v->res[j] !=
			    NULL ? v->res[j] : json_null());
		json_object_set_new(o, "expected", dt_volume_expected(t, v));
		json_array_append_new(vols, o);
	}
	if (t->state == DT_RUNNING && t->step < t->nsteps) {
		dt_step_label(t, &t->steps[t->step], label, sizeof label);
		for (i = 0; i < t->ndb; i++) {
			if (diskbench_poll(t->db[i], &p) == 0) {
				cur += p.bytes_per_s;
				secs = p.seconds;
			}
		}
	}
	frac = t->nsteps == 0 ? 0 : ((double)t->step + (secs < t->seconds ?
	    secs / t->seconds : 1)) / (double)t->nsteps;
	if (t->state == DT_DONE)
		frac = 1;
	doc = json_pack("{s:I,s:s,s:f,s:o,s:o,s:O,s:O,s:s,s:s,s:s,"
	    "s:{s:I,s:I,s:s,s:f,s:o},s:o,s:o,s:o,s:o,s:o}",
	    "id", (json_int_t)t->id, "state", dt_state_names[t->state],
	    "created", t->created, "started", dt_real(t->started), "ended",
	    dt_real(t->ended), "request", t->request, "forced", t->forced,
	    "kernel", t->kernel, "firmware", t->firmware, "box", t->box,
	    "progress", "step", (json_int_t)(t->step < t->nsteps ? t->step +
	    1 : t->nsteps), "steps", (json_int_t)t->nsteps, "label", label,
	    "fraction", frac, "bytes_per_s", dt_real(cur),
	    "disks", disks, "concurrent", t->ndisks > 1 && sumall > 0 ?
	    json_pack("{s:f,s:f,s:f}", "sum_individual_bytes_per_s", sum1,
	    "sum_concurrent_bytes_per_s", sumall, "ratio", sum1 > 0 ?
	    sumall / sum1 : 0) : json_null(), "volumes", vols, "error",
	    t->error[0] != '\0' ? json_string(t->error) : json_null(),
	    "cancel_to_stop_s", t->cancel_s >= 0 ? json_real(t->cancel_s) :
	    json_null());
	return (doc);
}

/* Save a document as DIR/ID.json. */
static int
dt_save(struct disktest *dt, unsigned long id, const json_t *doc)
{
	char	name[64], *s;
	int	rc;

	snprintf(name, sizeof name, "%lu.json", id);
	if ((s = json_dumps(doc, JSON_COMPACT)) == NULL) {
		errno = ENOMEM;
		return (-1);
	}
	rc = state_write(dt->dir, name, s, strlen(s), 0600);
	free(s);
	return (rc);
}

/* Keep a finished document in memory (the oldest goes past the cap). */
static void
dt_keep(struct disktest *dt, unsigned long id, json_t *doc)
{
	struct dt_saved	*v;

	if (dt->n == DT_MAX_KEPT) {
		json_decref(dt->v[0].doc);
		memmove(dt->v, dt->v + 1, (dt->n - 1) * sizeof *dt->v);
		dt->n--;
	}
	if (dt->n == dt->cap) {
		size_t	ncap = dt->cap == 0 ? 16 : dt->cap * 2;

		if ((v = reallocarray(dt->v, ncap, sizeof *v)) == NULL) {
			json_decref(doc);
			return;
		}
		dt->v = v;
		dt->cap = ncap;
	}
	dt->v[dt->n].id = id;
	dt->v[dt->n++].doc = doc;
	if (id >= dt->next_id)
		dt->next_id = id + 1;
}

/* Set key of object o to x when x was measured. */
static void
dt_set_pos(json_t *o, const char *key, double x)
{
	if (isfinite(x) && x > 0)
		json_object_set_new(o, key, json_real(x));
}

/* The entry called key of object o, made when missing. */
static json_t *
dt_child(json_t *o, const char *key)
{
	json_t	*c = json_object_get(o, key);

	if (!json_is_object(c)) {
		c = json_object();
		json_object_set_new(o, key, c);
	}
	return (c);
}

/* A number member of a run's JSON, or 0. */
static double
dt_num(const json_t *run, const char *key)
{
	return (json_number_value(json_object_get(run, key)));
}

/* Merge a finished test's figures into the baseline and save it. */
static void
dt_baseline_merge(struct disktest *dt, struct dt_test *t, const json_t *doc)
{
	const struct dt_disk	*k;
	const struct dt_volume	*v;
	const json_t		*ex;
	json_t			*b, *e, *z;
	char			*s;
	size_t			 i, j;
	int			 zz;

	if ((b = dt->baseline) == NULL && (b = dt->baseline =
	    json_object()) == NULL)
		return;
	json_object_set_new(b, "updated", json_real(t->ended));
	json_object_set_new(b, "kernel", json_string(t->kernel));
	json_object_set_new(b, "firmware", json_string(t->firmware));
	json_object_set_new(b, "box", json_string(t->box));
	for (i = 0; i < t->ndisks; i++) {
		k = &t->disks[i];
		e = dt_child(dt_child(b, "disks"), k->name);
		json_object_set_new(e, "date", json_real(t->ended));
		json_object_set_new(e, "test", json_integer((json_int_t)t->id));
		json_object_set_new(e, "model", json_string(k->model));
		json_object_set_new(e, "serial", json_string(k->serial));
		json_object_set_new(e, "firmware", json_string(k->rev));
		json_object_set_new(e, "size_bytes",
		    json_integer((json_int_t)k->size));
		if (k->zone_bps[0] > 0) {
			z = dt_child(e, "seq_read_bytes_per_s");
			for (zz = 0; zz < DT_NZONES; zz++)
				dt_set_pos(z, dt_zone_names[zz],
				    k->zone_bps[zz]);
		}
		dt_set_pos(e, "concurrent_read_bytes_per_s", k->all_bps);
		for (j = 0; j < 2; j++)
			if (k->rand[j] != NULL)
				dt_set_pos(e, j == 0 ? "rand_read_iops_qd1" :
				    "rand_read_iops_qd32", dt_num(k->rand[j],
				    "iops"));
	}
	for (i = 0; i < t->nvols; i++) {
		v = &t->vols[i];
		e = dt_child(dt_child(b, "volumes"), v->path);
		json_object_set_new(e, "date", json_real(t->ended));
		json_object_set_new(e, "test", json_integer((json_int_t)t->id));
		json_object_set_new(e, "layout", json_string(v->layout));
		json_object_set_new(e, "fstype", json_string(v->fstype));
		json_object_set_new(e, "direct", json_boolean(v->direct == 1));
		if (v->res[0] != NULL)
			dt_set_pos(e, "seq_write_bytes_per_s",
			    dt_num(v->res[0], "bytes_per_s"));
		if (v->res[1] != NULL)
			dt_set_pos(e, "seq_read_bytes_per_s",
			    dt_num(v->res[1], "bytes_per_s"));
		if (v->res[2] != NULL)
			dt_set_pos(e, "rand_read_iops_qd32",
			    dt_num(v->res[2], "iops"));
		if (v->res[3] != NULL)
			dt_set_pos(e, "rand_write_iops_qd32",
			    dt_num(v->res[3], "iops"));
		ex = json_object_get(json_array_get(json_object_get(doc,
		    "volumes"), i), "expected");
		if (json_is_object(ex)) {
			dt_set_pos(e, "expected_read_bytes_per_s",
			    dt_num(ex, "read_bytes_per_s"));
			dt_set_pos(e, "expected_write_bytes_per_s",
			    dt_num(ex, "write_bytes_per_s"));
		}
	}
	if ((s = json_dumps(b, JSON_INDENT(1) | JSON_SORT_KEYS)) == NULL)
		return;
	if (state_write(dt->d->state_dir, DT_BASELINE, s, strlen(s),
	    0600) == -1)
		log_warn("disktest: %s/%s", dt->d->state_dir, DT_BASELINE);
	free(s);
}

/* Free a test that is over or never started. */
static void
dt_test_free(struct dt_test *t)
{
	size_t	i, j;

	if (t == NULL)
		return;
	if (t->timer != NULL)
		event_free(t->timer);
	for (i = 0; i < t->ndb; i++)
		diskbench_free(t->db[i]);
	diskstats_clear(&t->ds0);
	for (i = 0; i < t->ndisks; i++) {
		for (j = 0; j < DT_NZONES; j++)
			json_decref(t->disks[i].zones[j]);
		json_decref(t->disks[i].rand[0]);
		json_decref(t->disks[i].rand[1]);
		json_decref(t->disks[i].all);
	}
	for (i = 0; i < t->nvols; i++) {
		dt_tmp_close(&t->vols[i]);
		for (j = 0; j < NP_NITEMS(t->vols[i].res); j++)
			json_decref(t->vols[i].res[j]);
	}
	json_decref(t->request);
	json_decref(t->forced);
	free(t);
}

/* End the test: temp files out, result saved, baseline updated. */
static void
dt_finish(struct dt_test *t, enum dt_state state)
{
	struct disktest	*dt = t->dt;
	char		 path[4300];
	json_t		*doc;
	size_t		 i;

	if (t->timer != NULL)
		event_del(t->timer);
	for (i = 0; i < t->ndb; i++) {
		diskbench_free(t->db[i]);	/* cancels and joins */
		t->db[i] = NULL;
	}
	t->ndb = 0;
	for (i = 0; i < t->nvols; i++)
		dt_tmp_close(&t->vols[i]);
	snprintf(path, sizeof path, "%s/%s", dt->d->state_dir, DT_ACTIVE);
	if (unlink(path) == -1 && errno != ENOENT)
		log_warn("disktest: %s", path);
	t->state = state;
	t->ended = nptime_real();
	if (t->cancel_mono > 0)
		t->cancel_s = nptime_mono() - t->cancel_mono;
	if ((doc = dt_doc(t)) == NULL) {
		log_warnx("disktest %lu: out of memory", t->id);
	} else {
		if (dt_save(dt, t->id, doc) == -1)
			log_warn("disktest: %s/%lu.json", dt->dir, t->id);
		if (state == DT_DONE)
			dt_baseline_merge(dt, t, doc);
		dt_keep(dt, t->id, doc);
	}
	if (state == DT_FAILED)
		log_warnx("disk test %lu failed: %s", t->id, t->error);
	else
		log_info("disk test %lu %s", t->id, dt_state_names[state]);
	dt->cur = NULL;
	dt_test_free(t);
}

/* Every 200 ms: once the step's runs are over, collect them, go on. */
static void
dt_tick_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct dt_test			*t = arg;
	struct diskbench_progress	 p;
	size_t				 i;
	int				 cancelled = 0;

	for (i = 0; i < t->ndb; i++)
		if (diskbench_poll(t->db[i], &p) == 0 && !p.done)
			return;
	if (dt_step_collect(t, &cancelled) == -1) {
		dt_finish(t, DT_FAILED);
		return;
	}
	if (cancelled || t->cancel_mono > 0) {
		dt_finish(t, DT_CANCELLED);
		return;
	}
	if (++t->step == t->nsteps) {
		dt_finish(t, DT_DONE);
		return;
	}
	if (dt_step_start(t) == -1)
		dt_finish(t, DT_FAILED);
}

/* Record the temp files about to be written, for the next start. */
static int
dt_mark_active(struct dt_test *t)
{
	char	buf[DT_MAX_VOLS * (CFG_VOLUME_MAX + 40)];
	size_t	i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < t->nvols; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s\n",
		    t->vols[i].tmp);
	if (len == 0)
		return (0);
	return (state_write(t->dt->d->state_dir, DT_ACTIVE, buf, len, 0600));
}

/* Answer the POST that started t, once: doc (stolen) or the refusal e. */
static void
dt_answer(struct dt_test *t, json_t *doc, const struct http_err *e)
{
	http_done_cb	*cb = t->cb;

	t->cb = NULL;
	if (cb != NULL)
		cb(doc, e, t->cbarg);
	else
		json_decref(doc);
}

/* Refuse the POST that started t, and free t. */
static NP_PRINTF(4, 5) void
dt_refused(struct dt_test *t, int status, const char *code,
    const char *fmt, ...)
{
	struct http_err	e;
	va_list		ap;

	e.status = status;
	snprintf(e.code, sizeof e.code, "%s", code);
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof e.msg, fmt, ap);
	va_end(ap);
	dt_answer(t, NULL, &e);
	if (t->dt->cur == t)
		t->dt->cur = NULL;
	dt_test_free(t);
}

/* Start the first step and answer the POST. */
static void
dt_run(struct dt_test *t)
{
	struct disktest		*dt = t->dt;
	struct timeval		 tv = { 0, DT_POLL_US };
	http_done_cb	*cb;
	void			*cbarg;
	json_t			*doc;

	dt_plan(t);
	if (t->nsteps == 0) {
		dt_refused(t, 400, "nothing_to_do", "no step in this plan");
		return;
	}
	if (dt_mark_active(t) == -1) {
		dt_refused(t, 500, "not_saved", "%s/%s: %s", dt->d->state_dir,
		    DT_ACTIVE, strerror(errno));
		return;
	}
	dt->next_id = t->id + 1;
	t->state = DT_RUNNING;
	t->started = nptime_real();
	/* The busy check's timer; none when that check is off. */
	if (t->timer != NULL)
		event_free(t->timer);
	if ((t->timer = event_new(dt->d->base, -1, EV_PERSIST, dt_tick_cb,
	    t)) == NULL || event_add(t->timer, &tv) == -1) {
		dt_refused(t, 500, "internal", "cannot add a timer");
		return;
	}
	log_info("disk test %lu: %zu disks, %zu volumes, %zu steps of %.0f s%s",
	    t->id, t->ndisks, t->nvols, t->nsteps, t->seconds,
	    json_array_size(t->forced) > 0 ? ", forced" : "");
	if (dt_step_start(t) == -1) {
		/* Failed at once (a device gone): the saved result says why. */
		cb = t->cb;
		cbarg = t->cbarg;
		t->cb = NULL;
		dt_finish(t, DT_FAILED);
		doc = dt->n > 0 ? json_incref(dt->v[dt->n - 1].doc) : NULL;
		if (cb != NULL)
			cb(doc, NULL, cbarg);
		else
			json_decref(doc);
		return;
	}
	doc = dt_doc(t);
	if (doc != NULL)
		dt_save(dt, t->id, doc);
	dt_answer(t, doc, NULL);
}

/* The I/O other than ours on the disks over the check: refuse if busy. */
static void
dt_busy_cb(NP_UNUSED evutil_socket_t fd, NP_UNUSED short what, void *arg)
{
	struct dt_test			*t = arg;
	struct disktest			*dt = t->dt;
	const struct cfg		*cfg = dt->d->cfg;
	const struct diskstats_dev	*a, *b;
	struct diskstats		 ds;
	struct probe_buf		 buf;
	double				 dts = nptime_mono() - t->mono0, iops, mbps;
	char				 why[256];
	size_t				 i;

	diskstats_init(&ds);
	probe_buf_init(&buf);
	if (diskstats_read(&dt->d->root, &buf, &ds, NULL) == -1)
		goto run;
	for (i = 0; i < t->ndisks && dts > 0; i++) {
		if ((a = diskstats_find(&t->ds0, t->disks[i].name)) == NULL ||
		    (b = diskstats_find(&ds, t->disks[i].name)) == NULL)
			continue;
		iops = (double)(b->rd_ios - a->rd_ios + b->wr_ios -
		    a->wr_ios) / dts;
		mbps = (double)(b->rd_sectors - a->rd_sectors +
		    b->wr_sectors - a->wr_sectors) * 512 / 1e6 / dts;
		if ((cfg->dt_busy_iops == 0 || iops <= cfg->dt_busy_iops) &&
		    (cfg->dt_busy_mbps == 0 || mbps <= cfg->dt_busy_mbps))
			continue;
		snprintf(why, sizeof why, "%s is busy with other I/O: %.0f "
		    "I/O/s and %.1f MB/s over the last %.1f s (limits: "
		    "disktest.busy_iops %u, disktest.busy_mbps %u)",
		    t->disks[i].name, iops, mbps, dts, cfg->dt_busy_iops,
		    cfg->dt_busy_mbps);
		if (!t->force) {
			log_info("disk test refused: %s", why);
			dt_refused(t, 409, "disk_busy", "%s; retry when it "
			    "is idle, or force", why);
			goto out;
		}
		json_array_append_new(t->forced, json_string(why));
	}
run:
	dt_run(t);
out:
	diskstats_clear(&ds);
	probe_buf_free(&buf);
}

/* Start a test of what body asks for; see disktest.h. */
int
disktest_start(struct daemon *d, json_t *body, http_done_cb *cb,
    void *arg, struct http_err *e)
{
	struct disktest		*dt = d->disktest;
	struct topology		*topo = NULL;
	struct dt_test		*t = NULL;
	struct probe_buf	 buf;
	struct timeval		 tv = { 0, DT_BUSY_US };
	const json_t		*targets;
	char			 msg[512];
	size_t			 i;
	int			 rc = -1;

	probe_buf_init(&buf);
	if (dt->cur != NULL) {
		http_fail(e, 409, "busy", "disk test %lu is %s; one at a "
		    "time (DELETE /v1/disktests/%lu cancels it)", dt->cur->id,
		    dt_state_names[dt->cur->state], dt->cur->id);
		goto out;
	}
	if ((t = calloc(1, sizeof *t)) == NULL ||
	    (t->forced = json_array()) == NULL ||
	    (topo = topology_new()) == NULL) {
		http_fail(e, 500, "internal", "out of memory");
		goto out;
	}
	t->dt = dt;
	t->id = dt->next_id;
	t->cancel_s = -1;
	t->created = nptime_real();
	t->request = json_incref(body);
	diskstats_init(&t->ds0);
	if (dt_parse(body, d->cfg, t, msg, sizeof msg) == -1) {
		http_fail(e, 400, "bad_request", "%s", msg);
		goto out;
	}
	topology_read(&d->root, topo);
	snprintf(t->kernel, sizeof t->kernel, "%s", topo->identity.kernel);
	snprintf(t->firmware, sizeof t->firmware, "%s",
	    topo->identity.firmware);
	snprintf(t->box, sizeof t->box, "%s", topo->identity.model);
	targets = json_object_get(body, "targets");
	for (i = 0; i < json_array_size(targets); i++)
		if (dt_target(d, topo, t, json_string_value(
		    json_array_get(targets, i)), e) == -1)
			goto refused;
	if (json_array_size(targets) == 0) {
		/* No target: every configured volume and its disks. */
		for (i = 0; i < d->cfg->dt_nvolumes; i++)
			if (dt_volume_add(d, topo, t, d->cfg->dt_volumes[i],
			    e) == -1)
				goto refused;
		if (t->ndisks == 0) {
			http_fail(e, 400, "no_target", "name the disks or "
			    "volumes to test (no disktest.volumes are "
			    "configured)");
			goto refused;
		}
	}
	if (dt_check_resync(topo, t, e) == -1 ||
	    dt_check_devices(t, e) == -1)
		goto refused;
	/* Other I/O is measured over a second, from a timer. */
	t->cb = cb;
	t->cbarg = arg;
	t->mono0 = nptime_mono();
	dt->cur = t;
	rc = 0;
	if ((d->cfg->dt_busy_iops == 0 && d->cfg->dt_busy_mbps == 0) ||
	    diskstats_read(&d->root, &buf, &t->ds0, NULL) == -1) {
		t = NULL;
		dt_run(dt->cur);
		goto out;
	}
	if ((t->timer = evtimer_new(d->base, dt_busy_cb, t)) == NULL ||
	    evtimer_add(t->timer, &tv) == -1) {
		dt->cur = NULL;
		t->cb = NULL;
		http_fail(e, 500, "internal", "cannot add a timer");
		rc = -1;
		goto out;
	}
	t = NULL;
	goto out;
refused:
	log_info("disk test refused: %s", e->msg);
out:
	probe_buf_free(&buf);
	topology_free(topo);
	dt_test_free(t);
	return (rc);
}

/* The tests saved and the one running; see disktest.h. */
json_t *
disktest_list(struct daemon *d)
{
	struct disktest	*dt = d->disktest;
	const json_t	*doc;
	json_t		*a;
	size_t		 i;

	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; i < dt->n; i++) {
		doc = dt->v[i].doc;
		json_array_append_new(a, json_pack("{s:O?,s:O?,s:O?,s:O?}",
		    "id", json_object_get(doc, "id"), "state",
		    json_object_get(doc, "state"), "created",
		    json_object_get(doc, "created"), "error",
		    json_object_get(doc, "error")));
	}
	if (dt->cur != NULL)
		json_array_append_new(a, json_pack("{s:I,s:s,s:f}", "id",
		    (json_int_t)dt->cur->id, "state",
		    dt_state_names[dt->cur->state], "created",
		    dt->cur->created));
	return (json_pack("{s:o}", "disktests", a));
}

/* The document of test id, live or saved; see disktest.h. */
json_t *
disktest_get(struct daemon *d, unsigned long id, struct http_err *e)
{
	struct disktest	*dt = d->disktest;
	size_t		 i;

	if (dt->cur != NULL && dt->cur->id == id)
		return (dt_doc(dt->cur));
	for (i = 0; i < dt->n; i++)
		if (dt->v[i].id == id)
			return (json_incref(dt->v[i].doc));
	http_fail(e, 404, "no_such_test", "no disk test %lu", id);
	return (NULL);
}

/* Cancel test id while it runs; see disktest.h. */
json_t *
disktest_cancel(struct daemon *d, unsigned long id, struct http_err *e)
{
	struct disktest	*dt = d->disktest;
	struct dt_test	*t = dt->cur;
	size_t		 i;

	if (t != NULL && t->id == id) {
		if (t->state == DT_CHECKING) {
			http_fail(e, 409, "starting", "disk test %lu is still "
			    "checking its disks; try again in a second", id);
			return (NULL);
		}
		if (t->cancel_mono == 0) {
			t->cancel_mono = nptime_mono();
			for (i = 0; i < t->ndb; i++)
				diskbench_cancel(t->db[i]);
			log_info("disk test %lu: cancelling", id);
		}
		return (dt_doc(t));
	}
	for (i = 0; i < dt->n; i++)
		if (dt->v[i].id == id) {
			http_fail(e, 409, "not_running", "disk test %lu is "
			    "over (%s)", id, json_string_value(json_object_get(
			    dt->v[i].doc, "state")));
			return (NULL);
		}
	http_fail(e, 404, "no_such_test", "no disk test %lu", id);
	return (NULL);
}

/* Sort saved tests by id. */
static int
dt_cmp(const void *a, const void *b)
{
	const struct dt_saved	*x = a, *y = b;

	return (x->id < y->id ? -1 : x->id > y->id);
}

/* Remove the temp files a test that died left behind. */
static void
dt_cleanup(struct daemon *d)
{
	char	 path[4300], line[CFG_VOLUME_MAX + 64], tmp[CFG_VOLUME_MAX + 32];
	FILE	*f;
	size_t	 len, i;

	snprintf(path, sizeof path, "%s/%s", d->state_dir, DT_ACTIVE);
	if ((f = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			len = strcspn(line, "\n");
			line[len] = '\0';
			/* Only ever our own file name, at a volume's top. */
			if (line[0] != '/' || len <= strlen(DISKTEST_TMPNAME) ||
			    strcmp(line + len - strlen(DISKTEST_TMPNAME),
			    DISKTEST_TMPNAME) != 0 ||
			    line[len - strlen(DISKTEST_TMPNAME) - 1] != '/')
				continue;
			if (access(line, F_OK) == 0)
				log_info("disktest: removing %s, left by a "
				    "test that did not finish", line);
			dt_unlink_tmp(line);
		}
		fclose(f);
		unlink(path);
	}
	for (i = 0; i < d->cfg->dt_nvolumes; i++) {
		snprintf(tmp, sizeof tmp, "%s/%s", strcmp(d->cfg->dt_volumes[i],
		    "/") == 0 ? "" : d->cfg->dt_volumes[i], DISKTEST_TMPNAME);
		if (access(tmp, F_OK) == 0)
			log_info("disktest: removing %s, left by a test that "
			    "did not finish", tmp);
		dt_unlink_tmp(tmp);
	}
}

/* Read the saved tests and the baseline; remove what a crash left. */
int
disktest_init(struct daemon *d, char **cause)
{
	struct disktest	*dt;
	struct dirent	*de;
	DIR		*dir;
	json_t		*doc;
	json_error_t	 jerr;
	char		 path[4500], *end;
	const char	*st;
	unsigned long	 id;

	*cause = NULL;
	if ((dt = calloc(1, sizeof *dt)) == NULL) {
		*cause = strdup("disktest: out of memory");
		return (-1);
	}
	d->disktest = dt;
	dt->d = d;
	dt->next_id = 1;
	dt_cleanup(d);
	snprintf(dt->dir, sizeof dt->dir, "%s/%s", d->state_dir, DT_SUBDIR);
	if ((mkdir(dt->dir, 0700) == -1 && errno != EEXIST) ||
	    (dir = opendir(dt->dir)) == NULL) {
		if (asprintf(cause, "%s: %s", dt->dir, strerror(errno)) == -1)
			*cause = NULL;
		return (-1);
	}
	while ((de = readdir(dir)) != NULL) {
		snprintf(path, sizeof path, "%s/%s", dt->dir, de->d_name);
		if (de->d_name[0] == '.' && strstr(de->d_name, ".json.") !=
		    NULL) {
			unlink(path);	/* a crash mid state_write() */
			continue;
		}
		errno = 0;
		id = strtoul(de->d_name, &end, 10);
		if (de->d_name[0] < '0' || de->d_name[0] > '9' || errno != 0 ||
		    strcmp(end, ".json") != 0)
			continue;
		if ((doc = json_load_file(path, 0, &jerr)) == NULL) {
			log_warnx("disktest: %s: %s; skipped", path, jerr.text);
			continue;
		}
		st = json_string_value(json_object_get(doc, "state"));
		if (st == NULL || strcmp(st, "running") == 0 ||
		    strcmp(st, "checking") == 0) {
			json_object_set_new(doc, "state",
			    json_string("failed"));
			json_object_set_new(doc, "error", json_string(
			    "nasperfd stopped during the test; its temp files "
			    "were removed at the next start"));
			if (dt_save(dt, id, doc) == -1)
				log_warn("disktest: %s", path);
		}
		dt_keep(dt, id, doc);
	}
	closedir(dir);
	if (dt->n > 0)
		qsort(dt->v, dt->n, sizeof *dt->v, dt_cmp);
	snprintf(path, sizeof path, "%s/%s", d->state_dir, DT_BASELINE);
	if ((dt->baseline = json_load_file(path, 0, &jerr)) == NULL &&
	    access(path, F_OK) == 0)
		log_warnx("disktest: %s: %s; starting a new baseline", path,
		    jerr.text);
	if (dt->baseline != NULL && !json_is_object(dt->baseline)) {
		json_decref(dt->baseline);
		dt->baseline = NULL;
	}
	return (0);
}

/* Stop a running test (its result says so) and free everything. */
void
disktest_shutdown(struct daemon *d)
{
	struct disktest	*dt = d->disktest;
	struct dt_test	*t;
	size_t		 i;

	if (dt == NULL)
		return;
	if ((t = dt->cur) != NULL) {
		if (t->state == DT_CHECKING) {
			dt_refused(t, 503, "shutting_down", "nasperfd is "
			    "stopping");
		} else {
			for (i = 0; i < t->ndb; i++)
				diskbench_cancel(t->db[i]);
			snprintf(t->error, sizeof t->error, "nasperfd stopped "
			    "during the test");
			t->cancel_mono = nptime_mono();
			dt_finish(t, DT_CANCELLED);
		}
	}
	for (i = 0; i < dt->n; i++)
		json_decref(dt->v[i].doc);
	free(dt->v);
	json_decref(dt->baseline);
	free(dt);
	d->disktest = NULL;
}

/* The baseline of a disk or a volume; see disktest.h. */
int
disktest_baseline(const struct daemon *d, const char *name, double *rd,
    double *wr, double *iops)
{
	const struct disktest	*dt = d->disktest;
	const json_t		*e;

	*rd = *wr = *iops = 0;
	if (dt == NULL || dt->baseline == NULL)
		goto none;
	if ((e = json_object_get(json_object_get(dt->baseline, "volumes"),
	    name)) != NULL) {
		*rd = dt_num(e, "seq_read_bytes_per_s");
		*wr = dt_num(e, "seq_write_bytes_per_s");
		*iops = dt_num(e, "rand_read_iops_qd32");
		return (0);
	}
	if ((e = json_object_get(json_object_get(dt->baseline, "disks"),
	    name)) != NULL) {
		*rd = dt_num(json_object_get(e, "seq_read_bytes_per_s"),
		    "outer");
		*iops = dt_num(e, "rand_read_iops_qd32");
		return (0);
	}
none:
	errno = ENOENT;
	return (-1);
}
