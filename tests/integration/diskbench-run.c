/*
 * diskbench-run.c: run the disk benchmark engine from the command line.
 *
 * Prints one key=value per line: the result of the run, then per_second
 * as a comma-separated list.  Used by tests/integration/70-diskbench.sh and
 * bench/disk-vs-fio.  Exit status 0, 1 when an I/O failed, 2 when the run
 * could not start (the cause on stderr).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "np.h"
#include "diskbench.h"

/* Print the usage and give the exit status for it. */
static int
usage(void)
{
	fprintf(stderr, "usage: diskbench-run [-DRw] [-b size] [-c seconds] "
	    "[-e aio|threads] [-l length]\n"
	    "\t[-o offset] [-p seq|rand] [-q depth] [-S seed] [-s bytes] "
	    "[-t seconds] path\n");
	return (2);
}

/* A size with an optional K, M or G (powers of 1024); -1 when bad. */
static int
parse_size(const char *s, uint64_t *out)
{
	char			*end;
	unsigned long long	 v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *s == '-')
		return (-1);
	switch (*end) {
	case 'K': case 'k':
		v <<= 10;
		end++;
		break;
	case 'M': case 'm':
		v <<= 20;
		end++;
		break;
	case 'G': case 'g':
		v <<= 30;
		end++;
		break;
	}
	if (*end != '\0')
		return (-1);
	*out = v;
	return (0);
}

/* Seconds on CLOCK_MONOTONIC. */
static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

int
main(int argc, char **argv)
{
	struct diskbench_spec		 s;
	struct diskbench_result		 r;
	struct diskbench_progress	 p;
	struct diskbench		*db;
	char				*cause, *end;
	double				 cancel_after = 0, t_cancel = 0;
	size_t				 i;
	int				 ch, rc;

	memset(&s, 0, sizeof s);
	s.pattern = DISKBENCH_SEQ;
	s.dir = DISKBENCH_READ;
	s.block_size = 1024 * 1024;
	s.queue_depth = 1;
	s.direct = 1;
	s.seed = 1;
	while ((ch = getopt(argc, argv, "b:c:De:l:o:p:q:RS:s:t:w")) != -1) {
		switch (ch) {
		case 'b':
			if (parse_size(optarg, &s.block_size) == -1)
				return (usage());
			break;
		case 'c':
			cancel_after = strtod(optarg, &end);
			if (*end != '\0' || cancel_after <= 0)
				return (usage());
			break;
		case 'D':
			s.direct = 0;
			break;
		case 'e':
			if (strcmp(optarg, "aio") == 0)
				s.engine = DISKBENCH_AIO;
			else if (strcmp(optarg, "threads") == 0)
				s.engine = DISKBENCH_THREADS;
			else
				return (usage());
			break;
		case 'l':
			if (parse_size(optarg, &s.length) == -1)
				return (usage());
			break;
		case 'o':
			if (parse_size(optarg, &s.offset) == -1)
				return (usage());
			break;
		case 'p':
			if (strcmp(optarg, "seq") == 0)
				s.pattern = DISKBENCH_SEQ;
			else if (strcmp(optarg, "rand") == 0)
				s.pattern = DISKBENCH_RAND;
			else
				return (usage());
			break;
		case 'q':
			s.queue_depth = (unsigned)strtoul(optarg, &end, 10);
			if (*end != '\0')
				return (usage());
			break;
		case 'R':
			s.is_raw_device = 1;
			break;
		case 'S':
			s.seed = strtoull(optarg, &end, 0);
			if (*end != '\0')
				return (usage());
			break;
		case 's':
			if (parse_size(optarg, &s.max_bytes) == -1)
				return (usage());
			break;
		case 't':
			s.max_seconds = strtod(optarg, &end);
			if (*end != '\0')
				return (usage());
			break;
		case 'w':
			s.dir = DISKBENCH_WRITE;
			break;
		default:
			return (usage());
		}
	}
	if (argc - optind != 1)
		return (usage());
	s.path = argv[optind];

	if ((db = diskbench_start(&s, &cause)) == NULL) {
		fprintf(stderr, "diskbench-run: %s\n",
		    cause != NULL ? cause : strerror(errno));
		free(cause);
		return (2);
	}
	if (cancel_after > 0) {
		for (;;) {
			diskbench_poll(db, &p);
			if (p.done || p.seconds >= cancel_after)
				break;
			usleep(10000);
		}
		t_cancel = now();
		diskbench_cancel(db);
	}
	rc = diskbench_wait(db, &r);
	if (cancel_after > 0)
		printf("cancel_to_done_s=%.3f\n", now() - t_cancel);
	printf("bytes=%" PRIu64 "\nios=%" PRIu64 "\nseconds=%.6f\n"
	    "bytes_per_s=%.1f\niops=%.1f\n", r.bytes, r.ios, r.seconds,
	    r.bytes_per_s, r.iops);
	printf("lat_us_p50=%.1f\nlat_us_p90=%.1f\nlat_us_p99=%.1f\n"
	    "lat_us_p999=%.1f\nlat_us_max=%.1f\nlat_us_mean=%.1f\n",
	    r.lat_us_p50, r.lat_us_p90, r.lat_us_p99, r.lat_us_p999,
	    r.lat_us_max, r.lat_us_mean);
	printf("engine=%s\ndirect_used=%d\ncancelled=%d\nerror=%d\n"
	    "errstr=%s\n", r.engine_used == DISKBENCH_AIO ? "aio" : "threads",
	    r.direct_used, r.cancelled, r.error,
	    r.errstr != NULL ? r.errstr : "");
	printf("per_second=");
	for (i = 0; i < r.nper_second; i++)
		printf("%s%.0f", i == 0 ? "" : ",", r.per_second[i]);
	printf("\n");
	if (rc == -1)
		fprintf(stderr, "diskbench-run: %s: %s\n", r.errstr,
		    strerror(r.error));
	diskbench_free(db);
	return (rc == -1 ? 1 : 0);
}
