/*
 * cmd_bench.c: nasperf bench TARGET: the field reports' test matrix, each
 * test a run on the daemon, ending in one table of what the client saw
 * beside the server's verdict.
 *
 * The matrix (full size; --quick and --scale shrink it):
 *   seq     1 GiB written, then read, at 1 MiB
 *   small   100 MiB written, then read, at 1 KiB
 *   files   1 x 2 GiB, 1000 x 2 MiB and 10000 x 2 KiB files written, read
 *   list    a listing with attributes of 100, 1000 and 10000 files
 *   repeat  4 GiB written, then read, N times: best and median, at
 *           --block (libsmbclient keeps one request in flight, so an SMB
 *           file goes in the largest request Samba and Windows take by
 *           default, 8 MiB; a directory or an NFS export in 4 MiB)
 *
 * Every file holds the synthetic pattern (synth_pattern.h) from a stream
 * offset of its own, so every byte read back is checked against what was
 * written.  The client's cache is bypassed by the backend (O_DIRECT,
 * libsmbclient and libnfs keep none); the server's page cache is dropped
 * through the daemon (POST /v1/cache/drop) before each read test, and the
 * table says when it could not be.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/http.h>

#include <jansson.h>

#include "bench.h"
#include "client.h"
#include "nptime.h"
#include "synth_pattern.h"
#include "table.h"

#define BENCH_DIR	"nasperf-bench"
#define BENCH_MAX_ROWS	32
#define BENCH_MAX_REPEAT 20
#define MiB		((uint64_t)1024 * 1024)
#define BENCH_REPEAT_BLOCK	(4 * MiB)	/* the repeat test's default */
#define BENCH_REPEAT_BLOCK_SMB	(8 * MiB)	/* ... over SMB */
#define BENCH_MAX_BLOCK		(64 * MiB)
#define KiB		((uint64_t)1024)

enum {
	T_SEQ = 1, T_SMALL = 2, T_FILES = 4, T_LIST = 8, T_REPEAT = 16,
	T_ALL = 31
};

/* How a test ended. */
enum bench_status {
	BENCH_DONE, BENCH_FAILED, BENCH_SKIPPED, BENCH_INTERRUPTED
};

/* One line of the table. */
struct bench_row {
	char		 test[64];
	const char	*op;		/* read, write, list */
	int		 status;	/* enum bench_status */
	char		 note[BENCH_ERR_MAX];	/* why failed or skipped */
	uint64_t	 bytes, files, ops, block;
	double		 seconds;
	double		 median;	/* repeat: median rate, bytes/s */
	unsigned	 repeats;
	long		 run;
	char		 vclass[32], resource[128], figure[64];
	json_t		*report;
};

struct bench {
	struct client		*c;
	struct bench_fs		 fs;
	const char		*label;
	int			 drop;		/* drop the server's cache */
	char			 server_cache[256];
	unsigned char		*pat;		/* a period and one block more */
	unsigned char		*io;		/* one read */
	size_t			 io_size;
	uint64_t		 seed;
	struct bench_row	 rows[BENCH_MAX_ROWS];
	size_t			 nrows;
	long			 stopped_run;	/* ended as interrupted */
};

/* The matrix's sizes. */
struct bench_sizes {
	uint64_t	seq, small, big, mid, tiny;	/* bytes */
	uint64_t	nbig, nmid, ntiny;		/* files */
	uint64_t	list[3];
	uint64_t	repeat;
	unsigned	repeats;
	uint64_t	repeat_block;	/* 0: by the target's protocol */
};

static const struct bench_sizes bench_full = {
	1024 * MiB, 100 * MiB, 2048 * MiB, 2 * MiB, 2 * KiB, 1, 1000, 10000,
	{ 100, 1000, 10000 }, 4096 * MiB, 3, 0
};
static const struct bench_sizes bench_quick = {
	64 * MiB, 4 * MiB, 64 * MiB, 2 * MiB, 2 * KiB, 1, 20, 200,
	{ 10, 100, 1000 }, 64 * MiB, 3, 0
};

/*
 * The signal (SIGINT, SIGTERM) that stopped the matrix, 0 while it runs:
 * the test under way stops at its next request, its run ends as
 * interrupted, its files are removed and no other test starts.
 */
static volatile sig_atomic_t bench_stop;

static void
bench_sig(int sig)
{
	bench_stop = sig;
}

/* The name of the signal that stopped the matrix. */
static const char *
bench_signame(void)
{
	return (bench_stop == SIGTERM ? "SIGTERM" : "SIGINT");
}

/* "64 MiB", "2 KiB", "1 GiB" */
static const char *
bench_size(uint64_t n, char *b, size_t bsz)
{
	if (n >= 1024 * MiB && n % (1024 * MiB) == 0)
		snprintf(b, bsz, "%" PRIu64 " GiB", n / (1024 * MiB));
	else if (n >= MiB && n % MiB == 0)
		snprintf(b, bsz, "%" PRIu64 " MiB", n / MiB);
	else if (n >= KiB && n % KiB == 0)
		snprintf(b, bsz, "%" PRIu64 " KiB", n / KiB);
	else
		snprintf(b, bsz, "%" PRIu64 " B", n);
	return (b);
}

