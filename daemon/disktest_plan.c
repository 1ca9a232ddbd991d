/*
 * disktest_plan.c: a disk test's plan, from its request, the topology and
 * the configuration: the numbers, the disks and volumes, the steps, and
 * the figures a layout should reach.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cfg.h"
#include "diskbench.h"
#include "disktest_plan.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "topology.h"

const char *const dt_zone_names[DT_NZONES] = {
	"outer", "middle", "inner"
};
const char *const dt_vstep_names[4] = {
	"write", "read", "rand_read", "rand_write"
};

/*
 * A ZFS pool's layout, "raidz2" or "2x raidz2" (top-level vdevs alike,
 * the members split evenly among them): data goes to every top-level
 * vdev, and within a raidz to its width less its parity, each at the pace
 * of the slowest member.  A mirror vdev is counted as one disk, as an md
 * RAID 1 is, though ZFS may spread one reader over both sides.  dRAID and
 * pools of mixed vdevs have no figure.
 */
static int
dt_zfs_expected(const char *layout, const double *bps, size_t n, double *rd,
    double *wr)
{
	double		 min;
	unsigned	 groups = 1, parity = 0;
	size_t		 i, width;
	char		*end;

	if (layout[0] >= '1' && layout[0] <= '9') {
		groups = (unsigned)strtoul(layout, &end, 10);
		if (strncmp(end, "x ", 2) != 0 || groups == 0)
			goto bad;
		layout = end + 2;
	}
	if (n == 0 || n % groups != 0)
		goto bad;
	width = n / groups;
	for (min = bps[0], i = 1; i < n; i++)
		if (bps[i] < min)
			min = bps[i];
	if (strcmp(layout, "stripe") == 0)
		*rd = *wr = (double)n * min;
	else if (strcmp(layout, "mirror") == 0)
		*rd = *wr = (double)groups * min;
	else if (strncmp(layout, "raidz", 5) == 0 && layout[5] >= '1' &&
	    layout[5] <= '3' && layout[6] == '\0' &&
	    width > (parity = (unsigned)(layout[5] - '0')))
		*rd = *wr = (double)groups * (double)(width - parity) * min;
	else
		goto bad;
	return (0);
bad:
	errno = EINVAL;
	return (-1);
}

