/*
 * disktest.c: the disk analyzer's runner: safety checks, the step machine
 * over the disk benchmark engine, the temp files, the results.  The plan
 * is disktest_plan.c's, the baseline baseline.c's.
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

#include "baseline.h"
#include "cfg.h"
#include "daemon.h"
#include "diskbench.h"
#include "diskstats.h"
#include "disktest.h"
#include "disktest_plan.h"
#include "http.h"
#include "log.h"
#include "np.h"
#include "nptime.h"
#include "state.h"
#include "topology.h"

#define DT_SUBDIR		"disktests"
#define DT_ACTIVE	"disktest.active"	/* temp files being written */
#define DT_POLL_US	200000
#define DT_BUSY_US	1000000			/* other I/O measured over */
#define DT_RESERVE_MIN	(16ULL << 20)		/* left free beyond the file */
#define DT_MAX_KEPT	256			/* finished tests in memory */

enum dt_state { DT_CHECKING, DT_RUNNING, DT_DONE, DT_FAILED, DT_CANCELLED };

static const char *const dt_state_names[] = {
	"checking", "running", "done", "failed", "cancelled"
};

/* A test: its plan, the step running, and how it is answered. */
struct dt_test {
	struct disktest		*dt;
	unsigned long		 id;
	enum dt_state		 state;
	struct dt_plan		 p;
	json_t			*request;
	char			 kernel[64], firmware[96], box[64];
	size_t			 step;		/* in p.steps */

	struct diskbench	*db[DT_MAX_DISKS];	/* the step's runs */
	size_t			 ndb;
	struct event		*timer;
	http_done_cb		*cb;		/* answers the POST, once */
	void			*cbarg;
	struct diskstats	 ds0;		/* at the busy check's start */
	double			 mono0;

	struct zfs_named	 arc0;		/* a ZFS volume read's start */
	int			 arc0_ok;
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
	if (avail < t->p.size || avail - t->p.size < reserve)
		return (http_fail(r, 507, "insufficient_space", "%s has %.1f "
		    "MB free; the test file needs %.1f MB and %.1f MB must "
		    "stay free: pass a smaller size", v->path, avail / 1e6,
		    t->p.size / 1e6, reserve / 1e6));
	return (0);
}

/* How much of a loop device's backing file is allocated, when it has one. */
static void
dt_check_backing(struct dt_disk *k)
{
	struct stat	st;

	if (k->backing[0] == '\0' || stat(k->backing, &st) == -1 ||
	    !S_ISREG(st.st_mode) || st.st_size <= 0)
		return;
	k->alloc_pct = (int)((double)st.st_blocks * 512 * 100 /
	    (double)st.st_size);
	if (k->alloc_pct > 100)
		k->alloc_pct = 100;
}

/*
 * Every disk's node must be a block device, every volume a directory
 * with room for the file.
 */
