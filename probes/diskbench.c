/*
 * diskbench.c: sequential and random O_DIRECT I/O with latency percentiles.
 *
 * A queue depth of N is, by default, N requests kept in flight by one
 * thread with Linux native AIO through raw system calls (no libaio): that
 * is what fio --ioengine=libaio --iodepth=N does, and it needs no thread
 * per request.  Where io_setup(2) fails (a kernel without CONFIG_AIO, or
 * aio-max-nr reached) N threads do synchronous pread/pwrite instead.
 * bench/disk-vs-fio on a 2-vCPU VM (loop devices, medians of 9 runs of
 * 2 s, ours / fio libaio), seq read 1M QD8, seq write 1M QD8, rand read 4K
 * QD1, QD32: AIO 1.018, 0.959, 0.983, 1.035; threads 0.980, 0.997, 1.001,
 * but 0.581 at QD32, where 32 threads on 2 CPUs cost more than the disk.
 *
 * Each thread keeps its own latency histogram (log-linear, 128 linear
 * steps per power of two: under 0.8 % wide, 1 ns .. 137 s), allocated
 * before the run and merged at its end, so an I/O allocates nothing and
 * takes no lock: it does two clock reads and three relaxed atomic adds.
 * A monitor thread wakes at each whole second of the run to record the
 * throughput of that second, ends a time-bounded run, then joins the
 * workers and computes the result.
 */
#include "config.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "np.h"
#include "diskbench.h"

/*
 * Histogram of nanoseconds: values below 256 have a bucket each; above,
 * each power of two [2^m, 2^(m+1)) is cut into 128 equal buckets.  Values
 * from 2^37 ns (137 s) on share the last bucket.
 */
#define DB_HIST_SUB		128
#define DB_HIST_LINEAR		(2 * DB_HIST_SUB)
#define DB_HIST_MAXLOG		37
#define DB_HIST_N		(DB_HIST_LINEAR + \
				    (DB_HIST_MAXLOG - 8) * DB_HIST_SUB)
#define DB_NSEC			1000000000ULL
#define DB_STACK		(128 * 1024)	/* per thread: no big locals */

struct diskbench_worker {		/* a thread, or an AIO slot */
	struct diskbench	*db;
	pthread_t		 tid;
	int			 started;
	void			*buf;		/* block_size, aligned */
	uint64_t		*hist;		/* DB_HIST_N counts; threads */
	uint64_t		 rng;		/* xorshift64* state */
	uint64_t		 lat_sum;	/* ns */
	uint64_t		 lat_max;	/* ns */
	uint64_t		 last_end;	/* ns after t0, last I/O */
};

struct diskbench {
	struct diskbench_spec	 spec;		/* path not kept */
	int			 fd;
	int			 direct_used;
	int			 aio;		/* 1: native AIO, one thread */
	aio_context_t		 ctx;
	struct iocb		*iocb;		/* AIO: one per slot */
	uint64_t		*t_sub;		/* AIO: submit time per slot */
	uint64_t		 off;		/* region, resolved */
	uint64_t		 nblocks;	/* whole blocks in the region */
	uint64_t		 limit_ios;	/* 0: no size bound */
	uint64_t		 t0;		/* CLOCK_MONOTONIC ns */

	atomic_uint_fast64_t	 next;		/* block claims */
	atomic_uint_fast64_t	 bytes;		/* completed */
	atomic_uint_fast64_t	 ios;
	atomic_uint_fast64_t	 last_sec;	/* bytes/s of the last second */
	atomic_uint_fast64_t	 end_ns;	/* run length once done */
	atomic_int		 stop;
	atomic_int		 cancelled;
	atomic_int		 error;		/* first errno */
	atomic_int		 running;	/* workers not yet out */
	atomic_int		 done;
	const char		*errstr;	/* set by the first error */

	pthread_mutex_t		 mtx;		/* with cond: wakes monitor */
	pthread_cond_t		 cond;
	pthread_t		 monitor;
	int			 joined;

	struct diskbench_worker	*w;		/* queue_depth of them */
	unsigned		 nw;
	unsigned		 nthreads;	/* 1 with AIO, else nw */

	double			*per_second;
	size_t			 nper, capper;
	struct diskbench_result	 res;
};

/* Set *cause to a formatted message; errno is kept. */
static NP_PRINTF(2, 3) void
diskbench_cause(char **cause, const char *fmt, ...)
{
	int	oerrno = errno;

	if (cause != NULL) {
		va_list	ap;

		va_start(ap, fmt);
		if (vasprintf(cause, fmt, ap) == -1)
			*cause = NULL;
		va_end(ap);
	}
	errno = oerrno;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static uint64_t
diskbench_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * DB_NSEC + (uint64_t)ts.tv_nsec);
}