/* Expected sequential throughput of a layout; see disktest_plan.h. */
int
disktest_expected(const char *layout, const double *bps, size_t n,
    double *rd, double *wr)
{
	double	min, sum = 0;
	size_t	i;

	*rd = *wr = 0;
	if (strncmp(layout, "btrfs ", 6) == 0)
		layout += 6;
	if (strncmp(layout, "zfs ", 4) == 0)
		return (dt_zfs_expected(layout + 4, bps, n, rd, wr));
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

/* What the ARC served of a read step; see disktest_plan.h. */
json_t *
disktest_arc(const struct zfs_named *a, const struct zfs_named *b)
{
	uint64_t	h, m;
	double		pct;

	if (!ZFS_HAVE(a, ZFS_ARC_DEMAND_DATA_HITS) ||
	    !ZFS_HAVE(a, ZFS_ARC_DEMAND_DATA_MISSES) ||
	    !ZFS_HAVE(b, ZFS_ARC_DEMAND_DATA_HITS) ||
	    !ZFS_HAVE(b, ZFS_ARC_DEMAND_DATA_MISSES) ||
	    b->v[ZFS_ARC_DEMAND_DATA_HITS] < a->v[ZFS_ARC_DEMAND_DATA_HITS] ||
	    b->v[ZFS_ARC_DEMAND_DATA_MISSES] <
	    a->v[ZFS_ARC_DEMAND_DATA_MISSES])
		return (NULL);
	h = b->v[ZFS_ARC_DEMAND_DATA_HITS] - a->v[ZFS_ARC_DEMAND_DATA_HITS];
	m = b->v[ZFS_ARC_DEMAND_DATA_MISSES] -
	    a->v[ZFS_ARC_DEMAND_DATA_MISSES];
	if (h + m == 0)
		return (NULL);
	pct = 100.0 * (double)h / (double)(h + m);
	return (json_pack("{s:I,s:I,s:f,s:b}", "demand_data_hits",
	    (json_int_t)h, "demand_data_misses", (json_int_t)m, "hit_pct",
	    round(pct * 100) / 100, "from_arc", pct >= DT_ARC_PCT));
}

/* Flag members more than pct % below the mean; see disktest_plan.h. */
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

/* The disk called name in p, or NULL. */
static struct dt_disk *
dt_disk_find(struct dt_plan *p, const char *name)
{
	size_t	i;

	for (i = 0; i < p->ndisks; i++)
		if (strcmp(p->disks[i].name, name) == 0)
			return (&p->disks[i]);
	return (NULL);
}

/* Add a whole device to the plan (once); its index, or -1 when full. */
static int
dt_disk_add(struct dt_plan *p, const struct blockdev *b)
{
	struct dt_disk	*k;

	if ((k = dt_disk_find(p, b->name)) != NULL)
		return ((int)(k - p->disks));
	if (p->ndisks == DT_MAX_DISKS)
		return (-1);
	k = &p->disks[p->ndisks];
	snprintf(k->name, sizeof k->name, "%s", b->name);
	snprintf(k->dev, sizeof k->dev, "/dev/%s", b->name);
	k->size = b->size_bytes;
	snprintf(k->model, sizeof k->model, "%s", b->model);
	snprintf(k->serial, sizeof k->serial, "%s", b->serial);
	snprintf(k->rev, sizeof k->rev, "%s", b->rev);
	snprintf(k->transport, sizeof k->transport, "%s", b->transport);
	snprintf(k->backing, sizeof k->backing, "%s", b->backing_file);
	k->rotational = b->rotational;
	k->alloc_pct = -1;
	return ((int)p->ndisks++);
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

/* Read the request's numbers into p; see disktest_plan.h. */
int
dt_plan_parse(const json_t *body, const struct cfg *cfg, struct dt_plan *p,
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
	p->kind = DT_SEQ | DT_RND;
	p->bs = DT_DEF_BS;
	p->qd = DT_DEF_QD;
	p->seconds = DT_DEF_SECONDS;
	p->zone_bytes = DT_DEF_ZONE;
	p->size = cfg->dt_max_bytes < DT_DEF_SIZE ? cfg->dt_max_bytes :
	    DT_DEF_SIZE;
	if ((v = json_object_get(body, "kind")) != NULL) {
		s = json_string_value(v);
		if (s != NULL && strcmp(s, "full") == 0)
			p->kind = DT_SEQ | DT_RND;
		else if (s != NULL && strcmp(s, "seq") == 0)
			p->kind = DT_SEQ;
		else if (s != NULL && strcmp(s, "random") == 0)
			p->kind = DT_RND;
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
		p->size = (uint64_t)json_integer_value(v);
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
		p->bs = (uint64_t)json_integer_value(v);
	}
	if ((v = json_object_get(body, "zone_bytes")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) <
		    (json_int_t)DT_MIN_SIZE) {
			snprintf(msg, msgsz, "zone_bytes: expected an integer "
			    "from %llu", (unsigned long long)DT_MIN_SIZE);
			return (-1);
		}
		p->zone_bytes = (uint64_t)json_integer_value(v);
	}
	if ((v = json_object_get(body, "queue_depth")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 1 ||
		    json_integer_value(v) > DISKBENCH_MAX_QD) {
			snprintf(msg, msgsz, "queue_depth: expected an integer "
			    "from 1 to %d", DISKBENCH_MAX_QD);
			return (-1);
		}
		p->qd = (unsigned)json_integer_value(v);
	}
	if ((v = json_object_get(body, "seconds")) != NULL) {
		double	x = json_number_value(v);

		if (!json_is_number(v) || !(x >= 1 && x <= DT_MAX_SECONDS)) {
			snprintf(msg, msgsz, "seconds: expected a number of "
			    "seconds per step from 1 to %.0f", DT_MAX_SECONDS);
			return (-1);
		}
		p->seconds = x;
	}
	if ((v = json_object_get(body, "force")) != NULL) {
		if (!json_is_boolean(v)) {
			snprintf(msg, msgsz, "force: expected true or false");
			return (-1);
		}
		p->force = json_is_true(v);
	}
	p->size -= p->size % p->bs;
	if (p->size < p->bs) {
		snprintf(msg, msgsz, "size: smaller than one block (%llu "
		    "bytes)", (unsigned long long)p->bs);
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

/*
 * Add volume conf (configured, and a mount point) and its member disks.
 * Whether it is a directory the runner checks, with the free space.
 */
/* The name of a top-level vdev's kind: "raidz2", "mirror", "stripe". */
static void
dt_zfs_kind(const struct zfs_vdev *vd, char *out, size_t len)
{
	switch (vd->type) {
	case ZFS_VDEV_DISK:
		snprintf(out, len, "stripe");
		break;
	case ZFS_VDEV_MIRROR:
		snprintf(out, len, "mirror");
		break;
	case ZFS_VDEV_RAIDZ:
		snprintf(out, len, "raidz%d", vd->parity);
		break;
	case ZFS_VDEV_DRAID:
		snprintf(out, len, "draid%d", vd->parity);
		break;
	default:
		snprintf(out, len, "?");
		break;
	}
}

/*
 * A ZFS dataset as a volume under test: its members are the disks of its
 * pool's data vdevs (a log, cache, special or spare device holds no
 * file's sequential data), its layout "zfs raidz2", or "zfs 2x raidz2"
 * for two top-level vdevs alike, "zfs mixed" for unlike ones.  The pool
 * comes from zpool status (zpool.c); a dataset whose pool it did not
 * list cannot be tested.
 */
static int
dt_zfs_volume(const struct topology *topo, struct dt_plan *p,
    struct dt_volume *v, const char *conf, const char *dataset,
    struct http_err *r)
{
	const struct zfs_pool	*pool;
	const struct zfs_vdev	*vd, *top;
	const struct blockdev	*b;
	const char		*base;
	char			 kind[24] = "", k[24];
	size_t			 i, ntop = 0;
	int			 mixed = 0, d;

	(void)probe_strlcpy(v->device, dataset, sizeof v->device);
	if ((pool = zfs_pool_of(topo->zpool, dataset)) == NULL)
		return (http_fail(r, 400, "bad_target", "%s: ZFS dataset %s: "
		    "its pool is not in zpool status's listing (see zfs in "
		    "/v1/topology)", conf, dataset));
	for (i = 1; i < pool->nvdevs; i++) {
		vd = &pool->vdevs[i];
		for (top = vd; top->depth > 1 && top->parent > 0; )
			top = &pool->vdevs[top->parent];
		if (top->class != ZFS_CLASS_DATA)
			continue;
		if (vd->depth == 1) {
			ntop++;
			dt_zfs_kind(vd, k, sizeof k);
			if (kind[0] == '\0')
				snprintf(kind, sizeof kind, "%s", k);
			else if (strcmp(kind, k) != 0)
				mixed = 1;
		}
		if (vd->type != ZFS_VDEV_DISK)
			continue;
		/* "/dev/sda1" with -P; a bare "sda1" without. */
		base = strrchr(vd->name, '/') != NULL ?
		    strrchr(vd->name, '/') + 1 : vd->name;
		if ((b = dt_leaf(topo, base, 0)) == NULL)
			continue;
		if ((d = dt_disk_add(p, b)) == -1)
			return (http_fail(r, 400, "bad_target", "more than %d "
			    "disks", DT_MAX_DISKS));
		if (v->nmembers == DT_MAX_DISKS)
			break;
		snprintf(v->members[v->nmembers], sizeof v->members[0], "%s",
		    base);
		v->disk[v->nmembers++] = (size_t)d;
	}
	if (v->nmembers == 0)
		return (http_fail(r, 400, "bad_target", "%s: ZFS dataset %s: "
		    "none of its pool's data disks is a block device here",
		    conf, dataset));
	if (mixed)
		snprintf(v->layout, sizeof v->layout, "zfs mixed");
	else if (ntop > 1 && strcmp(kind, "stripe") != 0)
		snprintf(v->layout, sizeof v->layout, "zfs %ux %s",
		    (unsigned)ntop, kind);
	else
		snprintf(v->layout, sizeof v->layout, "zfs %s", kind);
	return (0);
}

static int
dt_volume_add(const struct topology *topo, struct dt_plan *p,
    const char *conf, struct http_err *r)
{
	struct topology_layer		 layers[TOPOLOGY_STACK_MAX];
	const struct mounts_entry	*me = NULL;
	const struct topology_layer	*ml = NULL;
	struct dt_volume		*v;
	const char			*dev;
	size_t				 i, nl;
	int				 k;

	for (i = 0; i < p->nvols; i++)
		if (strcmp(p->vols[i].path, conf) == 0)
			return (0);
	if (p->nvols == DT_MAX_VOLS)
		return (http_fail(r, 400, "bad_target", "too many volumes"));
	/* The last mount on a path is the one in effect. */
	for (i = 0; i < topo->mounts.n; i++)
		if (strcmp(topo->mounts.v[i].mountpoint, conf) == 0)
			me = &topo->mounts.v[i];
	if (me == NULL)
		return (http_fail(r, 400, "not_mounted", "%s is not a mount "
		    "point: its volume is mounted elsewhere or not at all, "
		    "and the test file would land on the filesystem below",
		    conf));
	v = &p->vols[p->nvols];
	memset(v, 0, sizeof *v);
	v->direct = -1;
	v->dirfd = v->fd = -1;
	snprintf(v->path, sizeof v->path, "%s", conf);
	snprintf(v->tmp, sizeof v->tmp, "%s/%s", strcmp(conf, "/") == 0 ?
	    "" : conf, DISKTEST_TMPNAME);
	snprintf(v->fstype, sizeof v->fstype, "%s", me->fstype);
	if (strcmp(me->fstype, "zfs") == 0) {
		if (dt_zfs_volume(topo, p, v, conf, me->source, r) == -1)
			return (-1);
		p->nvols++;
		log_debug("disktest: %s: zfs dataset %s, %s over %zu disks",
		    conf, me->source, v->layout, v->nmembers);
		return (0);
	}
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
		if ((k = dt_disk_add(p, b)) == -1)
			return (http_fail(r, 400, "bad_target", "more than %d "
			    "disks", DT_MAX_DISKS));
		snprintf(v->members[v->nmembers], sizeof v->members[0], "%s",
		    ml->devices[i]);
		v->disk[v->nmembers++] = (size_t)k;
	}
	p->nvols++;
	log_debug("disktest: %s: %s on %s, %s over %zu disks", conf,
	    v->fstype, v->device, v->layout, v->nmembers);
	return (0);
}

/* Resolve one target into disks or a volume. */
static int
dt_target(const struct cfg *cfg, const struct topology *topo,
    const char *root, struct dt_plan *p, const char *s, struct http_err *r)
{
	const struct blockdev		*b;
	const struct blockdev_part	*part;
	const char			*name = s, *conf;
	size_t				 i;

	/* A configured volume first: one may be mounted under /dev/shm. */
	if (s[0] == '/' && (conf = dt_volume_conf(cfg, s)) != NULL)
		return (dt_volume_add(topo, p, conf, r));
	if (strncmp(s, "/dev/", 5) == 0)
		name = s + 5;
	else if (s[0] == '/') {
		if ((conf = dt_volume_conf(cfg, s)) == NULL) {
			char	list[1024] = "";

			for (i = 0; i < cfg->dt_nvolumes; i++) {
				strncat(list, " ", sizeof list -
				    strlen(list) - 1);
				strncat(list, cfg->dt_volumes[i],
				    sizeof list - strlen(list) - 1);
			}
			return (http_fail(r, 400, "bad_target", "%.200s is "
			    "not in disktest.volumes, the volumes a test may "
			    "write to (%s)", s, list[0] != '\0' ? list + 1 :
			    "none are configured"));
		}
		return (dt_volume_add(topo, p, conf, r));
	}
	if ((b = blockdev_find_any(&topo->block, name, &part)) == NULL)
		return (http_fail(r, 400, "unknown_target", "unknown target "
		    "'%.100s': not a disk in %s/sys/block, nor a volume "
		    "path", s, strcmp(root, "/") == 0 ? "" : root));
	if (part != NULL)
		return (http_fail(r, 400, "bad_target", "%.100s is a "
		    "partition of %s: name the disk", s, b->name));
	if (dt_disk_add(p, b) == -1)
		return (http_fail(r, 400, "bad_target", "more than %d disks",
		    DT_MAX_DISKS));
	return (0);
}

/* Resolve the targets into disks and volumes; see disktest_plan.h. */
int
dt_plan_targets(const struct cfg *cfg, const struct topology *topo,
    const char *root, const json_t *targets, struct dt_plan *p,
    struct http_err *e)
{
	size_t	i;

	for (i = 0; i < json_array_size(targets); i++)
		if (dt_target(cfg, topo, root, p, json_string_value(
		    json_array_get(targets, i)), e) == -1)
			return (-1);
	if (json_array_size(targets) > 0)
		return (0);
	/* No target: every configured volume and its disks. */
	for (i = 0; i < cfg->dt_nvolumes; i++)
		if (dt_volume_add(topo, p, cfg->dt_volumes[i], e) == -1)
			return (-1);
	if (p->ndisks == 0)
		return (http_fail(e, 400, "no_target", "name the disks or "
		    "volumes to test (no disktest.volumes are configured)"));
	return (0);
}

/* Refuse while an md array under p's disks resyncs; see disktest_plan.h. */
int
dt_plan_resync(const struct topology *topo, struct dt_plan *p,
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
		involved = dt_disk_find(p, a->name) != NULL;
		for (j = 0; j < a->nmembers && !involved; j++)
			involved = (b = dt_leaf(topo, a->members[j].name,
			    0)) != NULL && dt_disk_find(p, b->name) != NULL;
		if (!involved)
			continue;
		snprintf(why, sizeof why, "%s is in %s (%.1f %% done, %llu "
		    "KiB/s)", a->name, a->sync_action[0] != '\0' &&
		    strcmp(a->sync_action, "idle") != 0 ? a->sync_action :
		    "resync", a->sync_pct >= 0 ? a->sync_pct : 0,
		    (unsigned long long)a->sync_speed_kib);
		if (!p->force)
			return (http_fail(r, 409, "array_resyncing", "%s: a "
			    "test now would slow it down and measure neither; "
			    "retry when it has finished, or force", why));
		json_array_append_new(p->forced, json_string(why));
	}
	return (0);
}

/* List the steps of p; see disktest_plan.h. */
void
dt_plan_steps(struct dt_plan *p)
{
	struct dt_step	*s;
	size_t		 i;
	int		 z;

	p->nsteps = 0;
#define DT_ADD(o, x, zz, q) do {					\
	s = &p->steps[p->nsteps++];					\
	s->op = (o);							\
	s->idx = (x);							\
	s->zone = (zz);							\
	s->qd = (q);							\
} while (0)
	for (i = 0; i < p->ndisks; i++) {
		if (p->kind & DT_SEQ)
			for (z = 0; z < DT_NZONES; z++)
				DT_ADD(DT_ZONE, i, z, p->qd);
		if (p->kind & DT_RND) {
			DT_ADD(DT_RAND, i, 0, 1);
			DT_ADD(DT_RAND, i, 1, DT_RAND_QD);
		}
	}
	if ((p->kind & DT_SEQ) && p->ndisks > 1)
		DT_ADD(DT_ALL, 0, 0, p->qd);
	for (i = 0; i < p->nvols; i++) {
		DT_ADD(DT_VWRITE, i, 0, p->qd);
		if (p->kind & DT_SEQ)
			DT_ADD(DT_VREAD, i, 0, p->qd);
		if (p->kind & DT_RND) {
			DT_ADD(DT_VRANDR, i, 0, DT_RAND_QD);
			DT_ADD(DT_VRANDW, i, 0, DT_RAND_QD);
		}
	}
#undef DT_ADD
}