static struct bench_row *
bench_row(struct bench *b, const char *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static struct bench_row *
bench_row(struct bench *b, const char *op, const char *fmt, ...)
{
	struct bench_row	*r;
	va_list			 ap;

	if (b->nrows == BENCH_MAX_ROWS)
		return (NULL);
	r = &b->rows[b->nrows++];
	memset(r, 0, sizeof *r);
	r->op = op;
	va_start(ap, fmt);
	vsnprintf(r->test, sizeof r->test, fmt, ap);
	va_end(ap);
	return (r);
}

/* Forget row r, the last one: a test the matrix did not start. */
static void
bench_unrow(struct bench *b, struct bench_row *r)
{
	if (b->nrows > 0 && r == &b->rows[b->nrows - 1]) {
		json_decref(r->report);
		b->nrows--;
	}
}

/* Ask the daemon to drop the server's page cache before a read test. */
static void
bench_drop(struct bench *b)
{
	json_t	*j;

	if (!b->drop)
		return;
	if (client_request(b->c, EVHTTP_REQ_POST, "/v1/cache/drop", NULL,
	    120) != 0) {
		snprintf(b->server_cache, sizeof b->server_cache,
		    "server cache: not dropped (the daemon did not answer); "
		    "reads may come from it");
		return;
	}
	if (b->c->status == 200) {
		snprintf(b->server_cache, sizeof b->server_cache,
		    "server cache: dropped before each read");
		return;
	}
	j = client_json(b->c);
	snprintf(b->server_cache, sizeof b->server_cache, "server cache: "
	    "not dropped (%s); reads may come from it and the verdict says "
	    "cache when they did", json_string_value(json_object_get(j,
	    "message")) != NULL ? json_string_value(json_object_get(j,
	    "message")) : "refused");
	json_decref(j);
	b->drop = 0;
}

/* Open a run on the daemon for this test; its id, or 0. */
static long
bench_run_open(struct bench *b, struct bench_row *r)
{
	json_t	*body, *j;
	char	 label[160];
	long	 id = 0;

	snprintf(label, sizeof label, "%s%s%s", b->label != NULL ? b->label :
	    "bench", ": ", r->test);
	body = json_pack("{s:s,s:s,s:s}", "label", label, "protocol",
	    b->fs.protocol, "op", r->op);
	if (body == NULL)
		return (0);
	if ((j = client_call(b->c, EVHTTP_REQ_POST, "/v1/runs", body)) != NULL)
		id = (long)json_integer_value(json_object_get(j, "id"));
	json_decref(j);
	json_decref(body);
	return (id);
}

/* End the run with the client's figures and keep the verdict. */
static void
bench_run_end(struct bench *b, struct bench_row *r)
{
	json_t		*body, *rep, *v;
	char		 path[64];
	const char	*s;
	double		 u;

	if (r->run == 0)
		return;
	body = json_pack("{s:f}", "client_seconds", r->seconds > 0 ?
	    r->seconds : 1e-6);
	if (body == NULL)
		return;
	if (r->bytes > 0)
		json_object_set_new(body, "bytes", json_integer(
		    (json_int_t)r->bytes));
	if (r->files > 0)
		json_object_set_new(body, "files", json_integer(
		    (json_int_t)r->files));
	if (r->ops > 0)
		json_object_set_new(body, "ops", json_integer(
		    (json_int_t)r->ops));
	if (r->block > 0)
		json_object_set_new(body, "block_size", json_integer(
		    (json_int_t)r->block));
	if (r->status == BENCH_INTERRUPTED) {
		json_object_set_new(body, "interrupted", json_true());
		b->stopped_run = r->run;
	}
	snprintf(path, sizeof path, "/v1/runs/%ld/end", r->run);
	rep = client_call(b->c, EVHTTP_REQ_POST, path, body);
	json_decref(body);
	if (rep == NULL)
		return;
	v = json_object_get(rep, "verdict");
	if ((s = json_string_value(json_object_get(v, "class"))) != NULL)
		snprintf(r->vclass, sizeof r->vclass, "%s", s);
	if ((s = json_string_value(json_object_get(v, "resource"))) != NULL)
		snprintf(r->resource, sizeof r->resource, "%s", s);
	if (json_is_number(json_object_get(v, "utilisation_pct"))) {
		u = json_number_value(json_object_get(v, "utilisation_pct"));
		snprintf(r->figure, sizeof r->figure, "%.0f %%", u);
	}
	r->report = rep;
}

/* The test of r stopped: failed, or interrupted by a signal; -1. */
static int
bench_fail(struct bench *b, struct bench_row *r)
{
	r->status = bench_stop ? BENCH_INTERRUPTED : BENCH_FAILED;
	if (bench_stop)
		snprintf(r->note, sizeof r->note, "interrupted by %s",
		    bench_signame());
	else
		snprintf(r->note, sizeof r->note, "%s", b->fs.err);
	return (-1);
}

/* File i of a set: a stream offset of its own, 4 KiB aligned. */
static uint64_t
bench_offset(uint64_t set, uint64_t i)
{
	return ((set * 7919 + i * 104729) % (SYNTH_PATTERN_PERIOD / 4096) *
	    4096);
}

/*
 * Write (wr) or read and check n files of size bytes in dir, bs at a
 * time; figures into r.  The clock covers opening to closing, a written
 * file's flush included.  Interrupted, r keeps what moved until then.
 */
static int
bench_files(struct bench *b, struct bench_row *r, const char *dir,
    uint64_t set, uint64_t n, uint64_t size, size_t bs, int wr)
{
	struct bench_fs	*fs = &b->fs;
	char		 path[256];
	uint64_t	 i, done = 0, off, want;
	size_t		 len, bad;
	ssize_t		 got;
	void		*f = NULL;
	double		 t0;

	t0 = nptime_mono();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%06" PRIu64, dir, i);
		done = 0;
		if (bench_stop || (f = fs->ops->open(fs, path, wr)) == NULL)
			goto fail;
		off = bench_offset(set, i);
		for (; done < size; done += len) {
			if (bench_stop)
				goto fail;
			want = size - done < bs ? size - done : bs;
			len = (size_t)want;
			if (wr) {
				got = fs->ops->write(fs, f, b->pat +
				    (off + done) % SYNTH_PATTERN_PERIOD, len);
			} else {
				got = fs->ops->read(fs, f, b->io, len);
			}
			if (got < 0 || (size_t)got != len) {
				if (got >= 0)
					bench_err(fs, "%s: %s %zd of %zu bytes "
					    "at %" PRIu64, path, wr ? "wrote" :
					    "read", got, len, done);
				goto fail;
			}
			if (!wr && (bad = synth_pattern_check(b->pat,
			    SYNTH_PATTERN_PERIOD, off + done, b->io, len)) !=
			    len) {
				bench_err(fs, "%s: byte %" PRIu64 " read back "
				    "differs from what was written", path,
				    done + bad);
				goto fail;
			}
			r->ops++;
		}
		got = fs->ops->close(fs, f);
		f = NULL;
		if (got == -1)
			goto fail;
		r->bytes += size;
		r->files++;
	}
	r->seconds = nptime_mono() - t0;
	return (0);
fail:
	if (f != NULL)
		fs->ops->close(fs, f);
	if (bench_stop) {
		r->bytes += done;
		r->seconds = nptime_mono() - t0;
	}
	return (bench_fail(b, r));
}

