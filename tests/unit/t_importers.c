/*
 * t_importers.c: dd summaries, fio JSON and CrystalDiskMark exports, from
 * the samples in tests/fixtures/importers (see its README) and inline
 * variants; malformed input fails with EINVAL or ENOENT, never a crash.
 */
#include "config.h"

#include <time.h>

#include "test.h"
#include "importers.h"

#define T_MAXRES	16

/*
 * Read importers/<name> into a buffer of exactly its size, with no NUL
 * after it, so a parser reading past the end is caught under ASan.
 */
static char *
t_importer(const char *name, size_t *len)
{
	char	path[256], *text, *buf;

	snprintf(path, sizeof path, "importers/%s", name);
	text = t_fixture(path, len);
	if ((buf = malloc(*len > 0 ? *len : 1)) == NULL) {
		printf("Bail out! %s: %s\n", path, strerror(errno));
		exit(1);
	}
	memcpy(buf, text, *len);
	free(text);
	return (buf);
}

/* A copy of s without its NUL, for the same reason. */
static char *
t_exact(const char *s, size_t *len)
{
	char	*buf;

	*len = strlen(s);
	if ((buf = malloc(*len > 0 ? *len : 1)) == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	memcpy(buf, s, *len);
	return (buf);
}

/* importers_dd over fixture name. */
static int
t_dd_file(const char *name, struct importers_result *r, const char **errstr)
{
	char	*buf;
	size_t	 len;
	int	 rc, oerrno;

	buf = t_importer(name, &len);
	rc = importers_dd(buf, len, r, errstr);
	oerrno = errno;
	free(buf);
	errno = oerrno;
	return (rc);
}

/* importers_dd over an inline string. */
static int
t_dd(const char *s, struct importers_result *r, const char **errstr)
{
	char	*buf;
	size_t	 len;
	int	 rc, oerrno;

	buf = t_exact(s, &len);
	rc = importers_dd(buf, len, r, errstr);
	oerrno = errno;
	free(buf);
	errno = oerrno;
	return (rc);
}

/* importers_fio_json over fixture name. */
static int
t_fio_file(const char *name, struct importers_result *r)
{
	char	*buf;
	size_t	 len;
	int	 rc, oerrno;

	buf = t_importer(name, &len);
	rc = importers_fio_json(buf, len, r, NULL);
	oerrno = errno;
	free(buf);
	errno = oerrno;
	return (rc);
}

/* importers_fio_json over an inline string. */
static int
t_fio(const char *s, struct importers_result *r, const char **errstr)
{
	char	*buf;
	size_t	 len;
	int	 rc, oerrno;

	buf = t_exact(s, &len);
	rc = importers_fio_json(buf, len, r, errstr);
	oerrno = errno;
	free(buf);
	errno = oerrno;
	return (rc);
}

/* importers_cdm over fixture name. */
static int
t_cdm_file(const char *name, struct importers_result *out, size_t max,
    size_t *n)
{
	char	*buf;
	size_t	 len;
	int	 rc, oerrno;

	buf = t_importer(name, &len);
	rc = importers_cdm(buf, len, out, max, n, NULL);
	oerrno = errno;
	free(buf);
	errno = oerrno;
	return (rc);
}

/* importers_cdm over an inline string. */
static int
t_cdm(const char *s, struct importers_result *out, size_t *n,
    const char **errstr)
{
	char	*buf;
	size_t	 len;
	int	 rc, oerrno;

	buf = t_exact(s, &len);
	rc = importers_cdm(buf, len, out, T_MAXRES, n, errstr);
	oerrno = errno;
	free(buf);
	errno = oerrno;
	return (rc);
}

/* importers_detect over fixture name; the first result's tool or NULL. */
static const char *
t_detect_file(const char *name, size_t *n)
{
	struct importers_result	 out[T_MAXRES];
	char			*buf;
	size_t			 len;
	int			 rc;

	buf = t_importer(name, &len);
	rc = importers_detect(buf, len, out, T_MAXRES, n, NULL);
	free(buf);
	return (rc == 0 && *n > 0 ? out[0].tool : NULL);
}

/* Check one dd result: bytes, seconds, ops and block size (0: none). */
static void
t_dd_check(const struct importers_result *r, uint64_t bytes, double secs,
    uint64_t ops, uint64_t bs)
{
	T_EQ_STR(r->tool, "dd");
	T_EQ_INT(r->has_bytes, 1);
	T_EQ_U64(r->bytes, bytes);
	T_EQ_INT(r->has_seconds, 1);
	T_NEAR(r->seconds, secs, 1e-12);
	T_EQ_INT(r->has_ops, 1);
	T_EQ_U64(r->ops, ops);
	T_EQ_INT(r->has_block_size, bs != 0);
	if (bs != 0)
		T_EQ_U64(r->block_size, bs);
	T_EQ_INT(r->op, IMPORTERS_OP_UNKNOWN);
	T_EQ_INT(r->has_start, 0);
}

/* GNU coreutils 9.1 captures, in four locales, with progress and errors. */
static void
t_dd_gnu(void)
{
	struct importers_result	 r;
	const char		*errstr;

	T_OK(t_dd_file("dd-gnu-write.txt", &r, &errstr));
	T_TRUE(errstr == NULL);
	t_dd_check(&r, 268435456, 0.474029, 256, 1048576);
	T_OK(t_dd_file("dd-gnu-read.txt", &r, NULL));
	t_dd_check(&r, 268435456, 0.250804, 65536, 4096);
	T_OK(t_dd_file("dd-gnu-de.txt", &r, NULL));	/* 0,0192733 s */
	t_dd_check(&r, 268435456, 0.0192733, 256, 1048576);
	T_OK(t_dd_file("dd-gnu-fr.txt", &r, NULL));	/* no-break spaces */
	t_dd_check(&r, 268435456, 0.0277664, 4096, 65536);
	T_OK(t_dd_file("dd-gnu-zh.txt", &r, NULL));	/* fullwidth commas */
	t_dd_check(&r, 268435456, 0.698158, 256, 1048576);
	T_OK(t_dd_file("dd-gnu-uk.txt", &r, NULL));	/* count after a word */
	t_dd_check(&r, 268435456, 0.0192878, 512, 524288);
	/* status=progress: a \r line before the summary; partial records. */
	T_OK(t_dd_file("dd-gnu-progress.txt", &r, NULL));
	t_dd_check(&r, 25165824, 2.64546, 257 + 1923, 0);
	/* A failed write: "0 bytes copied", no parentheses. */
	T_OK(t_dd_file("dd-gnu-full.txt", &r, NULL));
	t_dd_check(&r, 0, 0.00411234, 0, 0);
}

/* busybox, BSD and macOS, FreeBSD's progress line. */
static void
t_dd_others(void)
{
	struct importers_result	r;

	T_OK(t_dd_file("dd-busybox.txt", &r, NULL));
	t_dd_check(&r, 1073741824, 1.234567, 1024, 1048576);
	T_OK(t_dd_file("dd-bsd.txt", &r, NULL));
	t_dd_check(&r, 1073741824, 1.234567, 1024, 1048576);
	T_OK(t_dd_file("dd-freebsd-progress.txt", &r, NULL));
	t_dd_check(&r, 1073741824, 2.004511, 2048, 524288);
	/* Debian's busybox prints the records lines only. */
	T_OK(t_dd_file("dd-busybox-debian.txt", &r, NULL));
	T_EQ_INT(r.has_bytes, 0);
	T_EQ_INT(r.has_seconds, 0);
	T_EQ_INT(r.has_ops, 1);
	T_EQ_U64(r.ops, 64);
}

/* Older and rarer shapes of the transfer line, inline. */
static void
t_dd_inline(void)
{
	struct importers_result	r;

	T_OK(t_dd("1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.23456 s, "
	    "870 MB/s\n", &r, NULL));
	T_EQ_U64(r.bytes, 1073741824);
	T_NEAR(r.seconds, 1.23456, 1e-12);
	T_EQ_INT(r.has_ops, 0);
	T_OK(t_dd("1024+0 records in\n1024+0 records out\n"
	    "1073741824 bytes (1.1 GB) copied, 1.2 s, 870 MB/s", &r, NULL));
	T_NEAR(r.seconds, 1.2, 1e-12);
	T_EQ_U64(r.block_size, 1048576);
	T_OK(t_dd("1073741824 bytes (1,1 GB, 1,0 GiB) copied, 1,23456 s, "
	    "870 MB/s\n", &r, NULL));
	T_EQ_U64(r.bytes, 1073741824);
	T_NEAR(r.seconds, 1.23456, 1e-12);
	T_OK(t_dd("1073741824 bytes (1074 MB, 1024 MiB) transferred 1.234s, "
	    "870 MB/s\r", &r, NULL));
	T_EQ_U64(r.bytes, 1073741824);
	T_NEAR(r.seconds, 1.234, 1e-12);
	/* FreeBSD's %'ju in a locale that groups thousands. */
	T_OK(t_dd("  1,073,741,824 bytes (1074 MB, 1024 MiB) transferred "
	    "1.234s, 870 MB/s", &r, NULL));
	T_EQ_U64(r.bytes, 1073741824);
	/* coreutils prints a tiny time with %g, and "1 byte". */
	T_OK(t_dd("1+0 records in\n1+0 records out\n"
	    "1 byte copied, 1.2e-05 s, 83.3 kB/s\n", &r, NULL));
	T_EQ_U64(r.bytes, 1);
	T_NEAR(r.seconds, 1.2e-05, 1e-18);
	T_EQ_U64(r.block_size, 1);
	/* Coreutils before 7 said "seconds". */
	T_OK(t_dd("1048576 bytes (1.0 MB) copied, 0.5 seconds, 2.1 MB/s",
	    &r, NULL));
	T_NEAR(r.seconds, 0.5, 1e-12);
	/* The last summary wins; each keeps its own records. */
	T_OK(t_dd("10+0 records in\n10+0 records out\n"
	    "10240 bytes (10 kB, 10 KiB) copied, 0.5 s, 20.5 kB/s\n"
	    "dd: warning: something\n"
	    "20+0 records in\n20+0 records out\n"
	    "81920 bytes (82 kB, 80 KiB) copied, 1.5 s, 54.6 kB/s\n"
	    "done\n", &r, NULL));
	t_dd_check(&r, 81920, 1.5, 20, 4096);
}

/* Missing numbers, overflow, garbage and nothing. */
static void
t_dd_bad(void)
{
	struct importers_result	 r;
	const char		*errstr;
	static const char	 nul[] = "a\0b\0\0c 12+3";
	char			*buf;

	errstr = NULL;
	T_ERRNO(t_dd("bytes (1.1 GB, 1.0 GiB) copied, 1.23456 s, 870 MB/s\n",
	    &r, &errstr), EINVAL);
	T_EQ_STR(errstr, "dd summary without a byte count");
	T_ERRNO(t_dd("1073741824 bytes (1.1 GB, 1.0 GiB) copied, s, 870 MB/s",
	    &r, &errstr), EINVAL);
	T_EQ_STR(errstr, "dd summary without a time in seconds");
	T_EQ_INT(r.has_bytes, 0);
	T_ERRNO(t_dd("99999999999999999999 bytes copied, 1 s, 1 MB/s\n", &r,
	    &errstr), EINVAL);
	T_EQ_STR(errstr, "dd byte count out of range");
	/* A good summary and then a broken one: the last counts. */
	T_ERRNO(t_dd("512 bytes copied, 0.1 s, 5.1 kB/s\n"
	    "bytes copied, 0.2 s, 5.1 kB/s\n", &r, NULL), EINVAL);
	T_OK(t_dd("bytes copied, 0.2 s, 5.1 kB/s\n"
	    "512 bytes copied, 0.1 s, 5.1 kB/s\n", &r, NULL));
	T_EQ_U64(r.bytes, 512);
	T_ERRNO(t_dd("hello world\nno numbers here\n", &r, &errstr), ENOENT);
	T_EQ_STR(errstr, "no dd summary found");
	T_ERRNO(t_dd("", &r, NULL), ENOENT);
	T_ERRNO(importers_dd(NULL, 0, &r, NULL), ENOENT);
	/* fio's normal output is not a dd summary. */
	T_ERRNO(t_dd("   READ: bw=3368MiB/s (3532MB/s), io=64.0MiB (67.1MB), "
	    "run=19-19msec\n", &r, NULL), ENOENT);
	T_ERRNO(importers_dd(nul, sizeof nul - 1, &r, NULL), ENOENT);
	/* A line longer than any summary is skipped, not overrun. */
	if ((buf = malloc(5000)) != NULL) {
		memset(buf, '7', 5000);
		T_ERRNO(importers_dd(buf, 5000, &r, NULL), ENOENT);
		/* One that just fits, a number at its very end. */
		memset(buf, 'a', 1020);
		memcpy(buf + 1020, " 12", 3);
		T_ERRNO(importers_dd(buf, 1023, &r, NULL), ENOENT);
		memcpy(buf + 1020, " 1+", 3);
		T_ERRNO(importers_dd(buf, 1023, &r, NULL), ENOENT);
		free(buf);
	}
}

/* fio 3.33 JSON and JSON+ captures. */
static void
t_fio_files(void)
{
	struct importers_result	r;

	T_OK(t_fio_file("fio-read.json", &r));
	T_EQ_STR(r.tool, "fio");
	T_EQ_STR(r.label, "r");
	T_EQ_INT(r.op, IMPORTERS_OP_READ);
	T_EQ_U64(r.bytes, 67108864);
	T_NEAR(r.seconds, 0.019, 1e-12);
	T_EQ_U64(r.ops, 64);
	T_EQ_U64(r.block_size, 1048576);
	T_NEAR(r.rate, 3532045473.0, 1e-3);
	T_EQ_INT(r.has_end, 1);
	T_NEAR(r.end, 1796228252.255, 1e-6);
	T_EQ_INT(r.has_start, 1);
	T_NEAR(r.start, 1796228252.255 - 0.019, 1e-6);

	T_OK(t_fio_file("fio-write.json", &r));
	T_EQ_STR(r.label, "w");
	T_EQ_INT(r.op, IMPORTERS_OP_WRITE);
	T_EQ_U64(r.bytes, 67108864);
	T_NEAR(r.seconds, 0.157, 1e-12);
	T_EQ_U64(r.ops, 64);
	T_NEAR(r.rate, 427444993.0, 1e-3);
	T_NEAR(r.end, 1796228251.850, 1e-6);

	/* Two jobs of one group, after a line fio printed before its JSON. */
	T_OK(t_fio_file("fio-two.json", &r));
	T_EQ_STR(r.label, "a, b");
	T_EQ_INT(r.op, IMPORTERS_OP_MIXED);
	T_EQ_U64(r.bytes, 33554432 + 16777216);
	T_NEAR(r.seconds, 0.018, 1e-12);
	T_EQ_U64(r.ops, 256 + 4096);
	T_EQ_INT(r.has_block_size, 0);
	T_NEAR(r.end, 1796228252.803, 1e-6);

	T_OK(t_fio_file("fio-mixed.jsonplus", &r));
	T_EQ_STR(r.label, "m");
	T_EQ_INT(r.op, IMPORTERS_OP_MIXED);
	T_EQ_U64(r.bytes, 8159232 + 8617984);
	T_NEAR(r.seconds, 0.159, 1e-12);
	T_EQ_U64(r.ops, 1992 + 2104);
	T_EQ_U64(r.block_size, 4096);
}

/* Groups, job_start, io_kbytes and broken documents, inline. */
static void
t_fio_inline(void)
{
	struct importers_result	 r;
	const char		*errstr;
	char			*buf, *half;
	size_t			 len;

	/* Stonewalled groups run one after the other: runtimes add. */
	T_OK(t_fio("{\"timestamp_ms\": 2000000, \"jobs\": ["
	    "{\"jobname\": \"x\", \"groupid\": 0, \"job_start\": 1000000,"
	    " \"read\": {\"io_bytes\": 1000, \"runtime\": 100, "
	    "\"total_ios\": 10}, \"write\": {\"io_bytes\": 0}},"
	    "{\"jobname\": \"y\", \"groupid\": 1, \"job_start\": 1000200,"
	    " \"read\": {\"io_bytes\": 0}, \"write\": {\"io_kbytes\": 2, "
	    "\"runtime\": 200, \"total_ios\": 4}}]}", &r, &errstr));
	T_EQ_U64(r.bytes, 1000 + 2048);
	T_NEAR(r.seconds, 0.3, 1e-12);
	T_EQ_U64(r.ops, 14);
	T_EQ_INT(r.has_block_size, 0);
	T_NEAR(r.start, 1000.0, 1e-9);
	T_NEAR(r.end, 2000.0, 1e-9);
	T_EQ_INT(r.has_rate, 0);
	/* A job_start from a monotonic clock is no wall-clock start. */
	T_OK(t_fio("{\"timestamp_ms\": 1796228252255, \"jobs\": ["
	    "{\"jobname\": \"x\", \"job_start\": 5000, \"read\": "
	    "{\"io_bytes\": 4096, \"runtime\": 250}}]}", &r, NULL));
	T_NEAR(r.start, 1796228252.005, 1e-6);
	/* Nothing moved: no seconds, op unknown. */
	T_OK(t_fio("{\"jobs\": [{\"jobname\": \"z\", \"read\": "
	    "{\"io_bytes\": 0, \"runtime\": 0}}]}", &r, NULL));
	T_EQ_U64(r.bytes, 0);
	T_EQ_INT(r.has_seconds, 0);
	T_EQ_INT(r.op, IMPORTERS_OP_UNKNOWN);
	T_EQ_INT(r.has_end, 0);

	buf = t_importer("fio-read.json", &len);
	if ((half = malloc(len / 2)) != NULL) {
		memcpy(half, buf, len / 2);
		errstr = NULL;
		T_ERRNO(importers_fio_json(half, len / 2, &r, &errstr),
		    EINVAL);
		T_EQ_STR(errstr, "fio JSON is truncated or malformed");
		T_EQ_INT(r.has_bytes, 0);
		free(half);
	}
	free(buf);
	T_ERRNO(t_fio("{", &r, NULL), EINVAL);
	T_ERRNO(t_fio("{\"jobs\": 5}", &r, &errstr), EINVAL);
	T_EQ_STR(errstr, "fio JSON without a jobs array");
	T_ERRNO(t_fio("{\"jobs\": []}", &r, &errstr), EINVAL);
	T_EQ_STR(errstr, "fio JSON with no jobs");
	T_ERRNO(t_fio("{\"jobs\": [{\"read\": {\"runtime\": 5}}]}", &r,
	    &errstr), EINVAL);
	T_EQ_STR(errstr, "fio job without io_bytes");
	T_ERRNO(t_fio("{\"jobs\": [7]}", &r, NULL), EINVAL);
	T_ERRNO(t_fio("{\"jobs\": [{\"read\": {\"io_bytes\": -5}}]}", &r,
	    NULL), EINVAL);
	T_ERRNO(t_fio("fio: no JSON here\n", &r, &errstr), ENOENT);
	T_EQ_STR(errstr, "no fio JSON output found");
	T_ERRNO(t_fio("", &r, NULL), ENOENT);
}

/* CrystalDiskMark 8.0.4 with [Mix], and 8.0.1. */
static void
t_cdm8(void)
{
	struct importers_result	out[T_MAXRES];
	size_t			n;

	T_OK(t_cdm_file("cdm8.txt", out, T_MAXRES, &n));
	T_EQ_INT(n, 12);
	T_EQ_STR(out[0].tool, "crystaldiskmark");
	T_EQ_STR(out[0].label, "SEQ1M Q8T1 Read");
	T_EQ_INT(out[0].op, IMPORTERS_OP_READ);
	T_NEAR(out[0].rate, 7427.749e6, 1e-3);
	T_EQ_INT(out[0].has_seconds, 1);
	T_NEAR(out[0].seconds, 5, 0);
	T_EQ_U64(out[0].bytes, 37138745000ULL);
	T_EQ_U64(out[0].block_size, 1048576);
	T_EQ_INT(out[0].has_start, 1);
	T_NEAR(out[0].start, 1704519708, 0);	/* 2024/01/06 5:41:48 UTC */
	T_EQ_U64(out[0].file_size, 1073741824);
	T_EQ_INT(out[0].runs, 5);
	T_EQ_STR(out[1].label, "SEQ128K Q32T1 Read");
	T_EQ_U64(out[1].block_size, 131072);
	T_EQ_U64(out[1].ops, 283422);		/* 56684.4 IOPS x 5 s */
	T_EQ_STR(out[2].label, "RND4K Q32T16 Read");
	T_EQ_U64(out[2].block_size, 4096);
	T_EQ_STR(out[4].label, "SEQ1M Q8T1 Write");
	T_EQ_INT(out[4].op, IMPORTERS_OP_WRITE);
	T_EQ_U64(out[4].bytes, 32600940000ULL);
	T_EQ_STR(out[8].label, "SEQ1M Q8T1 Mix");
	T_EQ_INT(out[8].op, IMPORTERS_OP_MIXED);
	T_EQ_STR(out[11].label, "RND4K Q1T1 Mix");
	T_EQ_U64(out[11].bytes, 352305000);
	T_EQ_U64(out[11].ops, 86012);

	T_OK(t_cdm_file("cdm8-comment.txt", out, T_MAXRES, &n));
	T_EQ_INT(n, 8);
	T_EQ_STR(out[3].label, "RND4K Q1T1 Read");
	T_NEAR(out[3].rate, 41.375e6, 1e-3);
	T_EQ_STR(out[7].label, "RND4K Q1T1 Write");
	T_EQ_U64(out[7].bytes, 499500000);
	T_NEAR(out[7].start, 1624382361, 0);	/* 2021/06/22 17:19:21 */

	/* Room for four: those four, and EFBIG. */
	T_ERRNO(t_cdm_file("cdm8.txt", out, 4, &n), EFBIG);
	T_EQ_INT(n, 4);
	T_EQ_STR(out[3].label, "RND4K Q1T1 Read");
}

/* CrystalDiskMark 6 (no measure time) and 7 (UTF-16LE, CRLF). */
static void
t_cdm67(void)
{
	struct importers_result	out[T_MAXRES];
	size_t			n;

	T_OK(t_cdm_file("cdm6.txt", out, T_MAXRES, &n));
	T_EQ_INT(n, 8);
	T_EQ_STR(out[0].label, "SEQ Q32T1 Read");
	T_EQ_INT(out[0].op, IMPORTERS_OP_READ);
	T_NEAR(out[0].rate, 91.559e6, 1e-3);
	T_EQ_INT(out[0].has_bytes, 0);
	T_EQ_INT(out[0].has_seconds, 0);
	T_EQ_INT(out[0].has_ops, 0);
	T_EQ_INT(out[0].has_block_size, 0);
	T_EQ_STR(out[1].label, "SEQ Q32T1 Write");
	T_EQ_INT(out[1].op, IMPORTERS_OP_WRITE);
	T_EQ_STR(out[3].label, "RND4K Q8T8 Write");
	T_EQ_U64(out[3].block_size, 4096);
	T_NEAR(out[3].rate, 3.173e6, 1e-3);
	T_EQ_U64(out[3].file_size, 1073741824);	/* 1024 MiB */
	T_EQ_INT(out[3].runs, 5);
	T_NEAR(out[3].start, 1554118389, 0);	/* 2019/04/01 11:33:09 */

	T_OK(t_cdm_file("cdm7-utf16.txt", out, T_MAXRES, &n));
	T_EQ_INT(n, 8);
	T_EQ_STR(out[0].label, "SEQ1M Q8T1 Read");
	T_NEAR(out[0].rate, 101.514e6, 1e-3);
	T_EQ_INT(out[0].has_bytes, 0);
	T_EQ_STR(out[2].label, "RND4K Q32T16 Read");
	T_NEAR(out[2].rate, 0.851e6, 1e-6);
	T_EQ_STR(out[7].label, "RND4K Q1T1 Write");
	T_NEAR(out[7].rate, 0.664e6, 1e-6);
	T_NEAR(out[7].start, 1578051891, 0);	/* 2020/01/03 11:44:51 */
	T_EQ_U64(out[7].file_size, 1073741824);
}

/* Other CrystalDiskMark shapes and broken exports, inline. */
static void
t_cdm_inline(void)
{
	struct importers_result	 out[T_MAXRES];
	const char		*errstr;
	static const char	 u16[] = "CrystalDiskMark\r\n"
	    "Sequential Read (T= 1) :   532.327 MB/s\r\n";
	char			 wide[2 * sizeof u16];
	size_t			 n, i;

	/* CrystalDiskMark 5 and a name of other words. */
	T_OK(t_cdm("CrystalDiskMark 5.1.0 x64\n"
	    "         Sequential Read (T= 1) :   532.327 MB/s\n"
	    "[Write]\nLegacy Seq (Q= 1,T= 1) : 100.5 MB/s\n", out, &n,
	    NULL));
	T_EQ_INT(n, 2);
	T_EQ_STR(out[0].label, "SEQ T1 Read");
	T_EQ_STR(out[1].label, "Legacy Seq (Q= 1,T= 1) Write");
	T_EQ_INT(out[1].op, IMPORTERS_OP_WRITE);
	/* UTF-16LE without a byte order mark. */
	for (i = 0; i < sizeof u16 - 1; i++) {
		wide[2 * i] = u16[i];
		wide[2 * i + 1] = '\0';
	}
	T_OK(importers_cdm(wide, 2 * (sizeof u16 - 1), out, T_MAXRES, &n,
	    NULL));
	T_EQ_INT(n, 1);
	T_NEAR(out[0].rate, 532.327e6, 1e-3);

	errstr = NULL;
	T_ERRNO(t_cdm("CrystalDiskMark 8.0.4 x64 (C) 2007-2021 hiyohiyo\n"
	    "[Read]\n", out, &n, &errstr), EINVAL);
	T_EQ_STR(errstr, "CrystalDiskMark header without results");
	T_EQ_INT(n, 0);
	T_ERRNO(t_cdm("[Read]\n  SEQ    1MiB (Q=  8, T= 1):  abc MB/s\n",
	    out, &n, &errstr), EINVAL);
	T_EQ_STR(errstr, "CrystalDiskMark result without a rate in MB/s");
	T_ERRNO(t_cdm("[Read]\n  SEQ    1MiB (Q=  8, T= 1):  1.0 MB/s\n"
	    "   Date: 2024/13/06 5:41:48\n", out, &n, &errstr), EINVAL);
	T_EQ_STR(errstr, "malformed CrystalDiskMark Date: line");
	T_ERRNO(t_cdm("[Read]\n  SEQ    1MiB (Q=  8, T= 1):  1.0 MB/s\n"
	    "   Time: Measure soon\n", out, &n, &errstr), EINVAL);
	T_ERRNO(t_cdm("[Read]\n  SEQ    1MiB (Q=  8, T= 1):  1.0 MB/s\n"
	    "   Test: big (x5)\n", out, &n, &errstr), EINVAL);
	T_EQ_STR(errstr, "malformed CrystalDiskMark Test: line");
	T_ERRNO(t_cdm("[Read]\n  SEQ    1MiB (Q=  8, T= 1):  1.0 MB/s\n"
	    "   Test: 99999999999 GiB (x5)\n", out, &n, &errstr), EINVAL);
	T_EQ_STR(errstr, "malformed CrystalDiskMark Test: line");
	T_ERRNO(t_cdm("just some text\n", out, &n, &errstr), ENOENT);
	T_EQ_STR(errstr, "no CrystalDiskMark results found");
	T_ERRNO(t_cdm("", out, &n, NULL), ENOENT);
	T_ERRNO(importers_cdm("\xff\xfe", 2, out, T_MAXRES, &n, NULL),
	    ENOENT);
	T_ERRNO(importers_cdm("\xff\xfe" "C", 3, out, T_MAXRES, &n, NULL),
	    ENOENT);
}

/* importers_detect on every sample, and on what is none of them. */
static void
t_detect(void)
{
	struct importers_result	 out[T_MAXRES];
	const char		*errstr;
	size_t			 n;
	char			*buf;

	T_EQ_STR(t_detect_file("dd-gnu-write.txt", &n), "dd");
	T_EQ_INT(n, 1);
	T_EQ_STR(t_detect_file("dd-bsd.txt", &n), "dd");
	T_EQ_STR(t_detect_file("fio-two.json", &n), "fio");
	T_EQ_INT(n, 1);
	T_EQ_STR(t_detect_file("fio-mixed.jsonplus", &n), "fio");
	T_EQ_STR(t_detect_file("cdm8.txt", &n), "crystaldiskmark");
	T_EQ_INT(n, 12);
	T_EQ_STR(t_detect_file("cdm7-utf16.txt", &n), "crystaldiskmark");
	T_EQ_INT(n, 8);
	T_EQ_STR(t_detect_file("cdm6.txt", &n), "crystaldiskmark");

	buf = t_exact("garbage\n\x01\x02\x03", &n);
	errstr = NULL;
	T_ERRNO(importers_detect(buf, n, out, T_MAXRES, &n, &errstr), ENOENT);
	T_EQ_STR(errstr, "no dd, fio JSON or CrystalDiskMark output found");
	free(buf);
	T_ERRNO(importers_detect("", 0, out, T_MAXRES, &n, NULL), ENOENT);
	T_ERRNO(importers_detect(NULL, 0, out, T_MAXRES, &n, NULL), ENOENT);
	T_ERRNO(importers_fio_json(NULL, 0, out, NULL), ENOENT);
	T_ERRNO(importers_cdm(NULL, 0, out, T_MAXRES, &n, NULL), ENOENT);
	T_ERRNO(importers_detect("{\"jobs\": [", 10, out, T_MAXRES, &n, NULL),
	    EINVAL);
	T_EQ_INT(n, 0);
	T_ERRNO(importers_detect("x", 1, out, 0, &n, NULL), EINVAL);
	T_EQ_STR(importers_op_name(IMPORTERS_OP_MIXED), "mixed");
	T_EQ_STR(importers_op_name(IMPORTERS_OP_UNKNOWN), "unknown");
}

int
main(void)
{
	/* CrystalDiskMark dates are local time: pin the zone. */
	setenv("TZ", "UTC", 1);
	tzset();
	t_dd_gnu();
	t_dd_others();
	t_dd_inline();
	t_dd_bad();
	t_fio_files();
	t_fio_inline();
	t_cdm8();
	t_cdm67();
	t_cdm_inline();
	t_detect();
	return (t_done());
}