/* One step of splitmix64: spreads a seed over all 64 bits. */
static uint64_t
diskbench_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31));
}

/* Next number of a xorshift64* generator; the state is never 0. */
static uint64_t
diskbench_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 0x2545f4914f6cdd1dULL);
}

/* The histogram bucket of ns nanoseconds. */
static unsigned
diskbench_bucket(uint64_t ns)
{
	unsigned	m, shift;

	if (ns < DB_HIST_LINEAR)
		return ((unsigned)ns);
	if (ns >= 1ULL << DB_HIST_MAXLOG)
		return (DB_HIST_N - 1);
	m = 63 - (unsigned)__builtin_clzll(ns);
	shift = m - 7;
	return (DB_HIST_LINEAR + (shift - 1) * DB_HIST_SUB +
	    (unsigned)((ns >> shift) - DB_HIST_SUB));
}

/* The middle of bucket i, in nanoseconds. */
static double
diskbench_bucket_mid(unsigned i)
{
	unsigned	shift, sub;

	if (i < DB_HIST_LINEAR)
		return ((double)i);
	shift = (i - DB_HIST_LINEAR) / DB_HIST_SUB + 1;
	sub = (i - DB_HIST_LINEAR) % DB_HIST_SUB + DB_HIST_SUB;
	return (((double)sub + 0.5) * (double)(1ULL << shift));
}

/* The latency at percentile pct of a merged histogram, in microseconds. */
static double
diskbench_percentile(const uint64_t *hist, uint64_t n, double pct,
    uint64_t max)
{
	uint64_t	want, sum = 0;
	double		v, x;
	unsigned	i;

	if (n == 0)
		return (0);
	x = pct / 100.0 * (double)n;
	if ((double)(want = (uint64_t)x) < x)
		want++;			/* ceil() without libm */
	if (want == 0)
		want = 1;
	for (i = 0; i < DB_HIST_N; i++) {
		sum += hist[i];
		if (sum >= want)
			break;
	}
	v = diskbench_bucket_mid(i);
	if (v > (double)max)
		v = (double)max;
	return (v / 1e3);
}

/* Record the first error and stop every thread. */
static void
diskbench_fail(struct diskbench *db, int error, const char *errstr)
{
	int	zero = 0;

	if (atomic_compare_exchange_strong(&db->error, &zero, error))
		db->errstr = errstr;
	atomic_store(&db->stop, 1);
	pthread_mutex_lock(&db->mtx);
	pthread_cond_signal(&db->cond);
	pthread_mutex_unlock(&db->mtx);
}

/* One whole I/O at off; -1 with errno, EIO for a short transfer. */
static int
diskbench_io(struct diskbench *db, void *buf, uint64_t off)
{
	ssize_t	n;
	size_t	bs = (size_t)db->spec.block_size;

	do {
		if (db->spec.dir == DISKBENCH_WRITE)
			n = pwrite(db->fd, buf, bs, (off_t)off);
		else
			n = pread(db->fd, buf, bs, (off_t)off);
	} while (n == -1 && errno == EINTR);
	if (n == -1)
		return (-1);
	if ((size_t)n != bs) {
		errno = EIO;
		return (-1);
	}
	return (0);
}

/*
 * The offset of the next I/O into *off, and fresh data in buf for a write;
 * -1 once stopped or at the size bound.
 */
static int
diskbench_next(struct diskbench *db, uint64_t *rng, void *buf, uint64_t *off)
{
	uint64_t	n = 0, bs = db->spec.block_size;

	if (atomic_load_explicit(&db->stop, memory_order_relaxed))
		return (-1);
	if (db->spec.pattern == DISKBENCH_SEQ || db->limit_ios != 0) {
		n = atomic_fetch_add_explicit(&db->next, 1,
		    memory_order_relaxed);
		if (db->limit_ios != 0 && n >= db->limit_ios)
			return (-1);
	}
	if (db->spec.pattern == DISKBENCH_SEQ)
		*off = db->off + (n % db->nblocks) * bs;
	else
		*off = db->off + (diskbench_rand(rng) % db->nblocks) * bs;
	if (db->spec.dir == DISKBENCH_WRITE) {
		/* No two blocks alike, for disks that compress. */
		*(uint64_t *)buf = diskbench_rand(rng);
	}
	return (0);
}

/* Count one I/O that took lat ns and ended at end (ns after t0). */
static void
diskbench_count(struct diskbench *db, struct diskbench_worker *w,
    uint64_t lat, uint64_t end)
{
	w->hist[diskbench_bucket(lat)]++;
	w->lat_sum += lat;
	if (lat > w->lat_max)
		w->lat_max = lat;
	w->last_end = end;
	atomic_fetch_add_explicit(&db->bytes, db->spec.block_size,
	    memory_order_relaxed);
	atomic_fetch_add_explicit(&db->ios, 1, memory_order_relaxed);
}

