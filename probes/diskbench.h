/*
 * diskbench.h: the disk benchmark engine.
 *
 * One run reads or writes a region of a device or file, sequentially or at
 * random block-aligned offsets, with O_DIRECT, a block size and a queue
 * depth, until a time or a byte count is reached or it is cancelled.  A
 * queue depth of N is either N requests kept in flight by one thread with
 * Linux native AIO (io_submit(2), raw system calls, since 2.6), or N
 * threads each doing synchronous pread(2)/pwrite(2).  Either way a
 * sequential run takes the next block from one shared counter, so the
 * device sees one sequential stream with N requests in flight.
 *
 * diskbench_start() checks the spec, opens the path, allocates everything
 * and starts the threads; it returns at once.  diskbench_poll() reads the
 * progress without blocking, diskbench_cancel() stops the run between two
 * I/Os, diskbench_wait() joins it and gives the result.
 *
 * Safety: a block or character device, or a spec flagged is_raw_device,
 * is opened O_RDONLY and a write run on it is refused with EPERM, whatever
 * the caller says.  Writes go only to a regular file.  A spec with use_fd
 * runs on a duplicate of the caller's descriptor, which must be a regular
 * file, and never opens its path: a caller that created its file with
 * O_EXCL keeps it whatever is later renamed over the path.  O_DIRECT is
 * then set or cleared on the file description the two share.
 *
 * Nothing here logs or exits; errors are -1/NULL with errno set, and a
 * cause for people (caller frees).  Uses libc and POSIX threads only.
 */
#ifndef DISKBENCH_H
#define DISKBENCH_H

#include <stddef.h>
#include <stdint.h>

#define DISKBENCH_MAX_QD	256	/* threads */
#define DISKBENCH_MAX_BS	(16ULL * 1024 * 1024)	/* bounds a cancel */
#define DISKBENCH_SECTOR	512	/* O_DIRECT alignment asked of specs */

enum diskbench_pattern {
	DISKBENCH_SEQ,
	DISKBENCH_RAND
};

enum diskbench_dir {
	DISKBENCH_READ,
	DISKBENCH_WRITE
};

enum diskbench_engine {
	DISKBENCH_AUTO,			/* AIO, else threads */
	DISKBENCH_AIO,			/* native AIO only */
	DISKBENCH_THREADS		/* pread/pwrite threads */
};

struct diskbench_spec {
	const char		*path;		/* borrowed during start */
	int			 use_fd;	/* 1: run on fd, never open path */
	int			 fd;		/* a regular file; path names it */
	int			 is_raw_device;	/* 1: O_RDONLY, no writes */
	enum diskbench_pattern	 pattern;
	enum diskbench_dir	 dir;
	uint64_t		 block_size;	/* bytes */
	unsigned		 queue_depth;	/* 1 .. DISKBENCH_MAX_QD */
	uint64_t		 offset;	/* bytes: start of the region */
	uint64_t		 length;	/* bytes; 0: to the end */
	double			 max_seconds;	/* 0: no time bound */
	uint64_t		 max_bytes;	/* 0: no size bound */
	int			 direct;	/* 1: ask for O_DIRECT */
	uint64_t		 seed;		/* random offsets and data */
	enum diskbench_engine	 engine;
};

struct diskbench_progress {
	uint64_t	bytes;		/* completed so far */
	uint64_t	ios;
	double		seconds;	/* since the start */
	double		bytes_per_s;	/* over the last whole second, or 0 */
	int		done;		/* 1: over; wait won't block */
};

struct diskbench_result {
	uint64_t	 bytes;		/* completed */
	uint64_t	 ios;
	double		 seconds;	/* start to last completion */
	double		 bytes_per_s;
	double		 iops;
	double		 lat_us_p50;	/* per-I/O latency, +-0.8 % */
	double		 lat_us_p90;
	double		 lat_us_p99;
	double		 lat_us_p999;
	double		 lat_us_max;	/* exact */
	double		 lat_us_mean;	/* exact */
	const double	*per_second;	/* bytes/s of each whole second */
	size_t		 nper_second;	/* borrowed, valid until free */
	int		 direct_used;	/* 0: O_DIRECT refused, page cache */
	enum diskbench_engine engine_used; /* DISKBENCH_AIO or _THREADS */
	int		 cancelled;	/* 1: diskbench_cancel() stopped it */
	int		 error;		/* errno of a failed I/O, or 0 */
	const char	*errstr;	/* what failed, static; NULL if none */
};

struct diskbench;

/*
 * Check spec, open its path and start the run; returns at once.  NULL with
 * errno (EINVAL for a bad spec, EPERM for a write to a device, ENOSYS for
 * DISKBENCH_AIO where the kernel has none) and *cause set to a message
 * the caller frees.
 */
struct diskbench *diskbench_start(const struct diskbench_spec *,
	    char **cause);
/* Progress so far, without blocking or locking; 0. */
int	diskbench_poll(struct diskbench *, struct diskbench_progress *);
/* Ask the threads to stop after their current I/O; returns at once. */
void	diskbench_cancel(struct diskbench *);
/*
 * Wait for the end of the run and fill the result; 0, or -1 with errno
 * when an I/O failed (the result then holds what was done before).
 */
int	diskbench_wait(struct diskbench *, struct diskbench_result *);
/* Cancel and wait if still running, then release everything; takes NULL. */
void	diskbench_free(struct diskbench *);

#endif /* DISKBENCH_H */
