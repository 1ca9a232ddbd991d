/*
 * t_diskbench.c: the disk benchmark engine on a temporary regular file.
 *
 * No root needed: the file lives in $TMPDIR (or /tmp) and is filled with
 * random data first.  Runs are bounded by size, so the checks are exact,
 * except for the time-bounded and cancelled runs, which are checked only
 * for having stopped (and cancel loosely, within 3 s).
 */
#include "config.h"

#include <fcntl.h>
#include <time.h>

#include "test.h"
#include "diskbench.h"

#define FILE_SIZE	(8ULL * 1024 * 1024)

static char	tmpdir[4096], datapath[4096 + 16];
static enum diskbench_engine engine;	/* of the runs made by spec_read() */

/* A spec reading the data file: 64 KiB blocks, queue depth 1, O_DIRECT. */
static struct diskbench_spec
spec_read(void)
{
	struct diskbench_spec	s;

	memset(&s, 0, sizeof s);
	s.path = datapath;
	s.pattern = DISKBENCH_SEQ;
	s.dir = DISKBENCH_READ;
	s.block_size = 64 * 1024;
	s.queue_depth = 1;
	s.direct = 1;
	s.seed = 42;
	s.engine = engine;
	return (s);
}

/* Run s to its end; the result in r, and wait's return value. */
static int
run(const struct diskbench_spec *s, struct diskbench_result *r)
{
	struct diskbench	*db;
	char			*cause;
	int			 rc;

	memset(r, 0, sizeof *r);
	if ((db = diskbench_start(s, &cause)) == NULL) {
		printf("# start: %s\n", cause != NULL ? cause : "?");
		free(cause);
		return (-2);
	}
	rc = diskbench_wait(db, r);
	r->per_second = NULL;	/* freed below */
	diskbench_free(db);
	return (rc);
}

/* Start s, which must fail with errno want and a cause naming why. */
static void
refused(const struct diskbench_spec *s, int want, const char *word)
{
	struct diskbench	*db;
	char			*cause = NULL;

	errno = 0;
	db = diskbench_start(s, &cause);
	T_TRUE(db == NULL);
	T_EQ_INT(errno, want);
	t_check(cause != NULL && strstr(cause, word) != NULL,
	    "the cause says why", __FILE__, __LINE__, "cause \"%s\", want "
	    "\"%s\" in it", cause != NULL ? cause : "(null)", word);
	free(cause);
	diskbench_free(db);
}