/* Why an I/O failed, for the result. */
static const char *
diskbench_why(const struct diskbench *db, int error)
{
	if (error == EIO)
		return ("I/O failed or came short (past the end?)");
	return (db->spec.dir == DISKBENCH_WRITE ? "write failed" :
	    "read failed");
}

/* The last thread out wakes the monitor. */
static void
diskbench_exit(struct diskbench *db)
{
	if (atomic_fetch_sub(&db->running, 1) == 1) {
		pthread_mutex_lock(&db->mtx);
		atomic_store(&db->stop, 1);
		pthread_cond_signal(&db->cond);
		pthread_mutex_unlock(&db->mtx);
	}
}

/* A thread: claim a block, time its I/O, count it, until told to stop. */
static void *
diskbench_worker_cb(void *arg)
{
	struct diskbench_worker	*w = arg;
	struct diskbench	*db = w->db;
	uint64_t		 off;

	while (diskbench_next(db, &w->rng, w->buf, &off) == 0) {
		uint64_t	t1, t2;

		t1 = diskbench_now();
		if (diskbench_io(db, w->buf, off) == -1) {
			diskbench_fail(db, errno, diskbench_why(db, errno));
			break;
		}
		t2 = diskbench_now();
		diskbench_count(db, w, t2 - t1, t2 - db->t0);
	}
	diskbench_exit(db);
	return (NULL);
}

/* Fill slot i's control block for its next I/O; -1 when there is none. */
static int
diskbench_aio_prep(struct diskbench *db, struct diskbench_worker *w,
    unsigned i)
{
	struct iocb	*cb = &db->iocb[i];
	uint64_t	 off;

	if (diskbench_next(db, &w->rng, db->w[i].buf, &off) == -1)
		return (-1);
	memset(cb, 0, sizeof *cb);
	cb->aio_data = i;
	cb->aio_lio_opcode = db->spec.dir == DISKBENCH_WRITE ?
	    IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	cb->aio_fildes = (uint32_t)db->fd;
	cb->aio_buf = (uint64_t)(uintptr_t)db->w[i].buf;
	cb->aio_nbytes = db->spec.block_size;
	cb->aio_offset = (int64_t)off;
	db->t_sub[i] = diskbench_now();
	return (0);
}

/* Submit n control blocks in as few calls as the kernel takes; how many. */
static unsigned
diskbench_aio_submit(struct diskbench *db, struct iocb **cbs, unsigned n)
{
	unsigned	done = 0;

	while (done < n) {
		long	rc;

		rc = syscall(SYS_io_submit, db->ctx, (long)(n - done),
		    cbs + done);
		if (rc == -1 && errno == EINTR)
			continue;
		if (rc <= 0) {
			diskbench_fail(db, rc == -1 ? errno : EIO,
			    "io_submit failed");
			break;
		}
		done += (unsigned)rc;
	}
	return (done);
}

/*
 * The AIO thread: keep every slot's request in flight, reap completions
 * (waking at least every 100 ms), count them and resubmit them together
 * until stopped; then drain what is still in flight.
 */
static void *
diskbench_aio_cb(void *arg)
{
	struct diskbench_worker	*w = arg;
	struct diskbench	*db = w->db;
	struct io_event		 ev[DISKBENCH_MAX_QD];
	struct iocb		*cbs[DISKBENCH_MAX_QD];
	struct timespec		 ts;
	uint64_t		 t2;
	unsigned		 i, m, inflight;
	long			 k;

	for (m = 0; m < db->nw; m++)
		if (diskbench_aio_prep(db, w, m) == 0)
			cbs[m] = &db->iocb[m];
		else
			break;
	inflight = diskbench_aio_submit(db, cbs, m);
	while (inflight > 0) {
		long	n;

		ts.tv_sec = 0;
		ts.tv_nsec = 100 * 1000 * 1000;
		n = syscall(SYS_io_getevents, db->ctx, 1L, (long)db->nw, ev,
		    &ts);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			/* diskbench_free()'s io_destroy() waits for them. */
			diskbench_fail(db, errno, "io_getevents failed");
			break;
		}
		t2 = diskbench_now();
		for (m = 0, k = 0; k < n; k++) {
			i = (unsigned)ev[k].data;
			inflight--;
			if (ev[k].res != (int64_t)db->spec.block_size) {
				int	e = EIO;

				if (ev[k].res < 0)
					e = (int)-ev[k].res;
				diskbench_fail(db, e, diskbench_why(db, e));
				continue;
			}
			diskbench_count(db, w, t2 - db->t_sub[i], t2 - db->t0);
			if (diskbench_aio_prep(db, w, i) == 0)
				cbs[m++] = &db->iocb[i];
		}
		if (m > 0)
			inflight += diskbench_aio_submit(db, cbs, m);
	}
	diskbench_exit(db);
	return (NULL);
}