static void
bench_cleanup_files(struct bench *b, const char *dir, uint64_t n)
{
	char		 path[256];
	uint64_t	 i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%06" PRIu64, dir, i);
		(void)b->fs.ops->unlink(&b->fs, path);
	}
	(void)b->fs.ops->rmdir(&b->fs, dir);
}

/* The test under way, on a terminal. */
static void
bench_progress(struct bench *b, const char *what)
{
	client_progress(b->c, "%s...", what);
}

/*
 * One written-then-read pair: n files of size at bs in dir, removed
 * afterwards unless keep, however the pair ended.  Returns -1 when the
 * write failed or was interrupted (the read is then skipped, or not
 * listed when interrupted).
 */
static int
bench_pair(struct bench *b, const char *dir, uint64_t set, uint64_t n,
    uint64_t size, size_t bs, const char *name, int keep)
{
	struct bench_row	*w, *r;
	int			 wrote = 0, rc = -1;
	char			 f0[300];

	if ((w = bench_row(b, "write", "%s write", name)) == NULL ||
	    (r = bench_row(b, "read", "%s read", name)) == NULL)
		return (-1);
	w->block = r->block = bs;
	if (!b->fs.can_write) {
		w->status = BENCH_SKIPPED;
		snprintf(w->note, sizeof w->note, "%s", b->fs.cant_write);
	} else if (b->fs.ops->mkdir(&b->fs, dir) == -1) {
		bench_fail(b, w);
	} else {
		bench_progress(b, w->test);
		w->run = bench_run_open(b, w);
		if (bench_files(b, w, dir, set, n, size, bs, 1) == 0)
			wrote = 1;
		bench_run_end(b, w);
	}
	if (bench_stop) {
		bench_unrow(b, r);
		goto out;
	}
	snprintf(f0, sizeof f0, "%s/f%06" PRIu64, dir, n - 1);
	if (!wrote && b->fs.ops->exists(&b->fs, f0) != 1) {
		r->status = BENCH_SKIPPED;
		snprintf(r->note, sizeof r->note, "%s", b->fs.can_write ?
		    "nothing was written to read" : "no files from an "
		    "earlier run to read: run nasperf bench --keep over NFSv3 "
		    "or a mount first");
		goto out;
	}
	bench_drop(b);
	if (bench_stop) {		/* while the cache was dropped */
		bench_unrow(b, r);
		goto out;
	}
	bench_progress(b, r->test);
	r->run = bench_run_open(b, r);
	(void)bench_files(b, r, dir, set, n, size, bs, 0);
	bench_run_end(b, r);
	rc = 0;
out:
	/* What the write made: all n, or those up to the one it stopped in. */
	if (!keep && b->fs.can_write)
		bench_cleanup_files(b, dir, wrote || w->files >= n ? n :
		    w->files + 1);
	return (rc);
}

/*
 * A listing with attributes of n files, made first and removed afterwards
 * unless keep; interrupted while they are made, the test is not listed.
 */