/* A step's name for progress and errors. */
void
dt_plan_label(const struct dt_plan *p, const struct dt_step *s, char *out,
    size_t outsz)
{
	switch (s->op) {
	case DT_ZONE:
		snprintf(out, outsz, "%s sequential read, %s zone",
		    p->disks[s->idx].name, dt_zone_names[s->zone]);
		break;
	case DT_RAND:
		snprintf(out, outsz, "%s random 4 KiB read, QD%u",
		    p->disks[s->idx].name, s->qd);
		break;
	case DT_ALL:
		snprintf(out, outsz, "all %zu disks at once", p->ndisks);
		break;
	default:
		snprintf(out, outsz, "%s %s", p->vols[s->idx].path,
		    s->op == DT_VWRITE ? "sequential write" :
		    s->op == DT_VREAD ? "sequential read" :
		    s->op == DT_VRANDR ? "random 4 KiB read" :
		    "random 4 KiB write");
		break;
	}
}

/* The zone region of a disk: offset and length, block-aligned. */
void
dt_plan_zone(const struct dt_plan *p, const struct dt_disk *k, int zone,
    uint64_t *off, uint64_t *len)
{
	uint64_t	l = p->zone_bytes, size = k->size;

	if (l > size / DT_NZONES)
		l = size / DT_NZONES;
	l -= l % p->bs;
	*len = l;
	if (zone == 0)
		*off = 0;
	else if (zone == 1)
		*off = (size / 2) - (size / 2) % p->bs;
	else
		*off = (size - l) - (size - l) % p->bs;
}