/* Turn ns after t0 into an absolute CLOCK_MONOTONIC timespec. */
static struct timespec
diskbench_abstime(const struct diskbench *db, uint64_t ns)
{
	struct timespec	ts;

	ns += db->t0;
	ts.tv_sec = (time_t)(ns / DB_NSEC);
	ts.tv_nsec = (long)(ns % DB_NSEC);
	return (ts);
}

/* Append one second's rate; the series just stops if memory runs out. */
static void
diskbench_add_second(struct diskbench *db, double rate)
{
	double	*p;

	if (db->nper == db->capper) {
		size_t	ncap = db->capper == 0 ? 64 : db->capper * 2;

		if ((p = realloc(db->per_second, ncap * sizeof *p)) == NULL)
			return;
		db->per_second = p;
		db->capper = ncap;
	}
	db->per_second[db->nper++] = rate;
}

/* Merge the workers' histograms and fill db->res. */
static void
diskbench_finish(struct diskbench *db, uint64_t end, int timed_out)
{
	struct diskbench_result	*r = &db->res;
	uint64_t		*h = db->w[0].hist, sum = 0, max = 0, n;
	unsigned		 i, j;

	/* Thread 0's histogram becomes the total. */
	for (i = 0; i < db->nthreads; i++) {
		if (i > 0)
			for (j = 0; j < DB_HIST_N; j++)
				h[j] += db->w[i].hist[j];
		sum += db->w[i].lat_sum;
		if (db->w[i].lat_max > max)
			max = db->w[i].lat_max;
		if (db->w[i].last_end > end)
			end = db->w[i].last_end;
	}
	if (timed_out && end < (uint64_t)(db->spec.max_seconds * 1e9))
		end = (uint64_t)(db->spec.max_seconds * 1e9);
	memset(r, 0, sizeof *r);
	r->bytes = atomic_load(&db->bytes);
	r->ios = n = atomic_load(&db->ios);
	r->seconds = (double)end / 1e9;
	if (r->seconds > 0) {
		r->bytes_per_s = (double)r->bytes / r->seconds;
		r->iops = (double)r->ios / r->seconds;
	}
	r->lat_us_p50 = diskbench_percentile(h, n, 50, max);
	r->lat_us_p90 = diskbench_percentile(h, n, 90, max);
	r->lat_us_p99 = diskbench_percentile(h, n, 99, max);
	r->lat_us_p999 = diskbench_percentile(h, n, 99.9, max);
	r->lat_us_max = (double)max / 1e3;
	r->lat_us_mean = n == 0 ? 0 : (double)sum / (double)n / 1e3;
	r->per_second = db->per_second;
	r->nper_second = db->nper;
	r->direct_used = db->direct_used;
	r->engine_used = db->aio ? DISKBENCH_AIO : DISKBENCH_THREADS;
	r->cancelled = atomic_load(&db->cancelled);
	r->error = atomic_load(&db->error);
	r->errstr = r->error != 0 ? db->errstr : NULL;
	atomic_store(&db->end_ns, end);
}

/*
 * The monitor: record each whole second, stop at the deadline, then join
 * the workers, flush written data when not direct, and finish.
 */
static void *
diskbench_monitor_cb(void *arg)
{
	struct diskbench	*db = arg;
	struct timespec		 ts;
	uint64_t		 tick = DB_NSEC, deadline = 0;
	uint64_t		 prev = 0, prev_t = 0, cur, end = 0;
	double			 rate;
	int			 timed_out = 0;
	unsigned		 i;

	if (db->spec.max_seconds > 0)
		deadline = (uint64_t)(db->spec.max_seconds * 1e9);
	pthread_mutex_lock(&db->mtx);
	while (!atomic_load(&db->stop)) {
		uint64_t	wake, now;

		wake = deadline != 0 && deadline < tick ? deadline : tick;
		ts = diskbench_abstime(db, wake);
		pthread_cond_timedwait(&db->cond, &db->mtx, &ts);
		now = diskbench_now() - db->t0;
		if (now >= tick && !atomic_load(&db->stop)) {
			/* The wake-up is late by microseconds: use now. */
			cur = atomic_load(&db->bytes);
			rate = (double)(cur - prev) * 1e9 /
			    (double)(now - prev_t);
			diskbench_add_second(db, rate);
			atomic_store(&db->last_sec, (uint64_t)rate);
			prev = cur;
			prev_t = now;
			tick += DB_NSEC;
		}
		if (deadline != 0 && now >= deadline) {
			timed_out = 1;
			atomic_store(&db->stop, 1);
		}
	}
	pthread_mutex_unlock(&db->mtx);
	for (i = 0; i < db->nthreads; i++)
		pthread_join(db->w[i].tid, NULL);
	if (!db->direct_used && db->spec.dir == DISKBENCH_WRITE &&
	    atomic_load(&db->error) == 0) {
		/* Without O_DIRECT the data is on disk only after this. */
		if (fdatasync(db->fd) == -1)
			diskbench_fail(db, errno, "fdatasync failed");
		end = diskbench_now() - db->t0;
	}
	diskbench_finish(db, end, timed_out && !atomic_load(&db->cancelled));
	atomic_store(&db->done, 1);
	return (NULL);
}