/* Make the temporary file, full of random bytes. */
static void
setup(void)
{
	const char	*tmp;
	uint64_t	 x = 88172645463325252ULL, buf[512];
	FILE		*f;
	size_t		 i, n;

	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(tmpdir, sizeof tmpdir, "%s/t_diskbench.XXXXXX", tmp);
	if (mkdtemp(tmpdir) == NULL) {
		printf("Bail out! mkdtemp %s: %s\n", tmpdir, strerror(errno));
		exit(1);
	}
	snprintf(datapath, sizeof datapath, "%s/data", tmpdir);
	if ((f = fopen(datapath, "w")) == NULL) {
		printf("Bail out! %s: %s\n", datapath, strerror(errno));
		exit(1);
	}
	for (n = 0; n < FILE_SIZE; n += sizeof buf) {
		for (i = 0; i < NP_NITEMS(buf); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		fwrite(buf, sizeof buf, 1, f);
	}
	if (fclose(f) != 0) {
		printf("Bail out! %s: %s\n", datapath, strerror(errno));
		exit(1);
	}
}

/* Specs that make no sense are refused with EINVAL before any I/O. */
static void
t_bad_specs(void)
{
	struct diskbench_spec	s;

	s = spec_read();
	s.block_size = 0;
	refused(&s, EINVAL, "block size 0");
	s = spec_read();
	s.block_size = 1000;
	refused(&s, EINVAL, "multiples of 512");
	s = spec_read();
	s.offset = 100;
	refused(&s, EINVAL, "multiples of 512");
	s = spec_read();
	s.block_size = 32ULL * 1024 * 1024;
	refused(&s, EINVAL, "block size");
	s = spec_read();
	s.queue_depth = 0;
	refused(&s, EINVAL, "queue depth 0");
	s = spec_read();
	s.queue_depth = DISKBENCH_MAX_QD + 1;
	refused(&s, EINVAL, "queue depth 257");
	s = spec_read();
	s.length = 4096;
	refused(&s, EINVAL, "shorter than a block");
	s = spec_read();
	s.offset = FILE_SIZE - 4096;
	refused(&s, EINVAL, "shorter than a block");
	s = spec_read();
	s.offset = 1024 * 1024;
	s.length = FILE_SIZE;
	refused(&s, EINVAL, "past the end");
	s = spec_read();
	s.max_bytes = 512;
	refused(&s, EINVAL, "size bound");
	s = spec_read();
	s.max_seconds = -1;
	refused(&s, EINVAL, "time bound");
	s = spec_read();
	s.path = NULL;
	refused(&s, EINVAL, "no path");
	s = spec_read();
	s.path = "/nonexistent/t_diskbench";
	refused(&s, ENOENT, "No such file");
	/* Without O_DIRECT any block size will do. */
	s = spec_read();
	s.direct = 0;
	s.block_size = 1000;
	s.max_bytes = 10000;
	T_EQ_INT(run(&s, &(struct diskbench_result){ 0 }), 0);
}

/* Writes to a device, or to a path flagged raw, are refused. */
static void
t_raw(void)
{
	struct diskbench_spec	s;
	struct diskbench_result	r;
	struct stat		st1, st2;
	char			fifo[4096 + 16];

	T_OK(stat(datapath, &st1));
	s = spec_read();
	s.dir = DISKBENCH_WRITE;
	s.is_raw_device = 1;
	s.max_bytes = 1024 * 1024;
	refused(&s, EPERM, "raw device");
	T_OK(stat(datapath, &st2));
	T_TRUE(st1.st_mtime == st2.st_mtime && st1.st_size == st2.st_size);
	s.is_raw_device = 0;
	s.path = "/dev/null";
	refused(&s, EPERM, "raw device");
	snprintf(fifo, sizeof fifo, "%s/fifo", tmpdir);
	T_OK(mkfifo(fifo, 0600));
	s.path = fifo;
	refused(&s, EPERM, "regular file");
	unlink(fifo);
	/* Flagged raw, reading is fine (and opens read-only). */
	s = spec_read();
	s.is_raw_device = 1;
	s.max_bytes = 1024 * 1024;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.bytes, 1024 * 1024);
}

/* Size-bounded reads give exactly the bytes asked for. */
static void
t_size_bound(void)
{
	struct diskbench_spec	s;
	struct diskbench_result	r;

	s = spec_read();
	s.max_bytes = 3 * 1024 * 1024;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.bytes, 3 * 1024 * 1024);
	T_EQ_U64(r.ios, r.bytes / s.block_size);
	T_EQ_INT(r.error, 0);
	T_TRUE(r.errstr == NULL);
	T_EQ_INT(r.cancelled, 0);
	T_EQ_INT(r.direct_used, 1);
	T_EQ_INT(r.engine_used, engine);
	T_TRUE(r.seconds > 0);
	T_NEAR(r.bytes_per_s, (double)r.bytes / r.seconds, 1e-6);
	T_NEAR(r.iops, (double)r.ios / r.seconds, 1e-6);

	/* Eight threads, a size that is not whole blocks: rounded down. */
	s.queue_depth = 8;
	s.block_size = 4096;
	s.max_bytes = 1000 * 4096 + 100;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.ios, 1000);
	T_EQ_U64(r.bytes, 1000 * 4096);

	/* More than the region: sequential wraps around. */
	s = spec_read();
	s.queue_depth = 3;
	s.offset = 1024 * 1024;
	s.length = 1024 * 1024;
	s.max_bytes = 5 * 1024 * 1024;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.bytes, 5 * 1024 * 1024);

	/* Random reads in the last 64 KiB: one block past it would fail. */
	s = spec_read();
	s.pattern = DISKBENCH_RAND;
	s.block_size = 4096;
	s.queue_depth = 4;
	s.offset = FILE_SIZE - 64 * 1024;
	s.max_bytes = 2000 * 4096;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.ios, 2000);
	T_EQ_INT(r.error, 0);
}

