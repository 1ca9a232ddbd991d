/*
 * importers.h: what a benchmark tool's output says it moved, and how fast.
 *
 * nasperf run wraps a command (dd, fio) and, with no --bytes, learns the
 * bytes and seconds from its output; nasperf run --import takes a finished
 * result file (fio JSON, a CrystalDiskMark text export).  These parsers are
 * pure: they read a buffer, which need not be NUL-terminated, and fill
 * caller-owned results.  Each returns 0, or -1 with errno ENOENT (no output
 * of that tool in the text), EINVAL (it is there but malformed) or EFBIG
 * (more results than the array holds), and a static *errstr for people.
 */
#ifndef IMPORTERS_H
#define IMPORTERS_H

#include <stddef.h>
#include <stdint.h>

#define IMPORTERS_LABEL_MAX	128

enum importers_op {
	IMPORTERS_OP_UNKNOWN,
	IMPORTERS_OP_READ,
	IMPORTERS_OP_WRITE,
	IMPORTERS_OP_MIXED
};

struct importers_result {
	const char	*tool;		/* "dd", "fio", "crystaldiskmark" */
	int		 has_bytes;
	uint64_t	 bytes;		/* moved, read and written */
	int		 has_seconds;
	double		 seconds;	/* the tool's own measure of the run */
	int		 has_ops;
	uint64_t	 ops;		/* I/Os (dd: records out) */
	int		 has_block_size;
	uint64_t	 block_size;	/* bytes per I/O, when all were alike */
	int		 has_rate;
	double		 rate;		/* bytes/s as the tool stated it */
	enum importers_op op;
	int		 has_start;
	double		 start;		/* Unix seconds, client clock */
	int		 has_end;
	double		 end;		/* Unix seconds, client clock */
	int		 has_file_size;
	uint64_t	 file_size;	/* CrystalDiskMark's test file */
	unsigned	 runs;		/* CrystalDiskMark (xN): best of N; 0 */
	char		 label[IMPORTERS_LABEL_MAX]; /* "SEQ1M Q8T1 Read" */
};

/*
 * Find a dd summary (GNU coreutils in any locale, busybox, BSD and macOS,
 * FreeBSD's progress line) and use the last one in text.  Records lines
 * give ops, and with the bytes the block size; a summary of records alone
 * (status=noxfer, busybox without its third line) is found with has_bytes
 * and has_seconds 0.  op is always IMPORTERS_OP_UNKNOWN: dd does not know.
 */
int	importers_dd(const char *text, size_t len, struct importers_result *,
	    const char **errstr);
/*
 * fio --output-format=json or json+: the first object that opens a line,
 * after any text fio printed before it.  Sums read and write bytes and
 * I/Os over all jobs; seconds is the longest read or write runtime in each
 * group, added over groups (stonewall); rate the sum of bw_bytes.  end is
 * timestamp_ms; start the earliest job_start when that is wall-clock time,
 * else end - seconds.  label lists the job names.
 */
int	importers_fio_json(const char *text, size_t len,
	    struct importers_result *, const char **errstr);
/*
 * A CrystalDiskMark text export (5 and 6: "Sequential Read (Q= 32,T= 1) :",
 * 7 and 8: "[Read]" sections of "SEQ    1MiB (Q=  8, T= 1):" lines, 8's
 * [Mix]), in UTF-8 or CDM 7's UTF-16LE.  One result per test line, at most
 * max, *n set to the number stored: the rate, and when the export states
 * its measure time ("Time: Measure 5 sec") bytes = rate x seconds and ops
 * = IOPS x seconds.  start is its "Date:" line read in the local time zone.
 */
int	importers_cdm(const char *text, size_t len,
	    struct importers_result *out, size_t max, size_t *n,
	    const char **errstr);
/*
 * Tell which of the three text is and parse it (for --import FILE);
 * *n results, at most max.  ENOENT when it is none of them.
 */
int	importers_detect(const char *text, size_t len,
	    struct importers_result *out, size_t max, size_t *n,
	    const char **errstr);
/* "read", "write", "mixed" or "unknown". */
const char *importers_op_name(enum importers_op);

#endif /* IMPORTERS_H */