static int
dt_check_devices(struct dt_test *t, struct http_err *r)
{
	struct stat	st;
	size_t		i;

	for (i = 0; i < t->p.ndisks; i++) {
		if (stat(t->p.disks[i].dev, &st) == -1)
			return (http_fail(r, 400, "bad_target", "%s: %s",
			    t->p.disks[i].dev, strerror(errno)));
		if (!S_ISBLK(st.st_mode))
			return (http_fail(r, 400, "bad_target", "%s is not a "
			    "block device", t->p.disks[i].dev));
		dt_check_backing(&t->p.disks[i]);
	}
	for (i = 0; i < t->p.nvols; i++) {
		if (stat(t->p.vols[i].path, &st) == -1)
			return (http_fail(r, 400, "bad_target", "%s: %s",
			    t->p.vols[i].path, strerror(errno)));
		if (!S_ISDIR(st.st_mode))
			return (http_fail(r, 400, "bad_target", "%s: not a "
			    "directory", t->p.vols[i].path));
		if (dt_check_space(t, &t->p.vols[i], r) == -1)
			return (-1);
	}
	return (0);
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

/* ZFS's arcstats now, into n; -1 without ZFS. */
static int
dt_arcstats(struct dt_test *t, struct zfs_named *n)
{
	struct probe_buf	 buf;
	const char		*err;
	int			 rc;

	probe_buf_init(&buf);
	rc = zfs_kstat_read(&t->dt->d->root, &buf, "arcstats", zfs_arc_names,
	    ZFS_ARC_NSTATS, n, &err);
	probe_buf_free(&buf);
	return (rc);
}

/* Start the runs of the current step; -1 with t->error set. */
static int
dt_step_start(struct dt_test *t)
{
	const struct dt_step	*s = &t->p.steps[t->step];
	struct diskbench_spec	 spec[DT_MAX_DISKS];
	struct http_err	 r;
	struct dt_volume	*v = NULL;
	char			*cause = NULL, label[128];
	size_t			 i, n = 1;

	memset(spec, 0, sizeof spec);
	for (i = 0; i < DT_MAX_DISKS; i++) {
		spec[i].engine = DISKBENCH_AUTO;
		spec[i].direct = 1;
		spec[i].max_seconds = t->p.seconds;
		spec[i].seed = t->id * 7919 + t->step;
		spec[i].block_size = t->p.bs;
		spec[i].queue_depth = s->qd;
		spec[i].pattern = DISKBENCH_SEQ;
		spec[i].dir = DISKBENCH_READ;
		spec[i].is_raw_device = 1;
	}
	dt_plan_label(&t->p, s, label, sizeof label);
	if (s->op >= DT_VWRITE) {
		v = &t->p.vols[s->idx];
		spec[0].is_raw_device = 0;
		spec[0].path = v->tmp;
		spec[0].length = v->laid_out - v->laid_out % t->p.bs;
	}
	switch (s->op) {
	case DT_ZONE:
		spec[0].path = t->p.disks[s->idx].dev;
		dt_plan_zone(&t->p, &t->p.disks[s->idx], s->zone, &spec[0].offset,
		    &spec[0].length);
		break;
	case DT_RAND:
		spec[0].path = t->p.disks[s->idx].dev;
		spec[0].pattern = DISKBENCH_RAND;
		spec[0].block_size = DT_RAND_BS;
		break;
	case DT_ALL:
		n = t->p.ndisks;
		for (i = 0; i < n; i++) {
			spec[i].path = t->p.disks[i].dev;
			dt_plan_zone(&t->p, &t->p.disks[i], 0, &spec[i].offset,
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
		spec[0].length = t->p.size;
		spec[0].max_bytes = t->p.size;
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
	/* ZFS: what the ARC serves of a read, counted from here. */
	t->arc0_ok = v != NULL && (s->op == DT_VREAD || s->op == DT_VRANDR) &&
	    strcmp(v->fstype, "zfs") == 0 && dt_arcstats(t, &t->arc0) == 0;
	log_debug("disktest %lu: step %zu/%zu: %s", t->id, t->step + 1,
	    t->p.nsteps, label);
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
	const struct dt_step	*s = &t->p.steps[t->step];
	struct diskbench_result	 res;
	struct dt_volume	*v;
	struct dt_disk		*k;
	struct stat		 st;
	json_t			*j;
	char			 label[128];
	size_t			 i;
	int			 rc = 0;

	dt_plan_label(&t->p, s, label, sizeof label);
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
		k = &t->p.disks[s->op == DT_ALL ? i : s->idx];
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
			v = &t->p.vols[s->idx];
			if (t->arc0_ok && j != NULL) {
				struct zfs_named	 arc1;
				json_t			*arc;

				if (dt_arcstats(t, &arc1) == 0 && (arc =
				    disktest_arc(&t->arc0, &arc1)) != NULL)
					json_object_set_new(j, "arc", arc);
			}
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
		v = &t->p.vols[s->idx];
		if (dt_tmp_check(t, v, label) == -1)
			return (-1);
		if (fstat(v->fd, &st) == -1 || (uint64_t)st.st_size < t->p.bs) {
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
		k = &t->p.disks[v->disk[i]];
		all &= k->all_bps > 0;
		if ((bps[i] = k->zone_bps[0]) <= 0)
			return (json_null());
	}
	/* The figures read all at once include a controller's ceiling. */
	for (i = 0; all && t->p.ndisks > 1 && i < v->nmembers; i++)
		bps[i] = t->p.disks[v->disk[i]].all_bps;
	if (disktest_expected(v->layout, bps, v->nmembers, &rd, &wr) == -1)
		return (json_null());
	mr = v->res[1] != NULL ? json_real_value(json_object_get(v->res[1],
	    "bytes_per_s")) : 0;
	/* What the ARC served is memory's figure, not the layout's. */
	if (json_is_true(json_object_get(json_object_get(v->res[1], "arc"),
	    "from_arc")))
		mr = 0;
	mw = v->res[0] != NULL ? json_real_value(json_object_get(v->res[0],
	    "bytes_per_s")) : 0;
	return (json_pack("{s:o,s:o,s:s,s:{s:o,s:o}}", "read_bytes_per_s",
	    dt_real(rd), "write_bytes_per_s", dt_real(wr), "basis",
	    all && t->p.ndisks > 1 ? "members' outer-zone sequential reads, "
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
	for (i = 0; i < t->p.nvols; i++) {
		v = &t->p.vols[i];
		for (j = 0; j < v->nmembers; j++)
			if ((bps[j] = t->p.disks[v->disk[j]].zone_bps[0]) <= 0)
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
	for (i = 0; i < t->p.ndisks; i++) {
		k = &t->p.disks[i];
		z = json_object();
		for (zz = 0; zz < DT_NZONES; zz++)
			json_object_set(z, dt_zone_names[zz], k->zones[zz] !=
			    NULL ? k->zones[zz] : json_null());
		o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:I,s:o,s:O?,s:O?,s:O?,"
		    "s:o,s:o*}", "name", k->name, "device", k->dev, "model",
		    k->model, "serial", k->serial, "firmware", k->rev,
		    "size_bytes", (json_int_t)k->size, "zones", z, "rand_qd1",
		    k->rand[0], "rand_qd32", k->rand[1], "concurrent", k->all,
		    "slow", cnt[i] > 0 ? json_boolean(flagged[i]) :
		    json_null(), "implausible", disktest_implausible(k));
		json_array_append_new(disks, o);
		sum1 += k->zone_bps[0];
		sumall += k->all_bps;
	}
	vols = json_array();
	for (i = 0; i < t->p.nvols; i++) {
		v = &t->p.vols[i];
		m = json_array();
		sl = json_array();
		for (j = 0; j < v->nmembers; j++) {
			json_array_append_new(m, json_pack("{s:s,s:s}",
			    "member", v->members[j], "disk",
			    t->p.disks[v->disk[j]].name));
			if (flagged[v->disk[j]])
				json_array_append_new(sl, json_string(
				    t->p.disks[v->disk[j]].name));
		}
		o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o}", "path",
		    v->path, "device", v->device, "fstype", v->fstype,
		    "layout", v->layout, "members", m, "slow_members", sl,
		    "direct", v->direct == -1 ? json_null() :
		    json_boolean(v->direct), "cache", v->direct == -1 ?
		    json_null() : json_string(strcmp(v->fstype, "zfs") == 0 ?
		    "ZFS: the ARC may serve the reads, as neither O_DIRECT "
		    "(before OpenZFS 2.3) nor POSIX_FADV_DONTNEED empties "
		    "it; a read far over what the members give is the ARC's" :
		    v->direct ? "O_DIRECT: the "
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
	if (t->state == DT_RUNNING && t->step < t->p.nsteps) {
		dt_plan_label(&t->p, &t->p.steps[t->step], label, sizeof label);
		for (i = 0; i < t->ndb; i++) {
			if (diskbench_poll(t->db[i], &p) == 0) {
				cur += p.bytes_per_s;
				secs = p.seconds;
			}
		}
	}
	frac = t->p.nsteps == 0 ? 0 : ((double)t->step + (secs < t->p.seconds ?
	    secs / t->p.seconds : 1)) / (double)t->p.nsteps;
	if (t->state == DT_DONE)
		frac = 1;
	doc = json_pack("{s:I,s:s,s:f,s:o,s:o,s:O,s:O,s:s,s:s,s:s,"
	    "s:{s:I,s:I,s:s,s:f,s:o},s:o,s:o,s:o,s:o,s:o}",
	    "id", (json_int_t)t->id, "state", dt_state_names[t->state],
	    "created", t->created, "started", dt_real(t->started), "ended",
	    dt_real(t->ended), "request", t->request, "forced", t->p.forced,
	    "kernel", t->kernel, "firmware", t->firmware, "box", t->box,
	    "progress", "step", (json_int_t)(t->step < t->p.nsteps ? t->step +
	    1 : t->p.nsteps), "steps", (json_int_t)t->p.nsteps, "label", label,
	    "fraction", frac, "bytes_per_s", dt_real(cur),
	    "disks", disks, "concurrent", t->p.ndisks > 1 && sumall > 0 ?
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
	for (i = 0; i < t->p.ndisks; i++) {
		for (j = 0; j < DT_NZONES; j++)
			json_decref(t->p.disks[i].zones[j]);
		json_decref(t->p.disks[i].rand[0]);
		json_decref(t->p.disks[i].rand[1]);
		json_decref(t->p.disks[i].all);
	}
	for (i = 0; i < t->p.nvols; i++) {
		dt_tmp_close(&t->p.vols[i]);
		for (j = 0; j < NP_NITEMS(t->p.vols[i].res); j++)
			json_decref(t->p.vols[i].res[j]);
	}
	json_decref(t->request);
	json_decref(t->p.forced);
	free(t);
}

/* Merge a finished test's figures into the baseline and save it. */
static void
dt_baseline_update(struct disktest *dt, const json_t *doc)
{
	if (dt->baseline == NULL && (dt->baseline = json_object()) == NULL)
		return;
	if (baseline_merge(dt->baseline, doc) == -1 ||
	    baseline_save(dt->d->state_dir, dt->baseline) == -1)
		log_warn("disktest: %s/%s", dt->d->state_dir, BASELINE_FILE);
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
	for (i = 0; i < t->p.nvols; i++)
		dt_tmp_close(&t->p.vols[i]);
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
			dt_baseline_update(dt, doc);
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
	if (++t->step == t->p.nsteps) {
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
	for (i = 0; i < t->p.nvols; i++)
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s\n",
		    t->p.vols[i].tmp);
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

	dt_plan_steps(&t->p);
	if (t->p.nsteps == 0) {
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
	    t->id, t->p.ndisks, t->p.nvols, t->p.nsteps, t->p.seconds,
	    json_array_size(t->p.forced) > 0 ? ", forced" : "");
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
	for (i = 0; i < t->p.ndisks && dts > 0; i++) {
		if ((a = diskstats_find(&t->ds0, t->p.disks[i].name)) == NULL ||
		    (b = diskstats_find(&ds, t->p.disks[i].name)) == NULL)
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
		    t->p.disks[i].name, iops, mbps, dts, cfg->dt_busy_iops,
		    cfg->dt_busy_mbps);
		if (!t->p.force) {
			log_info("disk test refused: %s", why);
			dt_refused(t, 409, "disk_busy", "%s; retry when it "
			    "is idle, or force", why);
			goto out;
		}
		json_array_append_new(t->p.forced, json_string(why));
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
	char			 msg[512];
	int			 rc = -1;

	probe_buf_init(&buf);
	if (dt->cur != NULL) {
		http_fail(e, 409, "busy", "disk test %lu is %s; one at a "
		    "time (DELETE /v1/disktests/%lu cancels it)", dt->cur->id,
		    dt_state_names[dt->cur->state], dt->cur->id);
		goto out;
	}
	if ((t = calloc(1, sizeof *t)) == NULL ||
	    (t->p.forced = json_array()) == NULL ||
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
	if (dt_plan_parse(body, d->cfg, &t->p, msg, sizeof msg) == -1) {
		http_fail(e, 400, "bad_request", "%s", msg);
		goto out;
	}
	topology_read(&d->root, topo);
	snprintf(t->kernel, sizeof t->kernel, "%s", topo->identity.kernel);
	snprintf(t->firmware, sizeof t->firmware, "%s",
	    topo->identity.firmware);
	snprintf(t->box, sizeof t->box, "%s", topo->identity.model);
	if (dt_plan_targets(d->cfg, topo, d->root.path, json_object_get(body,
	    "targets"), &t->p, e) == -1)
		goto refused;
	if (dt_plan_resync(topo, &t->p, e) == -1 ||
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
	dt->baseline = baseline_load(d->state_dir);
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

const json_t *
disktest_baseline_doc(const struct daemon *d)
{
	return (d->disktest != NULL ? d->disktest->baseline : NULL);
}

/* The baseline of a disk or a volume; see disktest.h. */
int
disktest_baseline(const struct daemon *d, const char *name, double *rd,
    double *wr, double *iops, double *when)
{
	const struct disktest	*dt = d->disktest;

	if (dt == NULL || dt->baseline == NULL) {
		*rd = *wr = *iops = 0;
		if (when != NULL)
			*when = 0;
		errno = ENOENT;
		return (-1);
	}
	return (baseline_get(dt->baseline, name, rd, wr, iops, when));
}