/* Latency percentiles are in order and inside [0, max]. */
static void
t_latency(void)
{
	struct diskbench_spec	s;
	struct diskbench_result	r;

	s = spec_read();
	s.pattern = DISKBENCH_RAND;
	s.block_size = 4096;
	s.queue_depth = 4;
	s.max_bytes = 4000 * 4096;
	T_EQ_INT(run(&s, &r), 0);
	T_TRUE(r.lat_us_p50 > 0);
	T_TRUE(r.lat_us_p50 <= r.lat_us_p90);
	T_TRUE(r.lat_us_p90 <= r.lat_us_p99);
	T_TRUE(r.lat_us_p99 <= r.lat_us_p999);
	T_TRUE(r.lat_us_p999 <= r.lat_us_max);
	T_TRUE(r.lat_us_mean > 0 && r.lat_us_mean <= r.lat_us_max);
}

/*
 * Random writes stay in their region, block-aligned: around it the file
 * stays zero; inside, each 4 KiB block is either untouched (zero) or
 * wholly random data.
 */
static void
t_write_region(void)
{
	struct diskbench_spec	 s;
	struct diskbench_result	 r;
	char			 wpath[4096 + 16];
	unsigned char		*buf;
	uint64_t		 w;
	size_t			 i, j, size = 256 * 1024, zeros, hit = 0;
	int			 fd, bad = 0;

	snprintf(wpath, sizeof wpath, "%s/region", tmpdir);
	buf = calloc(1, size);
	fd = open(wpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	T_TRUE(fd != -1 && write(fd, buf, size) == (ssize_t)size);
	close(fd);

	s = spec_read();
	s.path = wpath;
	s.dir = DISKBENCH_WRITE;
	s.pattern = DISKBENCH_RAND;
	s.block_size = 4096;
	s.queue_depth = 2;
	s.offset = 64 * 1024;
	s.length = 64 * 1024;
	s.max_bytes = 256 * 4096;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.ios, 256);

	fd = open(wpath, O_RDONLY);
	T_TRUE(fd != -1 && read(fd, buf, size) == (ssize_t)size);
	close(fd);
	for (i = 0; i < size; i += 4096) {
		for (zeros = 0, j = 0; j < 4096; j += sizeof w) {
			memcpy(&w, buf + i + j, sizeof w);
			zeros += w == 0;
		}
		if (i < s.offset || i >= s.offset + s.length)
			bad += zeros != 4096 / sizeof w;
		else if (zeros == 0)
			hit++;
		else
			bad += zeros != 4096 / sizeof w;
	}
	T_EQ_INT(bad, 0);
	T_TRUE(hit > 0);
	free(buf);

	/* A new file, written sequentially, has the length asked. */
	snprintf(wpath, sizeof wpath, "%s/new", tmpdir);
	s.path = wpath;
	s.pattern = DISKBENCH_SEQ;
	s.offset = 0;
	s.length = 512 * 1024;
	s.max_bytes = 512 * 1024;
	s.block_size = 128 * 1024;
	s.queue_depth = 4;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.bytes, 512 * 1024);
	{
		struct stat	st;

		T_OK(stat(wpath, &st));
		T_EQ_U64(st.st_size, 512 * 1024);
	}
	/* Buffered writes (flushed at the end) count the same. */
	s.direct = 0;
	T_EQ_INT(run(&s, &r), 0);
	T_EQ_U64(r.bytes, 512 * 1024);
	T_EQ_INT(r.direct_used, 0);
	unlink(wpath);
	snprintf(wpath, sizeof wpath, "%s/region", tmpdir);
	unlink(wpath);
}