/* Check the spec alone; -1 with EINVAL and a cause. */
static int
diskbench_check(const struct diskbench_spec *s, char **cause)
{
	errno = EINVAL;
	if (s->path == NULL || *s->path == '\0') {
		diskbench_cause(cause, "no path");
		return (-1);
	}
	if (s->pattern != DISKBENCH_SEQ && s->pattern != DISKBENCH_RAND) {
		diskbench_cause(cause, "unknown pattern %d", (int)s->pattern);
		return (-1);
	}
	if (s->dir != DISKBENCH_READ && s->dir != DISKBENCH_WRITE) {
		diskbench_cause(cause, "unknown direction %d", (int)s->dir);
		return (-1);
	}
	if (s->block_size == 0 || s->block_size > DISKBENCH_MAX_BS) {
		diskbench_cause(cause, "block size %llu is not in 1..%llu",
		    (unsigned long long)s->block_size, DISKBENCH_MAX_BS);
		return (-1);
	}
	if (s->direct && (s->block_size % DISKBENCH_SECTOR != 0 ||
	    s->offset % DISKBENCH_SECTOR != 0)) {
		diskbench_cause(cause, "block size %llu and offset %llu must "
		    "be multiples of %d with O_DIRECT",
		    (unsigned long long)s->block_size,
		    (unsigned long long)s->offset, DISKBENCH_SECTOR);
		return (-1);
	}
	if (s->queue_depth == 0 || s->queue_depth > DISKBENCH_MAX_QD) {
		diskbench_cause(cause, "queue depth %u is not in 1..%d",
		    s->queue_depth, DISKBENCH_MAX_QD);
		return (-1);
	}
	if (s->length != 0 && s->length < s->block_size) {
		diskbench_cause(cause, "region of %llu bytes is shorter than "
		    "a block (%llu)", (unsigned long long)s->length,
		    (unsigned long long)s->block_size);
		return (-1);
	}
	if (s->max_seconds != s->max_seconds || s->max_seconds < 0 ||
	    s->max_seconds > 1e7) {
		diskbench_cause(cause, "time bound %g is not in 0..1e7 s",
		    s->max_seconds);
		return (-1);
	}
	if (s->engine != DISKBENCH_AUTO && s->engine != DISKBENCH_AIO &&
	    s->engine != DISKBENCH_THREADS) {
		diskbench_cause(cause, "unknown engine %d", (int)s->engine);
		return (-1);
	}
	if (s->max_bytes != 0 && s->max_bytes < s->block_size) {
		diskbench_cause(cause, "size bound %llu is less than a block "
		    "(%llu)", (unsigned long long)s->max_bytes,
		    (unsigned long long)s->block_size);
		return (-1);
	}
	errno = 0;
	return (0);
}

/* Open path for writing: only ever a regular file; -1 with errno. */
static int
diskbench_open_write(const char *path, int flags, char **cause)
{
	struct stat	 st, st2;
	char		 self[64];
	int		 fd, wfd, oerrno;

	/*
	 * Open (or create) read-only first and look at what it is: a path
	 * naming a device is never opened for writing, not even briefly.
	 * The write descriptor is then opened on that very inode.
	 */
	fd = open(path, O_RDONLY | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC,
	    0600);
	if (fd == -1) {
		diskbench_cause(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &st) == -1) {
		diskbench_cause(cause, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EPERM;
		diskbench_cause(cause, "%s: writes go only to a regular file",
		    path);
		goto fail;
	}
	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	wfd = open(self, O_WRONLY | O_CLOEXEC | flags);
	if (wfd == -1 && errno == ENOENT)
		wfd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | flags);
	if (wfd == -1) {
		if (errno != EINVAL)
			diskbench_cause(cause, "%s: %s", path,
			    strerror(errno));
		goto fail;
	}
	if (fstat(wfd, &st2) == -1 || st2.st_dev != st.st_dev ||
	    st2.st_ino != st.st_ino) {
		close(wfd);
		errno = EPERM;
		diskbench_cause(cause, "%s: changed while being opened", path);
		goto fail;
	}
	close(fd);
	return (wfd);
fail:
	oerrno = errno;
	close(fd);
	errno = oerrno;
	return (-1);
}