static void
bench_list(struct bench *b, uint64_t n, int keep)
{
	struct bench_row	*r;
	char			 dir[64], path[128];
	uint64_t		 i = 0, got = 0;
	double			 t0;
	void			*f;

	if ((r = bench_row(b, "list", "list %" PRIu64 " files", n)) == NULL)
		return;
	snprintf(dir, sizeof dir, BENCH_DIR "/list%" PRIu64, n);
	if (b->fs.can_write) {
		bench_progress(b, "making files to list");
		if (b->fs.ops->mkdir(&b->fs, dir) == -1) {
			bench_fail(b, r);
			goto out;
		}
		for (i = 0; i < n; i++) {
			snprintf(path, sizeof path, "%s/f%06" PRIu64, dir, i);
			if (bench_stop) {
				bench_unrow(b, r);
				goto out;
			}
			if ((f = b->fs.ops->open(&b->fs, path, 1)) == NULL ||
			    b->fs.ops->close(&b->fs, f) == -1) {
				bench_fail(b, r);
				if (bench_stop)
					bench_unrow(b, r);
				goto out;
			}
		}
	} else if (b->fs.ops->exists(&b->fs, dir) != 1) {
		r->status = BENCH_SKIPPED;
		snprintf(r->note, sizeof r->note, "%s", "no directory from an "
		    "earlier run to list: run nasperf bench --keep over NFSv3 "
		    "or a mount first");
		return;
	}
	bench_progress(b, r->test);
	r->run = bench_run_open(b, r);
	t0 = nptime_mono();
	if (b->fs.ops->list(&b->fs, dir, &got) == -1)
		bench_fail(b, r);
	r->seconds = nptime_mono() - t0;
	r->files = got;
	r->ops = got;
	bench_run_end(b, r);
	if (r->status == BENCH_DONE && got != n) {
		r->status = BENCH_FAILED;
		snprintf(r->note, sizeof r->note, "listed %" PRIu64 " entries, "
		    "%" PRIu64 " expected", got, n);
	}
out:
	if (!keep && b->fs.can_write)
		bench_cleanup_files(b, dir, i < n ? i + 1 : n);
}

static int
bench_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/*
 * The large sequential file, written then read k times: the row keeps the
 * best run's figures and verdict, and the median rate.  Interrupted, a
 * direction keeps the runs it finished (or, stopped in its first, what
 * that one moved), and one it had not begun is not listed.
 */
static void
bench_repeat(struct bench *b, uint64_t size, uint64_t bs, unsigned k,
    int keep)
{
	struct bench_row	*row[2], tmp;
	double			 rates[BENCH_MAX_REPEAT], best;
	const char		*ops[2] = { "write", "read" };
	char			 sz[32], dir[64];
	unsigned		 i, d, n, ran[2] = { 0, 0 }, done[2] = { 0, 0 };

	bench_size(size, sz, sizeof sz);
	snprintf(dir, sizeof dir, BENCH_DIR "/repeat");
	for (d = 0; d < 2; d++) {
		if ((row[d] = bench_row(b, ops[d], "%s %s best of %u", sz,
		    ops[d], k)) == NULL)
			return;
		row[d]->block = bs;
		row[d]->repeats = k;
	}
	if (!b->fs.can_write) {
		row[0]->status = row[1]->status = BENCH_SKIPPED;
		snprintf(row[0]->note, sizeof row[0]->note, "%s",
		    b->fs.cant_write);
		snprintf(row[1]->note, sizeof row[1]->note, "%s",
		    "needs its own writes");
		return;
	}
	if (b->fs.ops->mkdir(&b->fs, dir) == -1) {
		bench_fail(b, row[0]);
		return;
	}
	for (d = 0; d < 2 && !bench_stop; d++) {
		best = -1;
		for (i = n = 0; i < k && !bench_stop; i++) {
			memset(&tmp, 0, sizeof tmp);
			snprintf(tmp.test, sizeof tmp.test, "%s %s %u of %u",
			    sz, ops[d], i + 1, k);
			tmp.op = ops[d];
			tmp.block = bs;
			if (d == 1)
				bench_drop(b);
			if (bench_stop)
				break;
			bench_progress(b, tmp.test);
			tmp.run = bench_run_open(b, &tmp);
			ran[d]++;
			if (bench_files(b, &tmp, dir, 90, 1, size, bs,
			    d == 0) == -1) {
				bench_run_end(b, &tmp);
				if (tmp.status == BENCH_INTERRUPTED && n == 0) {
					tmp.repeats = k;
					snprintf(tmp.test, sizeof tmp.test,
					    "%s", row[d]->test);
					json_decref(row[d]->report);
					*row[d] = tmp;
					break;
				}
				json_decref(tmp.report);
				row[d]->status = tmp.status;
				snprintf(row[d]->note, sizeof row[d]->note,
				    "%s", tmp.note);
				break;
			}
			bench_run_end(b, &tmp);
			rates[n] = (double)tmp.bytes / tmp.seconds;
			if (rates[n] > best) {
				best = rates[n];
				json_decref(row[d]->report);
				tmp.status = BENCH_DONE;
				tmp.repeats = k;
				snprintf(tmp.test, sizeof tmp.test, "%s",
				    row[d]->test);
				*row[d] = tmp;
			} else {
				json_decref(tmp.report);
			}
			n++;
		}
		if (n > 0) {
			qsort(rates, n, sizeof rates[0], bench_cmp_double);
			row[d]->median = n % 2 ? rates[n / 2] :
			    (rates[n / 2 - 1] + rates[n / 2]) / 2;
		}
		done[d] = n;
		if (row[0]->status != BENCH_DONE)
			break;
	}
	for (d = 0; bench_stop && d < 2; d++)
		if (done[d] > 0 && done[d] < k) {
			row[d]->status = BENCH_INTERRUPTED;
			snprintf(row[d]->note, sizeof row[d]->note,
			    "interrupted by %s after %u of %u runs",
			    bench_signame(), done[d], k);
		}
	if (bench_stop) {
		if (ran[1] == 0)
			bench_unrow(b, row[1]);
		if (ran[0] == 0)
			bench_unrow(b, row[0]);
	} else if (row[0]->status != BENCH_DONE &&
	    row[1]->status == BENCH_DONE) {
		row[1]->status = BENCH_SKIPPED;
		snprintf(row[1]->note, sizeof row[1]->note, "%s",
		    "nothing was written to read");
	}
	if (!keep)
		bench_cleanup_files(b, dir, 1);
}