/* A time-bounded run stops by itself, after the time asked. */
static void
t_time_bound(void)
{
	struct diskbench_spec		 s;
	struct diskbench_result		 r;
	struct diskbench_progress	 p;
	struct diskbench		*db;
	char				*cause;
	size_t				 i;
	int				 ok = 1;

	s = spec_read();
	s.pattern = DISKBENCH_RAND;
	s.block_size = 4096;
	s.queue_depth = 2;
	s.max_seconds = 1.3;
	db = diskbench_start(&s, &cause);
	T_TRUE(db != NULL);
	if (db == NULL) {
		free(cause);
		return;
	}
	T_EQ_INT(diskbench_wait(db, &r), 0);
	T_TRUE(r.seconds >= 1.3);
	T_EQ_INT(r.cancelled, 0);
	T_TRUE(r.ios > 0);
	T_EQ_U64(r.bytes, r.ios * 4096);
	/* One figure for the one whole second. */
	T_EQ_INT(r.nper_second, 1);
	for (i = 0; i < r.nper_second; i++)
		ok &= r.per_second[i] > 0;
	T_TRUE(ok);
	T_OK(diskbench_poll(db, &p));
	T_EQ_INT(p.done, 1);
	T_EQ_U64(p.bytes, r.bytes);
	T_EQ_U64(p.ios, r.ios);
	T_NEAR(p.seconds, r.seconds, 1e-6);
	diskbench_free(db);
}

/* Cancel stops an unbounded run promptly. */
static void
t_cancel(void)
{
	struct diskbench_spec		 s;
	struct diskbench_result		 r;
	struct diskbench_progress	 p;
	struct diskbench		*db;
	struct timespec			 t1, t2;
	char				*cause;
	int				 i;

	s = spec_read();
	s.pattern = DISKBENCH_RAND;
	s.block_size = 4096;
	s.queue_depth = 16;
	db = diskbench_start(&s, &cause);
	T_TRUE(db != NULL);
	if (db == NULL) {
		free(cause);
		return;
	}
	for (i = 0; i < 500; i++) {
		(void)diskbench_poll(db, &p);
		if (p.bytes > 0)
			break;
		usleep(10000);
	}
	T_TRUE(p.bytes > 0 && !p.done);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	diskbench_cancel(db);
	T_EQ_INT(diskbench_wait(db, &r), 0);
	clock_gettime(CLOCK_MONOTONIC, &t2);
	T_EQ_INT(r.cancelled, 1);
	T_TRUE(r.ios > 0);
	T_TRUE((double)(t2.tv_sec - t1.tv_sec) +
	    (double)(t2.tv_nsec - t1.tv_nsec) / 1e9 < 3.0);
	diskbench_cancel(db);		/* after the end: nothing */
	diskbench_free(db);

	/* Freed while running: cancelled and joined. */
	db = diskbench_start(&s, &cause);
	T_TRUE(db != NULL);
	diskbench_free(db);
}

int
main(void)
{
	struct diskbench_spec	s;
	struct diskbench_result	r;

	setup();
	t_bad_specs();
	s = spec_read();
	s.engine = 7;
	refused(&s, EINVAL, "unknown engine");

	/* Native AIO where the kernel has it, then threads. */
	s = spec_read();
	s.max_bytes = 1024 * 1024;
	s.engine = DISKBENCH_AIO;
	if (run(&s, &r) == -2) {
		t_skip("no native AIO here");
		engine = DISKBENCH_THREADS;
	} else {
		T_EQ_INT(r.engine_used, DISKBENCH_AIO);
		s.engine = DISKBENCH_AUTO;
		T_EQ_INT(run(&s, &r), 0);
		T_EQ_INT(r.engine_used, DISKBENCH_AIO);
		engine = DISKBENCH_AIO;
	}
	for (;;) {
		printf("# engine %s\n", engine == DISKBENCH_AIO ? "aio" :
		    "threads");
		t_raw();
		t_size_bound();
		t_latency();
		t_write_region();
		t_time_bound();
		t_cancel();
		if (engine == DISKBENCH_THREADS)
			break;
		engine = DISKBENCH_THREADS;
	}
	unlink(datapath);
	rmdir(tmpdir);
	return (t_done());
}