/*
 * Run on a duplicate of the caller's descriptor (use_fd): only a regular
 * file, open for writing if the run writes.  O_DIRECT is set with fcntl(2)
 * where asked and allowed, and cleared otherwise.  -1 with errno and a
 * cause.
 */
static int
diskbench_open_fd(struct diskbench *db, char **cause)
{
	const struct diskbench_spec	*s = &db->spec;
	struct stat			 st;
	int				 fd, fl, direct, oerrno;

	if ((fd = fcntl(s->fd, F_DUPFD_CLOEXEC, 0)) == -1) {
		diskbench_cause(cause, "%s: %s", s->path, strerror(errno));
		return (-1);
	}
	if (fstat(fd, &st) == -1 || (fl = fcntl(fd, F_GETFL)) == -1) {
		diskbench_cause(cause, "%s: %s", s->path, strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EPERM;
		diskbench_cause(cause, "%s: a descriptor is taken only of a "
		    "regular file", s->path);
		goto fail;
	}
	if (s->dir == DISKBENCH_WRITE && (fl & O_ACCMODE) == O_RDONLY) {
		errno = EBADF;
		diskbench_cause(cause, "%s: not open for writing", s->path);
		goto fail;
	}
	/* Filesystems without O_DIRECT (tmpfs < 6.6) say EINVAL. */
	for (direct = s->direct; direct >= 0; direct--) {
		if (fcntl(fd, F_SETFL, direct ? fl | O_DIRECT :
		    fl & ~O_DIRECT) == 0)
			break;
		if (errno != EINVAL || !direct) {
			diskbench_cause(cause, "%s: %s", s->path,
			    strerror(errno));
			goto fail;
		}
	}
	db->fd = fd;
	db->direct_used = direct > 0;
	return (0);
fail:
	oerrno = errno;
	close(fd);
	errno = oerrno;
	return (-1);
}

/*
 * Open the spec's path: devices read-only whatever the spec says, O_DIRECT
 * when asked and allowed.  -1 with errno and a cause.
 */
static int
diskbench_open(struct diskbench *db, char **cause)
{
	const struct diskbench_spec	*s = &db->spec;
	const char			*path = s->path;
	struct stat			 st;
	int				 raw = s->is_raw_device, direct;
	int				 fd = -1, oerrno;

	if (s->use_fd)
		return (diskbench_open_fd(db, cause));
	if (stat(path, &st) == 0 && (S_ISBLK(st.st_mode) ||
	    S_ISCHR(st.st_mode)))
		raw = 1;
	if (raw && s->dir == DISKBENCH_WRITE) {
		errno = EPERM;
		diskbench_cause(cause, "%s: writes to a raw device are refused",
		    path);
		return (-1);
	}
	for (direct = s->direct; direct >= 0; direct--) {
		if (s->dir == DISKBENCH_WRITE) {
			if (cause != NULL)
				*cause = NULL;
			fd = diskbench_open_write(path,
			    direct ? O_DIRECT : 0, cause);
			if (fd == -1 && cause != NULL && *cause != NULL)
				return (-1);
		} else
			fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC |
			    (direct ? O_DIRECT : 0));
		/* Filesystems without O_DIRECT (tmpfs < 6.6) say EINVAL. */
		if (fd != -1 || errno != EINVAL || !direct)
			break;
	}
	if (fd == -1) {
		diskbench_cause(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	db->fd = fd;
	db->direct_used = direct > 0;
	if (fstat(fd, &st) == -1)
		goto fail;
	if (S_ISBLK(st.st_mode) && direct) {
		int	ssz;

		/* A 4Kn disk refuses O_DIRECT I/O below 4 KiB. */
		if (ioctl(fd, BLKSSZGET, &ssz) == 0 && ssz > 0 &&
		    (s->block_size % (unsigned)ssz != 0 ||
		    s->offset % (unsigned)ssz != 0)) {
			errno = EINVAL;
			diskbench_cause(cause, "%s: block size and offset "
			    "must be multiples of its %d-byte sectors", path,
			    ssz);
			goto out;
		}
	}
	return (0);
fail:
	diskbench_cause(cause, "%s: %s", path, strerror(errno));
out:
	oerrno = errno;
	close(fd);
	db->fd = -1;
	errno = oerrno;
	return (-1);
}

/* Resolve the region against the size of what was opened. */
static int
diskbench_region(struct diskbench *db, char **cause)
{
	const struct diskbench_spec	*s = &db->spec;
	off_t				 end;
	uint64_t			 size, len;

	if ((end = lseek(db->fd, 0, SEEK_END)) == -1) {
		diskbench_cause(cause, "%s: %s", s->path, strerror(errno));
		return (-1);
	}
	size = (uint64_t)end;
	len = s->length;
	if (len == 0)
		len = size > s->offset ? size - s->offset : 0;
	errno = EINVAL;
	if (len < s->block_size) {
		diskbench_cause(cause, "%s: region of %llu bytes at %llu is "
		    "shorter than a block (%llu bytes; the size is %llu)",
		    s->path, (unsigned long long)len,
		    (unsigned long long)s->offset,
		    (unsigned long long)s->block_size,
		    (unsigned long long)size);
		return (-1);
	}
	if (s->dir == DISKBENCH_READ && (s->offset > size ||
	    len > size - s->offset)) {
		diskbench_cause(cause, "%s: region %llu+%llu ends past the "
		    "end (%llu bytes)", s->path,
		    (unsigned long long)s->offset, (unsigned long long)len,
		    (unsigned long long)size);
		return (-1);
	}
	if (s->offset > UINT64_MAX - len || s->offset + len >
	    (uint64_t)INT64_MAX) {
		diskbench_cause(cause, "region too large");
		return (-1);
	}
	errno = 0;
	db->off = s->offset;
	db->nblocks = len / s->block_size;
	db->limit_ios = s->max_bytes / s->block_size;
	if (s->dir == DISKBENCH_READ && !db->direct_used) {
		/* The page cache would answer instead of the disk. */
		(void)posix_fadvise(db->fd, (off_t)db->off,
		    (off_t)(db->nblocks * s->block_size), POSIX_FADV_DONTNEED);
	}
	return (0);
}

/* Allocate a worker's buffer and histogram; -1 with errno. */
static int
diskbench_worker_init(struct diskbench *db, unsigned i)
{
	struct diskbench_worker	*w = &db->w[i];
	uint64_t		*p, j;
	int			 rc;

	w->db = db;
	w->rng = diskbench_mix(db->spec.seed + i);
	if (w->rng == 0)
		w->rng = 1;
	if ((rc = posix_memalign(&w->buf, 4096,
	    (size_t)db->spec.block_size)) != 0) {
		w->buf = NULL;
		errno = rc;
		return (-1);
	}
	/* Random data to write, and no lazily mapped pages when reading. */
	p = w->buf;
	for (j = 0; j < db->spec.block_size / sizeof *p; j++)
		p[j] = diskbench_rand(&w->rng);
	memset((char *)w->buf + j * sizeof *p, 0xa5,
	    (size_t)(db->spec.block_size % sizeof *p));
	if (i < db->nthreads &&
	    (w->hist = calloc(DB_HIST_N, sizeof *w->hist)) == NULL)
		return (-1);
	return (0);
}

/* Set up native AIO for the run unless threads were asked for. */
static int
diskbench_aio_init(struct diskbench *db, char **cause)
{
	if (db->spec.engine == DISKBENCH_THREADS)
		return (0);
#ifdef SYS_io_getevents
	if (syscall(SYS_io_setup, db->spec.queue_depth, &db->ctx) == 0) {
		db->aio = 1;
		db->iocb = calloc(db->spec.queue_depth, sizeof *db->iocb);
		db->t_sub = calloc(db->spec.queue_depth, sizeof *db->t_sub);
		if (db->iocb == NULL || db->t_sub == NULL) {
			diskbench_cause(cause, "%s", strerror(errno));
			return (-1);
		}
		return (0);
	}
#else
	errno = ENOSYS;		/* 32-bit arches with only the time64 call */
#endif
	/* ENOSYS: no CONFIG_AIO; EAGAIN: aio-max-nr reached. */
	if (db->spec.engine == DISKBENCH_AIO) {
		diskbench_cause(cause, "native AIO: %s", strerror(errno));
		return (-1);
	}
	return (0);
}

/* Release the AIO context (waiting for what is in flight) and slots. */
static void
diskbench_aio_free(struct diskbench *db)
{
	if (db->aio)
		(void)syscall(SYS_io_destroy, db->ctx);
	free(db->iocb);
	free(db->t_sub);
}

/* Stop and join whatever threads were started, before start fails. */
static void
diskbench_abort(struct diskbench *db)
{
	unsigned	i;

	atomic_store(&db->stop, 1);
	for (i = 0; i < db->nthreads; i++)
		if (db->w[i].started)
			pthread_join(db->w[i].tid, NULL);
	db->joined = 1;
}

/* Check spec, open its path and start the threads. */
struct diskbench *
diskbench_start(const struct diskbench_spec *spec, char **cause)
{
	struct diskbench	*db;
	pthread_attr_t		 attr;
	pthread_condattr_t	 cattr;
	unsigned		 i;
	int			 rc, oerrno, sync_ok = 0;

	if (cause != NULL)
		*cause = NULL;
	if (diskbench_check(spec, cause) == -1)
		return (NULL);
	if ((db = calloc(1, sizeof *db)) == NULL) {
		diskbench_cause(cause, "%s", strerror(errno));
		return (NULL);
	}
	db->spec = *spec;
	db->fd = -1;
	db->joined = 1;
	if (diskbench_open(db, cause) == -1 ||
	    diskbench_region(db, cause) == -1)
		goto fail;
	db->spec.path = NULL;	/* borrowed: not kept */

	if (diskbench_aio_init(db, cause) == -1)
		goto fail;
	db->nw = spec->queue_depth;
	db->nthreads = db->aio ? 1 : db->nw;
	if ((db->w = calloc(db->nw, sizeof *db->w)) == NULL)
		goto fail_errno;
	for (i = 0; i < db->nw; i++)
		if (diskbench_worker_init(db, i) == -1)
			goto fail_errno;

	if ((rc = pthread_condattr_init(&cattr)) != 0) {
		errno = rc;
		goto fail_errno;
	}
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&db->cond, &cattr);
	pthread_condattr_destroy(&cattr);
	if (rc != 0) {
		errno = rc;
		goto fail_errno;
	}
	if ((rc = pthread_mutex_init(&db->mtx, NULL)) != 0) {
		pthread_cond_destroy(&db->cond);
		errno = rc;
		goto fail_errno;
	}
	sync_ok = 1;

	if ((rc = pthread_attr_init(&attr)) != 0) {
		errno = rc;
		goto fail_errno;
	}
	pthread_attr_setstacksize(&attr, DB_STACK);
	db->joined = 0;
	atomic_store(&db->running, (int)db->nthreads);
	db->t0 = diskbench_now();
	for (i = 0; i < db->nthreads; i++) {
		rc = pthread_create(&db->w[i].tid, &attr, db->aio ?
		    diskbench_aio_cb : diskbench_worker_cb, &db->w[i]);
		if (rc != 0)
			break;
		db->w[i].started = 1;
	}
	if (rc == 0)
		rc = pthread_create(&db->monitor, &attr, diskbench_monitor_cb,
		    db);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		diskbench_abort(db);
		errno = rc;
		goto fail_errno;
	}
	return (db);

fail_errno:
	diskbench_cause(cause, "%s", strerror(errno));
fail:
	oerrno = errno;
	if (sync_ok) {
		pthread_mutex_destroy(&db->mtx);
		pthread_cond_destroy(&db->cond);
	}
	diskbench_aio_free(db);
	if (db->w != NULL) {
		for (i = 0; i < db->nw; i++) {
			free(db->w[i].buf);
			free(db->w[i].hist);
		}
		free(db->w);
	}
	if (db->fd != -1)
		close(db->fd);
	free(db);
	errno = oerrno;
	return (NULL);
}