static json_t *
bench_row_json(const struct bench_row *r)
{
	static const char *const st[] = { "done", "failed", "skipped",
	    "interrupted" };
	json_t	*o;

	o = json_pack("{s:s,s:s,s:s}", "test", r->test, "op", r->op,
	    "status", st[r->status]);
	if (o == NULL)
		return (NULL);
	if (r->note[0] != '\0')
		json_object_set_new(o, "note", json_string(r->note));
	if (r->status != 0 && r->run == 0)
		return (o);
	json_object_set_new(o, "bytes", json_integer((json_int_t)r->bytes));
	json_object_set_new(o, "files", json_integer((json_int_t)r->files));
	json_object_set_new(o, "ops", json_integer((json_int_t)r->ops));
	json_object_set_new(o, "block_size", json_integer(
	    (json_int_t)r->block));
	json_object_set_new(o, "seconds", json_real(r->seconds));
	if (r->seconds > 0) {
		json_object_set_new(o, "bytes_per_second", json_real(
		    (double)r->bytes / r->seconds));
		json_object_set_new(o, "files_per_second", json_real(
		    (double)r->files / r->seconds));
	}
	if (r->repeats > 0) {
		json_object_set_new(o, "repeats", json_integer(r->repeats));
		json_object_set_new(o, "median_bytes_per_second",
		    r->median > 0 ? json_real(r->median) : json_null());
	}
	if (r->op[0] != 'l')
		json_object_set_new(o, "verified", json_boolean(r->status ==
		    0 && !strcmp(r->op, "read")));
	json_object_set_new(o, "run", json_integer(r->run));
	if (r->report != NULL) {
		json_object_set(o, "verdict", json_object_get(r->report,
		    "verdict"));
		json_object_set(o, "share_of_lower_pct", json_object_get(
		    json_object_get(r->report, "ceilings"),
		    "share_of_lower_pct"));
	}
	return (o);
}

/*
 * The ceilings of the first test of op (read or write) that has them,
 * from its report: the disks under the share's volume and the network
 * path, or NULL.
 */
static const json_t *
bench_ceilings(const struct bench *b, const char *op)
{
	const json_t	*c;
	size_t		 i;

	for (i = 0; i < b->nrows; i++)
		if (strcmp(b->rows[i].op, op) == 0 && b->rows[i].files <= 1 &&
		    (c = json_object_get(b->rows[i].report, "ceilings")) !=
		    NULL)
			return (c);
	return (NULL);
}

/* A ceiling as "680.0 MB/s (md2)", or "unknown". */
static const char *
bench_ceiling(const json_t *c, char *buf, size_t bufsz)
{
	const json_t	*v = json_object_get(c, "bytes_per_s");

	if (!json_is_number(v))
		snprintf(buf, bufsz, "unknown");
	else
		snprintf(buf, bufsz, "%.1f MB/s (%s)", json_number_value(v) /
		    1e6, json_string_value(json_object_get(c, "of")) != NULL ?
		    json_string_value(json_object_get(c, "of")) : "?");
	return (buf);
}

/* The ceilings each way: the disks', the network's and which is lower. */
static void
bench_print_ceilings(const struct bench *b)
{
	static const char *const ops[] = { "write", "read" };
	const json_t	*c;
	char		 d[96], n[96];
	size_t		 i;

	for (i = 0; i < NP_NITEMS(ops); i++) {
		if ((c = bench_ceilings(b, ops[i])) == NULL)
			continue;
		printf("%s ceilings: disks %s, network %s%s%s\n", ops[i],
		    bench_ceiling(json_object_get(c, "disks"), d, sizeof d),
		    bench_ceiling(json_object_get(c, "network"), n, sizeof n),
		    json_is_string(json_object_get(c, "lower")) ? "; lower: " :
		    "", json_is_string(json_object_get(c, "lower")) ?
		    json_string_value(json_object_get(c, "lower")) : "");
	}
}