/* Why disk k's figures cannot be its own; see disktest_plan.h. */
json_t *
disktest_implausible(const struct dt_disk *k)
{
	json_t	*a;
	double	 seq = 0, iops;
	int	 z, physical;

	if ((a = json_array()) == NULL)
		return (NULL);
	if (k->backing[0] != '\0' && k->alloc_pct >= 0 &&
	    k->alloc_pct < DT_SPARSE_PCT)
		json_array_append_new(a, json_sprintf("%s is a loop device over "
		    "%s, a sparse file (%d %% of it allocated): its holes read "
		    "as zeros without touching a disk", k->name, k->backing,
		    k->alloc_pct));
	for (z = 0; z < DT_NZONES; z++)
		if (k->zone_bps[z] > seq)
			seq = k->zone_bps[z];
	if (k->all_bps > seq)
		seq = k->all_bps;
	/* Only a disk on a real bus is known to spin: loop says it does. */
	physical = k->rotational == 1 && (strcmp(k->transport, "sata") == 0 ||
	    strcmp(k->transport, "sas") == 0 || strcmp(k->transport, "usb") ==
	    0 || strcmp(k->transport, "spi") == 0);
	if (physical && seq > DT_HDD_MAX_BPS)
		json_array_append_new(a, json_sprintf("%s says it is a spinning "
		    "disk (%s) but read %.0f MB/s, faster than any does (about "
		    "300 MB/s at most): a cache answered, a controller's or a "
		    "virtual disk's host", k->name, k->transport, seq / 1e6));
	iops = k->rand[0] != NULL ? json_number_value(json_object_get(k->rand[0],
	    "iops")) : 0;
	if (physical && iops > DT_HDD_MAX_IOPS)
		json_array_append_new(a, json_sprintf("%s says it is a spinning "
		    "disk (%s) but served %.0f random 4 KiB reads a second at "
		    "queue depth 1, where a seek allows some 200: a cache "
		    "answered", k->name, k->transport, iops));
	return (a);
}