/* Progress so far: atomic reads only. */
int
diskbench_poll(struct diskbench *db, struct diskbench_progress *p)
{
	memset(p, 0, sizeof *p);
	p->done = atomic_load(&db->done);
	p->bytes = atomic_load_explicit(&db->bytes, memory_order_relaxed);
	p->ios = atomic_load_explicit(&db->ios, memory_order_relaxed);
	if (p->done)
		p->seconds = (double)atomic_load(&db->end_ns) / 1e9;
	else
		p->seconds = (double)(diskbench_now() - db->t0) / 1e9;
	p->bytes_per_s = (double)atomic_load_explicit(&db->last_sec,
	    memory_order_relaxed);
	return (0);
}

/* Stop the threads after their current I/O. */
void
diskbench_cancel(struct diskbench *db)
{
	if (db == NULL || atomic_load(&db->done))
		return;
	pthread_mutex_lock(&db->mtx);
	atomic_store(&db->cancelled, 1);
	atomic_store(&db->stop, 1);
	pthread_cond_signal(&db->cond);
	pthread_mutex_unlock(&db->mtx);
}

/* Join the run and copy its result. */
int
diskbench_wait(struct diskbench *db, struct diskbench_result *r)
{
	if (!db->joined) {
		pthread_join(db->monitor, NULL);
		db->joined = 1;
	}
	if (r != NULL)
		*r = db->res;
	if (db->res.error != 0) {
		errno = db->res.error;
		return (-1);
	}
	return (0);
}

/* Release a run, stopping it first. */
void
diskbench_free(struct diskbench *db)
{
	unsigned	i;

	if (db == NULL)
		return;
	if (!db->joined) {
		diskbench_cancel(db);
		(void)diskbench_wait(db, NULL);
	}
	pthread_mutex_destroy(&db->mtx);
	pthread_cond_destroy(&db->cond);
	diskbench_aio_free(db);		/* before the buffers it may fill */
	for (i = 0; i < db->nw; i++) {
		free(db->w[i].buf);
		free(db->w[i].hist);
	}
	free(db->w);
	free(db->per_second);
	if (db->fd != -1)
		close(db->fd);
	free(db);
}