/* The table of the tests: the client's figures beside the verdicts. */
static void
bench_print(const struct bench *b)
{
	const struct bench_row	*r;
	const json_t		*sh;
	struct table		*t;
	char			 client[64], of[16];
	size_t			 i;

	bench_print_ceilings(b);
	if ((t = table_new("l  l  r  r  l  l  l")) == NULL)
		return;
	table_row(t, "test", "client", "seconds", "of low", "verdict",
	    "resource", "figure", NULL);
	for (i = 0; i < b->nrows; i++) {
		r = &b->rows[i];
		table_add(t, "%s", r->test);
		if (r->status == BENCH_SKIPPED) {
			table_span(t, "skipped: %s", r->note);
			continue;
		}
		if (r->status != BENCH_DONE && r->seconds <= 0) {
			table_span(t, "%s: %s", r->status == BENCH_FAILED ?
			    "FAILED" : "stopped", r->note);
			continue;
		}
		if (!strcmp(r->op, "list"))
			snprintf(client, sizeof client, "%.0f files/s",
			    r->seconds > 0 ? (double)r->files / r->seconds :
			    0);
		else if (r->repeats > 0 && r->median > 0)
			snprintf(client, sizeof client, "%.1f MB/s (med %.1f)",
			    (double)r->bytes / r->seconds / 1e6,
			    r->median / 1e6);
		else if (r->files > 1)
			snprintf(client, sizeof client, "%.1f MB/s %.0f f/s",
			    (double)r->bytes / r->seconds / 1e6,
			    (double)r->files / r->seconds);
		else
			snprintf(client, sizeof client, "%.1f MB/s",
			    (double)r->bytes / r->seconds / 1e6);
		sh = json_object_get(json_object_get(r->report, "ceilings"),
		    "share_of_lower_pct");
		if (json_is_number(sh))
			snprintf(of, sizeof of, "%.0f%%", json_number_value(sh));
		else
			snprintf(of, sizeof of, "-");
		table_add(t, "%s", client);
		table_add(t, "%.2f", r->seconds);
		table_row(t, of, r->vclass[0] != '\0' ? r->vclass : "-",
		    r->resource[0] != '\0' ? r->resource : "-", r->figure, NULL);
		if (r->status != BENCH_DONE) {
			table_add(t, "%s", "");
			table_span(t, "%s: %s", r->status == BENCH_FAILED ?
			    "FAILED" : "stopped", r->note);
		}
	}
	printf("\n");
	table_done(t, stdout);
}

static int
bench_tests(const char *s, int *mask)
{
	static const struct { const char *n; int m; } t[] = {
		{ "seq", T_SEQ }, { "small", T_SMALL }, { "files", T_FILES },
		{ "list", T_LIST }, { "repeat", T_REPEAT }, { "all", T_ALL }
	};
	char	buf[128], *p, *save = NULL;
	size_t	i;

	*mask = 0;
	snprintf(buf, sizeof buf, "%s", s);
	for (p = strtok_r(buf, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof t / sizeof t[0]; i++)
			if (strcmp(p, t[i].n) == 0)
				break;
		if (i == sizeof t / sizeof t[0])
			return (-1);
		*mask |= t[i].m;
	}
	return (*mask == 0 ? -1 : 0);
}

static uint64_t
bench_scale(uint64_t v, double f, uint64_t unit)
{
	double	x = (double)v * f;

	if (unit > 1)
		x = floor(x / (double)unit) * (double)unit;
	return (x < (double)unit ? unit : (uint64_t)x);
}

static const struct option bench_longopts[] = {
	{ "quick",		no_argument,		NULL, 'q' },
	{ "scale",		required_argument,	NULL, 's' },
	{ "tests",		required_argument,	NULL, 'T' },
	{ "repeat",		required_argument,	NULL, 'r' },
	{ "block",		required_argument,	NULL, 'b' },
	{ "keep",		no_argument,		NULL, 'k' },
	{ "no-drop-cache",	no_argument,		NULL, 'D' },
	{ "label",		required_argument,	NULL, 'l' },
	BENCH_PROTO_LONGOPTS,
	{ NULL,			0,			NULL, 0 }
};

/* Long options only: their letters are not short options of bench. */
static const struct args_cmd bench_args = {
	"bench", "", bench_longopts, 0,
"usage: nasperf bench [--quick] [--scale F] [--tests LIST] [--repeat N]\n"
"                     [--block SIZE] [--keep] [--no-drop-cache] [--label L]\n"
"                     [--min-protocol P] [--max-protocol P]\n"
"                     [--signing off|if_required|required]\n"
"                     [--encrypt off|desired|required]\n"
"                     [--credentials FILE] [--nfs-version 3|4] TARGET\n"
"The file-protocol test matrix on TARGET, each test a run with its\n"
"verdict.  TARGET: a directory (a mounted share),\n"
"smb://[user@]host[:port]/share/path or nfs://host/export/path.\n"
"\n"
"Options:\n"
"      --quick           sizes small enough for a test suite\n"
"      --scale F         multiply sizes and counts by F (0 to 100)\n"
"      --tests LIST      some of seq,small,files,list,repeat\n"
"      --repeat N        the repeat test's runs (default 3)\n"
"      --block SIZE      the repeat test's request size (default 8M over\n"
"                        SMB, else 4M)\n"
"      --keep            keep the files in nasperf-bench afterwards\n"
"      --no-drop-cache   leave the server's page cache before reads\n"
"      --label L         label the runs \"L: test\"\n"
BENCH_PROTO_HELP
};

/* nasperf bench [options] TARGET. */
int
cmd_bench(struct client *c, int argc, char **argv)
{
	struct bench_proto_opts	 po;
	struct bench_sizes	 sz = bench_full;
	struct bench		 b;
	const char		*target;
	char			 s1[32], name[96], *end;
	double			 scale = 1;
	long			 v;
	int			 ch, mask = T_ALL, keep = 0, rc = 0, rv, smb;
	size_t			 i;
	json_t			*out, *rows;
	struct sigaction	 sa, oldint, oldterm;

	memset(&po, 0, sizeof po);
	memset(&b, 0, sizeof b);
	b.c = c;
	b.drop = 1;
	b.seed = 0x6e61737065726662ULL;	/* "nasperfb" */
	optind = 0;
	while ((ch = args_getopt(c, argc, argv, &bench_args)) != -1) {
		switch (ch) {
		case 'q':
			sz = bench_quick;
			break;
		case 's':
			scale = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(scale > 0 &&
			    scale <= 100))
				return (client_fail("--scale %s: a factor "
				    "from 0 to 100", optarg) + 1);
			break;
		case 'T':
			if (bench_tests(optarg, &mask) == -1)
				return (client_fail("--tests %s: a list of "
				    "seq, small, files, list, repeat",
				    optarg) + 1);
			break;
		case 'r':
			v = strtol(optarg, &end, 10);
			if (end == optarg || *end != '\0' || v < 1 ||
			    v > BENCH_MAX_REPEAT)
				return (client_fail("--repeat %s: 1 to %d",
				    optarg, BENCH_MAX_REPEAT) + 1);
			sz.repeats = (unsigned)v;
			break;
		case 'b':
			if (run_parse_bytes(optarg, &sz.repeat_block) == -1 ||
			    sz.repeat_block < 4 * KiB ||
			    sz.repeat_block > BENCH_MAX_BLOCK ||
			    sz.repeat_block % (4 * KiB) != 0)
				return (client_fail("--block %s: a multiple of "
				    "4 KiB from 4 KiB to 64 MiB", optarg) + 1);
			break;
		case 'k':
			keep = 1;
			break;
		case 'D':
			b.drop = 0;
			break;
		case 'l':
			b.label = optarg;
			break;
		case 'm':
			po.min_protocol = optarg;
			break;
		case 'M':
			po.max_protocol = optarg;
			break;
		case 'S':
			po.signing = optarg;
			break;
		case 'e':
			po.encrypt = optarg;
			break;
		case 'A':
			po.credentials = optarg;
			break;
		case 'n':
			if (strcmp(optarg, "3") != 0 && strcmp(optarg, "4") != 0)
				return (client_fail("--nfs-version %s: 3 or 4",
				    optarg) + 1);
			po.nfs_version = atoi(optarg);
			break;
		default:
			return (args_exit(ch));
		}
	}
	if (optind != argc - 1)
		return (optind == argc ? args_fail("expected a TARGET") :
		    args_fail("unexpected argument: %s", argv[optind + 1]));
	po.timeout = c->timeout;
	target = argv[optind];
	/* Options that mean nothing for the target are refused, not ignored. */
	smb = strncmp(target, "smb://", 6) == 0;
	if (!smb && (po.min_protocol != NULL || po.max_protocol != NULL ||
	    po.signing != NULL || po.encrypt != NULL || po.credentials !=
	    NULL))
		return (client_fail("--%s is for an smb:// target, not "
		    "%s", po.min_protocol != NULL ? "min-protocol" :
		    po.max_protocol != NULL ? "max-protocol" : po.signing !=
		    NULL ? "signing" : po.encrypt != NULL ? "encrypt" :
		    "credentials", target) + 1);
	if (po.nfs_version != 0 && strncmp(target, "nfs://", 6) != 0)
		return (client_fail("--nfs-version is for an nfs:// "
		    "target, not %s", target) + 1);
	if (scale != 1) {
		sz.seq = bench_scale(sz.seq, scale, MiB);
		sz.small = bench_scale(sz.small, scale, KiB);
		sz.big = bench_scale(sz.big, scale, MiB);
		sz.nmid = bench_scale(sz.nmid, scale, 1);
		sz.ntiny = bench_scale(sz.ntiny, scale, 1);
		for (i = 0; i < 3; i++)
			sz.list[i] = bench_scale(sz.list[i], scale, 1);
		sz.repeat = bench_scale(sz.repeat, scale, MiB);
	}

	/* The repeat test's request, unless --block gave one. */
	if (sz.repeat_block == 0)
		sz.repeat_block = smb ? BENCH_REPEAT_BLOCK_SMB :
		    BENCH_REPEAT_BLOCK;

	if (smb)
		rv = bench_smb_open(&b.fs, target, &po);
	else if (strncmp(target, "nfs://", 6) == 0)
		rv = bench_nfs_open(&b.fs, target, &po);
	else if (strstr(target, "://") != NULL)
		rv = bench_err(&b.fs, "%s: not a directory, smb:// or nfs:// "
		    "URL", target);
	else
		rv = bench_local_open(&b.fs, target, &po);
	if (rv == -1) {
		client_fail("%s", b.fs.err);
		if (b.fs.ops != NULL)
			b.fs.ops->free(&b.fs);
		return (1);
	}
	/* The daemon must answer before any data moves. */
	if ((out = client_call(c, EVHTTP_REQ_GET, "/v1/time", NULL)) ==
	    NULL) {
		b.fs.ops->free(&b.fs);
		return (1);
	}
	json_decref(out);
	b.io_size = sz.repeat_block > MiB ? (size_t)sz.repeat_block : MiB;
	b.pat = aligned_alloc(4096, SYNTH_PATTERN_PERIOD + b.io_size);
	b.io = aligned_alloc(4096, b.io_size);
	if (b.pat == NULL || b.io == NULL) {
		free(b.pat);
		free(b.io);
		b.fs.ops->free(&b.fs);
		return (client_fail("out of memory"));
	}
	synth_pattern_fill(SYNTH_PATTERN_RANDOM, b.seed, b.pat,
	    SYNTH_PATTERN_PERIOD);
	/* A write of one block at any offset in the period reads straight on. */
	synth_pattern_extend(b.pat, SYNTH_PATTERN_PERIOD, b.io_size);
	snprintf(b.server_cache, sizeof b.server_cache, "%s", b.drop ?
	    "server cache: not dropped (no read test ran)" :
	    "server cache: not dropped (--no-drop-cache)");

	if (b.fs.can_write && b.fs.ops->mkdir(&b.fs, BENCH_DIR) == -1) {
		client_fail("%s", b.fs.err);
		rc = 1;
		goto out;
	}
	/*
	 * Ctrl-C or SIGTERM stops the matrix where it is and cleans up; a
	 * second one ends nasperf at once (SA_RESETHAND).
	 */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = bench_sig;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oldint);
	sigaction(SIGTERM, &sa, &oldterm);
	if (mask & T_SEQ) {
		snprintf(name, sizeof name, "%s at 1 MiB", bench_size(sz.seq,
		    s1, sizeof s1));
		bench_pair(&b, BENCH_DIR "/seq", 1, 1, sz.seq, MiB, name, keep);
	}
	if ((mask & T_SMALL) && !bench_stop) {
		snprintf(name, sizeof name, "%s at 1 KiB", bench_size(sz.small,
		    s1, sizeof s1));
		bench_pair(&b, BENCH_DIR "/small", 2, 1, sz.small, KiB, name,
		    keep);
	}
	if ((mask & T_FILES) && !bench_stop) {
		snprintf(name, sizeof name, "%" PRIu64 " x %s", sz.nbig,
		    bench_size(sz.big, s1, sizeof s1));
		bench_pair(&b, BENCH_DIR "/big", 3, sz.nbig, sz.big, MiB, name,
		    keep);
		snprintf(name, sizeof name, "%" PRIu64 " x %s", sz.nmid,
		    bench_size(sz.mid, s1, sizeof s1));
		if (!bench_stop)
			bench_pair(&b, BENCH_DIR "/mid", 4, sz.nmid, sz.mid,
			    MiB, name, keep);
		snprintf(name, sizeof name, "%" PRIu64 " x %s", sz.ntiny,
		    bench_size(sz.tiny, s1, sizeof s1));
		if (!bench_stop)
			bench_pair(&b, BENCH_DIR "/tiny", 5, sz.ntiny, sz.tiny,
			    MiB, name, keep);
	}
	if (mask & T_LIST)
		for (i = 0; i < 3 && !bench_stop; i++)
			bench_list(&b, sz.list[i], keep);
	if ((mask & T_REPEAT) && !bench_stop)
		bench_repeat(&b, sz.repeat, sz.repeat_block, sz.repeats,
		    keep);
	if (!keep && b.fs.can_write)
		(void)b.fs.ops->rmdir(&b.fs, BENCH_DIR);
	client_progress_clear();
	sigaction(SIGINT, &oldint, NULL);
	sigaction(SIGTERM, &oldterm, NULL);

	for (i = 0; i < b.nrows; i++)
		if (b.rows[i].status == BENCH_FAILED)
			rc = 1;
	if (c->json) {
		out = json_pack("{s:s,s:s,s:s,s:s,s:o}", "target", target,
		    "where", b.fs.where, "protocol", b.fs.protocol,
		    "client_cache", b.fs.cache, "rows", rows = json_array());
		if (out != NULL) {
			json_object_set_new(out, "server_cache",
			    json_string(b.server_cache));
			json_object_set_new(out, "requests",
			    b.fs.requests[0] != '\0' ?
			    json_string(b.fs.requests) : json_null());
			json_object_set_new(out, "interrupted", bench_stop ?
			    json_string(bench_signame()) : json_null());
			json_object_set_new(out, "ceilings", json_pack(
			    "{s:O?,s:O?}", "write", bench_ceilings(&b, "write"),
			    "read", bench_ceilings(&b, "read")));
			for (i = 0; i < b.nrows; i++)
				json_array_append_new(rows,
				    bench_row_json(&b.rows[i]));
			client_print_json(out, CLIENT_JSON);
			json_decref(out);
		}
	} else {
		printf("nasperf bench %s: %s (%s)\n", b.fs.where,
		    b.fs.protocol, b.fs.ops->name);
		printf("%s; %s\n", b.fs.cache, b.server_cache);
		if (b.fs.requests[0] != '\0')
			printf("%s\n", b.fs.requests);
		printf("\n");
		bench_print(&b);
	}
	/* Stopped: said last, and the exit status a shell gives a signal. */
	if (bench_stop) {
		fflush(stdout);
		snprintf(name, sizeof name, "; run %ld, under way, ended as "
		    "interrupted", b.stopped_run);
		client_fail("interrupted by %s: the table has the tests that "
		    "ran%s%s", bench_signame(), b.stopped_run > 0 ? name : "",
		    keep || !b.fs.can_write ? "" : "; their files are removed");
		rc = 128 + bench_stop;
	}
out:
	for (i = 0; i < b.nrows; i++)
		json_decref(b.rows[i].report);
	b.fs.ops->free(&b.fs);
	free(b.pat);
	free(b.io);
	return (rc);
}
